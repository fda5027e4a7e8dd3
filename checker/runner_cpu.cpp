// stencil-check-runner, CPU half: dlopen the submission built against backends/cpu/simt.h and
// launch it under each schedule of the request, shared checks on.
#include <dlfcn.h>

#include "checker/cpu_abi.h"
#include "checker/runner.h"

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

int run_cpu(const json& req) {
    json result;
    result["runs"] = json::array();
    void* h = dlopen(req.at("library").get<std::string>().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) throw std::runtime_error(std::string("runner: dlopen failed: ") + dlerror());
    using SetFn = void (*)(const float*);
    using ThreadFn = void (*)(void*);
    using AbiFn = int (*)();
    auto set_coef = reinterpret_cast<SetFn>(dlsym(h, "stencil_check_set_coefficients"));
    auto thread_fn = reinterpret_cast<ThreadFn>(dlsym(h, "stencil_check_thread"));
    auto abi = reinterpret_cast<AbiFn>(dlsym(h, "stencil_check_abi"));
    if (!set_coef || !thread_fn || !abi || abi() != stencil::checker::kCpuAbiVersion)
        throw std::runtime_error("runner: the compiled submission lacks the harness entry points");
    const auto coef = req.at("coefficients").get<std::vector<float>>();
    set_coef(coef.data());
    const int workers = req.value("workers", 0);

    auto launch = [&](const json& cs, std::vector<float>& in, std::vector<float>& out,
                      const simt::ExecOptions& opt) {
        const unsigned n = cs.at("n");
        const long long g = cs.at("guard");
        const long long cells = (long long)n * n * n;
        stencil::checker::CpuKernelArgs args{
            simt::GlobalPtr<float>(in.data() + g, cells, 0, "in"),
            simt::GlobalPtr<float>(out.data() + g, cells, 1, "out"), n};
        const auto gr = cs.at("grid").get<std::vector<unsigned>>();
        const auto bl = cs.at("block").get<std::vector<unsigned>>();
        return simt::launch_body(dim3(gr[0], gr[1], gr[2]), dim3(bl[0], bl[1], bl[2]), opt,
                                 simt::KernelBody{thread_fn, &args});
    };

    const auto& cases = req.at("cases");
    for (size_t c = 0; c < cases.size(); ++c) {
        const auto& cs = cases[c];
        const auto in0 = read_floats(cs.at("input"));
        const auto out0 = read_floats(cs.at("output"));
        const auto& runs = cs.at("runs");
        for (size_t r = 0; r < runs.size(); ++r) {
            const std::string sched = runs[r].at("schedule");
            progress("case " + std::to_string(c) + " N=" + std::to_string(cs.at("n").get<int>()) +
                     " run " + std::to_string(r) + " " + sched);
            simt::ExecOptions opt;
            opt.schedule = sched == "reversed" ? simt::Schedule::reversed
                           : sched == "random" ? simt::Schedule::random
                                               : simt::Schedule::in_order;
            opt.seed = runs[r].value("seed", std::uint64_t{1});
            opt.workers = workers;
            opt.check_shared = true;
            opt.max_diagnostics = 4;
            opt.stop_on_error = true;
            auto in = in0;
            auto out = out0;
            const simt::ExecReport rep = launch(cs, in, out, opt);
            write_floats(run_file(int(c), int(r), "out"), out);
            write_floats(run_file(int(c), int(r), "in"), in);
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
        auto in = read_floats(cs.at("input"));
        auto out = read_floats(cs.at("output"));
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
    write_result(result);
    return 0;
}

}  // namespace stencil::checker::runner
