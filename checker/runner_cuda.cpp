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
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <functional>
#include <optional>
#include <sstream>

#include "backends/cuda/cardiac2d.h"
#include "backends/cuda/counters.h"
#include "backends/cuda/cuda_util.h"
#include "backends/cuda/derivative.h"
#include "backends/cuda/lab_kernel.h"
#include "backends/cpu/ptx/ir.h"
#include "checker/printf_gate.h"
#include "checker/runner.h"
#include "core/error.h"
#include "kernels/cardiac2d/versions.h"
#include "kernels/derivative/versions.h"

namespace stencil::checker::runner {

namespace {

// result.json, whole or not at all (written beside, then renamed).
void write_result(const Result& result) {
    std::ofstream f("result.json.tmp", std::ios::trunc);
    f << json(result).dump(1);
    f.close();
    std::rename("result.json.tmp", "result.json");
}

using cuda_detail::DeviceBuffer;
using cuda_detail::EventPair;
using cuda_detail::L2Flush;
// A failed CUDA call on the runner's side: one line (a UserError, made the runner's failure by
// run_cuda below).
constexpr auto ck = [](cudaError_t e, const char* what) { cuda_detail::check(e, what); };

struct Loaded {
    cudaLibrary_t lib = nullptr;
    cudaKernel_t kernel = nullptr;
    // The module's own global variables (the student's `__device__` ones): what a launch leaves in
    // them is there for the next, so each run reports which it changed (RunOutcome::state_changed),
    // as the CPU engine's DeviceState does.
    struct Global {
        std::string name;
        void* ptr = nullptr;
        size_t bytes = 0;
    };
    std::vector<Global> globals;
};

// The names of the `.global` variables a PTX module defines (`.global .align 4 .u32 next_tile;`,
// `.visible .global .align 8 .b8 _ZN1a1bE[16];`), the strings of printf ($str) left out.
std::vector<std::string> ptx_global_names(const std::string& ptx) {
    std::vector<std::string> names;
    std::istringstream lines(ptx);
    for (std::string line; std::getline(lines, line);) {
        const size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos) continue;
        const std::string_view text = std::string_view(line).substr(first);
        if (!text.starts_with(".global ") && !text.starts_with(".visible .global ") && !text.starts_with(".weak .global "))
            continue;
        const size_t stop = line.find_first_of("[=;", first);
        if (stop == std::string::npos) continue;
        const size_t last = line.find_last_not_of(" \t", stop - 1);
        const size_t start = line.find_last_of(" \t", last) + 1;
        const std::string name = line.substr(start, last + 1 - start);
        if (!name.empty() && !name.starts_with("$str")) names.push_back(name);
    }
    return names;
}

// ---- loading the PTX ------------------------------------------------------------------------
// The driver assembles the PTX for this GPU (its JIT: ptxas). It refuses what the GPU cannot run,
// e.g. more than 48 KiB of static shared memory: then `log` says why and nothing is loaded.
template <class real>
bool load(const Request& req, const Compiled& c, Loaded& l, std::string& log) {
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
    for (const std::string& name : ptx_global_names(c.ptx)) {
        Loaded::Global g{name};
        if (cudaLibraryGetGlobal(&g.ptr, &g.bytes, l.lib, name.c_str()) == cudaSuccess && g.bytes > 0)
            l.globals.push_back(std::move(g));
    }
    for (size_t i = 0; i < req.constants.size(); ++i) {  // the harness's constants, by their lowered names
        void* p = nullptr;
        size_t bytes = 0;
        if (const cudaError_t g = cudaLibraryGetGlobal(&p, &bytes, l.lib, c.constants[i].c_str()); g != cudaSuccess)
            return refused(g, "cudaLibraryGetGlobal (the harness's constants)");
        const std::vector<unsigned char> v = constant_bytes<real>(req.constants[i]);
        if (bytes != v.size()) throw UserError("the harness's constant " + req.constants[i].name + " has the wrong size");
        ck(cudaMemcpy(p, v.data(), v.size(), cudaMemcpyHostToDevice), "set the harness's constants");
    }
    return true;
}

// ---- launches ---------------------------------------------------------------------------------
// A case's arrays on the device, and their first state (the parent's files) to reset them from.
template <class real>
struct DeviceCase {
    std::vector<std::vector<real>> initial;  // per buffer: guard + cells + guard
    std::vector<DeviceBuffer> bufs;
    long long guard = 0;

    explicit DeviceCase(const CaseSpec& cs) : guard(cs.guard) {
        check_args(cs);
        for (const BufferSpec& b : cs.buffers) initial.push_back(read_cells<real>(b.file));
        // Read-only arrays last, after a freed gap of their own size: cudaMalloc may place buffers
        // of one size back to back, and then a read past in[] (beyond its guard zone) would be a
        // valid access to the next buffer for compute-sanitizer memcheck. Memory that no
        // allocation owns is reported: the gap makes such a read one.
        bufs.resize(cs.buffers.size());
        for (int pass = 0; pass < 2; ++pass)
            for (size_t b = 0; b < cs.buffers.size(); ++b) {
                if (cs.buffers[b].read_only != (pass == 1)) continue;
                const size_t bytes = initial[b].size() * sizeof(real);
                std::optional<DeviceBuffer> fence;
                if (pass == 1) fence.emplace(bytes, "fence");
                bufs[b] = DeviceBuffer(bytes, cs.buffers[b].name.c_str());
            }
        reset();
    }
    void reset() {
        for (size_t b = 0; b < bufs.size(); ++b)
            ck(cudaMemcpy(bufs[b].get(), initial[b].data(), initial[b].size() * sizeof(real), cudaMemcpyHostToDevice),
               "copy the case's arrays");
    }
    // The first cell of each array (past its guard zone), as the kernel is given it.
    std::vector<void*> cells() const {
        std::vector<void*> p;
        for (const DeviceBuffer& b : bufs) p.push_back(static_cast<real*>(b.get()) + guard);
        return p;
    }
    std::vector<std::vector<real>> download() const {
        std::vector<std::vector<real>> out(bufs.size());
        for (size_t b = 0; b < bufs.size(); ++b) {
            out[b].resize(initial[b].size());
            ck(cudaMemcpy(out[b].data(), bufs[b].get(), out[b].size() * sizeof(real), cudaMemcpyDeviceToHost), "copy back");
        }
        return out;
    }
};

// The kernel's arguments for a case: every value in storage of its own type, argv pointing at them.
template <class real>
struct ArgPack {
    std::vector<void*> pointers;
    std::vector<std::int32_t> i32;
    std::vector<std::uint32_t> u32;
    std::vector<real> reals;
    std::vector<void*> argv;
    ArgPack(const CaseSpec& cs, const std::vector<void*>& cells)
        : pointers(cs.args.size()), i32(cs.args.size()), u32(cs.args.size()), reals(cs.args.size()) {
        for (size_t i = 0; i < cs.args.size(); ++i) {
            const KernelArg& a = cs.args[i];
            switch (a.kind) {
                case ArgKind::buffer: pointers[i] = cells.at(size_t(a.buffer)); argv.push_back(&pointers[i]); break;
                case ArgKind::i32: i32[i] = std::int32_t(a.value); argv.push_back(&i32[i]); break;
                case ArgKind::u32: u32[i] = std::uint32_t(a.value); argv.push_back(&u32[i]); break;
                case ArgKind::real: reals[i] = real(a.value); argv.push_back(&reals[i]); break;
            }
        }
    }
};

template <class real>
cudaError_t launch(const Loaded& l, const CaseSpec& cs, const std::vector<void*>& cells, cudaStream_t s) {
    ArgPack<real> args(cs, cells);
    // Past 48 KiB a kernel's dynamic shared memory must be asked for first, as an instructor's own
    // launch code would; within the limit the attribute is left as the module set it.
    if (cs.dynamic_shared_bytes > 48 * 1024) {
        const cudaError_t e = cudaFuncSetAttribute(reinterpret_cast<const void*>(l.kernel),
                                                   cudaFuncAttributeMaxDynamicSharedMemorySize, int(cs.dynamic_shared_bytes));
        if (e != cudaSuccess) return e;
    }
    return cudaLaunchKernel(reinterpret_cast<const void*>(l.kernel), dim3(cs.grid[0], cs.grid[1], cs.grid[2]),
                            dim3(cs.block[0], cs.block[1], cs.block[2]), args.argv.data(), size_t(cs.dynamic_shared_bytes), s);
}

// The lab's kernel of the exercise at case `cs`, on arrays laid out as the submission's.
struct LabCall {
    std::optional<std::string> unavailable;       // why it cannot run here
    std::function<void()> prepare;                // its weights into constant memory
    std::function<void(const std::vector<void*>&)> launch;  // asynchronous
    std::string source_file;
};

LabCall star3d_lab(const Request& req, const CaseSpec& cs) {
    const KernelVersion* v = find_version(req.lab_kernel);
    if (!v) throw std::runtime_error("runner: unknown lab kernel in the request");
    LaunchRequest lr;
    lr.kernel = v->id;
    lr.tile = req.tile;
    lr.radius = req.radius;
    lr.precision = req.precision;
    lr.dims = {cs.n, cs.n, cs.n};
    StencilWeights w;
    w.radius = req.radius;
    for (size_t i = 0; i < req.constants.size() && i < w.c.size(); ++i) w.c[i] = req.constants[i].values.at(0);
    return {lab_kernel_unavailable(lr), [lr, w] { upload_lab_kernel_weights(lr, w); },
            [lr](const std::vector<void*>& b) { launch_lab_kernel(lr, b.at(0), b.at(1)); }, v->source_file};
}

LabCall cardiac_lab(const Request& req, const CaseSpec& cs) {
    const cardiac2d::Version* v = cardiac2d::find_version(req.lab_kernel);
    if (!v || cs.args.size() != 6) throw std::runtime_error("runner: unknown lab kernel in the request");
    const int n = int(cs.args[3].value);
    const double alpha = cs.args[4].value, dt = cs.args[5].value;
    const Precision p = req.precision;
    return {std::nullopt, [] {},
            [v, p, n, alpha, dt](const std::vector<void*>& b) {
                cardiac2d::launch_update_on_device(v->id, p, b.at(0), b.at(1), b.at(2), n, alpha, dt);
            },
            v->source_file};
}

LabCall derivative_lab(const Request& req, const CaseSpec& cs) {
    const DerivativeVersion* v = find_derivative_version(req.lab_kernel);
    if (!v || cs.args.size() != 5) throw std::runtime_error("runner: unknown lab kernel in the request");
    DerivativeRequest dr;
    dr.kernel = v->id;
    dr.precision = req.precision;
    dr.dims = {int(cs.args[2].value), int(cs.args[3].value), int(cs.args[4].value)};
    return {derivative_grid_error(dr.kernel, dr.dims, dr.precision), [dr] { upload_derivative_weights_cuda(dr); },
            [dr](const std::vector<void*>& b) { launch_derivative_on_device(dr, b.at(0), b.at(1)); }, v->source_file};
}

LabCall lab_call(const Request& req, const CaseSpec& cs) {
    // An exercise whose stencil its spec writes as data has no kernel of the lab's to compare with.
    if (req.lab_kernel.empty()) return {"the exercise's stencil is written as data: the lab has no kernel of it", {}, {}, {}};
    switch (req.problem) {
        case Problem::star3d: return star3d_lab(req, cs);
        case Problem::cardiac2d: return cardiac_lab(req, cs);
        case Problem::derivative: return derivative_lab(req, cs);
    }
    throw std::runtime_error("runner: unknown problem");
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

// The outputs a run leaves in the arrays the kernel writes (read-only ones are the parent's to compare).
template <class real>
using Outputs = std::vector<std::vector<real>>;

template <class real>
CountOutcome count_loads(const Request& req, const CaseSpec& cs, const Loaded& kern, const Outputs<real>& checked) {
    DeviceCase<real> mine(cs), lab(cs);
    const std::string metric = "smsp__sass_data_bytes_mem_global_op_ld.sum";
    // The submission's launch and the lab kernel's, in one profiler session.
    std::vector<std::function<void()>> launches{[&] {
        ck(launch<real>(kern, cs, mine.cells(), nullptr), "launch (load count)");
        ck(cudaDeviceSynchronize(), "kernel (load count)");
    }};
    const LabCall lc = lab_call(req, cs);
    if (!lc.unavailable) {
        lc.prepare();
        launches.push_back([&] {
            lc.launch(lab.cells());
            ck(cudaDeviceSynchronize(), "the lab's kernel (load count)");
        });
    }
    CountOutcome result;
    std::string why;
    const auto measured = measure_launches_metrics(launches, {metric}, &why);
    if (!measured) {
        result.unavailable = why;
        return result;
    }
    const Outputs<real> counted = mine.download();
    bool same = checked.size() == counted.size();
    for (size_t b = 0; same && b < counted.size(); ++b)
        same = checked[b].size() == counted[b].size() &&
               std::memcmp(checked[b].data(), counted[b].data(), counted[b].size() * sizeof(real)) == 0;
    if (!same) {
        result.unavailable = "the counting launch's output differs from the checked run's, so its count is not used";
        return result;
    }
    LoadCounts counts;
    counts.global_loads = std::llround((*measured)[0][0] / sizeof(real));
    counts.source = "GPU counters (" + metric + ")";
    if (lc.unavailable) counts.lab_unavailable = *lc.unavailable;
    else counts.lab_global_loads = std::llround((*measured)[1][0] / sizeof(real));
    result.counts = counts;
    return result;
}

// ---- the checked runs ---------------------------------------------------------------------------
std::vector<std::vector<unsigned char>> read_globals(const Loaded& kern) {
    std::vector<std::vector<unsigned char>> bytes;
    for (const Loaded::Global& g : kern.globals) {
        bytes.emplace_back(g.bytes);
        ck(cudaMemcpy(bytes.back().data(), g.ptr, g.bytes, cudaMemcpyDeviceToHost), "read the module's variables");
    }
    return bytes;
}

std::vector<std::string> changed_globals(const Loaded& kern, const std::vector<std::vector<unsigned char>>& before) {
    std::vector<std::string> names;
    const auto now = read_globals(kern);
    for (size_t i = 0; i < now.size() && i < before.size(); ++i)
        if (now[i] != before[i]) names.push_back(ptx::demangled_variable_name(kern.globals[i].name));
    return names;
}

// Each case's runs, their arrays written to the run files. Returns false when a launch failed
// (a sticky error ends the context: the run says so and nothing more can run).
template <class real>
bool checked_runs(const Request& req, const Loaded& kern, PrintfSink& printed, Result& result,
                  std::vector<Outputs<real>>& first_out) {
    first_out.assign(req.cases.size(), {});
    for (size_t c = 0; c < req.cases.size(); ++c) {
        const CaseSpec& cs = req.cases[c];
        DeviceCase<real> dev(cs);
        for (size_t r = 0; r < cs.runs.size(); ++r) {
            progress("case " + std::to_string(c) + " N=" + std::to_string(cs.n) + " gpu repeat " + std::to_string(r));
            RunOutcome o;
            o.case_index = int(c);
            o.run = int(r);
            if (r > 0) dev.reset();
            printed.reset();
            const std::vector<std::vector<unsigned char>> state_before = read_globals(kern);
            cudaError_t e = launch<real>(kern, cs, dev.cells(), nullptr);
            if (e == cudaSuccess) e = cudaDeviceSynchronize();
            printed.account(o);
            if (e == cudaSuccess) o.state_changed = changed_globals(kern, state_before);
            if (e != cudaSuccess) {
                o.ok = false;
                o.launch_error = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
                result.runs.push_back(std::move(o));
                return false;
            }
            Outputs<real> out = dev.download();
            for (size_t b = 0; b < out.size(); ++b) write_cells(run_file(int(c), int(r), cs.buffers[b].name), out[b]);
            if (r == 0) first_out[c] = std::move(out);
            result.runs.push_back(std::move(o));
        }
    }
    return true;
}

// ---- timing: student vs the lab's kernel, interleaved, L2 flushed, outputs re-checked ------------
template <class real>
TimingOutcome time_against_lab(const Request& req, const Loaded& kern, const LabCall& lab, const Outputs<real>& checked) {
    const TimingSpec& tm = *req.timing;
    const CaseSpec& cs = req.cases.at(static_cast<size_t>(tm.case_index));
    progress("timing against the lab's kernel at N=" + std::to_string(cs.n));
    // Each side its own arrays, reset from their first state on the device before every launch
    // (a kernel may read what it writes, as the cardiac step reads R).
    DeviceCase<real> mine(cs), theirs(cs);
    std::vector<DeviceBuffer> first(cs.buffers.size()), checked_dev(cs.buffers.size());
    for (size_t b = 0; b < cs.buffers.size(); ++b) {
        if (cs.buffers[b].read_only) continue;
        const size_t bytes = mine.initial[b].size() * sizeof(real);
        first[b] = DeviceBuffer(bytes, "the first state");
        ck(cudaMemcpy(first[b].get(), mine.initial[b].data(), bytes, cudaMemcpyHostToDevice), "copy");
        // The checked output, on the device: each timed launch's output is compared with it there.
        if (b < checked.size() && !checked[b].empty()) {
            checked_dev[b] = DeviceBuffer(bytes, "the checked output");
            ck(cudaMemcpy(checked_dev[b].get(), checked[b].data(), bytes, cudaMemcpyHostToDevice), "copy");
        }
    }
    auto restore = [&](DeviceCase<real>& d) {
        for (size_t b = 0; b < cs.buffers.size(); ++b)
            if (first[b].get())
                ck(cudaMemcpy(d.bufs[b].get(), first[b].get(), first[b].bytes(), cudaMemcpyDeviceToDevice), "reset");
    };
    L2Flush l2;
    EventPair timer;
    TimingOutcome t;
    t.case_index = tm.case_index;
    t.reps = tm.reps;
    for (int rep = -2; rep < tm.reps; ++rep) {  // two warm-up rounds
        for (int which = 0; which < 2; ++which) {
            // alternate who goes first, so neither always runs right after the flush
            const bool student_turn = (which == 0) == (rep % 2 == 0);
            DeviceCase<real>& d = student_turn ? mine : theirs;
            restore(d);
            l2.flush();
            timer.start();
            if (student_turn) ck(launch<real>(kern, cs, d.cells(), nullptr), "launch (timing)");
            else lab.launch(d.cells());
            timer.stop();
            ck(cudaDeviceSynchronize(), "kernel (timing)");
            const double ms = timer.ms();
            if (student_turn) {
                // The timed launch must produce the checked output, bit for bit.
                bool differs = false;
                for (size_t b = 0; b < cs.buffers.size(); ++b)
                    if (checked_dev[b].get() &&
                        cuda_detail::count_differing_words(d.bufs[b].get(), checked_dev[b].get(), checked_dev[b].bytes()) != 0)
                        differs = true;
                if (differs) ++t.mismatched_reps;
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
    t.reference = "the lab's kernel: " + lab.source_file;
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

    Loaded kern;
    if (std::string log; !load<real>(req, student, kern, log)) {
        result.compile = compile_failure(CompileStage::load, log);
        write_result(result);
        return 0;
    }
    printed.attach(kern.lib, gated.has_value());
    CompileOutcome compiled;
    compiled.ok = true;
    compiled.seconds = student.seconds;
    result.compile = compiled;

    std::vector<Outputs<real>> first_out;
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
            CountOutcome counted = count_loads<real>(req, req.cases.at(c), kern, first_out.at(c));
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
        const LabCall lab = lab_call(req, req.cases.at(c));
        if (lab.unavailable) {
            result.timing_unavailable = "the lab's kernel: " + *lab.unavailable;
        } else {
            lab.prepare();
            result.timing = time_against_lab<real>(req, kern, lab, first_out.at(c));
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
