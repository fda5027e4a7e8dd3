// Wrong: the same names as hole_backend_names.cu (simt, GlobalPtr, Shared, tls, SharedName,
// launch_body), and no __syncthreads() after the loads: a race (the names hide nothing).
namespace simt { __device__ inline float twice(float x) { return 2.0f * x; } }
template <class T> struct GlobalPtr { T* p; __device__ T& operator[](unsigned i) const { return p[i]; } };
template <class T> using Shared = T;
__device__ float launch_body(float x) { return simt::twice(x) * 0.5f; }

__global__ void stencil_kernel(float *in, float* out, unsigned int N) {
    __shared__ Shared<float> tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    GlobalPtr<float> tls{in};
    const int SharedName = 1;
    int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - SharedName;
    int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - SharedName;
    int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - SharedName;
    if (i >= 0 && i < N && j >= 0 && j < N && k >= 0 && k < N) {
        tile[threadIdx.z][threadIdx.y][threadIdx.x] = launch_body(tls[i*N*N + j*N + k]);
    }
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        if (threadIdx.z >= 1 && threadIdx.z < IN_TILE_DIM - 1 &&
            threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 &&
            threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
            out[i*N*N + j*N + k] = c0 * tile[threadIdx.z][threadIdx.y][threadIdx.x]
                                 + c1 * tile[threadIdx.z][threadIdx.y][threadIdx.x - 1]
                                 + c2 * tile[threadIdx.z][threadIdx.y][threadIdx.x + 1]
                                 + c3 * tile[threadIdx.z][threadIdx.y - 1][threadIdx.x]
                                 + c4 * tile[threadIdx.z][threadIdx.y + 1][threadIdx.x]
                                 + c5 * tile[threadIdx.z - 1][threadIdx.y][threadIdx.x]
                                 + c6 * tile[threadIdx.z + 1][threadIdx.y][threadIdx.x];
        }
    }
}
