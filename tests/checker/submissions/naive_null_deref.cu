// Wrong: stores through a null pointer.
__global__ void stencil_kernel(float *in, float *out, unsigned int N) {
    float *scratch = nullptr;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    scratch[k] = in[0];
    if (k == 0) out[0] = scratch[k];
}
