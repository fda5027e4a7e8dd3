// Forks through daemon() (fork is on the deny-list, daemon is not); the child would write a marker.
// Otherwise a correct naive kernel: only the checker's seccomp filter (checker/sandbox.h) stops it.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    if (blockIdx.x + blockIdx.y + blockIdx.z + threadIdx.x + threadIdx.y + threadIdx.z == 0) {
        if (daemon(1, 1) == 0) {
            auto f = fopen64("/tmp/stencil-lab-escape-fork.marker", "w");
            if (f) fclose(f);
        }
    }
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        out[i*N*N + j*N + k] = c0 * in[i*N*N + j*N + k] + c1 * in[i*N*N + j*N + (k - 1)] + c2 * in[i*N*N + j*N + (k + 1)] + c3 * in[i*N*N + (j - 1)*N + k] + c4 * in[i*N*N + (j + 1)*N + k] + c5 * in[(i - 1)*N*N + j*N + k] + c6 * in[(i + 1)*N*N + j*N + k];
    }
}
