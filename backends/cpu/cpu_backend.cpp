// The stencil-level CPU backend: run_cpu, schedule_check and the stencil::Backend for "cpu", with
// the two as its EngineRuns.
#include "backends/cpu/cpu_backend.h"

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "backends/cpu/launch_ptx.h"
#include "backends/cpu/ptx/lab_ptx.h"
#include "core/error.h"
#include "core/field.h"

namespace stencil {

namespace {

// A grid of blocks a GPU would refuse to launch (DeviceLimits: 65535 blocks along y and z,
// 2^31 - 1 along x), in the CUDA backend's words: the CPU backend must not accept more.
std::optional<std::string> grid_limit_error(const LaunchRequest& req) {
    const LaunchGeometry g = launch_geometry(req);
    const DeviceLimits lim;
    if (g.grid.y <= lim.max_grid_yz && g.grid.z <= lim.max_grid_yz && g.grid.x >= 1)
        return std::nullopt;
    return fmt::format("grid {}x{}x{} with {} T = {}, r = {} needs {}x{}x{} blocks, but a launch may have at most "
                       "2147483647 blocks along x and {} along y and z: use a larger tile or a smaller grid",
                       req.dims.nx, req.dims.ny, req.dims.nz, version(req.kernel).name,
                       req.tile, req.radius, g.grid.x, g.grid.y, g.grid.z, lim.max_grid_yz);
}

void check_request(const LaunchRequest& req) {
    if (auto e = request_error(req)) throw UserError(*e);
    if (auto e = grid_error(req.dims, req.radius)) throw UserError(*e);
    if (auto e = grid_limit_error(req)) throw UserError(*e);
}

// A freshly poisoned output for `in` (NaN inside, the input on the boundary), as raw bytes.
std::vector<unsigned char> poisoned_bytes(const LaunchRequest& req, const void* in) {
    auto make = [&]<class real>() {
        Field<real> f(req.dims);
        std::memcpy(f.data.data(), in, f.data.size() * sizeof(real));
        const Field<real> p = poisoned_output(f, req.radius);
        std::vector<unsigned char> bytes(p.data.size() * sizeof(real));
        std::memcpy(bytes.data(), p.data.data(), bytes.size());
        return bytes;
    };
    return req.precision == Precision::f32 ? make.template operator()<float>() : make.template operator()<double>();
}

double value_at(const std::vector<unsigned char>& b, Precision p, long long i) {
    if (p == Precision::f32) {
        float v;
        std::memcpy(&v, b.data() + i * 4, 4);
        return v;
    }
    double v;
    std::memcpy(&v, b.data() + i * 8, 8);
    return v;
}

}  // namespace

EngineRun run_cpu(const LaunchRequest& req, const StencilWeights& weights, const void* in, void* out,
               const CpuOptions& opt) {
    check_request(req);
    EngineRun run;
    run.geometry = launch_geometry(req);
    run.report = cpu_detail::launch_ptx(req, weights, in, out, opt.exec, run.geometry);
    return run;
}

std::string ScheduleCheck::summary() const {
    std::string s = ok ? "ok: " : "FAILED: ";
    s += std::to_string(runs.size()) + " schedules";
    for (const auto& r : runs)
        if (!r.report.clean())
            s += fmt::format("; {}, {} (seed {}): {}", engine::to_string(r.schedule), engine::to_string(r.block_order),
                             r.seed, r.report.summary());
    if (first_difference) {
        const auto& d = *first_difference;
        s += fmt::format("; {} cells differ between schedules, first at ({}, {}, {}): {} ({}) vs {} ({})",
                         differing_cells, d.x, d.y, d.z, d.value_a, engine::to_string(runs[d.run_a].schedule),
                         d.value_b, engine::to_string(runs[d.run_b].schedule));
    } else if (ok) {
        s += " agree bit for bit, no races, no uninitialized shared reads";
    }
    return s;
}

ScheduleCheck schedule_check_launch(const OutputLaunch& launch, GridDims dims, Precision precision,
                                    const void* initial_out, const CpuOptions& opt, int random_schedules) {
    const auto t0 = std::chrono::steady_clock::now();
    ScheduleCheck chk;
    struct Plan {
        engine::Schedule schedule;
        engine::BlockOrder blocks;
        std::uint64_t seed;
    };
    std::vector<Plan> plan{{engine::Schedule::in_order, engine::BlockOrder::in_order, opt.exec.seed},
                           {engine::Schedule::reversed, engine::BlockOrder::reversed, opt.exec.seed}};
    for (int i = 0; i < random_schedules; ++i)
        plan.push_back({engine::Schedule::random, engine::BlockOrder::random, opt.exec.seed + i});

    const int b = bytes_of(precision);
    const long long cells = dims.cells();
    const auto* initial = static_cast<const unsigned char*>(initial_out);
    std::vector<std::vector<unsigned char>> outs;
    for (const Plan& p : plan) {
        engine::ExecOptions o = opt.exec;
        o.schedule = p.schedule;
        o.block_order = p.blocks;
        o.seed = p.seed;
        o.check_shared = true;
        outs.emplace_back(initial, initial + cells * b);
        chk.runs.push_back({p.schedule, p.seed, launch(o, outs.back().data()), p.blocks});
    }
    chk.ok = true;
    for (const auto& r : chk.runs) chk.ok = chk.ok && r.report.clean();
    // Runs in order of k: the first differing cell of the lowest k is the lowest cell overall only
    // per run, so keep the lowest index over all runs.
    long long first = -1;
    for (std::size_t k = 1; k < outs.size(); ++k) {
        for (long long i = 0; i < cells; ++i) {
            if (std::memcmp(outs[0].data() + i * b, outs[k].data() + i * b, b) == 0) continue;
            ++chk.differing_cells;
            if (first >= 0 && i >= first) continue;
            first = i;
            CellDifference d;
            d.x = static_cast<int>(i % dims.nx);
            d.y = static_cast<int>((i / dims.nx) % dims.ny);
            d.z = static_cast<int>(i / ((long long)dims.nx * dims.ny));
            d.run_a = 0;
            d.run_b = static_cast<int>(k);
            d.value_a = value_at(outs[0], precision, i);
            d.value_b = value_at(outs[k], precision, i);
            chk.first_difference = d;
        }
    }
    if (chk.differing_cells > 0) chk.ok = false;
    chk.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return chk;
}

ScheduleCheck schedule_check(const LaunchRequest& req, const StencilWeights& weights, const void* in,
                             const CpuOptions& opt, int random_schedules) {
    check_request(req);
    const std::vector<unsigned char> poisoned = poisoned_bytes(req, in);
    const OutputLaunch launch = [&](const engine::ExecOptions& o, void* out) {
        return run_cpu(req, weights, in, out, CpuOptions{o}).report;
    };
    return schedule_check_launch(launch, req.dims, req.precision, poisoned.data(), opt, random_schedules);
}

std::string cpu_model_name() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line)) {
        if (line.rfind("model name", 0) == 0) {
            if (auto p = line.find(':'); p != std::string::npos) {
                auto s = line.substr(p + 1);
                s.erase(0, s.find_first_not_of(" \t"));
                return s;
            }
        }
    }
    return "CPU";
}

int cpu_cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// ---- stencil::Backend ----------------------------------------------------------------------------
namespace {

long long read_cache_bytes(const char* path) {
    std::ifstream f(path);
    std::string s;
    if (!(f >> s) || s.empty()) return 0;
    long long v = std::atoll(s.c_str());
    if (s.back() == 'K') v *= 1024;
    if (s.back() == 'M') v *= 1024 * 1024;
    return v;
}

long long physical_memory() {
    return static_cast<long long>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE);
}

class CpuBackend final : public Backend, public EngineRuns {
public:
    BackendKind kind() const override { return BackendKind::cpu; }

    DeviceInfo device() const override {
        DeviceInfo d;
        d.name = cpu_model_name();
        d.multiprocessors = cpu_cores();
        d.l2_bytes = read_cache_bytes("/sys/devices/system/cpu/cpu0/cache/index2/size");
        d.smem_per_block = DeviceLimits{}.max_static_smem_per_block;
        d.smem_per_sm = 0;
        d.global_mem_bytes = physical_memory();
        d.warp_size = 32;
        return d;
    }

    DeviceLimits limits() const override { return {}; }

    std::optional<std::string> cannot_run(const LaunchRequest& req) const override {
        if (auto e = request_error(req)) return e;
        if (auto e = grid_error(req.dims, req.radius)) return e;
        if (auto e = grid_limit_error(req)) return e;
        const long long need = 2 * req.dims.cells() * bytes_of(req.precision);
        if (need > physical_memory() / 2)
            return fmt::format("grid {}x{}x{} needs {} MiB for input and output, more than half of this "
                               "machine's memory",
                               req.dims.nx, req.dims.ny, req.dims.nz, need >> 20);
        return std::nullopt;
    }

    // S steps: the request's launches (launches() in core/backend.h) alternate between `out` and a
    // spare buffer, the last one writing `out`; each launch's output starts freshly poisoned (the
    // `out` the caller gave: NaN inside, the input on the boundary), so that a cell some launch
    // forgets cannot pass for an older step's value.
    void execute(const LaunchRequest& req, const StencilWeights& weights, const void* in, void* out) override {
        if (auto e = cannot_run(req)) throw UserError(*e);
        const std::vector<LaunchRequest> list = launches(req);
        const std::size_t bytes = static_cast<std::size_t>(req.dims.cells()) * bytes_of(req.precision);
        auto* out_bytes = static_cast<unsigned char*>(out);
        const std::vector<unsigned char> poisoned(out_bytes, out_bytes + (list.size() > 1 ? bytes : 0));
        std::vector<unsigned char> spare(poisoned);
        const void* src = in;
        for (std::size_t i = 0; i < list.size(); ++i) {
            void* dst = (list.size() - 1 - i) % 2 == 0 ? out : static_cast<void*>(spare.data());
            if (i > 0) std::memcpy(dst, poisoned.data(), bytes);
            EngineRun r = run_cpu(list[i], weights, src, dst, {});
            if (!r.report.ok) throw UserError("cpu backend: " + r.report.summary());
            src = dst;
        }
    }

    std::vector<double> time_ms(const LaunchRequest& req, const StencilWeights& weights, int warmup,
                                int reps) override {
        if (auto e = cannot_run(req)) throw UserError(*e);
        const std::size_t bytes = static_cast<std::size_t>(req.dims.cells()) * bytes_of(req.precision);
        std::vector<unsigned char> in(bytes), out(bytes);
        // A smooth, finite input: values do not change the emulator's speed.
        if (req.precision == Precision::f32) {
            auto f = random_field<float>(req.dims, 1);
            std::memcpy(in.data(), f.data.data(), bytes);
        } else {
            auto f = random_field<double>(req.dims, 1);
            std::memcpy(in.data(), f.data.data(), bytes);
        }
        // All S steps per sample: the launches alternate between `out` and `spare`.
        const std::vector<LaunchRequest> list = launches(req);
        std::vector<unsigned char> spare(list.size() > 1 ? bytes : 0);
        std::vector<double> ms;
        for (int i = 0; i < warmup + reps; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            const void* src = in.data();
            for (std::size_t l = 0; l < list.size(); ++l) {
                void* dst = l % 2 == 0 ? out.data() : spare.data();
                EngineRun r = run_cpu(list[l], weights, src, dst, {});
                if (!r.report.ok) throw UserError("cpu backend: " + r.report.summary());
                src = dst;
            }
            const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (i >= warmup) ms.push_back(t);
        }
        return ms;
    }

    std::vector<double> copy_gbps(long long bytes, int reps) override {
        std::vector<unsigned char> a(static_cast<std::size_t>(bytes), 1), b(static_cast<std::size_t>(bytes), 0);
        std::vector<double> out;
        for (int i = 0; i < reps; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            std::memcpy(b.data(), a.data(), a.size());
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            out.push_back(2.0 * bytes / std::max(s, 1e-12) / 1e9);
        }
        return out;
    }

    KernelAttributes attributes(const LaunchRequest& req) override {
        KernelAttributes a;
        a.registers_per_thread = -1;
        a.static_smem_bytes = smem_bytes(req.kernel, req.tile, req.radius, bytes_of(req.precision), steps_per_launch(req));
        a.max_threads_per_block = DeviceLimits{}.max_threads_per_block;
        return a;
    }

    EngineRuns* engine() override { return this; }

    EngineRun run(const LaunchRequest& req, const StencilWeights& weights, const void* in, void* out,
                  const engine::ExecOptions& opt) override {
        return run_cpu(req, weights, in, out, CpuOptions{opt});
    }

    ScheduleCheck schedule_check(const LaunchRequest& req, const StencilWeights& weights, const void* in,
                                 const engine::ExecOptions& opt, int random_schedules) override {
        return stencil::schedule_check(req, weights, in, CpuOptions{opt}, random_schedules);
    }

    EnginePtx ptx(const LaunchRequest& req) override {
        const LabPtx& lab = lab_ptx(req.kernel, req.tile, req.radius, req.precision, steps_per_launch(req));
        return {lab.ptx, lab.entry, lab.source_file};
    }
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace stencil
