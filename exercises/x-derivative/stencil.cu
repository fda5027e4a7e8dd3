// Exercise: the 8th-order x-derivative with pencils. See README.md.
// Provided by the harness: MX (= mx), sPencils (4); __constant__ float c_ax, c_bx, c_cx, c_dx.
__global__ void derivative_x(const float* f, float* df, int mx, int my, int mz) {
    __shared__ float s_f[sPencils][MX + 8];  // 4-wide halo at each end

    // TODO: i (x) = threadIdx.x, j (y) = blockIdx.x * blockDim.y + threadIdx.y, k (z) = blockIdx.y;
    //       the cell's index k * mx * my + j * mx + i.

    // TODO: load f of the cell into s_f[threadIdx.y][i + 4].

    // TODO: wait; then the first 4 threads of each row copy the periodic images:
    //       s_f[sj][si - 4] = s_f[sj][si + MX - 4] and s_f[sj][si + MX] = s_f[sj][si]; wait again.

    // TODO: df of the cell from s_f, in the order the README gives.
}
