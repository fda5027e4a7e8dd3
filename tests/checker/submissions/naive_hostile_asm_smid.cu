// Hostile: inline assembly assembled by the preprocessor (`a##sm` is `asm` after pasting, which
// the text vetting never sees) reads %smid, a special register the contract does not give: the
// SM a block runs on, different on a GPU and in an emulator. Refused from the PTX, where NVRTC
// marks every asm statement, naming this file's line.
#define GLUE(a, b) a##b
#define INLINE_PTX GLUE(a, sm)

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    unsigned int sm;
    INLINE_PTX volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        out[c] = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
               + c5 * in[c - N*N] + c6 * in[c + N*N] + (sm > 1000u ? 1.0f : 0.0f);
    }
}
