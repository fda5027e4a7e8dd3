// Unspecified behaviour: the value of clock64() decides a cell. A student's debugging leftover
// writes 0 instead of the stencil whenever bit 5 of the clock is set. On a GPU the clock a thread
// reads is anyone's guess, so some cells are 0, different ones in every run; an emulator whose
// clock runs the same way every time may never set that bit where it is read.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        const unsigned int c = i*N*N + j*N + k;
        const float v = c0 * in[c] + c1 * in[c - 1] + c2 * in[c + 1] + c3 * in[c - N] + c4 * in[c + N]
                      + c5 * in[c - N*N] + c6 * in[c + N*N];
        out[c] = (clock64() & 32) ? 0.0f : v;
    }
}
