// Correct: device printf with `*` widths and precisions (the width and precision are arguments),
// once per launch, from the thread of the first interior cell: it prints that cell's value.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        const float v = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
                      + c5 * in[c - N*N] + c6 * in[c + N*N];
        if (i == 1 && j == 1 && k == 1) {
            const int width = 12, precision = 5;
            printf("N=%*u out(1,1,1)=%*.*f |%-*d|\n", 4, N, width, precision, v, 6, -42);
        }
        out[c] = v;
    }
}
