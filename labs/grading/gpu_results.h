// The GPU's own figures for the labs' hardware questions, read from a results file that a GPU run
// wrote: `stencil-lab sweep`'s results.json ({"results": [...]}, with counters) or `stencil-lab run
// --json` output (one object, or one per line as in docs/results/h100-run-512.jsonl). Both are
// reduced to the few numbers a question needs; nothing here runs a kernel.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace stencil::labs {

struct GpuRun {
    std::string kernel;
    int tile = 0;
    std::string precision = "f32";
    int radius = 1;
    long long n = 0;                     // largest grid side of the run
    double gbps = 0;                     // effective bandwidth: one read + one write of every cell
    double copy_ratio = 0;               // gbps / the copy bandwidth measured in the same run
    std::optional<int> registers;        // cudaFuncGetAttributes' count
    std::optional<double> dram_opb_read; // FLOP per DRAM byte read (sweep with counters only)
};

struct GpuResults {
    std::string path;
    std::string device;               // "NVIDIA H100 80GB HBM3" when the file says
    std::vector<GpuRun> runs;         // timed CUDA runs whose check passed
    std::optional<double> fma_gflops; // the sweep's FMA microbenchmark
    std::optional<double> copy_gbps;

    // The run of (kernel, tile, precision, radius) on the largest grid; nullptr when absent.
    const GpuRun* find(const std::string& kernel, int tile, const std::string& precision = "f32",
                       int radius = 1) const;
};

// Throws UserError (one line) for a file that cannot be read, is not JSON (or JSON lines), or
// holds no timed CUDA run.
GpuResults load_gpu_results(const std::string& path);

}  // namespace stencil::labs
