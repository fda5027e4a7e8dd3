// stencil-check-runner, CUDA half: the PTX both backends run (runner_compile.cpp), assembled by the
// driver (cudaLibraryLoadData), then cudaLibraryGetKernel / cudaLaunchKernel, repeated runs; the global loads
// of the submission counted by the GPU's own counters (CUPTI); and timing against the lab's own
// kernel of the exercise (kernels/*.cuh as the CUDA backend built them), interleaved, with CUDA
// events.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>

#include "backends/cuda/counters.h"
#include "backends/cuda/lab_kernel.h"
#include "checker/runner.h"
#include "core/error.h"

namespace stencil::checker::runner {

struct CudaFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void ck(cudaError_t e, const char* what) {
    if (e != cudaSuccess)
        throw CudaFailure(std::string("CUDA error: ") + what + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

struct Loaded {
    cudaLibrary_t lib = nullptr;
    cudaKernel_t kernel = nullptr;
};

// The driver assembles the PTX for this GPU (its JIT: ptxas). It refuses what the GPU cannot run,
// e.g. more than 48 KiB of static shared memory: then `log` says why and nothing is loaded.
template <class real>
bool load(const Compiled& c, const std::vector<real>& coef, Loaded& l, std::string& log) {
    char error_log[8192] = {};
    cudaJitOption opts[] = {cudaJitErrorLogBuffer, cudaJitErrorLogBufferSizeBytes};
    void* values[] = {error_log, reinterpret_cast<void*>(sizeof error_log)};
    const cudaError_t e =
        cudaLibraryLoadData(&l.lib, c.ptx.c_str(), opts, values, 2, nullptr, nullptr, 0);
    // The driver may assemble lazily: a PTX it refuses (too much shared memory, say) can surface
    // at cudaLibraryLoadData or only when the kernel or a global is first asked for. Either way it
    // is the submission's compile error, not a fault of the runner.
    auto refused = [&](cudaError_t err, const char* where) {
        log = std::string("the GPU's driver cannot assemble the PTX (") + where + ": " + cudaGetErrorName(err) +
              ": " + cudaGetErrorString(err) + ")" + (error_log[0] ? std::string(":\n") + error_log : "");
        return false;
    };
    if (e != cudaSuccess) return refused(e, "cudaLibraryLoadData");
    if (const cudaError_t k = cudaLibraryGetKernel(&l.kernel, l.lib, c.kernel.c_str()); k != cudaSuccess)
        return refused(k, "cudaLibraryGetKernel");
    for (size_t i = 0; i < coef.size(); ++i) {  // c0 .. c{6r}, by their lowered names
        void* p = nullptr;
        size_t bytes = 0;
        if (const cudaError_t g = cudaLibraryGetGlobal(&p, &bytes, l.lib, c.weights[i].c_str()); g != cudaSuccess)
            return refused(g, "cudaLibraryGetGlobal (the weights)");
        if (bytes != sizeof(real)) throw CudaFailure("the weight c" + std::to_string(i) + " has the wrong size");
        ck(cudaMemcpy(p, &coef[i], sizeof(real), cudaMemcpyHostToDevice), "set the weights");
    }
    return true;
}

template <class real>
cudaError_t launch(const Loaded& l, const json& cs, real* in, real* out, cudaStream_t s) {
    unsigned n = cs.at("n");
    const auto gr = cs.at("grid").get<std::vector<unsigned>>();
    const auto bl = cs.at("block").get<std::vector<unsigned>>();
    void* args[] = {&in, &out, &n};
    return cudaLaunchKernel(reinterpret_cast<const void*>(l.kernel), dim3(gr[0], gr[1], gr[2]),
                            dim3(bl[0], bl[1], bl[2]), args, 0, s);
}

// The lab's kernel of the exercise, at the size of case `cs`.
LaunchRequest lab_request(const json& req, const json& cs) {
    LaunchRequest lr;
    const KernelVersion* v = find_version(req.at("lab_kernel").get<std::string>());
    if (!v) throw std::runtime_error("runner: unknown lab kernel in the request");
    lr.kernel = v->id;
    lr.tile = req.at("tile");
    lr.radius = req.at("radius");
    lr.precision = is_f64(req) ? Precision::f64 : Precision::f32;
    const int n = cs.at("n");
    lr.dims = {n, n, n};
    return lr;
}

template <class real>
StencilWeights weights_of(const std::vector<real>& coef, int radius) {
    StencilWeights w;
    w.radius = radius;
    for (size_t i = 0; i < coef.size(); ++i) w.c[i] = coef[i];
    return w;
}

// Global loads of one launch of the submission at case `cs`, and of the lab's kernel there, from
// the GPU's counters: bytes that global load instructions requested (every active lane's element
// counted), divided by the element size. CUPTI needs a launch of its own; its output must equal,
// bit for bit, the first checked run's at that case (`checked`), or the count is not used: the
// count always belongs to a launch whose output was checked.
template <class real>
json count_loads(const json& req, const json& cs, const Loaded& kern, const std::vector<real>& coef,
                 const std::vector<real>& checked) {
    const auto in0 = read_cells<real>(cs.at("input"));
    const auto out0 = read_cells<real>(cs.at("output"));
    const long long g = cs.at("guard");
    const size_t bytes = in0.size() * sizeof(real);
    real *d_in = nullptr, *d_out = nullptr;
    ck(cudaMalloc(&d_in, bytes), "cudaMalloc");
    ck(cudaMalloc(&d_out, bytes), "cudaMalloc");
    ck(cudaMemcpy(d_in, in0.data(), bytes, cudaMemcpyHostToDevice), "copy in");
    ck(cudaMemcpy(d_out, out0.data(), bytes, cudaMemcpyHostToDevice), "copy out");
    const std::string metric = "smsp__sass_data_bytes_mem_global_op_ld.sum";
    json counts;
    std::string why;
    auto student = measure_launch_metrics(
        [&] {
            ck(launch(kern, cs, d_in + g, d_out + g, nullptr), "launch (load count)");
            ck(cudaDeviceSynchronize(), "kernel (load count)");
        },
        {metric}, &why);
    std::vector<real> counted(out0.size());
    if (student) ck(cudaMemcpy(counted.data(), d_out, bytes, cudaMemcpyDeviceToHost), "copy back (load count)");
    if (!student) {
        counts["unavailable"] = why;
    } else if (checked.size() != counted.size() ||
               std::memcmp(checked.data(), counted.data(), bytes) != 0) {
        counts["unavailable"] = "the counting launch's output differs from the checked run's, so its count is not used";
    } else {
        counts["global_load_bytes"] = (*student)[0];
        counts["global_loads"] = std::llround((*student)[0] / sizeof(real));
        counts["source"] = "GPU counters (" + metric + ")";
        const LaunchRequest lr = lab_request(req, cs);
        if (auto e = lab_kernel_unavailable(lr)) {
            counts["lab_unavailable"] = *e;
        } else {
            upload_lab_kernel_weights(lr, weights_of(coef, lr.radius));
            auto lab = measure_launch_metrics(
                [&] {
                    launch_lab_kernel(lr, d_in + g, d_out + g);
                    ck(cudaDeviceSynchronize(), "the lab's kernel (load count)");
                },
                {metric}, &why);
            if (lab) counts["lab_global_loads"] = std::llround((*lab)[0] / sizeof(real));
            else counts["lab_unavailable"] = why;
        }
    }
    cudaFree(d_in);
    cudaFree(d_out);
    return counts;
}

template <class real>
int run_cuda_as(const json& req) {
    json result;
    result["runs"] = json::array();
    cudaDeviceProp prop{};
    ck(cudaSetDevice(0), "cudaSetDevice");
    ck(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    result["device"] = prop.name;

    const Compiled student = compile_submission(req);
    if (!student.ok) {
        result["compile"] = compile_failure("nvrtc", student.log);
        write_result(result);
        return 0;
    }
    const auto coef = req.at("coefficients").get<std::vector<real>>();
    Loaded kern;
    if (std::string log; !load(student, coef, kern, log)) {
        result["compile"] = compile_failure("load", log);
        write_result(result);
        return 0;
    }
    result["compile"] = {{"ok", true}, {"seconds", student.seconds}};

    const auto& cases = req.at("cases");
    std::vector<std::vector<real>> first_out(cases.size());
    for (size_t c = 0; c < cases.size(); ++c) {
        const auto& cs = cases[c];
        const auto in0 = read_cells<real>(cs.at("input"));
        const auto out0 = read_cells<real>(cs.at("output"));
        const long long g = cs.at("guard");
        real *d_in = nullptr, *d_out = nullptr;
        void* fence = nullptr;
        // in[] last, after a freed gap of its own size: cudaMalloc may place buffers of one size
        // back to back, and then a read past in[] (beyond its guard zone) would be a valid access
        // to the next buffer for compute-sanitizer memcheck, and a read before it one to out[].
        // Memory that no allocation owns is reported (seen on an H100 at N = 16, 2026-11-22).
        ck(cudaMalloc(&d_out, out0.size() * sizeof(real)), "cudaMalloc");
        ck(cudaMalloc(&fence, in0.size() * sizeof(real)), "cudaMalloc (fence)");
        ck(cudaMalloc(&d_in, in0.size() * sizeof(real)), "cudaMalloc");
        ck(cudaFree(fence), "cudaFree (fence)");
        const int runs = static_cast<int>(cs.at("runs").size());
        for (int r = 0; r < runs; ++r) {
            progress("case " + std::to_string(c) + " N=" + std::to_string(cs.at("n").get<int>()) +
                     " gpu repeat " + std::to_string(r));
            json jr = {{"case", c}, {"run", r}, {"ok", true}};
            ck(cudaMemcpy(d_in, in0.data(), in0.size() * sizeof(real), cudaMemcpyHostToDevice), "copy in");
            ck(cudaMemcpy(d_out, out0.data(), out0.size() * sizeof(real), cudaMemcpyHostToDevice), "copy out");
            cudaError_t e = launch(kern, cs, d_in + g, d_out + g, nullptr);
            if (e == cudaSuccess) e = cudaDeviceSynchronize();
            if (e != cudaSuccess) {
                // Sticky errors (an illegal address) end the context: report and stop.
                jr["ok"] = false;
                jr["error"] = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
                result["runs"].push_back(jr);
                write_result(result);
                return 0;
            }
            std::vector<real> in(in0.size()), out(out0.size());
            ck(cudaMemcpy(in.data(), d_in, in.size() * sizeof(real), cudaMemcpyDeviceToHost), "copy back");
            ck(cudaMemcpy(out.data(), d_out, out.size() * sizeof(real), cudaMemcpyDeviceToHost), "copy back");
            write_cells(run_file(int(c), r, "out"), out);
            write_cells(run_file(int(c), r, "in"), in);
            if (r == 0) first_out[c] = std::move(out);
            result["runs"].push_back(jr);
        }
        cudaFree(d_in);
        cudaFree(d_out);
    }

    // ---- global loads per output, from the GPU's counters ------------------------------------
    if (req.contains("count")) {
        const auto& cs = cases.at(req["count"].at("case").get<size_t>());
        progress("counting global loads at N=" + std::to_string(cs.at("n").get<int>()) + " (CUPTI)");
        // After the checked runs: a failure here (the counters, the lab's kernel) is no verdict on
        // the submission, only a missing extra.
        try {
            json counts = count_loads(req, cs, kern, coef, first_out.at(req["count"].at("case").get<size_t>()));
            counts["case"] = req["count"]["case"];
            if (counts.contains("global_loads")) result["counts"] = counts;
            else result["counts_unavailable"] = counts.value("unavailable", std::string("unknown"));
        } catch (const std::exception& e) {
            result["counts_unavailable"] = std::string(e.what());
        }
    }

    // ---- timing: student vs the lab's kernel, interleaved, L2 flushed, outputs re-checked ------
    // (A failure on the lab's side is "no timing", not a crash of a kernel that passed.)
    if (req.contains("timing")) try {
        const auto& tm = req["timing"];
        const int c = tm.at("case");
        const int reps = tm.value("reps", 20);
        const auto& cs = cases.at(static_cast<size_t>(c));
        const LaunchRequest lr = lab_request(req, cs);
        if (auto e = lab_kernel_unavailable(lr)) {
            result["timing_unavailable"] = "the lab's kernel: " + *e;
            write_result(result);
            return 0;
        }
        progress("timing against the lab's kernel at N=" + std::to_string(cs.at("n").get<int>()));
        upload_lab_kernel_weights(lr, weights_of(coef, lr.radius));
        const auto in0 = read_cells<real>(cs.at("input"));
        const auto out0 = read_cells<real>(cs.at("output"));
        const long long g = cs.at("guard");
        const size_t bytes = in0.size() * sizeof(real);
        real *d_in, *d_out, *d_ref, *d_poison;
        char* d_flush;
        const size_t flush_bytes = std::max<size_t>(2 * static_cast<size_t>(prop.l2CacheSize), 64 << 20);
        ck(cudaMalloc(&d_in, bytes), "cudaMalloc");
        ck(cudaMalloc(&d_out, bytes), "cudaMalloc");
        ck(cudaMalloc(&d_ref, bytes), "cudaMalloc");
        ck(cudaMalloc(&d_poison, bytes), "cudaMalloc");
        ck(cudaMalloc(&d_flush, flush_bytes), "cudaMalloc");
        ck(cudaMemcpy(d_in, in0.data(), bytes, cudaMemcpyHostToDevice), "copy");
        ck(cudaMemcpy(d_poison, out0.data(), bytes, cudaMemcpyHostToDevice), "copy");
        cudaEvent_t e0, e1;
        ck(cudaEventCreate(&e0), "event");
        ck(cudaEventCreate(&e1), "event");
        std::vector<double> ts, tr;
        long long mismatched_reps = 0;
        std::vector<real> back(out0.size());
        for (int rep = -2; rep < reps; ++rep) {  // two warm-up rounds
            for (int which = 0; which < 2; ++which) {
                // alternate who goes first, so neither always runs right after the flush
                const bool student_turn = (which == 0) == (rep % 2 == 0);
                real* dst = student_turn ? d_out : d_ref;
                ck(cudaMemcpy(dst, d_poison, bytes, cudaMemcpyDeviceToDevice), "poison");
                ck(cudaMemset(d_flush, rep & 0xff, flush_bytes), "flush L2");
                ck(cudaEventRecord(e0), "event");
                if (student_turn) ck(launch(kern, cs, d_in + g, dst + g, nullptr), "launch (timing)");
                else launch_lab_kernel(lr, d_in + g, dst + g);
                ck(cudaEventRecord(e1), "event");
                ck(cudaEventSynchronize(e1), "kernel (timing)");
                float ms = 0;
                ck(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
                if (student_turn) {
                    // The timed launch must produce the checked output, bit for bit.
                    ck(cudaMemcpy(back.data(), d_out, bytes, cudaMemcpyDeviceToHost), "copy back");
                    if (!first_out[c].empty() &&
                        std::memcmp(back.data(), first_out[c].data(), bytes) != 0)
                        ++mismatched_reps;
                }
                if (rep >= 0) (student_turn ? ts : tr).push_back(ms);
            }
        }
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            const size_t m = v.size() / 2;
            return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
        };
        result["timing"] = {{"case", c}, {"reps", reps}, {"student_ms", median(ts)},
                            {"reference_ms", median(tr)}, {"student_all", ts}, {"reference_all", tr},
                            {"mismatched_reps", mismatched_reps},
                            {"reference", "the lab's kernel: " + std::string(version(lr.kernel).source_file)}};
        cudaFree(d_in);
        cudaFree(d_out);
        cudaFree(d_ref);
        cudaFree(d_poison);
        cudaFree(d_flush);
    } catch (const std::exception& e) {
        result.erase("timing");
        result["timing_unavailable"] = std::string(e.what());
    }
    write_result(result);
    return 0;
}

int run_cuda(const json& req) {
    try {
        return is_f64(req) ? run_cuda_as<double>(req) : run_cuda_as<float>(req);
    } catch (const UserError& e) {  // the lab's side (weights, launch): the runner's failure
        throw std::runtime_error(e.what());
    }
}

int probe_cuda() {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        std::printf("%s\n", e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device");
        return 1;
    }
    return 0;
}

}  // namespace stencil::checker::runner
