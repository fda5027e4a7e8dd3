// x-derivative, wrong (wrong_result): c_bx and c_cx exchanged (lines 17-18); the periodic images are right,
// so the first bad output reads neighbours through the wrap that the stencil does read.
__global__ void derivative_x(const float* f, float* df, int mx, int my, int mz) {
    __shared__ float s_f[sPencils][MX + 8];
    const int i = threadIdx.x;
    const int j = blockIdx.x * blockDim.y + threadIdx.y;
    const int k = blockIdx.y;
    const int si = i + 4, sj = threadIdx.y;
    const int g = k * mx * my + j * mx + i;
    s_f[sj][si] = f[g];
    __syncthreads();
    if (i < 4) {
        s_f[sj][si - 4] = s_f[sj][si + MX - 4];
        s_f[sj][si + MX] = s_f[sj][si];
    }
    __syncthreads();
    df[g] = (c_ax * (s_f[sj][si + 1] - s_f[sj][si - 1]) + c_cx * (s_f[sj][si + 2] - s_f[sj][si - 2]) +
             c_bx * (s_f[sj][si + 3] - s_f[sj][si - 3]) + c_dx * (s_f[sj][si + 4] - s_f[sj][si - 4]));
}
