// Correct, in the style of introductory CUDA courses (written for this corpus, in their manner):
// an index macro, one flat thread id over the whole launch and a grid-stride loop over every
// cell, so the kernel is right for any launch shape.
#define IDX(x, y, z, n) ((z) * (n) * (n) + (y) * (n) + (x))

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned int threads_per_block = blockDim.x * blockDim.y * blockDim.z;
    const unsigned int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    const unsigned int thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    const unsigned int stride = threads_per_block * gridDim.x * gridDim.y * gridDim.z;
    const unsigned int cells = N * N * N;
    for (unsigned int id = block * threads_per_block + thread; id < cells; id += stride) {
        const unsigned int x = id % N;
        const unsigned int y = (id / N) % N;
        const unsigned int z = id / (N * N);
        if (x == 0 || y == 0 || z == 0 || x == N - 1 || y == N - 1 || z == N - 1) continue;
        out[id] = c0 * in[id]
                + c1 * in[IDX(x - 1, y, z, N)] + c2 * in[IDX(x + 1, y, z, N)]
                + c3 * in[IDX(x, y - 1, z, N)] + c4 * in[IDX(x, y + 1, z, N)]
                + c5 * in[IDX(x, y, z - 1, N)] + c6 * in[IDX(x, y, z + 1, N)];
    }
}
