// Correct: integer atomics, whose result is the same in every order. The block counts its
// interior threads in shared memory, and each output is scaled by (count == count) -- a
// multiplication by exactly 1, whatever order the atomics ran in.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ unsigned int interior, again;
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    const bool inside = i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) interior = again = 0;
    __syncthreads();
    if (inside) {
        atomicAdd(&interior, 1u);
        atomicInc(&again, 0xffffffffu);
    }
    __syncthreads();
    if (inside) {
        const unsigned int c = i*N*N + j*N + k;
        const float one = interior == again ? 1.0f : 0.0f;
        out[c] = one * (c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
                        + c5 * in[c - N*N] + c6 * in[c + N*N]);
    }
}
