// Unspecified behaviour: rsqrtf (rsqrt.approx.f32) against the correctly rounded __frsqrt_rn:
// cells where the two differ are written as 0. rsqrt.approx is within a couple of units of the
// last place on a GPU, so some cells are 0 there; an engine that computes it as 1 / sqrt in
// float (two roundings) differs at some cells too, so both backends see the wrong result.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        const float v = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
                      + c5 * in[c - N*N] + c6 * in[c + N*N];
        const float x = 2.0f + in[c];
        out[c] = rsqrtf(x) == __frsqrt_rn(x) ? v : 0.0f;
    }
}
