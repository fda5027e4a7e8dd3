// Correct: a function template over the term's offset and lambdas (one capturing by value, one
// by reference) that sum the seven terms. Valid C++17 device code.
template <int DX, int DY, int DZ>
__device__ float at(const float* in, unsigned int c, unsigned int N) {
    return in[c + DX + (long long)DY * N + (long long)DZ * N * N];
}

__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    const auto interior = [N](unsigned int v) { return v >= 1 && v < N - 1; };
    if (interior(i) && interior(j) && interior(k)) {
        const unsigned int c = i*N*N + j*N + k;
        float sum = 0.0f;
        auto add = [&sum](float weight, float value) { sum += weight * value; };
        add(c0, at<0, 0, 0>(in, c, N));
        add(c1, at<-1, 0, 0>(in, c, N));
        add(c2, at<1, 0, 0>(in, c, N));
        add(c3, at<0, -1, 0>(in, c, N));
        add(c4, at<0, 1, 0>(in, c, N));
        add(c5, at<0, 0, -1>(in, c, N));
        add(c6, at<0, 0, 1>(in, c, N));
        out[c] = sum;
    }
}
