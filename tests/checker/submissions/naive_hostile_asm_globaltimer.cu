// Hostile: the output depends on %globaltimer (nanoseconds since an epoch: every run differs),
// read through inline assembly that token pasting spells. CUDA C++ has no way to read it; the
// asm is refused from the PTX, naming this file's line.
#define GLUE(a, b) a##b

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    unsigned long long ns;
    GLUE(as, m) volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        const float v = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
                      + c5 * in[c - N*N] + c6 * in[c + N*N];
        out[c] = (ns & 1u) ? v : v + 1.0f;
    }
}
