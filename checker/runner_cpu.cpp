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
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "backends/cpu/ptx/engine.h"
#include "checker/protocol.h"
#include "checker/runner.h"
#include "checker/sandbox.h"

namespace stencil::checker::runner {

// Stable names for the parent (diagnostics.cpp), independent of the backend's wording.
const char* kind_id(simt::DiagKind k) {
    switch (k) {
        case simt::DiagKind::race: return "race";
        case simt::DiagKind::uninitialized_shared_read: return "uninitialized_shared_read";
        case simt::DiagKind::divergent_barrier: return "divergent_barrier";
        case simt::DiagKind::exit_before_barrier: return "exit_before_barrier";
        case simt::DiagKind::out_of_bounds: return "out_of_bounds";
        case simt::DiagKind::kernel_exception: return "kernel_exception";
        case simt::DiagKind::timeout: return "timeout";
        case simt::DiagKind::input_write: return "input_write";
    }
    return "kernel_exception";
}

json diag_json(const simt::Diagnostic& d) {
    auto idx = [](simt::Idx3 i) { return json::array({i.x, i.y, i.z}); };
    return {{"kind", kind_id(d.kind)},
            {"message", d.message},
            {"block", idx(d.block)},
            {"block_b", idx(d.block_b)},
            {"interval", d.interval},
            {"thread_a", idx(d.thread_a_idx)},
            {"thread_b", idx(d.thread_b_idx)},
            {"op_a", simt::to_string(d.op_a)},
            {"op_b", simt::to_string(d.op_b)},
            {"space", simt::to_string(d.space)},
            {"array", d.array},
            {"offset", d.offset},
            {"elem_size", d.elem_size},
            {"element", d.elem_size > 0 && d.offset >= 0 ? d.offset / d.elem_size : -1},
            {"site_a", d.site_a},
            {"site_b", d.site_b},
            {"file", d.file},
            {"line", d.line},
            {"instruction", d.instruction}};
}

namespace {

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

void write_json(const OutFile& f, const json& j) {
    const std::string text = j.dump(1);
    write_all(f, text.data(), text.size());
}

template <class real>
struct CaseData {
    std::vector<real> in0, out0;
    std::vector<OutFile> out_files, in_files;  // one per run
};

simt::Schedule schedule_of(const std::string& s) {
    return s == "reversed" ? simt::Schedule::reversed
           : s == "random" ? simt::Schedule::random
                           : simt::Schedule::in_order;
}

simt::BlockOrder block_order_of(const std::string& s) {
    // Blocks run in this order too: a race between blocks on global memory (one block writing a
    // cell another owns) then shows as outputs that differ between runs.
    return s == "reversed" ? simt::BlockOrder::reversed
           : s == "random" ? simt::BlockOrder::random
                           : simt::BlockOrder::in_order;
}

// Instructions one block may execute before the run is a timeout: per thread 10000 + 500 N. A
// correct kernel of any exercise executes well under a tenth of it (the coarsened kernels' march
// along z is the longest: about 50 per plane); a loop that never ends reaches it in a fraction of
// a second, at the first size, exactly and whatever the machine's speed.
long long block_budget(const json& cs) {
    const auto bl = cs.at("block").get<std::vector<long long>>();
    const long long n = cs.at("n");
    return bl[0] * bl[1] * bl[2] * (10000 + 500 * n);
}

// Where to find the request's designated count run (-1, -1: none).
std::pair<long long, long long> count_run(const json& req) {
    if (!req.contains("count")) return {-1, -1};
    return {req["count"].at("case").get<long long>(), req["count"].at("run").get<long long>()};
}

template <class real>
int run_cpu_as(const json& req) {
    // ---- 1. everything read, every output opened, the PTX compiled and loaded -----------------
    const auto& cases = req.at("cases");
    std::vector<CaseData<real>> data(cases.size());
    for (size_t c = 0; c < cases.size(); ++c) {
        data[c].in0 = read_cells<real>(cases[c].at("input"));
        data[c].out0 = read_cells<real>(cases[c].at("output"));
        for (size_t r = 0; r < cases[c].at("runs").size(); ++r) {
            data[c].out_files.push_back(open_for_writing(run_file(int(c), int(r), "out")));
            data[c].in_files.push_back(open_for_writing(run_file(int(c), int(r), "in")));
        }
    }
    const auto coef = req.at("coefficients").get<std::vector<real>>();
    const int workers = req.value("workers", 0);
    // Created empty now: if the run dies before the end, the parent finds no valid result.
    const OutFile result_file = open_for_writing("result.json");
    json result;
    result["runs"] = json::array();

    const Compiled k = compile_submission(req);
    if (!k.ok) {
        result["compile"] = compile_failure("nvrtc", k.log);
        write_json(result_file, result);
        return 0;
    }
    std::shared_ptr<const ptx::Module> module;
    try {
        module = ptx::load(k.ptx);
    } catch (const ptx::Error& e) {
        // NVRTC compiled it, the engine cannot run it (an instruction or a construct it lacks, an
        // external function no one defines): nothing of the submission can be judged here.
        result["compile"] = compile_failure("load", std::string("the CPU backend cannot run this PTX: ") + e.what());
        write_json(result_file, result);
        return 0;
    }
    const ptx::EntryInfo* entry = ptx::find_entry(*module, k.kernel);
    if (!entry) throw std::runtime_error("runner: the PTX has no entry " + k.kernel);
    if (entry->static_shared_bytes > kMaxStaticSharedBytes) {
        result["compile"] = compile_failure("limits", fmt::format(
            "{}: the kernel declares {} bytes ({:.1f} KiB) of static __shared__ memory per block; "
            "a GPU allows at most {} bytes (48 KiB): ptxas refuses it",
            req.at("display_name").get<std::string>(), entry->static_shared_bytes,
            entry->static_shared_bytes / 1024.0, kMaxStaticSharedBytes));
        write_json(result_file, result);
        return 0;
    }
    result["compile"] = {{"ok", true}, {"seconds", k.seconds}};

    // ---- 2. the filter (a second wall: nothing native of the submission runs) ----------------
    if (sandbox_supported())
        if (const std::string why = install_sandbox(); !why.empty())
            throw std::runtime_error("runner: cannot install the seccomp filter (" + why + ")");

    // ---- 3. the runs --------------------------------------------------------------------------
    const auto [count_case, count_run_index] = count_run(req);
    for (size_t c = 0; c < cases.size(); ++c) {
        const auto& cs = cases[c];
        const auto& runs = cs.at("runs");
        const unsigned n = cs.at("n");
        const long long g = cs.at("guard");
        const size_t bytes = size_t(n) * n * n * sizeof(real);
        const auto gr = cs.at("grid").get<std::vector<int>>();
        const auto bl = cs.at("block").get<std::vector<int>>();
        for (size_t r = 0; r < runs.size(); ++r) {
            const std::string sched = runs[r].at("schedule");
            progress("case " + std::to_string(c) + " N=" + std::to_string(n) + " run " +
                     std::to_string(r) + " " + sched);
            auto in = data[c].in0;
            auto out = data[c].out0;
            ptx::Launch L;
            L.entry = k.kernel;
            L.grid = {gr[0], gr[1], gr[2]};
            L.block = {bl[0], bl[1], bl[2]};
            // The N^3 cells only: every access beyond them is caught, even one into the guard
            // zones the parent placed around them. in[] is read-only: a store through it is
            // reported (input_write) even when the kernel restores the value later.
            L.buffers = {{in.data() + g, bytes, 0, "in", true}, {out.data() + g, bytes, 1, "out", false}};
            L.params = {ptx::buffer_address(0), ptx::buffer_address(1), n};
            for (size_t i = 0; i < coef.size(); ++i) {
                ptx::ConstantInit ci{k.weights[i], std::vector<unsigned char>(sizeof(real))};
                std::memcpy(ci.bytes.data(), &coef[i], sizeof(real));
                L.constants.push_back(std::move(ci));
            }
            L.block_instruction_budget = block_budget(cs);
            simt::ExecOptions opt;
            opt.schedule = schedule_of(sched);
            opt.block_order = block_order_of(runs[r].value("block_order", std::string("in_order")));
            opt.seed = runs[r].value("seed", std::uint64_t{1});
            opt.workers = workers;
            opt.check_shared = true;
            opt.max_diagnostics = 4;
            opt.stop_on_error = true;
            // The load count of a passing kernel comes from a checked run: the parent names which.
            const bool counted = (long long)c == count_case && (long long)r == count_run_index;
            opt.trace.count = counted;
            const simt::ExecReport rep = ptx::run(*module, L, opt);
            write_all(data[c].out_files[r], out.data(), out.size() * sizeof(real));
            write_all(data[c].in_files[r], in.data(), in.size() * sizeof(real));
            json jr = {{"case", c}, {"run", r}, {"ok", rep.ok}, {"seconds", rep.seconds},
                       {"instructions", rep.instructions},
                       {"race", rep.total(simt::DiagKind::race)},
                       {"uninitialized_shared_read", rep.total(simt::DiagKind::uninitialized_shared_read)}};
            jr["diagnostics"] = json::array();
            for (const auto& d : rep.diagnostics) jr["diagnostics"].push_back(diag_json(d));
            result["runs"].push_back(jr);
            if (counted && rep.ok)
                result["counts"] = {{"case", c}, {"run", r}, {"global_loads", rep.counts.global_loads},
                                    {"global_stores", rep.counts.global_stores},
                                    {"shared_loads", rep.counts.shared_loads},
                                    {"shared_stores", rep.counts.shared_stores}};
            // A timeout is the verdict whatever follows (only a compile error ranks higher): the
            // remaining runs would each spend their own budget for nothing.
            if (rep.total(simt::DiagKind::timeout) > 0) {
                result["stopped"] = "a run reached its instruction budget";
                write_json(result_file, result);
                return 0;
            }
        }
    }
    write_json(result_file, result);
    return 0;
}

}  // namespace

int run_cpu(const json& req) { return is_f64(req) ? run_cpu_as<double>(req) : run_cpu_as<float>(req); }

}  // namespace stencil::checker::runner
