// Correct, in the style of the 2.5D-blocking finite-difference lectures (written for this corpus,
// in their manner): the block marches along z with the column's values in a register queue
// (behind, current, infront), only the current plane in shared memory, and const strides.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    __shared__ float plane[IN_TILE_DIM][IN_TILE_DIM];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * OUT_TILE_DIM + tx - 1;
    const int y = blockIdx.y * OUT_TILE_DIM + ty - 1;
    const int z0 = blockIdx.z * OUT_TILE_DIM;
    const int n = N;
    const int stride_y = n, stride_z = n * n;
    const bool column = x >= 0 && x < n && y >= 0 && y < n;
    const bool writes = x >= 1 && x < n - 1 && y >= 1 && y < n - 1 && tx >= 1 && tx < IN_TILE_DIM - 1 &&
                        ty >= 1 && ty < IN_TILE_DIM - 1;
    float behind = 0.0f, current = 0.0f, infront = 0.0f;
    if (column && z0 - 1 >= 0 && z0 - 1 < n) behind = in[(z0 - 1) * stride_z + y * stride_y + x];
    if (column && z0 < n) current = in[z0 * stride_z + y * stride_y + x];
    for (int z = z0; z < z0 + OUT_TILE_DIM && z < n; ++z) {
        if (column && z + 1 < n) infront = in[(z + 1) * stride_z + y * stride_y + x];
        plane[ty][tx] = current;
        __syncthreads();
        if (writes && z >= 1 && z < n - 1)
            out[z * stride_z + y * stride_y + x] = c0 * current
                                                 + c1 * plane[ty][tx - 1] + c2 * plane[ty][tx + 1]
                                                 + c3 * plane[ty - 1][tx] + c4 * plane[ty + 1][tx]
                                                 + c5 * behind + c6 * infront;
        __syncthreads();
        behind = current;
        current = infront;
    }
}
