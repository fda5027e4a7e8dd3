// stencil-launch-paths: the two ways the GPU could launch a lab kernel, timed against each other on
// the same data (issue 30's choice between them):
//   nvcc   the generated launch units' instantiations (backends/cuda/launch_unit.cu.in), which
//          the CUDA backend uses: compiled by nvcc when the lab is built;
//   nvrtc  the PTX the CPU engine runs (backends/cpu/ptx/lab_ptx.h: NVRTC at run time, the same
//          kernel sources), loaded through the runtime's library API (cudaLibraryLoadData, the
//          driver compiling the PTX for this GPU), as the checker loads a student's kernel.
// Both launch through cuda_detail::launch_kernel with launch_geometry()'s shape. Per rep and
// path: L2 flushed (untimed), event, launch, event; the paths alternate within a rep so the GPU's
// clocks and temperature fall on both alike. The outputs of one launch each are compared bit for
// bit: the two paths must compute the same thing for the timing to mean anything.
//
// It also prints what the NVRTC path costs before its first launch: NVRTC's time for the
// (version, precision) family (with an empty cache folder, so nothing comes from disk) and the
// driver's time to load the PTX. Prints one table; `--reps N` (default 30), `--n N` (grid N^3,
// default 512).
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "backends/cpu/ptx/lab_ptx.h"
#include "backends/cuda/cuda_internal.h"
#include "core/error.h"
#include "kernels/dense_weights.h"
#include "kernels/version_shapes.h"

namespace {

using namespace stencil;
using cuda_detail::check;

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// The bytes the kernel's constant weights hold, as the generated units upload them
// (weights_star.cuh, weights_dense_cube.cuh).
template <class real>
std::vector<char> weight_bytes_of(const StencilWeights& w, WeightLayout layout) {
    std::vector<real> values(layout == WeightLayout::star ? kMaxCoefficients : dense_point_count(kMaxRadius), real(0));
    if (layout == WeightLayout::star)
        for (int i = 0; i < coefficient_count(w.radius); ++i) values[i] = static_cast<real>(w.c[i]);
    else
        fill_dense_weights(w.c.data(), w.radius, values.data());
    std::vector<char> bytes(values.size() * sizeof(real));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

// One kernel loaded from the NVRTC path's PTX, with its weights set.
struct NvrtcKernel {
    cudaLibrary_t library = nullptr;
    cudaKernel_t kernel = nullptr;
    double nvrtc_seconds = 0, load_seconds = 0;
    ~NvrtcKernel() {
        if (library) cudaLibraryUnload(library);
    }
};

void load_nvrtc(const LaunchRequest& req, const StencilWeights& w, NvrtcKernel& out) {
    const LabPtx& lp = lab_ptx(req.kernel, req.tile, req.radius, req.precision, steps_per_launch(req));
    out.nvrtc_seconds = lp.compile_seconds;
    const auto t0 = std::chrono::steady_clock::now();
    check(cudaLibraryLoadData(&out.library, lp.ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0),
          "cudaLibraryLoadData");
    check(cudaLibraryGetKernel(&out.kernel, out.library, lp.entry.c_str()), "cudaLibraryGetKernel");
    out.load_seconds = seconds_since(t0);
    void* symbol = nullptr;
    std::size_t bytes = 0;
    check(cudaLibraryGetGlobal(&symbol, &bytes, out.library, lp.coefficients_symbol.c_str()),
          "cudaLibraryGetGlobal (weights)");
    const StencilWeights r = w.rounded_to(req.precision);
    const WeightLayout layout = shape_of(req.kernel).weights;
    const std::vector<char> host = req.precision == Precision::f32 ? weight_bytes_of<float>(r, layout)
                                                                   : weight_bytes_of<double>(r, layout);
    if (host.size() != bytes) throw UserError("the NVRTC module's weights differ in size from the launch unit's");
    check(cudaMemcpy(symbol, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy (weights)");
}

struct Row {
    std::string what;
    double nvcc_ms = 0, nvrtc_ms = 0;
    long long differing_words = 0;
    double nvrtc_seconds = 0, load_seconds = 0;
};

Row measure(const LaunchRequest& req, int reps, cuda_detail::L2Flush& flush) {
    const StencilWeights w = random_weights(req.radius, 1);
    cuda_detail::kernel_table(req.kernel).upload_weights(w, req.precision);
    const void* nvcc = cuda_detail::kernel_function(req);
    if (!nvcc) throw UserError(cuda_detail::request_text(req) + " is not built");
    NvrtcKernel nvrtc;
    load_nvrtc(req, w, nvrtc);
    const void* paths[2] = {nvcc, reinterpret_cast<const void*>(nvrtc.kernel)};

    const std::size_t bytes = req.dims.cells() * bytes_of(req.precision);
    cuda_detail::DeviceBuffer in(bytes, "input"), out_a(bytes, "output"), out_b(bytes, "output");
    cuda_detail::fill_random(in.get(), req.dims.cells(), req.precision, 7, nullptr);
    check(cudaMemset(out_a.get(), 0, bytes), "cudaMemset");
    check(cudaMemset(out_b.get(), 0, bytes), "cudaMemset");
    cuda_detail::launch_kernel(paths[0], req, in.get(), out_a.get());
    cuda_detail::launch_kernel(paths[1], req, in.get(), out_b.get());
    cuda_detail::check_launch(cuda_detail::request_text(req).c_str(), true);

    Row row{cuda_detail::request_text(req)};
    row.differing_words = cuda_detail::count_differing_words(out_a.get(), out_b.get(), bytes);
    row.nvrtc_seconds = nvrtc.nvrtc_seconds;
    row.load_seconds = nvrtc.load_seconds;
    std::vector<double> ms[2];
    cuda_detail::EventPair ev;
    for (int rep = 0; rep < reps + 3; ++rep)
        for (int p = 0; p < 2; ++p) {
            flush.flush();
            ev.start();
            cuda_detail::launch_kernel(paths[p], req, in.get(), out_a.get());
            ev.stop();
            cuda_detail::check_launch(cuda_detail::request_text(req).c_str(), true);
            if (rep >= 3) ms[p].push_back(ev.ms());
        }
    row.nvcc_ms = median(ms[0]);
    row.nvrtc_ms = median(ms[1]);
    return row;
}

// Every version at its default tile, r = 1 and 4, both precisions; the versions that fuse steps at
// their default K.
std::vector<LaunchRequest> requests(int n) {
    std::vector<LaunchRequest> out;
    for (const KernelVersion& v : kernel_versions())
        for (Precision p : {Precision::f32, Precision::f64})
            for (int r : {1, 4}) {
                LaunchRequest req;
                req.kernel = v.id;
                req.tile = v.default_tile;
                req.radius = r;
                req.precision = p;
                req.dims = {n, n, n};
                req.steps = req.fuse = v.fused_steps;
                if (tile_error(req.kernel, req.tile, r, p) || request_error(req)) continue;
                out.push_back(req);
            }
    return out;
}

int run(int argc, char** argv) {
    int reps = 30, n = 512;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--reps" || a == "--n") && i + 1 < argc)
            (a == "--reps" ? reps : n) = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr, "usage: stencil-launch-paths [--reps N] [--n N]\n");
            return 2;
        }
    }
    if (reps < 1 || n < 16) {
        std::fprintf(stderr, "stencil-launch-paths: --reps must be at least 1 and --n at least 16\n");
        return 2;
    }
    // NVRTC's time is the point: an empty cache folder, so no family comes from disk.
    const auto cache = std::filesystem::temp_directory_path() / ("stencil-launch-paths-" + std::to_string(::getpid()));
    std::filesystem::create_directories(cache);
    setenv("STENCIL_LAB_CACHE_DIR", cache.c_str(), 1);

    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    int driver = 0;
    cudaDriverGetVersion(&driver);
    std::printf("device %s, driver %d, grid %d^3, %d reps, median ms per launch\n", prop.name, driver, n, reps);
    std::printf("%-44s %9s %9s %8s %9s %9s %8s\n", "kernel", "nvcc ms", "nvrtc ms", "nvrtc/", "differing", "nvrtc s",
                "load s");
    std::printf("%-44s %9s %9s %8s %9s %9s %8s\n", "", "", "", "nvcc", "words", "(family)", "");
    cuda_detail::L2Flush flush;
    for (const LaunchRequest& req : requests(n)) {
        const Row r = measure(req, reps, flush);
        std::printf("%-44s %9.4f %9.4f %8.3f %9lld %9.2f %8.3f\n", r.what.c_str(), r.nvcc_ms, r.nvrtc_ms,
                    r.nvrtc_ms / r.nvcc_ms, r.differing_words, r.nvrtc_seconds, r.load_seconds);
        std::fflush(stdout);
    }
    std::filesystem::remove_all(cache);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "stencil-launch-paths: %s\n", e.what());
        return 1;
    }
}
