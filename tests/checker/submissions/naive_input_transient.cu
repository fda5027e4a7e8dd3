// Writes 1e30 into in[c] and puts the old value back: in[] ends as it began, but the store
// happened (other threads may read the transient value on a GPU).
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        unsigned int c = i*N*N + j*N + k;
        float s = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N] + c5 * in[c - N*N] + c6 * in[c + N*N];
        // volatile: both stores happen (a compiler would drop a store that the next one overwrites)
        volatile float* v = in;
        float keep = v[c]; v[c] = 1.0e30f; /* visible to concurrent readers on a GPU */ v[c] = keep; out[c] = s;
    }
}
