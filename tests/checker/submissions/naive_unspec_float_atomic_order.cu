// Unspecified behaviour: the order of float atomics. Each thread adds a large multiple of its
// value to a shared accumulator and then takes it away again, and the output gets the
// accumulator: zero in exact arithmetic, and zero when each thread's two atomics run back to back
// (today's CPU engine runs a thread to its barrier). In the order a GPU applies them (a warp's
// lanes together, warps interleaved) the roundings do not cancel: outputs off by several units,
// differing from run to run.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ float drift;
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    const bool in_grid = i < N && j < N && k < N;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) drift = 0.0f;
    __syncthreads();
    const float big = in_grid ? 1.0e8f * in[i*N*N + j*N + k] : 0.0f;
    atomicAdd(&drift, big);
    atomicAdd(&drift, -big);
    __syncthreads();
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        out[c] = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
               + c5 * in[c - N*N] + c6 * in[c + N*N] + drift;
    }
}
