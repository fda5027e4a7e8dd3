// Unspecified behaviour: clock64() decides the order of the sum ("alternate the order to spread
// the rounding"). Both orders are within the checker's bound, but they differ in the last bits,
// and which one a thread takes depends on when it reads the clock: today's CPU engine advances
// the clock the same way in every run, a GPU does not, so its outputs differ between runs.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        const float t[7] = {c0 * in[c], c1 * in[c - 1], c2 * in[c + 1], c3 * in[c - N], c4 * in[c + N],
                            c5 * in[c - N*N], c6 * in[c + N*N]};
        float sum = 0.0f;
        if ((clock64() >> 5) & 1) {
            for (int n = 0; n < 7; ++n) sum += t[n];
        } else {
            for (int n = 6; n >= 0; --n) sum += t[n];
        }
        out[c] = sum;
    }
}
