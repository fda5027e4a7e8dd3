// Correct: every thread that computes a cell prints and checks what printf returned, the number
// of arguments its format names (3), as CUDA's printf returns it whether or not the text fits in
// the buffer: past the lab's printf cap (both backends cut the output there: 512 calls on the
// GPU, 64 KiB on the CPU, which N = 20 passes) it must still be 3.
__global__ void stencil_kernel(float *in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const int parsed = printf("cell %u %u %u\n", i, j, k);
        const float damage = parsed == 3 ? 0.0f : 1.0f;  // (-1 from a printf that dropped the call)
        out[i*N*N + j*N + k] = c0 * in[i*N*N + j*N + k]
                             + c1 * in[i*N*N + j*N + (k - 1)]
                             + c2 * in[i*N*N + j*N + (k + 1)]
                             + c3 * in[i*N*N + (j - 1)*N + k]
                             + c4 * in[i*N*N + (j + 1)*N + k]
                             + c5 * in[(i - 1)*N*N + j*N + k]
                             + c6 * in[(i + 1)*N*N + j*N + k] + damage;
    }
}
