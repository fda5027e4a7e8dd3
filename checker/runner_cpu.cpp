// stencil-check-runner, CPU half: dlopen the submission built against backends/cpu/simt.h and
// launch it under each schedule of the request, shared checks on.
//
// The submission is native host code running in this process, so the order matters:
//   1. read every input into memory and open every file this run will write (the run files and
//      result.json), while the process may still open files for writing;
//   2. install the seccomp filter (checker/sandbox.h): from here on no exec, fork, socket,
//      signal to another process, or open for writing;
//   3. dlopen the submission (its static constructors run here, already filtered) and run it,
//      writing only to the descriptors opened in 1.
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "checker/cpu_abi.h"
#include "checker/runner.h"
#include "checker/sandbox.h"

namespace stencil::checker::runner {

// Stable names for the parent (evaluate.cpp), independent of the backend's wording.
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
    return {{"kind", kind_id(d.kind)},
            {"message", d.message},
            {"block", {d.block.x, d.block.y, d.block.z}},
            {"interval", d.interval},
            {"thread_a", {d.thread_a_idx.x, d.thread_a_idx.y, d.thread_a_idx.z}},
            {"thread_b", {d.thread_b_idx.x, d.thread_b_idx.y, d.thread_b_idx.z}},
            {"op_a", simt::to_string(d.op_a)},
            {"array", d.array},
            {"element", d.elem_size > 0 ? d.offset / d.elem_size : -1}};
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

template <class real>
void write_cells(const OutFile& f, const std::vector<real>& v) {
    write_all(f, v.data(), v.size() * sizeof(real));
}

template <class real>
struct CaseData {
    std::vector<real> in0, out0;
    std::vector<OutFile> out_files, in_files;  // one per run
};

// Only what the request and the host need; a foreign schedule name is the in-order one.
simt::Schedule schedule_of(const std::string& s) {
    return s == "reversed" ? simt::Schedule::reversed
           : s == "random" ? simt::Schedule::random
                           : simt::Schedule::in_order;
}

void set_block_order(simt::ExecOptions& opt, const json& run) {
    // Blocks run in this order too: a race between blocks on global memory (one block writing a
    // cell another owns) then shows as outputs that differ between runs.
    const std::string o = run.value("block_order", std::string("in_order"));
    opt.block_order = o == "reversed" ? simt::BlockOrder::reversed
                      : o == "random" ? simt::BlockOrder::random
                                      : simt::BlockOrder::in_order;
}

template <class real>
int run_cpu_as(const json& req) {
    // ---- 1. everything read and every output opened before the filter ------------------------
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
    const std::string library = req.at("library").get<std::string>();
    const auto coef = req.at("coefficients").get<std::vector<real>>();
    const int workers = req.value("workers", 0);
    // Created empty now: if the run dies before the end, the parent finds no valid result.
    const OutFile result_file = open_for_writing("result.json");

    // ---- 2. the filter ----------------------------------------------------------------------------
    if (const std::string why = install_sandbox(); !why.empty())
        throw std::runtime_error("runner: cannot contain the submission (" + why + ")");

    // ---- 3. the submission --------------------------------------------------------------------
    json result;
    result["runs"] = json::array();
    void* h = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) throw std::runtime_error(std::string("runner: dlopen failed: ") + dlerror());
    using SetFn = void (*)(const real*);
    using ThreadFn = void (*)(void*);
    using AbiFn = int (*)();
    auto set_coef = reinterpret_cast<SetFn>(dlsym(h, "stencil_check_set_coefficients"));
    auto thread_fn = reinterpret_cast<ThreadFn>(dlsym(h, "stencil_check_thread"));
    auto abi = reinterpret_cast<AbiFn>(dlsym(h, "stencil_check_abi"));
    auto element_bytes = reinterpret_cast<AbiFn>(dlsym(h, "stencil_check_element_bytes"));
    if (!set_coef || !thread_fn || !abi || !element_bytes || abi() != stencil::checker::kCpuAbiVersion)
        throw std::runtime_error("runner: the compiled submission lacks the harness entry points");
    if (element_bytes() != int(sizeof(real)))
        throw std::runtime_error("runner: the compiled submission's element type is not the request's");
    set_coef(coef.data());

    auto launch = [&](const json& cs, std::vector<real>& in, std::vector<real>& out,
                      const simt::ExecOptions& opt) {
        const unsigned n = cs.at("n");
        const long long g = cs.at("guard");
        const long long cells = (long long)n * n * n;
        // in[] is read-only: a store through it is reported (input_write) even when the kernel
        // puts the old value back before the end (a transient write other threads could see).
        simt::GlobalPtr<real> in_ptr(in.data() + g, cells, 0, "in", /*read_only=*/true);
        stencil::checker::CpuKernelArgs<real> args{in_ptr, simt::GlobalPtr<real>(out.data() + g, cells, 1, "out"), n};
        const auto gr = cs.at("grid").get<std::vector<unsigned>>();
        const auto bl = cs.at("block").get<std::vector<unsigned>>();
        return simt::launch_body(dim3(gr[0], gr[1], gr[2]), dim3(bl[0], bl[1], bl[2]), opt,
                                 simt::KernelBody{thread_fn, &args});
    };

    for (size_t c = 0; c < cases.size(); ++c) {
        const auto& cs = cases[c];
        const auto& runs = cs.at("runs");
        for (size_t r = 0; r < runs.size(); ++r) {
            const std::string sched = runs[r].at("schedule");
            progress("case " + std::to_string(c) + " N=" + std::to_string(cs.at("n").get<int>()) +
                     " run " + std::to_string(r) + " " + sched);
            simt::ExecOptions opt;
            opt.schedule = schedule_of(sched);
            set_block_order(opt, runs[r]);
            opt.seed = runs[r].value("seed", std::uint64_t{1});
            opt.workers = workers;
            opt.check_shared = true;
            opt.max_diagnostics = 4;
            opt.stop_on_error = true;
            auto in = data[c].in0;
            auto out = data[c].out0;
            const simt::ExecReport rep = launch(cs, in, out, opt);
            write_cells(data[c].out_files[r], out);
            write_cells(data[c].in_files[r], in);
            json jr = {{"case", c}, {"run", r}, {"ok", rep.ok}, {"seconds", rep.seconds},
                       {"race", rep.total(simt::DiagKind::race)},
                       {"uninitialized_shared_read", rep.total(simt::DiagKind::uninitialized_shared_read)}};
            jr["diagnostics"] = json::array();
            for (const auto& d : rep.diagnostics) jr["diagnostics"].push_back(diag_json(d));
            result["runs"].push_back(jr);
        }
    }
    if (req.contains("count_case")) {
        const int c = req["count_case"];
        const auto& cs = cases.at(static_cast<size_t>(c));
        progress("counting global loads at N=" + std::to_string(cs.at("n").get<int>()));
        auto in = data.at(static_cast<size_t>(c)).in0;
        auto out = data.at(static_cast<size_t>(c)).out0;
        simt::ExecOptions opt;
        opt.workers = workers;
        opt.trace.count = true;
        const simt::ExecReport rep = launch(cs, in, out, opt);
        if (rep.ok)
            result["counts"] = {{"case", c}, {"global_loads", rep.counts.global_loads},
                                {"global_stores", rep.counts.global_stores},
                                {"shared_loads", rep.counts.shared_loads},
                                {"shared_stores", rep.counts.shared_stores}};
    }
    const std::string text = result.dump(1);
    write_all(result_file, text.data(), text.size());
    return 0;
}

}  // namespace

int run_cpu(const json& req) { return is_f64(req) ? run_cpu_as<double>(req) : run_cpu_as<float>(req); }

}  // namespace stencil::checker::runner
