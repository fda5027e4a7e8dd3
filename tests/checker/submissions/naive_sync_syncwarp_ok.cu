// Correct: neighbours along x exchanged through shared memory within a warp. A warp of the 8x8x8
// block is four rows of 8 cells; each lane stores its centre value, __syncwarp() (all lanes),
// then reads its x neighbours from its row in shared memory (the row's two ends from global).
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ float centre[512];
    const unsigned int t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    const bool in_grid = i < N && j < N && k < N;
    const unsigned int c = i*N*N + j*N + k;
    centre[t] = in_grid ? in[c] : 0.0f;
    __syncwarp();
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const float west = threadIdx.x > 0 ? centre[t - 1] : in[c - 1];
        const float east = threadIdx.x + 1 < blockDim.x ? centre[t + 1] : in[c + 1];
        out[c] = c0 * centre[t] + c1 * west + c2 * east + c3 * in[c - N] + c4 * in[c + N]
               + c5 * in[c - N*N] + c6 * in[c + N*N];
    }
}
