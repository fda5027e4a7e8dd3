// cardiac2d on the PTX engine (cardiac2d_cpu.h). The mesh lives in host vectors of the kernel's
// precision; the engine reaches them as global buffers, so every load and store is bounds-checked
// against the (n + 2)^2 mesh.
#include "backends/cpu/cardiac2d_cpu.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <utility>

#include "backends/cpu/ptx/engine.h"
#include "backends/cpu/ptx/lab_ptx.h"
#include "core/error.h"

namespace stencil::cardiac2d {

namespace {

// Every kernel of one precision: one NVRTC program (about as cheap as one kernel: the front end
// and headers dominate), decoded once for the process.
struct Program {
    std::shared_ptr<const ptx::Module> module;
    std::map<std::string, std::string> entry;  // instantiation -> lowered PTX name
};

std::vector<std::string> all_instantiations(Precision p) {
    std::vector<std::string> out{ghost_instantiation(p)};
    for (const Version& v : versions()) {
        out.push_back(instantiation(v.id, p));
        if (v.ode_kernel) out.push_back(instantiation(v.id, p, true));
    }
    return out;
}

const Program& program(Precision p) {
    static std::mutex m;
    static std::map<Precision, Program> programs;
    std::lock_guard lock(m);
    Program& prog = programs[p];
    if (prog.module) return prog;
    ptx::CompileRequest req;
    req.name = "lab_cardiac2d.cu";
    req.source = "#include \"kernels/cardiac2d/ghosts.cuh\"\n";
    for (const Version& v : versions()) req.source += fmt::format("#include \"{}\"\n", v.source_file);
    for (int i = 0; i < lab_ptx_detail::kEmbeddedHeaderCount; ++i)
        req.headers.push_back({lab_ptx_detail::kEmbeddedHeaders[i].name, lab_ptx_detail::kEmbeddedHeaders[i].text});
    req.name_expressions = all_instantiations(p);
    req.options = {"--no-source-include"};  // only the embedded headers
    static const std::string dir = lab_ptx_detail::default_cache_dir();
    const ptx::CompileResult res = lab_ptx_detail::cached_compile(req, dir);
    if (!res.ok) throw ptx::Error("NVRTC could not compile kernels/cardiac2d (" + std::string(to_string(p)) + "): " + res.log);
    for (const std::string& e : req.name_expressions) {
        prog.entry[e] = res.lowered_name(e);
        if (prog.entry[e].empty()) throw ptx::Error("NVRTC gave no lowered name for " + e);
    }
    prog.module = ptx::load(res.ptx);
    return prog;
}

template <class real>
std::uint64_t param_bits(real v) {
    // A floating-point parameter travels as its bits, truncated to the parameter's size.
    if constexpr (sizeof(real) == 4) {
        std::uint32_t b;
        std::memcpy(&b, &v, 4);
        return b;
    } else {
        std::uint64_t b;
        std::memcpy(&b, &v, 8);
        return b;
    }
}

// The first diagnostic of a launch that did not run cleanly, as one line.
std::string failure(const simt::ExecReport& r, const std::string& what) {
    for (const auto& d : r.diagnostics) return fmt::format("{}: {}: {}", what, simt::to_string(d.kind), d.message);
    return fmt::format("{}: {}", what, r.summary());
}

template <class real>
struct Mesh {
    std::vector<real> E_prev, E, R;
};

template <class real>
void advance_as(const simt::ExecOptions& exec, KernelId k, Precision p, State& s, int steps, long long& instructions,
                double& seconds) {
    const Program& prog = program(p);
    const Version& v = version(k);
    const int n = s.n;
    const Discretisation d = discretise(n);
    const real alpha = real(d.alpha), dt = real(d.dt);
    Mesh<real> mesh;
    mesh.E_prev.assign(s.E.begin(), s.E.end());
    mesh.E = mesh.E_prev;
    mesh.R.assign(s.R.begin(), s.R.end());
    const std::size_t bytes = mesh.E.size() * sizeof(real);

    const auto run = [&](const std::string& instantiation, const cardiac2d::Launch& geo,
                         std::vector<ptx::Buffer> buffers, std::vector<std::uint64_t> params) {
        ptx::Launch l;
        l.entry = prog.entry.at(instantiation);
        l.grid = {geo.grid.x, geo.grid.y, geo.grid.z};
        l.block = {geo.block.x, geo.block.y, geo.block.z};
        l.buffers = std::move(buffers);
        l.params = std::move(params);
        const simt::ExecReport r = ptx::run(*prog.module, l, exec);
        instructions += r.instructions;
        seconds += r.seconds;
        if (!r.ok || !r.clean()) throw UserError(failure(r, fmt::format("{} ({})", v.name, instantiation)));
    };
    const auto a = [](int i) { return ptx::buffer_address(i); };
    const std::uint64_t n64 = std::uint64_t(n);
    const cardiac2d::Launch geo = launch_geometry(k, n, p);
    for (int step = 0; step < steps; ++step) {
        // The output is poisoned (NaN) before each step: a cell a kernel forgets cannot pass for
        // the previous step's value.
        std::fill(mesh.E.begin(), mesh.E.end(), std::numeric_limits<real>::quiet_NaN());
        run(ghost_instantiation(p), ghost_launch(n), {{mesh.E_prev.data(), bytes, 0, "E_prev", false}}, {a(0), n64});
        // E_prev is read-only to the step: a store through it is the engine's input_write.
        ptx::Buffer E_prev{mesh.E_prev.data(), bytes, 0, "E_prev", true};
        ptx::Buffer E{mesh.E.data(), bytes, 1, "E", false};
        ptx::Buffer R{mesh.R.data(), bytes, 2, "R", false};
        if (v.ode_kernel) {
            run(instantiation(k, p), geo, {E_prev, E}, {a(0), a(1), n64, param_bits(alpha)});
            run(instantiation(k, p, true), geo, {E, R}, {a(0), a(1), n64, param_bits(dt)});
        } else {
            run(instantiation(k, p), geo, {E_prev, E, R}, {a(0), a(1), a(2), n64, param_bits(alpha), param_bits(dt)});
        }
        std::swap(mesh.E_prev, mesh.E);
    }
    s.E.assign(mesh.E_prev.begin(), mesh.E_prev.end());
    s.R.assign(mesh.R.begin(), mesh.R.end());
}

}  // namespace

CpuStepper::CpuStepper(simt::ExecOptions exec) : exec_(exec) {}

void CpuStepper::advance(KernelId k, Precision p, State& s, int steps) {
    if (auto e = size_error(s.n)) throw UserError(*e);
    if (p == Precision::f32)
        advance_as<float>(exec_, k, p, s, steps, instructions_, seconds_);
    else
        advance_as<double>(exec_, k, p, s, steps, instructions_, seconds_);
}

}  // namespace stencil::cardiac2d
