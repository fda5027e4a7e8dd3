// stencil-check-runner, CUDA half: the PTX both backends run (runner_compile.cpp), assembled by the
// driver (cudaLibraryLoadData), then cudaLibraryGetKernel / cudaLaunchKernel, repeated runs; the global loads
// of the submission counted by the GPU's own counters (CUPTI); and timing against the lab's own
// kernel of the exercise (kernels/*.cuh as the CUDA backend built them), interleaved, with CUDA
// events. Device printf is gated in the PTX (printf_gate.h: the first calls of a launch print, the
// rest cost one atomic each), into a FIFO that holds them, and from there to printf.txt, not to the
// parent. CUDA calls, buffers, event pairs and the L2 flush are the project's (cuda_util.h).
//
// Sections: loading the PTX; launches; device printf; the load count (CUPTI); the checked runs;
// timing; the whole run.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <functional>
#include <optional>

#include "backends/cuda/counters.h"
#include "backends/cuda/cuda_util.h"
#include "backends/cuda/lab_kernel.h"
#include "checker/printf_gate.h"
#include "checker/runner.h"
#include "core/error.h"

namespace stencil::checker::runner {

namespace {

using cuda_detail::DeviceBuffer;
using cuda_detail::EventPair;
using cuda_detail::L2Flush;
// A failed CUDA call on the runner's side: one line (a UserError, made the runner's failure by
// run_cuda below).
constexpr auto ck = [](cudaError_t e, const char* what) { cuda_detail::check(e, what); };

template <class real>
real* cells(const DeviceBuffer& b) { return static_cast<real*>(b.get()); }

struct Loaded {
    cudaLibrary_t lib = nullptr;
    cudaKernel_t kernel = nullptr;
};

// ---- loading the PTX ------------------------------------------------------------------------
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
        if (bytes != sizeof(real)) throw UserError("the weight c" + std::to_string(i) + " has the wrong size");
        ck(cudaMemcpy(p, &coef[i], sizeof(real), cudaMemcpyHostToDevice), "set the weights");
    }
    return true;
}

// ---- launches ---------------------------------------------------------------------------------
template <class real>
cudaError_t launch(const Loaded& l, const CaseSpec& cs, real* in, real* out, cudaStream_t s) {
    unsigned n = static_cast<unsigned>(cs.n);
    void* args[] = {&in, &out, &n};
    return cudaLaunchKernel(reinterpret_cast<const void*>(l.kernel),
                            dim3(cs.grid[0], cs.grid[1], cs.grid[2]),
                            dim3(cs.block[0], cs.block[1], cs.block[2]), args, 0, s);
}

// The lab's kernel of the exercise, at the size of case `cs`.
LaunchRequest lab_request(const Request& req, const CaseSpec& cs) {
    LaunchRequest lr;
    const KernelVersion* v = find_version(req.lab_kernel);
    if (!v) throw std::runtime_error("runner: unknown lab kernel in the request");
    lr.kernel = v->id;
    lr.tile = req.tile;
    lr.radius = req.radius;
    lr.precision = req.precision;
    lr.dims = {cs.n, cs.n, cs.n};
    return lr;
}

// ---- device printf ----------------------------------------------------------------------------
// The gate lets the first kMaxCalls calls of a launch through (the counter is reset before each
// checked launch); the FIFO holds that many records of up to 128 bytes (a format and 15 arguments),
// so nothing is overwritten; the driver writes what they print to printf.txt at the
// synchronisation. A launch that made more calls is reported as cut.
class PrintfSink {
public:
    explicit PrintfSink(long long cap_bytes) : max_calls_(static_cast<unsigned>(std::max(1LL, cap_bytes / 128))) {
        if (cap_bytes > 0) ck(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, static_cast<size_t>(cap_bytes)), "printf FIFO size");
        std::fflush(stdout);
        const int fd = ::open("printf.txt", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd >= 0) {
            ::dup2(fd, 1);
            ::close(fd);
        }
    }
    unsigned max_calls() const { return max_calls_; }
    // After loading: the gate's counter (none when the PTX has no printf).
    void attach(cudaLibrary_t lib, bool gated) {
        size_t bytes = 0;
        if (gated) ck(cudaLibraryGetGlobal(&counter_, &bytes, lib, kPrintfCounterSymbol), "the printf gate's counter");
    }
    void reset() {
        if (counter_) ck(cudaMemset(counter_, 0, sizeof(unsigned)), "reset the printf gate");
    }
    // After a synchronize: what the launch since reset() printed.
    void account(RunOutcome& o) {
        std::fflush(stdout);
        struct stat st {};
        const long long size = ::fstat(1, &st) == 0 ? static_cast<long long>(st.st_size) : seen_;
        o.printf_bytes = size - seen_;
        seen_ = size;
        unsigned calls = 0;
        if (counter_ && cudaMemcpy(&calls, counter_, sizeof calls, cudaMemcpyDeviceToHost) == cudaSuccess)
            o.printf_truncated = calls > max_calls_;
    }

private:
    unsigned max_calls_;
    void* counter_ = nullptr;
    long long seen_ = 0;
};

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
// ---- the load count (CUPTI) -------------------------------------------------------------------
struct CountOutcome {
    std::optional<LoadCounts> counts;
    std::string unavailable;  // when no counts
};

template <class real>
CountOutcome count_loads(const Request& req, const CaseSpec& cs, const Loaded& kern,
                         const std::vector<real>& coef, const std::vector<real>& checked) {
    const auto in0 = read_cells<real>(cs.input);
    const auto out0 = read_cells<real>(cs.output);
    const long long g = cs.guard;
    const size_t bytes = in0.size() * sizeof(real);
    const DeviceBuffer in_buf(bytes, "in (load count)"), out_buf(bytes, "out (load count)"),
        lab_out_buf(bytes, "the lab's out (load count)");
    real* d_in = cells<real>(in_buf);
    real* d_out = cells<real>(out_buf);
    real* d_lab_out = cells<real>(lab_out_buf);
    ck(cudaMemcpy(d_in, in0.data(), bytes, cudaMemcpyHostToDevice), "copy in");
    ck(cudaMemcpy(d_out, out0.data(), bytes, cudaMemcpyHostToDevice), "copy out");
    ck(cudaMemcpy(d_lab_out, out0.data(), bytes, cudaMemcpyHostToDevice), "copy out");
    const std::string metric = "smsp__sass_data_bytes_mem_global_op_ld.sum";
    // The submission's launch and the lab kernel's, in one profiler session.
    std::vector<std::function<void()>> launches{[&] {
        ck(launch(kern, cs, d_in + g, d_out + g, nullptr), "launch (load count)");
        ck(cudaDeviceSynchronize(), "kernel (load count)");
    }};
    const LaunchRequest lr = lab_request(req, cs);
    const std::optional<std::string> lab_unavailable = lab_kernel_unavailable(lr);
    if (!lab_unavailable) {
        upload_lab_kernel_weights(lr, weights_of(coef, lr.radius));
        launches.push_back([&] {
            launch_lab_kernel(lr, d_in + g, d_lab_out + g);
            ck(cudaDeviceSynchronize(), "the lab's kernel (load count)");
        });
    }
    CountOutcome result;
    std::string why;
    const auto measured = measure_launches_metrics(launches, {metric}, &why);
    std::vector<real> counted(out0.size());
    if (measured) ck(cudaMemcpy(counted.data(), d_out, bytes, cudaMemcpyDeviceToHost), "copy back (load count)");
    if (!measured) {
        result.unavailable = why;
    } else if (checked.size() != counted.size() ||
               std::memcmp(checked.data(), counted.data(), bytes) != 0) {
        result.unavailable = "the counting launch's output differs from the checked run's, so its count is not used";
    } else {
        LoadCounts counts;
        counts.global_loads = std::llround((*measured)[0][0] / sizeof(real));
        counts.source = "GPU counters (" + metric + ")";
        if (lab_unavailable) counts.lab_unavailable = *lab_unavailable;
        else counts.lab_global_loads = std::llround((*measured)[1][0] / sizeof(real));
        result.counts = counts;
    }
    return result;
}

// ---- the checked runs ---------------------------------------------------------------------------
// Each case's runs, their buffers written to the run files. Returns false when a launch failed
// (a sticky error ends the context: the run says so and nothing more can run).
template <class real>
bool checked_runs(const Request& req, const Loaded& kern, PrintfSink& printed, Result& result,
                  std::vector<std::vector<real>>& first_out) {
    first_out.assign(req.cases.size(), {});
    for (size_t c = 0; c < req.cases.size(); ++c) {
        const CaseSpec& cs = req.cases[c];
        const auto in0 = read_cells<real>(cs.input);
        const auto out0 = read_cells<real>(cs.output);

        // in[] last, after a freed gap of its own size: cudaMalloc may place buffers of one size
        // back to back, and then a read past in[] (beyond its guard zone) would be a valid access
        // to the next buffer for compute-sanitizer memcheck, and a read before it one to out[].
        // Memory that no allocation owns is reported (seen on an H100 at N = 16, 2026-11-22).
        const DeviceBuffer out_buf(out0.size() * sizeof(real), "out");
        std::optional<DeviceBuffer> fence(std::in_place, in0.size() * sizeof(real), "fence");
        const DeviceBuffer in_buf(in0.size() * sizeof(real), "in");
        fence.reset();
        real* d_in = cells<real>(in_buf);
        real* d_out = cells<real>(out_buf);
        for (size_t r = 0; r < cs.runs.size(); ++r) {
            progress("case " + std::to_string(c) + " N=" + std::to_string(cs.n) + " gpu repeat " + std::to_string(r));
            RunOutcome o;
            o.case_index = int(c);
            o.run = int(r);
            ck(cudaMemcpy(d_in, in0.data(), in0.size() * sizeof(real), cudaMemcpyHostToDevice), "copy in");
            ck(cudaMemcpy(d_out, out0.data(), out0.size() * sizeof(real), cudaMemcpyHostToDevice), "copy out");
            printed.reset();
            cudaError_t e = launch(kern, cs, d_in + cs.guard, d_out + cs.guard, nullptr);
            if (e == cudaSuccess) e = cudaDeviceSynchronize();
            printed.account(o);
            if (e != cudaSuccess) {
                o.ok = false;
                o.launch_error = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
                result.runs.push_back(std::move(o));
                return false;
            }
            std::vector<real> in(in0.size()), out(out0.size());
            ck(cudaMemcpy(in.data(), d_in, in.size() * sizeof(real), cudaMemcpyDeviceToHost), "copy back");
            ck(cudaMemcpy(out.data(), d_out, out.size() * sizeof(real), cudaMemcpyDeviceToHost), "copy back");
            write_cells(run_file(int(c), int(r), "out"), out);
            write_cells(run_file(int(c), int(r), "in"), in);
            if (r == 0) first_out[c] = std::move(out);
            result.runs.push_back(std::move(o));
        }
    }
    return true;
}

// ---- timing: student vs the lab's kernel, interleaved, L2 flushed, outputs re-checked ------------
template <class real>
TimingOutcome time_against_lab(const Request& req, const Loaded& kern, const LaunchRequest& lr,
                               const std::vector<real>& checked) {
    const TimingSpec& tm = *req.timing;
    const CaseSpec& cs = req.cases.at(static_cast<size_t>(tm.case_index));
    progress("timing against the lab's kernel at N=" + std::to_string(cs.n));
    const auto in0 = read_cells<real>(cs.input);
    const auto out0 = read_cells<real>(cs.output);
    const long long g = cs.guard;
    const size_t bytes = in0.size() * sizeof(real);
    const DeviceBuffer in_buf(bytes, "in"), out_buf(bytes, "out"), ref_buf(bytes, "the lab's out"),
        poison_buf(bytes, "poison");
    real* d_in = cells<real>(in_buf);
    real* d_out = cells<real>(out_buf);
    real* d_ref = cells<real>(ref_buf);
    real* d_poison = cells<real>(poison_buf);
    ck(cudaMemcpy(d_in, in0.data(), bytes, cudaMemcpyHostToDevice), "copy");
    ck(cudaMemcpy(d_poison, out0.data(), bytes, cudaMemcpyHostToDevice), "copy");
    // The checked output, on the device: each timed launch's output is compared with it there.
    const DeviceBuffer checked_buf(bytes, "the checked output");
    if (!checked.empty()) ck(cudaMemcpy(checked_buf.get(), checked.data(), bytes, cudaMemcpyHostToDevice), "copy");
    L2Flush l2;
    EventPair timer;
    TimingOutcome t;
    t.case_index = tm.case_index;
    t.reps = tm.reps;
    for (int rep = -2; rep < tm.reps; ++rep) {  // two warm-up rounds
        for (int which = 0; which < 2; ++which) {
            // alternate who goes first, so neither always runs right after the flush
            const bool student_turn = (which == 0) == (rep % 2 == 0);
            real* dst = student_turn ? d_out : d_ref;
            ck(cudaMemcpy(dst, d_poison, bytes, cudaMemcpyDeviceToDevice), "poison");
            l2.flush();
            timer.start();
            if (student_turn) ck(launch(kern, cs, d_in + g, dst + g, nullptr), "launch (timing)");
            else launch_lab_kernel(lr, d_in + g, dst + g);
            timer.stop();
            ck(cudaDeviceSynchronize(), "kernel (timing)");
            const double ms = timer.ms();
            if (student_turn) {
                // The timed launch must produce the checked output, bit for bit.
                if (!checked.empty() && cuda_detail::count_differing_words(d_out, checked_buf.get(), bytes) != 0)
                    ++t.mismatched_reps;
            }
            if (rep >= 0) (student_turn ? t.student_all : t.reference_all).push_back(ms);
        }
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        const size_t m = v.size() / 2;
        return v.empty() ? 0.0 : v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
    };
    t.student_ms = median(t.student_all);
    t.reference_ms = median(t.reference_all);
    t.reference = "the lab's kernel: " + std::string(version(lr.kernel).source_file);
    return t;
}

// ---- the whole run ------------------------------------------------------------------------------
template <class real>
int run_cuda_as(const Request& req) {
    Result result;
    // NVRTC first, before the CUDA runtime reserves its address space: the compile's memory bound
    // (runner_compile.cpp) is then what NVRTC may use, not what the driver has mapped.
    Compiled student = compile_submission(req);
    if (!student.ok) {
        result.compile = compile_failure(student.stage, student.log);
        write_result(result);
        return 0;
    }
    cudaDeviceProp prop{};
    ck(cudaSetDevice(0), "cudaSetDevice");
    ck(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    result.device = prop.name;
    PrintfSink printed(req.printf_cap_bytes);
    const auto gated = gate_device_printf(student.ptx, printed.max_calls());
    if (gated) student.ptx = *gated;

    const std::vector<real> coef(req.coefficients.begin(), req.coefficients.end());
    Loaded kern;
    if (std::string log; !load(student, coef, kern, log)) {
        result.compile = compile_failure(CompileStage::load, log);
        write_result(result);
        return 0;
    }
    printed.attach(kern.lib, gated.has_value());
    CompileOutcome compiled;
    compiled.ok = true;
    compiled.seconds = student.seconds;
    result.compile = compiled;

    std::vector<std::vector<real>> first_out;
    if (!checked_runs(req, kern, printed, result, first_out)) {
        write_result(result);
        return 0;
    }

    // Global loads per output, from the GPU's counters. After the checked runs: a failure here
    // (the counters, the lab's kernel) is no verdict on the submission, only a missing extra.
    if (req.count) {
        const size_t c = static_cast<size_t>(req.count->case_index);
        progress("counting global loads at N=" + std::to_string(req.cases.at(c).n) + " (CUPTI)");
        try {
            CountOutcome counted = count_loads(req, req.cases.at(c), kern, coef, first_out.at(c));
            if (counted.counts) {
                counted.counts->case_index = int(c);
                result.counts = counted.counts;
            } else {
                result.counts_unavailable = counted.unavailable;
            }
        } catch (const std::exception& e) {
            result.counts_unavailable = std::string(e.what());
        }
    }

    // (A failure on the lab's side is "no timing", not a crash of a kernel that passed.)
    if (req.timing) try {
        const size_t c = static_cast<size_t>(req.timing->case_index);
        const LaunchRequest lr = lab_request(req, req.cases.at(c));
        if (auto e = lab_kernel_unavailable(lr)) {
            result.timing_unavailable = "the lab's kernel: " + *e;
        } else {
            upload_lab_kernel_weights(lr, weights_of(coef, lr.radius));
            result.timing = time_against_lab(req, kern, lr, first_out.at(c));
        }
    } catch (const std::exception& e) {
        result.timing.reset();
        result.timing_unavailable = std::string(e.what());
    }
    write_result(result);
    return 0;
}

}  // namespace

int run_cuda(const Request& req) {
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
        return kProbeNoDeviceExit;
    }
    return 0;
}

}  // namespace stencil::checker::runner
