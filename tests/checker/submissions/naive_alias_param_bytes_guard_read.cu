// Out of bounds: reads three cells past the end of in[] through a pointer rebuilt from the
// parameter's own bytes (memcpy of `in` into an integer, then back), its value discarded
// (x + 0 * finite == x). The read lands in the checker's guard zone, so a GPU (even under
// compute-sanitizer, the guard belonging to the allocation) sees nothing; it is still a read
// out of bounds of the N^3 cells the kernel was given, whatever the pointer's provenance: the
// CPU backend names the access (in[N^3 + 2]).
__global__ void stencil_kernel(float *in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        unsigned long long bits;
        memcpy(&bits, &in, sizeof bits);
        bits += (unsigned long long)(N*N*N + 2) * sizeof(float);
        const float* past;
        memcpy(&past, &bits, sizeof past);
        const float extra = (i == N - 2 && j == N - 2 && k == N - 2) ? *past : 0.0f;
        out[i*N*N + j*N + k] = c0 * in[i*N*N + j*N + k]
                             + c1 * in[i*N*N + j*N + (k - 1)]
                             + c2 * in[i*N*N + j*N + (k + 1)]
                             + c3 * in[i*N*N + (j - 1)*N + k]
                             + c4 * in[i*N*N + (j + 1)*N + k]
                             + c5 * in[(i - 1)*N*N + j*N + k]
                             + c6 * in[(i + 1)*N*N + j*N + k] + 0.0f * fminf(fabsf(extra), 1.0f);
    }
}
