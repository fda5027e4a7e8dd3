// Correct: calls through __device__ function pointers, one per neighbour direction, from a table
// the kernel indexes in a loop (a student's "strategy table"). Valid CUDA: indirect calls.
typedef float (*Term)(const float* in, unsigned int c, unsigned int N);

__device__ float centre(const float* in, unsigned int c, unsigned int) { return c0 * in[c]; }
__device__ float west(const float* in, unsigned int c, unsigned int) { return c1 * in[c - 1]; }
__device__ float east(const float* in, unsigned int c, unsigned int) { return c2 * in[c + 1]; }
__device__ float south(const float* in, unsigned int c, unsigned int N) { return c3 * in[c - N]; }
__device__ float north(const float* in, unsigned int c, unsigned int N) { return c4 * in[c + N]; }
__device__ float below(const float* in, unsigned int c, unsigned int N) { return c5 * in[c - N*N]; }
__device__ float above(const float* in, unsigned int c, unsigned int N) { return c6 * in[c + N*N]; }

__device__ Term terms[7] = {centre, west, east, south, north, below, above};

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        float sum = 0.0f;
        for (int t = 0; t < 7; ++t) sum += terms[t](in, c, N);
        out[c] = sum;
    }
}
