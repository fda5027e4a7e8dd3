// Wrong, subtly: device malloc/free of a small per-thread scratch buffer (the seven terms), checked
// for NULL: when the device heap runs out (every resident thread holds a block at once on a large
// grid), the thread computes without it, by another expression that the compiler contracts into
// other fused multiply-adds. Which threads get NULL changes from run to run, and so do the last
// bits of their cells: measured on an H200, the runs differ at N = 65 (a race).
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        float* terms = static_cast<float*>(malloc(7 * sizeof(float)));
        if (terms == nullptr) {
            out[c] = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
                   + c5 * in[c - N*N] + c6 * in[c + N*N];
            return;
        }
        terms[0] = c0 * in[c];
        terms[1] = c1 * in[c - 1];
        terms[2] = c2 * in[c + 1];
        terms[3] = c3 * in[c - N];
        terms[4] = c4 * in[c + N];
        terms[5] = c5 * in[c - N*N];
        terms[6] = c6 * in[c + N*N];
        float sum = 0.0f;
        for (int t = 0; t < 7; ++t) sum += terms[t];
        free(terms);
        out[c] = sum;
    }
}
