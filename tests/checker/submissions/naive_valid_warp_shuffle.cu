// Correct: the x neighbours come from the neighbouring lanes (__shfl_up_sync / __shfl_down_sync;
// a row of T = 8 threads never straddles a warp), warp votes (__ballot_sync, __any_sync,
// __all_sync) skip warps with nothing to do, and __shfl_sync / __shfl_xor_sync broadcast and
// exchange values that do not change the result. Every lane of a warp takes part in each call.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned int full = 0xffffffffu;
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    const bool in_grid = i < N && j < N && k < N;
    const bool interior = i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1;
    const unsigned int c = i*N*N + j*N + k;
    const float v = in_grid ? in[c] : 0.0f;
    float left = __shfl_up_sync(full, v, 1);
    float right = __shfl_down_sync(full, v, 1);
    const unsigned int lane = (threadIdx.z * blockDim.y * blockDim.x + threadIdx.y * blockDim.x + threadIdx.x) % 32;
    const unsigned int leader = __shfl_sync(full, lane, 0);           // always 0
    const unsigned int partner = __shfl_xor_sync(full, lane, 1) ^ 1u;  // always `lane`
    const unsigned int voters = __ballot_sync(full, interior);
    if (!__any_sync(full, interior) || voters == 0u) return;
    if (__all_sync(full, interior) && voters != full) return;  // cannot happen: all means all bits
    if (!interior || leader != 0u || partner != lane) return;
    if (threadIdx.x == 0) left = in[c - 1];
    if (threadIdx.x == blockDim.x - 1) right = in[c + 1];
    out[c] = c0 * v + c1 * left + c2 * right + c3 * in[c - N] + c4 * in[c + N]
           + c5 * in[c - N*N] + c6 * in[c + N*N];
}
