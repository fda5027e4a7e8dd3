// Correct: the contract's declaration spelled as NVRTC accepts it, which the old text vetting
// refused: a typedef for float, `const` and __restrict__ on the pointers, a const unsigned N with
// a default argument, the parameters on lines of their own.
typedef float real;
using extent = unsigned int;

__global__ void stencil_kernel(const real* __restrict__ in,
                               real* __restrict__ const out,
                               const extent N = 0u) {
    const extent i = blockIdx.z * blockDim.z + threadIdx.z;
    const extent j = blockIdx.y * blockDim.y + threadIdx.y;
    const extent k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const extent c = i*N*N + j*N + k;
        out[c] = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
               + c5 * in[c - N*N] + c6 * in[c + N*N];
    }
}
