// Hostile: the whole stencil in hand-written PTX (fma.rn.f32), assembled by token pasting. No
// special register, and the values are right, but the instructions are the student's, not
// NVRTC's code generation for CUDA C++: refused from the PTX, naming this file's line.
#define GLUE(a, b) a##b
#define FMA(acc, w, x) GLUE(a, sm)("fma.rn.f32 %0, %1, %2, %0;" : "+f"(acc) : "f"(w), "f"(x))

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        float acc = 0.0f;
        FMA(acc, c0, in[c]);
        FMA(acc, c1, in[c - 1]);
        FMA(acc, c2, in[c + 1]);
        FMA(acc, c3, in[c - N]);
        FMA(acc, c4, in[c + N]);
        FMA(acc, c5, in[c - N*N]);
        FMA(acc, c6, in[c + N*N]);
        out[c] = acc;
    }
}
