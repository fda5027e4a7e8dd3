// x-derivative with every neighbour read from global memory (wrapped with %): correct, but 8 loads
// per output against the pencils' 1: a pass with an over-budget warning.
__global__ void derivative_x(const float* f, float* df, int mx, int my, int mz) {
    const int i = threadIdx.x;
    const int j = blockIdx.x * blockDim.y + threadIdx.y;
    const int k = blockIdx.y;
    const int row = k * mx * my + j * mx;
    auto at = [&](int d) { return f[row + (i + d + mx) % mx]; };
    df[row + i] = (c_ax * (at(1) - at(-1)) + c_bx * (at(2) - at(-2)) + c_cx * (at(3) - at(-3)) +
                   c_dx * (at(4) - at(-4)));
}
