// expect: wrong_result
// x-derivative with the images left as zeros (a non-periodic grid): the first and last 4 cells
// of every row are wrong.
__global__ void derivative_x(const float* f, float* df, int mx, int my, int mz) {
    __shared__ float s_f[sPencils][MX + 8];
    const int i = threadIdx.x;
    const int j = blockIdx.x * blockDim.y + threadIdx.y;
    const int k = blockIdx.y;
    const int si = i + 4, sj = threadIdx.y;
    const int g = k * mx * my + j * mx + i;
    s_f[sj][si] = f[g];
    if (i < 4) {
        s_f[sj][si - 4] = 0.0f;
        s_f[sj][si + MX] = 0.0f;
    }
    __syncthreads();
    df[g] = (c_ax * (s_f[sj][si + 1] - s_f[sj][si - 1]) + c_bx * (s_f[sj][si + 2] - s_f[sj][si - 2]) +
             c_cx * (s_f[sj][si + 3] - s_f[sj][si - 3]) + c_dx * (s_f[sj][si + 4] - s_f[sj][si - 4]));
}
