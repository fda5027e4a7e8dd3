// Correct: reads clock64() (students time their code) and uses the difference in a way that
// cannot change a value (x + 0 * t == x for every finite t).
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const long long t0 = clock64();
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        unsigned int c = i*N*N + j*N + k;
        float v = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
                + c5 * in[c - N*N] + c6 * in[c + N*N];
        const long long t1 = clock64();
        const float spent = (float)(t1 - t0);
        out[c] = v + 0.0f * fminf(fabsf(spent), 1.0e6f);
    }
}
