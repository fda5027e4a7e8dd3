// stencil-check-runner, CPU half: the submission's PTX (runner_compile.cpp) on the PTX engine
// (backends/cpu/ptx/engine.h), under each schedule of the request, shared checks on. No code of
// the submission runs natively: the engine interprets it, bounds-checking every access.
//
// The order still matters, for the second wall:
//   1. read every input into memory and open every file this run will write (the run files and
//      result.json), compile with NVRTC (it loads its builtins library) and load the PTX, while
//      the process may still open files;
//   2. install the seccomp filter (checker/sandbox.h): from here on no exec, fork, socket,
//      signal to another process, or open for writing;
//   3. run, writing only to the descriptors opened in 1.
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "backends/cpu/ptx/engine.h"
#include "core/engine_trace_text.h"
#include "checker/protocol.h"
#include "checker/runner.h"
#include "checker/runner_replay.h"
#include "checker/sandbox.h"

namespace stencil::checker::runner {

namespace {

DiagnosticKind kind_of(engine::DiagKind k) {
    switch (k) {
        case engine::DiagKind::race: return DiagnosticKind::race;
        case engine::DiagKind::uninitialized_shared_read: return DiagnosticKind::uninitialized_shared_read;
        case engine::DiagKind::divergent_barrier: return DiagnosticKind::divergent_barrier;
        case engine::DiagKind::exit_before_barrier: return DiagnosticKind::exit_before_barrier;
        case engine::DiagKind::out_of_bounds: return DiagnosticKind::out_of_bounds;
        case engine::DiagKind::kernel_exception: return DiagnosticKind::kernel_exception;
        case engine::DiagKind::timeout: return DiagnosticKind::timeout;
        case engine::DiagKind::input_write: return DiagnosticKind::input_write;
    }
    return DiagnosticKind::kernel_exception;
}

AccessOp op_of(engine::Op o) {
    switch (o) {
        case engine::Op::load: return AccessOp::load;
        case engine::Op::store: return AccessOp::store;
        case engine::Op::atomic: return AccessOp::atomic;
    }
    return AccessOp::load;
}

EngineDiagnostic diagnostic_of(const engine::Diagnostic& d) {
    EngineDiagnostic e;
    e.kind = kind_of(d.kind);
    e.message = d.message;
    e.block = to_int3(d.block);
    e.block_b = to_int3(d.block_b);
    e.thread_a = to_int3(d.thread_a_idx);
    e.thread_b = to_int3(d.thread_b_idx);
    e.interval = d.interval;
    e.op_a = op_of(d.op_a);
    e.op_b = op_of(d.op_b);
    e.space = d.space == engine::Space::shared ? MemorySpace::shared : MemorySpace::global;
    e.array = d.array;
    e.offset = d.offset;
    e.elem_size = d.elem_size;
    e.element = d.elem_size > 0 && d.offset >= 0 ? d.offset / d.elem_size : -1;
    e.site_a = d.site_a;
    e.site_b = d.site_b;
    e.file = d.file;
    e.line = d.line;
    e.instruction = d.instruction;
    e.other = {d.file_b, d.line_b, d.instruction_b};
    return e;
}

// A file opened for writing before the filter; written (once) after it.
struct OutFile {
    std::string path;
    int fd = -1;
};

OutFile open_for_writing(const std::string& path) {
    OutFile f{path, ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)};
    if (f.fd < 0) throw std::runtime_error("runner: cannot create " + path + ": " + std::strerror(errno));
    return f;
}

void write_all(const OutFile& f, const void* data, size_t bytes) {
    const char* p = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::write(f.fd, p, bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::runtime_error("runner: cannot write " + f.path);
        p += n;
        bytes -= static_cast<size_t>(n);
    }
}

void write_result_to(const OutFile& f, const Result& r) {
    const std::string text = json(r).dump(1);
    write_all(f, text.data(), text.size());
}

// A case's arrays as the parent wrote them, and the files each run writes them to.
template <class real>
struct CaseData {
    std::vector<std::vector<real>> initial;     // per buffer: guard + cells + guard
    std::vector<std::vector<OutFile>> files;    // per run, per buffer
};

engine::Schedule schedule_of(Schedule s) {
    return s == Schedule::reversed ? engine::Schedule::reversed
           : s == Schedule::random ? engine::Schedule::random
                                   : engine::Schedule::in_order;
}

engine::BlockOrder block_order_of(Schedule s) {
    // Blocks run in this order too: a race between blocks on global memory (one block writing a
    // cell another owns) then shows as outputs that differ between runs.
    return s == Schedule::reversed ? engine::BlockOrder::reversed
           : s == Schedule::random ? engine::BlockOrder::random
                                   : engine::BlockOrder::in_order;
}

// Instructions one block may execute before the run is a timeout: per thread 10000 + 500 N. A
// correct kernel of any exercise executes well under a tenth of it (the coarsened kernels' march
// along z is the longest: about 50 per plane); a loop that never ends reaches it in a fraction of
// a second, at the first size, exactly and whatever the machine's speed.
long long block_budget(const CaseSpec& cs) {
    return (long long)cs.block[0] * cs.block[1] * cs.block[2] * (10000 + 500LL * cs.n);
}

// Step 1: every input read and every output file opened while the process may still open files.
template <class real>
std::vector<CaseData<real>> prepare_cases(const Request& req) {
    std::vector<CaseData<real>> data(req.cases.size());
    for (size_t c = 0; c < req.cases.size(); ++c) {
        const CaseSpec& cs = req.cases[c];
        check_args(cs);
        for (const BufferSpec& b : cs.buffers) {
            data[c].initial.push_back(read_cells<real>(b.file));
            if ((long long)data[c].initial.back().size() != b.cells + 2 * cs.guard)
                throw std::runtime_error("runner: " + b.file + " does not hold the case's cells");
        }
        for (size_t r = 0; r < cs.runs.size(); ++r) {
            data[c].files.emplace_back();
            for (const BufferSpec& b : cs.buffers)
                data[c].files.back().push_back(open_for_writing(run_file(int(c), int(r), b.name)));
        }
    }
    return data;
}

// Step 1 too: the PTX compiled and loaded, or why not (then `result.compile` says it).
std::shared_ptr<const ptx::Module> compile_and_load(const Request& req, Compiled& k, Result& result) {
    k = compile_submission(req);
    if (!k.ok) {
        result.compile = compile_failure(k.stage, k.log);
        return nullptr;
    }
    std::shared_ptr<const ptx::Module> module;
    try {
        module = ptx::load(k.ptx);
    } catch (const ptx::Error& e) {
        // NVRTC compiled it, the engine cannot run it (an instruction or a construct it lacks, an
        // external function no one defines): nothing of the submission can be judged here.
        result.compile = compile_failure(CompileStage::load, std::string("the CPU backend cannot run this PTX: ") + e.what());
        return nullptr;
    }
    const ptx::EntryInfo* entry = ptx::find_entry(*module, k.kernel);
    if (!entry) throw std::runtime_error("runner: the PTX has no entry " + k.kernel);
    if (entry->static_shared_bytes > kMaxStaticSharedBytes) {
        result.compile = compile_failure(CompileStage::limits, fmt::format(
            "{}: the kernel declares {} bytes ({:.1f} KiB) of static __shared__ memory per block; "
            "a GPU allows at most {} bytes (48 KiB): ptxas refuses it",
            req.display_name, entry->static_shared_bytes, entry->static_shared_bytes / 1024.0,
            kMaxStaticSharedBytes));
        return nullptr;
    }
    CompileOutcome ok;
    ok.ok = true;
    ok.seconds = k.seconds;
    result.compile = ok;
    return module;
}

struct EngineRun {
    RunOutcome outcome;
    engine::Counts counts;          // when counted
    bool budget_reached = false;  // a block ran out of its instruction budget
    std::string trace;            // when traced: the block's accesses (core/engine_trace_text.h)
};

// What the GPU leaves unspecified, for a run that explores it: shared memory's first bytes random,
// the clocks at another stride from other starts, approximate results moved within their bounds,
// some device mallocs refused; all from the run's seed.
ptx::Explore exploration(const RunSpec& run) {
    ptx::Explore e;
    e.seed = run.seed ^ 0xE5C0FFEEull;
    if (!run.explore) return e;
    e.shared_init = ptx::Explore::SharedInit::random;
    e.clock_stride = 8 + std::uint32_t(run.seed % 25);
    e.clock_jitter = true;
    e.perturb_approx = true;
    e.refuse_some_mallocs = true;
    return e;
}

// The kernel's parameters as the engine takes them: buffers as their addresses, integers as they
// are, reals bit-cast in the request's precision.
template <class real>
std::vector<std::uint64_t> engine_params(const CaseSpec& cs) {
    std::vector<std::uint64_t> params;
    for (const KernelArg& a : cs.args) {
        switch (a.kind) {
            case ArgKind::buffer: params.push_back(ptx::buffer_address(a.buffer)); break;
            case ArgKind::i32: params.push_back(std::uint32_t(std::int32_t(a.value))); break;
            case ArgKind::u32: params.push_back(std::uint32_t(a.value)); break;
            case ArgKind::real: {
                const real v = static_cast<real>(a.value);
                std::uint64_t bits = 0;
                std::memcpy(&bits, &v, sizeof v);
                params.push_back(bits);
                break;
            }
        }
    }
    return params;
}

// Step 3: one (case, run) on the engine, on the device state the runs share; its buffers written
// to the run's files.
template <class real>
EngineRun run_once(const Request& req, const ptx::Module& module, const Compiled& k, ptx::DeviceState& device,
                   size_t c, size_t r, const CaseData<real>& data, bool counted, const TraceSpec* traced = nullptr,
                   ptx::Recording* recording = nullptr) {
    const CaseSpec& cs = req.cases[c];
    const RunSpec& run = cs.runs[r];
    std::vector<std::vector<real>> bufs = data.initial;
    ptx::Launch L;
    L.entry = k.kernel;
    L.grid = {int(cs.grid[0]), int(cs.grid[1]), int(cs.grid[2])};
    L.block = {int(cs.block[0]), int(cs.block[1]), int(cs.block[2])};
    L.dynamic_shared_bytes = size_t(cs.dynamic_shared_bytes);
    L.limits.registers = k.registers;
    L.limits.frame_bytes = k.frame_bytes;
    L.explore = exploration(run);
    L.state = &device;
    L.check_block_stride = cs.check_block_stride;
    L.recording = recording;
    // Each array's cells only: every access beyond them is caught, even one into the guard zones
    // the parent placed around them. A read-only array's stores are reported (input_write) even
    // when the kernel restores the value later.
    for (size_t b = 0; b < cs.buffers.size(); ++b)
        L.buffers.push_back({bufs[b].data() + cs.guard, size_t(cs.buffers[b].cells) * sizeof(real), int(b),
                             cs.buffers[b].name, cs.buffers[b].read_only});
    L.params = engine_params<real>(cs);
    for (size_t i = 0; i < req.constants.size(); ++i)
        L.constants.push_back(ptx::ConstantInit{k.constants[i], constant_bytes<real>(req.constants[i])});
    L.block_instruction_budget = block_budget(cs);
    // Device printf is kept (capped), so that a kernel printing in a loop costs its cap only.
    std::string printed;
    L.printf_output = &printed;
    L.printf_cap = static_cast<size_t>(req.printf_cap_bytes);
    engine::ExecOptions opt;
    opt.schedule = schedule_of(run.schedule);
    opt.block_order = block_order_of(run.block_order);
    opt.seed = run.seed;
    opt.workers = req.workers;
    opt.check_shared = run.checked && !recording;  // (a replay's verdict is decided: its checks would only cost)
    opt.max_diagnostics = 4;
    opt.stop_on_error = true;
    opt.trace.count = counted;
    if (traced) {  // the viewer's stepper: every access of one block, with its site
        opt.trace.records = engine::TraceMode::block;
        opt.trace.block = {traced->block[0], traced->block[1], traced->block[2]};
    }
    const std::vector<unsigned char> state_before = device.globals();
    const engine::ExecReport rep = ptx::run(module, L, opt);
    if (!recording)  // (a replay's outputs are the failing run's again: the parent has them)
        for (size_t b = 0; b < bufs.size(); ++b) write_all(data.files[r][b], bufs[b].data(), bufs[b].size() * sizeof(real));

    EngineRun e;
    if (traced) e.trace = engine::trace_to_text(rep);
    e.counts = rep.counts;
    e.budget_reached = rep.total(engine::DiagKind::timeout) > 0;
    RunOutcome& o = e.outcome;
    o.case_index = int(c);
    o.run = int(r);
    o.ok = rep.ok;
    o.seconds = rep.seconds;
    o.instructions = rep.instructions;
    o.races = rep.total(engine::DiagKind::race);
    o.uninitialized_shared_reads = rep.total(engine::DiagKind::uninitialized_shared_read);
    for (const auto& d : rep.diagnostics) o.diagnostics.push_back(diagnostic_of(d));
    o.state_changed = device.changed_variables(state_before);
    o.clock_reads = rep.clock_reads;
    o.approximate_results = rep.approximate_results;
    o.mallocs_refused = rep.mallocs_refused;
    o.printf_bytes = static_cast<long long>(printed.size());
    o.printf_truncated = req.printf_cap_bytes > 0 && o.printf_bytes >= req.printf_cap_bytes;
    return e;
}

template <class real>
int run_cpu_as(const Request& req) {
    // ---- 1. everything read, every output opened, the PTX compiled and loaded -----------------
    std::vector<CaseData<real>> data = prepare_cases<real>(req);
    // Created empty now: if the run dies before the end, the parent finds no valid result.
    const OutFile result_file = open_for_writing("result.json");
    const TraceSpec* traced = req.trace ? &*req.trace : nullptr;
    const OutFile trace_file = traced ? open_for_writing(traced->file) : OutFile{};
    Result result;
    Compiled k;
    const std::shared_ptr<const ptx::Module> module = compile_and_load(req, k, result);
    if (!module) {
        write_result_to(result_file, result);
        return 0;
    }

    // ---- 2. the filter (a second wall: nothing native of the submission runs) ----------------
    if (sandbox_supported())
        if (const std::string why = install_sandbox(); !why.empty())
            throw std::runtime_error("runner: cannot install the seccomp filter (" + why + ")");

    // ---- 3'. or the replay of one failing run (the request's one case and run) ------------------
    if (req.replay) {
        if (req.cases.size() != 1 || req.cases[0].runs.size() != 1)
            throw std::runtime_error("runner: a replay has one case with one run");
        result.replay = replay_run(*req.replay, req.cases[0], int(sizeof(real)), *module, [&](ptx::Recording& rec) {
            ptx::DeviceState fresh(*module);
            run_once<real>(req, *module, k, fresh, 0, 0, data[0], false, nullptr, &rec);
        });
        write_result_to(result_file, result);
        return 0;
    }

    // ---- 3. the runs, one after another on one loaded module, as on a GPU: what a run leaves in
    //         the module's __device__ variables (and heap) is there for the next -----------------
    ptx::DeviceState device(*module);
    for (size_t c = 0; c < req.cases.size(); ++c) {
        for (size_t r = 0; r < req.cases[c].runs.size(); ++r) {
            progress("case " + std::to_string(c) + " N=" + std::to_string(req.cases[c].n) + " run " +
                     std::to_string(r) + " " + std::string(to_string(req.cases[c].runs[r].schedule)));
            // The load count of a passing kernel comes from a checked run: the parent names which.
            const bool counted = req.count && req.count->case_index == int(c) && req.count->run == int(r);
            const bool this_traced = traced && traced->case_index == int(c) && traced->run == int(r);
            EngineRun e = run_once<real>(req, *module, k, device, c, r, data[c], counted, this_traced ? traced : nullptr);
            if (this_traced) write_all(trace_file, e.trace.data(), e.trace.size());
            if (counted && e.outcome.ok) {
                LoadCounts lc;
                lc.case_index = int(c);
                lc.global_loads = e.counts.global_loads;
                result.counts = lc;
            }
            result.runs.push_back(std::move(e.outcome));
            // A timeout is the verdict whatever follows (only a compile error ranks higher): the
            // remaining runs would each spend their own budget for nothing.
            if (e.budget_reached) {
                result.stopped = StopReason::instruction_budget;
                write_result_to(result_file, result);
                return 0;
            }
        }
    }
    write_result_to(result_file, result);
    return 0;
}

}  // namespace

int run_cpu(const Request& req) { return is_f64(req) ? run_cpu_as<double>(req) : run_cpu_as<float>(req); }

}  // namespace stencil::checker::runner
