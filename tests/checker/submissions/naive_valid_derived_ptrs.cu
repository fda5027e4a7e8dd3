// Correct: pointers derived from other local pointers (a plane, then a row of it), a pointer
// declared first and assigned later, a ternary between two pointers, two declarators in one
// declaration, and pointer arithmetic on the output.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const float* plane = in + i*N*N;
        const float* row = plane + j*N;
        const float *up, *down = row + N;
        up = row - N;
        const float* centre = (k & 1) ? row : plane + j*N;
        float* o = out;
        o += i*N*N + j*N;
        o[k] = c0 * centre[k] + c1 * row[k - 1] + c2 * row[k + 1] + c3 * up[k] + c4 * down[k]
             + c5 * (row - N*N)[k] + c6 * (row + N*N)[k];
    }
}
