// Correct: const and __restrict__ pointers, a helper __device__ function, fmaf in another order.
// Passes because the bound of core/compare.h holds for any summation order, with or without FMA.
#define IDX(i, j, k) ((i) * N * N + (j) * N + (k))

__device__ float axis_sum(const float* __restrict__ in, unsigned int c, unsigned int stride,
                          float wm, float wp) {
    return fmaf(wm, in[c - stride], wp * in[c + stride]);
}

__global__ void stencil_kernel(const float* __restrict__ in, float* __restrict__ out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 1 || j < 1 || k < 1 || i >= N - 1 || j >= N - 1 || k >= N - 1) return;
    float acc = c6 * in[IDX(i + 1, j, k)];
    acc = fmaf(c5, in[IDX(i - 1, j, k)], acc);
    acc += c3 * in[IDX(i, j - 1, k)] + c4 * in[IDX(i, j + 1, k)];
    acc += c1 * in[IDX(i, j, k - 1)] + c2 * in[IDX(i, j, k + 1)];
    out[IDX(i, j, k)] = fmaf(c0, in[IDX(i, j, k)], acc);
}
