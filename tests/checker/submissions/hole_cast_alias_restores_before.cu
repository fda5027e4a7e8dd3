// Wrong: through an alias made by casts, one thread reads the cell before out[], writes 1e30 there
// and puts the old value back. The guard zone is as it was after the run (a GPU's guard check sees
// nothing: predicted pass), but a store landed outside the buffer: out_of_bounds_write is what
// happened. The CPU engine faults on the read of the old value first (crash; issue 47).
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        unsigned int c = i*N*N + j*N + k;
        out[c] = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
               + c5 * in[c - N*N] + c6 * in[c + N*N];
        if (c == N*N + N + 1) {
            char* bytes = reinterpret_cast<char*>(out);
            float* before = reinterpret_cast<float*>(bytes - sizeof(float));
            const float old = *reinterpret_cast<volatile float*>(before);
            *reinterpret_cast<volatile float*>(before) = 1e30f;
            *reinterpret_cast<volatile float*>(before) = old;
        }
    }
}
