// Correct, in the style of GPU programming course labs (written for this corpus, in their manner):
// the radius-2 tiled kernel whose block fills its tile with a strided cooperative loop over the
// tile's cells, whatever the block's shape, then computes with #pragma unroll over the radius.
__global__ void stencil_kernel(float* __restrict__ in, float* __restrict__ out, unsigned int N) {
    constexpr int R = 2;
    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    const int n = N;
    const int ox = blockIdx.x * OUT_TILE_DIM - R, oy = blockIdx.y * OUT_TILE_DIM - R, oz = blockIdx.z * OUT_TILE_DIM - R;
    const int threads = blockDim.x * blockDim.y * blockDim.z;
    const int me = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    for (int l = me; l < IN_TILE_DIM * IN_TILE_DIM * IN_TILE_DIM; l += threads) {
        const int lx = l % IN_TILE_DIM, ly = (l / IN_TILE_DIM) % IN_TILE_DIM, lz = l / (IN_TILE_DIM * IN_TILE_DIM);
        const int gx = ox + lx, gy = oy + ly, gz = oz + lz;
        if (gx >= 0 && gx < n && gy >= 0 && gy < n && gz >= 0 && gz < n) tile[lz][ly][lx] = in[(gz * n + gy) * n + gx];
    }
    __syncthreads();
    const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    const int x = ox + tx, y = oy + ty, z = oz + tz;
    if (tx < R || tx >= IN_TILE_DIM - R || ty < R || ty >= IN_TILE_DIM - R || tz < R || tz >= IN_TILE_DIM - R) return;
    if (x < R || x >= n - R || y < R || y >= n - R || z < R || z >= n - R) return;
    const float wx[2][R] = {{c1, c7}, {c2, c8}};
    const float wy[2][R] = {{c3, c9}, {c4, c10}};
    const float wz[2][R] = {{c5, c11}, {c6, c12}};
    float sum = c0 * tile[tz][ty][tx];
#pragma unroll
    for (int d = 1; d <= R; ++d) {
        sum += wx[0][d - 1] * tile[tz][ty][tx - d] + wx[1][d - 1] * tile[tz][ty][tx + d];
        sum += wy[0][d - 1] * tile[tz][ty - d][tx] + wy[1][d - 1] * tile[tz][ty + d][tx];
        sum += wz[0][d - 1] * tile[tz - d][ty][tx] + wz[1][d - 1] * tile[tz + d][ty][tx];
    }
    out[(z * n + y) * n + x] = sum;
}
