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
std::string failure(const engine::ExecReport& r, const std::string& what) {
    for (const auto& d : r.diagnostics) return fmt::format("{}: {}: {}", what, engine::to_string(d.kind), d.message);
    return fmt::format("{}: {}", what, r.summary());
}

// One launch on the engine; every buffer is bounds-checked against the piece's array.
void launch(const engine::ExecOptions& exec, const Program& prog, const std::string& what,
            const std::string& instantiation, const cardiac2d::Launch& geo, std::vector<ptx::Buffer> buffers,
            std::vector<std::uint64_t> params, long long& instructions, double& seconds) {
    ptx::Launch l;
    l.entry = prog.entry.at(instantiation);
    l.grid = {geo.grid.x, geo.grid.y, geo.grid.z};
    l.block = {geo.block.x, geo.block.y, geo.block.z};
    l.buffers = std::move(buffers);
    l.params = std::move(params);
    const engine::ExecReport r = ptx::run(*prog.module, l, exec);
    instructions += r.instructions;
    seconds += r.seconds;
    if (!r.ok || !r.clean()) throw UserError(failure(r, fmt::format("{} ({})", what, instantiation)));
}

std::uint64_t address(int i) { return ptx::buffer_address(i); }
std::uint64_t int_param(int v) { return std::uint64_t(v); }

template <class real>
std::size_t piece_bytes(const Piece& piece) {
    return std::size_t(piece.cells()) * sizeof(real);
}

}  // namespace

CpuStepper::CpuStepper(engine::ExecOptions exec) : exec_(exec) {}

void CpuStepper::fill_ghosts(Precision p, void* E_prev, const Piece& piece, int outer_sides) {
    const std::size_t bytes = p == Precision::f32 ? piece_bytes<float>(piece) : piece_bytes<double>(piece);
    launch(exec_, program(p), "ghost cells", ghost_instantiation(p), ghost_launch(piece.nx, piece.ny),
           {{E_prev, bytes, 0, "E_prev", false}},
           {address(0), int_param(piece.nx), int_param(piece.ny), int_param(piece.pitch), int_param(outer_sides)},
           instructions_, seconds_);
}

void CpuStepper::step(KernelId k, Precision p, const void* E_prev, void* E, void* R, const Piece& piece,
                      double alpha, double dt) {
    const Program& prog = program(p);
    const Version& v = version(k);
    const bool f32 = p == Precision::f32;
    const std::size_t bytes = f32 ? piece_bytes<float>(piece) : piece_bytes<double>(piece);
    const std::uint64_t a = f32 ? param_bits(float(alpha)) : param_bits(alpha);
    const std::uint64_t t = f32 ? param_bits(float(dt)) : param_bits(dt);
    const std::uint64_t nx = int_param(piece.nx), ny = int_param(piece.ny), pitch = int_param(piece.pitch);
    const cardiac2d::Launch geo = launch_geometry(k, piece.nx, piece.ny, p);
    // E_prev is read-only to the step: a store through it is the engine's input_write.
    ptx::Buffer prev{const_cast<void*>(E_prev), bytes, 0, "E_prev", true};
    ptx::Buffer e{E, bytes, 1, "E", false};
    ptx::Buffer r{R, bytes, 2, "R", false};
    if (v.ode_kernel) {
        launch(exec_, prog, v.name, instantiation(k, p), geo, {prev, e}, {address(0), address(1), nx, ny, pitch, a},
               instructions_, seconds_);
        launch(exec_, prog, v.name, instantiation(k, p, true), geo, {e, r}, {address(0), address(1), nx, ny, pitch, t},
               instructions_, seconds_);
    } else {
        launch(exec_, prog, v.name, instantiation(k, p), geo, {prev, e, r},
               {address(0), address(1), address(2), nx, ny, pitch, a, t}, instructions_, seconds_);
    }
}

namespace {

// The whole mesh, one piece with every side on the outer boundary, in the kernel's precision.
template <class real>
void advance_as(CpuStepper& stepper, KernelId k, Precision p, State& s, int steps) {
    const Piece piece = mesh_piece(s.n, s.n);
    const Discretisation d = discretise(s.n);
    std::vector<real> E_prev(s.E.begin(), s.E.end()), E = E_prev, R(s.R.begin(), s.R.end());
    for (int i = 0; i < steps; ++i) {
        // The output is poisoned (NaN) before each step: a cell a kernel forgets cannot pass for
        // the previous step's value.
        std::fill(E.begin(), E.end(), std::numeric_limits<real>::quiet_NaN());
        stepper.fill_ghosts(p, E_prev.data(), piece, kAllSides);
        stepper.step(k, p, E_prev.data(), E.data(), R.data(), piece, d.alpha, d.dt);
        std::swap(E_prev, E);
    }
    s.E.assign(E_prev.begin(), E_prev.end());
    s.R.assign(R.begin(), R.end());
}

}  // namespace

void CpuStepper::advance(KernelId k, Precision p, State& s, int steps) {
    if (auto e = size_error(s.n)) throw UserError(*e);
    if (p == Precision::f32)
        advance_as<float>(*this, k, p, s, steps);
    else
        advance_as<double>(*this, k, p, s, steps);
}

}  // namespace stencil::cardiac2d
