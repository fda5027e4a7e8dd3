#include "viewer/core/stepper.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "backends/cpu/cpu_backend.h"
#include "core/error.h"
#include "core/field.h"
#include "core/weights.h"

namespace stencil::viewer {

namespace {

Box input_box(const StepperConfig& c, const LaunchGeometry& g) {
    const int T = c.tile, r = c.radius, O = g.out_tile;
    const auto b = c.block;
    Box box;
    switch (c.kernel) {
        case KernelId::naive:
            box = {b.x * T - r, b.y * T - r, b.z * T - r, T + 2 * r, T + 2 * r, T + 2 * r};
            break;
        case KernelId::tiled:
            box = {b.x * O - r, b.y * O - r, b.z * O - r, T, T, T};
            break;
        case KernelId::coarsened:
        case KernelId::register_tiled:
            box = {b.x * O - r, b.y * O - r, b.z * O - r, T, T, O + 2 * r};
            break;
    }
    return box;
}

int shared_planes_of(KernelId k, int T, int r) {
    switch (k) {
        case KernelId::naive: return 0;
        case KernelId::tiled: return T;
        case KernelId::coarsened: return 2 * r + 1;
        case KernelId::register_tiled: return 1;
    }
    return 0;
}

void cell_of(long long index, GridDims d, int* x, int* y, int* z) {
    *x = (int)(index % d.nx);
    *y = (int)((index / d.nx) % d.ny);
    *z = (int)(index / ((long long)d.nx * d.ny));
}

}  // namespace

StepperTrace build_stepper_trace(const StepperConfig& cfg, const simt::ExecReport& rep) {
    StepperTrace t;
    t.cfg = cfg;
    t.geo = launch_geometry(cfg.kernel, cfg.tile, cfg.radius, cfg.precision, cfg.dims);
    t.model = kernel_model(cfg.kernel, cfg.tile, cfg.radius, cfg.precision);
    t.threads = (int)t.geo.block.count();
    t.box = input_box(cfg, t.geo);
    t.shared_planes = shared_planes_of(cfg.kernel, cfg.tile, cfg.radius);
    t.seconds = rep.seconds;
    const int linear_block = (cfg.block.z * t.geo.grid.y + cfg.block.y) * t.geo.grid.x + cfg.block.x;

    // Program order per thread, then the k-th access of each thread in an interval is its step k.
    std::vector<simt::Access> acc;
    for (const auto& a : rep.trace)
        if (a.block == linear_block) acc.push_back(a);
    std::stable_sort(acc.begin(), acc.end(), [](const simt::Access& a, const simt::Access& b) {
        return a.thread != b.thread ? a.thread < b.thread : a.seq < b.seq;
    });
    std::vector<int> ordinal(acc.size());
    for (size_t i = 0; i < acc.size(); ++i) {
        const bool same = i > 0 && acc[i - 1].thread == acc[i].thread && acc[i - 1].interval == acc[i].interval;
        ordinal[i] = same ? ordinal[i - 1] + 1 : 0;
    }
    std::vector<size_t> order(acc.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (acc[a].interval != acc[b].interval) return acc[a].interval < acc[b].interval;
        if (ordinal[a] != ordinal[b]) return ordinal[a] < ordinal[b];
        return acc[a].thread < acc[b].thread;
    });
    t.acc.reserve(acc.size());
    std::vector<int> ord;
    for (size_t i : order) {
        t.acc.push_back(acc[i]);
        ord.push_back(ordinal[i]);
    }

    t.steps.push_back({-1, 0, 0});
    for (size_t i = 0; i < t.acc.size(); ++i) {
        const bool boundary = i + 1 == t.acc.size() || t.acc[i + 1].interval != t.acc[i].interval ||
                              ord[i + 1] != ord[i];
        if (!boundary) continue;
        t.steps.push_back({t.acc[i].interval, ord[i], (int)i + 1});
        if (i + 1 == t.acc.size() || t.acc[i + 1].interval != t.acc[i].interval) {
            t.interval_end.push_back((int)t.steps.size() - 1);
        }
    }
    t.intervals = t.acc.empty() ? 0 : t.acc.back().interval + 1;
    // Intervals in which this block made no access at all (possible at the edge) still count.
    t.interval_end.resize(std::max<size_t>(t.interval_end.size(), 0));

    t.computes.assign(t.threads, 0);
    std::set<int> dz;
    for (const auto& a : t.acc) {
        t.totals.add(a.space, a.op, a.size);
        if (a.space == simt::Space::global && a.op == simt::Op::store) {
            t.computes[a.thread] = 1;
            ++t.outputs;
        }
        if (a.space == simt::Space::shared && a.op == simt::Op::load && t.shared_planes > 0 &&
            (cfg.kernel == KernelId::coarsened || cfg.kernel == KernelId::register_tiled)) {
            const long long plane = (a.offset / a.size) / ((long long)cfg.tile * cfg.tile);
            dz.insert(t.shared_planes == 1 ? 0 : (int)plane - cfg.radius);
        }
    }
    t.shared_dz.assign(dz.begin(), dz.end());
    return t;
}

StepperTrace trace_block(const StepperConfig& cfg) {
    StepperTrace bad;
    bad.cfg = cfg;
    if (auto e = tile_error(cfg.kernel, cfg.tile, cfg.radius, cfg.precision)) {
        bad.error = *e;
        return bad;
    }
    if (auto e = grid_error(cfg.dims, cfg.radius)) {
        bad.error = *e;
        return bad;
    }
    const auto g = launch_geometry(cfg.kernel, cfg.tile, cfg.radius, cfg.precision, cfg.dims);
    if (cfg.block.x < 0 || cfg.block.y < 0 || cfg.block.z < 0 || cfg.block.x >= g.grid.x ||
        cfg.block.y >= g.grid.y || cfg.block.z >= g.grid.z) {
        bad.error = fmt::format("block ({}, {}, {}) is outside the launch grid of {} x {} x {} blocks",
                                cfg.block.x, cfg.block.y, cfg.block.z, g.grid.x, g.grid.y, g.grid.z);
        return bad;
    }
    if (cfg.dims.cells() > (1LL << 24)) {
        bad.error = "the stepper traces grids of at most 16M cells; choose a smaller grid";
        return bad;
    }
    CpuOptions o;
    o.exec.trace.records = simt::TraceMode::block;
    o.exec.trace.block = cfg.block;
    o.exec.trace.count = true;
    const LaunchRequest req{cfg.kernel, cfg.tile, cfg.radius, cfg.precision, cfg.dims};
    const StencilWeights w = laplacian_weights(cfg.radius);
    simt::ExecReport rep;
    try {
        if (cfg.precision == Precision::f32) {
            const auto in = random_field<float>(cfg.dims, 1);
            auto out = poisoned_output(in, cfg.radius);
            rep = run_cpu(req, w, in.data.data(), out.data.data(), o).report;
        } else {
            const auto in = random_field<double>(cfg.dims, 1);
            auto out = poisoned_output(in, cfg.radius);
            rep = run_cpu(req, w, in.data.data(), out.data.data(), o).report;
        }
    } catch (const std::exception& e) {
        bad.error = e.what();
        return bad;
    }
    if (!rep.ok) {
        bad.error = "the CPU backend reports: " + rep.summary();
        return bad;
    }
    StepperTrace t = build_stepper_trace(cfg, rep);
    if (rep.trace_truncated) t.error = "the trace was truncated: choose a smaller tile or grid";
    return t;
}

StepperState stepper_state(const StepperTrace& t, int step) {
    StepperState s;
    step = std::clamp(step, 0, std::max(0, t.last_step()));
    s.step = step;
    s.loads.assign(t.box.cells(), 0);
    s.written.assign(t.box.cells(), 0);
    s.shared.assign((size_t)t.shared_planes * t.cfg.tile * t.cfg.tile, 0);
    s.threads.assign(t.threads, ThreadState::idle);
    if (!t.ok() || t.steps.empty()) return s;
    const Step& st = t.steps[step];
    s.interval = st.interval;
    s.sub = st.sub;
    const GridDims d = t.cfg.dims;

    // Threads whose cell is beyond the grid never do anything: mark them apart from idle ones.
    for (int th = 0; th < t.threads; ++th) {
        const int bx = t.geo.block.x, by = t.geo.block.y;
        const int tx = th % bx, ty = (th / bx) % by, tz = th / (bx * by);
        int x, y, z;
        if (t.cfg.kernel == KernelId::naive) {
            x = t.cfg.block.x * t.cfg.tile + tx;
            y = t.cfg.block.y * t.cfg.tile + ty;
            z = t.cfg.block.z * t.cfg.tile + tz;
        } else {
            x = t.box.x0 + tx, y = t.box.y0 + ty, z = t.box.z0 + (t.cfg.kernel == KernelId::tiled ? tz : t.cfg.radius);
        }
        if (x < 0 || y < 0 || x >= d.nx || y >= d.ny || (t.cfg.kernel != KernelId::coarsened &&
                                                         t.cfg.kernel != KernelId::register_tiled &&
                                                         (z < 0 || z >= d.nz)))
            s.threads[th] = ThreadState::outside;
    }

    int last_load_z = -1;
    for (int i = 0; i < st.end; ++i) {
        const auto& a = t.acc[i];
        const bool current = a.interval == st.interval;
        if (current && s.threads[a.thread] == ThreadState::idle) s.threads[a.thread] = ThreadState::active;
        if (a.space == simt::Space::global) {
            int x, y, z;
            cell_of(a.offset / a.size, d, &x, &y, &z);
            const bool in_box = t.box.contains(x, y, z);
            if (a.op == simt::Op::load) {
                ++s.global_loads;
                s.global_load_bytes += a.size;
                if (in_box) {
                    auto& c = s.loads[t.box.index(x, y, z)];
                    if (c < 255) ++c;
                }
                last_load_z = z;
            } else {
                ++s.global_stores;
                if (in_box) s.written[t.box.index(x, y, z)] = 1;
                if (current) s.threads[a.thread] = ThreadState::computing;
                s.out_plane = z;
            }
        } else {
            if (a.op == simt::Op::load) {
                ++s.shared_loads;
            } else {
                ++s.shared_stores;
                const long long cell = a.offset / a.size;
                if (cell >= 0 && cell < (long long)s.shared.size()) s.shared[cell] = 1;
            }
        }
    }
    s.flops = (double)s.global_stores * t.model.flops_per_output;
    for (auto th : s.threads) {
        if (th == ThreadState::active || th == ThreadState::computing) ++s.active_threads;
        if (th == ThreadState::idle) ++s.idle_threads;
    }

    // The z-marching kernels: the output plane in flight is r below the newest plane loaded.
    if ((t.cfg.kernel == KernelId::coarsened || t.cfg.kernel == KernelId::register_tiled) && last_load_z >= 0) {
        const int r = t.cfg.radius;
        const int zc = last_load_z - r;
        s.out_plane = zc;
        for (int dz = -r; dz <= r; ++dz) {
            PlaneInfo p;
            p.z = zc + dz;
            p.dz = dz;
            p.in_shared = std::find(t.shared_dz.begin(), t.shared_dz.end(), dz) != t.shared_dz.end();
            p.in_registers = t.cfg.kernel == KernelId::register_tiled;
            p.loaded = p.z <= last_load_z;
            s.planes.push_back(p);
        }
    }
    return s;
}

int next_interval_step(const StepperTrace& t, int step) {
    for (int e : t.interval_end)
        if (e > step) return e;
    return t.last_step();
}

int prev_interval_step(const StepperTrace& t, int step) {
    int best = 0;
    for (int e : t.interval_end)
        if (e < step) best = e;
    return best;
}

}  // namespace stencil::viewer
