// A template bomb: each level instantiates two of the next, 2^N instantiations in all, and the
// depth limit of the compiler is raised by nothing. The runner's compile bounds (time and memory)
// end it as a compile_error.
template <int N, int K>
struct Bomb {
    __device__ static float value(float x) {
        return Bomb<N - 1, 2 * K>::value(x) + Bomb<N - 1, 2 * K + 1>::value(x);
    }
};
template <int K>
struct Bomb<0, K> {
    __device__ static float value(float x) { return x + K; }
};
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    out[0] = Bomb<40, 0>::value(in[0]);
}
