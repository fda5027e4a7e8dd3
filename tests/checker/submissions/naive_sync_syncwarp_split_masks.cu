// A race: naive_sync_syncwarp_ok.cu with the warp split in two __syncwarp(mask) groups: the lanes
// inside each row (x = 1..6) synchronise among themselves, the row ends (x = 0 and 7) among
// themselves. Every lane calls __syncwarp, but it orders only the lanes in its mask, and each
// group reads values the other stored. A GPU, whose warp stored together, shows the right values.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ float centre[512];
    const unsigned int t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    const bool in_grid = i < N && j < N && k < N;
    const unsigned int c = i*N*N + j*N + k;
    centre[t] = in_grid ? in[c] : 0.0f;
    const unsigned int inner_lanes = 0x7e7e7e7eu;  // x = 1..6 of each of the warp's four rows
    const bool inner = threadIdx.x > 0 && threadIdx.x + 1 < blockDim.x;
    if (inner) __syncwarp(inner_lanes);
    else __syncwarp(~inner_lanes);
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const float west = threadIdx.x > 0 ? centre[t - 1] : in[c - 1];
        const float east = threadIdx.x + 1 < blockDim.x ? centre[t + 1] : in[c + 1];
        out[c] = c0 * centre[t] + c1 * west + c2 * east + c3 * in[c - N] + c4 * in[c + N]
               + c5 * in[c - N*N] + c6 * in[c + N*N];
    }
}
