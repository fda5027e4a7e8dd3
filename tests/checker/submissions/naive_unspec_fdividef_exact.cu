// Unspecified behaviour: an approximate instruction's exact bits decide the output. The kernel
// keeps __fdividef (div.approx.f32) where it equals the IEEE division and writes 0 elsewhere (a
// student's "use the fast path only where it is exact" gone wrong). Computed exactly, as today's
// CPU engine does, the two always agree; on a GPU they differ in the last bit at some cells.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        const float v = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
                      + c5 * in[c - N*N] + c6 * in[c + N*N];
        const float d = 3.0f + in[c];
        out[c] = __fdividef(v, d) == v / d ? v : 0.0f;
    }
}
