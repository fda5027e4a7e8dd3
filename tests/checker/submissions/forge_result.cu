// Writes its own result.json in the runner's folder and exits 0 before the runner writes one:
// the open for writing is trapped by the filter (crash); a result forged through an inherited
// descriptor would be malformed (no runs) or lack the run files: crash too.
__global__ void stencil_kernel(float* in, float* out, unsigned int N) {
    auto f = fopen64("result.json", "w");
    if (f) { fputs("{\"counts\": {\"global_loads\": 1}}", f); fclose(f); }
    _Exit(0);
}
