#include "viewer/core/stepper.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <span>
#include <map>
#include <set>
#include <tuple>

#include "core/backend.h"
#include "core/engine_runs.h"
#include "core/error.h"
#include "core/field.h"
#include "core/weights.h"
#include "viewer/core/student_trace.h"

namespace stencil::viewer {

namespace {

void cell_of(long long index, GridDims d, int* x, int* y, int* z) {
    *x = (int)(index % d.nx);
    *y = (int)((index / d.nx) % d.ny);
    *z = (int)(index / ((long long)d.nx * d.ny));
}

// ---- facts derived from the block's trace (no copy of the kernels' indexing) -------------------

// The box of input cells the block reads: min / max x, y, z over its global loads of `in`. At a
// face of the grid this is the in-grid part of the tile (the kernels skip cells beyond the grid);
// a block that loads nothing has an empty box.
Box input_box(std::span<const engine::Access> acc, GridDims d) {
    int lo[3] = {INT_MAX, INT_MAX, INT_MAX}, hi[3] = {INT_MIN, INT_MIN, INT_MIN};
    for (const auto& a : acc) {
        if (a.space != engine::Space::global || a.op != engine::Op::load || a.buffer != kInputBuffer) continue;
        int c[3];
        cell_of(a.offset / a.size, d, &c[0], &c[1], &c[2]);
        for (int i = 0; i < 3; ++i) lo[i] = std::min(lo[i], c[i]), hi[i] = std::max(hi[i], c[i]);
    }
    if (lo[0] > hi[0]) return {};
    return {lo[0], lo[1], lo[2], hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, hi[2] - lo[2] + 1};
}

// The planes of the __shared__ array the block uses: the extent of the shared cells its trace
// touches, in planes of the shape the versions table declares (shared_plane_shape). Interior
// blocks: T (tiled), 2r + 1 (coarsened), 1 (register-tiled, streaming), 0 (naive: no shared
// access). A block at the far faces of the grid uses fewer planes of the tiled kernel's array (it
// stores no cell beyond the grid).
// `bytes`: a value's; an access may move several (streaming's 16-byte vectors).
int shared_planes_of(std::span<const engine::Access> acc, PlaneShape plane, int bytes) {
    long long extent = 0;
    for (const auto& a : acc)
        if (a.space == engine::Space::shared) extent = std::max(extent, (a.offset + a.size + bytes - 1) / bytes);
    return plane.cells() > 0 ? (int)((extent + plane.cells() - 1) / plane.cells()) : 0;
}

// The rule for "in registers": a thread that loads a value from global memory and does NOT store
// it to shared memory as its very next access (in the same barrier interval) keeps it in a
// register. The tiled and coarsened kernels store every value they load straight into shared
// memory (`s[..] = in[..]`), so no plane of theirs is in registers; the register-tiled kernel
// loads its z-queue into registers and copies only the current plane to shared memory, so its
// 2r + 1 planes are all in registers (the current one in both). (Naive keeps everything in
// registers; it has no planes to show.)
bool loads_to_registers(std::span<const engine::Access> acc) {
    // `acc` is in (thread, seq) order here: the next record of the same thread is its next access.
    for (size_t i = 0; i < acc.size(); ++i) {
        const auto& a = acc[i];
        if (a.space != engine::Space::global || a.op != engine::Op::load) continue;
        const bool next_stores_shared = i + 1 < acc.size() && acc[i + 1].thread == a.thread &&
                                        acc[i + 1].interval == a.interval &&
                                        acc[i + 1].space == engine::Space::shared && acc[i + 1].op == engine::Op::store;
        if (!next_stores_shared) return true;
    }
    return false;
}

// The z offsets (relative to the output cell) of the values the compute reads from shared memory,
// by following what each shared cell holds: a shared store right after a global load holds that
// input cell, right after a shared load it holds what that cell held (the coarsened kernel's plane
// shift), otherwise a value from a register (unknown). Replayed in step order (barrier intervals
// in order; within one, no race means no thread reads what another stores). A single shared plane
// filled from registers holds the current plane (dz = 0): nothing else can be read in-plane.
// When the block keeps loads in registers (loads_to_registers), a shared store after a load may
// store an older register (register-tiled, r = 2: z_reg[R] after loading z_reg[2R - 1]), so then
// load -> store pairs are not trusted.
std::vector<int> shared_dz_of(std::span<const engine::Access> steps, GridDims d, int shared_planes,
                              bool registers) {
    std::map<long long, long long> holds;  // shared cell -> input cell (-1: from a register)
    struct Last {
        int interval = -1;
        const engine::Access* prev = nullptr;
        long long prev_held = -1;         // for a shared load: what the cell held
        std::vector<long long> read;      // input cells (or -1) read from shared in this interval
    };
    std::map<int, Last> th;
    std::set<int> dz;
    for (const auto& a : steps) {
        Last& l = th[a.thread];
        if (l.interval != a.interval) {
            l = Last{};
            l.interval = a.interval;
        }
        const long long cell = a.offset / std::max<int>(1, a.size);
        if (a.space == engine::Space::shared && a.op == engine::Op::store) {
            long long v = -1;
            if (!registers && l.prev && l.prev->space == engine::Space::global && l.prev->op == engine::Op::load)
                v = l.prev->offset / l.prev->size;
            else if (l.prev && l.prev->space == engine::Space::shared && l.prev->op == engine::Op::load)
                v = l.prev_held;
            holds[cell] = v;
        } else if (a.space == engine::Space::shared && a.op == engine::Op::load) {
            const auto it = holds.find(cell);
            l.prev_held = it == holds.end() ? -1 : it->second;
            l.read.push_back(l.prev_held);
        } else if (a.space == engine::Space::global && a.op == engine::Op::store) {
            int x, y, zo;
            cell_of(cell, d, &x, &y, &zo);
            for (long long v : l.read) {
                if (v >= 0) {
                    int vx, vy, vz;
                    cell_of(v, d, &vx, &vy, &vz);
                    dz.insert(vz - zo);
                } else if (shared_planes == 1) {
                    dz.insert(0);
                }
            }
            l.read.clear();
        }
        l.prev = &a;
    }
    return {dz.begin(), dz.end()};
}


// Orders the block's accesses (given per thread in program order) into steps. A step is a group
// (interval, site, occurrence); a group is ready once, in every thread that executes it, all that
// thread's earlier groups are out. Among the ready groups the earliest (smallest ordinal within
// the interval of any of its threads, then the site: PTX order) goes next. Code where two threads
// run two instructions in opposite orders (divergent branches) has no such order; then the
// earliest group whose threads reached it goes, and those threads' order is kept, not the others'.
void order_instructions(const std::vector<engine::Access>& acc, StepperTrace& t) {
    struct Group {
        int interval, site, occurrence, min_ordinal = INT_MAX, size = 0, at_head = 0;
        std::vector<size_t> members{};  // indices into acc, ascending thread
    };
    std::vector<Group> groups;
    std::map<std::tuple<int, int, int>, int> index_of;
    std::vector<int> group_of(acc.size());
    std::map<int, std::vector<int>> chain;  // thread -> its groups in program order
    int ordinal = 0;
    for (size_t i = 0; i < acc.size(); ++i) {
        const auto& a = acc[i];
        const bool same = i > 0 && acc[i - 1].thread == a.thread && acc[i - 1].interval == a.interval;
        ordinal = same ? ordinal + 1 : 0;
        const auto key = std::make_tuple(a.interval, a.site, a.occurrence);
        auto [it, fresh] = index_of.try_emplace(key, (int)groups.size());
        if (fresh) groups.push_back({a.interval, a.site, a.occurrence});
        Group& g = groups[it->second];
        g.min_ordinal = std::min(g.min_ordinal, ordinal);
        ++g.size;
        g.members.push_back(i);
        group_of[i] = it->second;
        chain[a.thread].push_back(it->second);
    }
    auto earlier = [&](int x, int y) {
        const Group &a = groups[x], &b = groups[y];
        return std::tie(a.interval, a.min_ordinal, a.site, a.occurrence) <
               std::tie(b.interval, b.min_ordinal, b.site, b.occurrence);
    };
    std::set<int, decltype(earlier)> ready(earlier), waiting(earlier);
    std::map<int, size_t> head;  // thread -> position in its chain
    for (auto& [th, c] : chain) {
        head[th] = 0;
        if (++groups[c[0]].at_head == groups[c[0]].size) ready.insert(c[0]);
    }
    for (int g = 0; g < (int)groups.size(); ++g)
        if (!ready.count(g)) waiting.insert(g);
    std::vector<bool> done(groups.size(), false);
    t.acc.reserve(acc.size());
    t.steps.push_back({-1, 0, 0});
    int sub = 0;
    while (!ready.empty() || !waiting.empty()) {
        int g;
        if (!ready.empty()) {
            g = *ready.begin();
        } else {  // no order keeps every thread's: the earliest group some thread has reached
            g = *waiting.begin();
            for (int w : waiting)
                if (groups[w].at_head > 0) {
                    g = w;
                    break;
                }
        }
        ready.erase(g);
        waiting.erase(g);
        done[g] = true;
        const Group& G = groups[g];
        if (!t.steps.empty() && t.steps.back().interval != G.interval) sub = 0;
        for (size_t i : G.members) {
            t.acc.push_back(acc[i]);
            // Advance this thread past g (and past any group already emitted out of its order).
            auto& c = chain[acc[i].thread];
            size_t& h = head[acc[i].thread];
            if (h >= c.size() || c[h] != g) continue;  // emitted out of this thread's order
            while (h < c.size() && done[c[h]]) ++h;
            if (h < c.size() && ++groups[c[h]].at_head == groups[c[h]].size && waiting.erase(c[h]))
                ready.insert(c[h]);
        }
        t.steps.push_back({G.interval, sub++, (int)t.acc.size(), G.site, G.occurrence, G.size});
    }
    for (int s = 1; s < (int)t.steps.size(); ++s)
        if (s + 1 == (int)t.steps.size() || t.steps[s + 1].interval != t.steps[s].interval)
            t.interval_end.push_back(s);
}

}  // namespace

PlaneShape shared_plane_shape(KernelId k, int tile, int radius, int bytes) {
    switch (version(k).shared) {
        case SharedTile::none: return {};
        case SharedTile::whole_tile:
        case SharedTile::stencil_planes:
        case SharedTile::one_plane: return {tile, tile};
        // temporal: per level, each strip's r first and r last rows, 32 lanes of V cells wide
        case SharedTile::strip_edges: return {32 * cells_per_thread(k, bytes), tile / rows_per_thread(k) * 2 * radius};
        case SharedTile::halo_plane: return {tile + 2 * radius, tile + 2 * radius};
        // streaming: T + 2r rows of 32 vectors, two planes of them (the double buffer)
        case SharedTile::row_tile: return {32 * cells_per_thread(k, bytes), tile + 2 * radius};
    }
    return {};
}

StepperTrace build_stepper_trace(const StepperConfig& cfg, const engine::ExecReport& rep) {
    StepperTrace t;
    t.cfg = cfg;
    t.geo = launch_geometry(cfg.kernel, cfg.tile, cfg.radius, cfg.precision, cfg.dims, cfg.block_shape);
    t.model = kernel_model(cfg.kernel, cfg.tile, cfg.radius, cfg.precision);
    t.threads = (int)t.geo.block.count();
    t.seconds = rep.seconds;
    const int linear_block = (cfg.block.z * t.geo.grid.y + cfg.block.y) * t.geo.grid.x + cfg.block.x;

    // Program order per thread, then the k-th access of each thread in an interval is its step k.
    std::vector<engine::Access> acc;
    for (const auto& a : rep.trace)
        if (a.block == linear_block) acc.push_back(a);
    std::stable_sort(acc.begin(), acc.end(), [](const engine::Access& a, const engine::Access& b) {
        return a.thread != b.thread ? a.thread < b.thread : a.seq < b.seq;
    });
    // What the trace says about the block (see the helpers above).
    t.box = input_box(acc, cfg.dims);
    const PlaneShape plane = shared_plane_shape(cfg.kernel, cfg.tile, cfg.radius, bytes_of(cfg.precision));
    t.shared_nx = plane.nx, t.shared_ny = plane.ny;
    t.shared_planes = shared_planes_of(acc, plane, bytes_of(cfg.precision));
    t.register_planes = loads_to_registers(acc);
    // One step is one instruction of the block: the threads that executed the same access
    // instruction (interval, site, occurrence: one source line) together, as a SIMT machine
    // issues it (core/engine_trace.h). Steps are put in an order that keeps every thread's program order
    // (order_instructions), so the state after step k is what each thread had done by then.
    order_instructions(acc, t);
    t.sites = rep.site_source;
    t.site_instr = rep.sites;
    t.intervals = t.acc.empty() ? 0 : t.acc.back().interval + 1;
    t.computes.assign(t.threads, 0);
    t.acts.assign(t.threads, 0);
    for (const auto& a : t.acc) {
        t.totals.add(a.space, a.op, a.size);
        t.acts[a.thread] = 1;
        if (a.space == engine::Space::global && a.op == engine::Op::store) {
            t.computes[a.thread] = 1;
            ++t.outputs;
        }
    }
    t.shared_dz = shared_dz_of(t.acc, cfg.dims, t.shared_planes, t.register_planes);
    return t;
}

StepperTrace trace_block(const StepperConfig& cfg, const std::atomic<bool>* cancel) {
    if (!cfg.kernel_file.empty()) return trace_student_kernel(cfg, cancel);
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
    if (cfg.block_shape)
        if (auto e = block_error(cfg.kernel, *cfg.block_shape)) {
            bad.error = *e;
            return bad;
        }
    const auto g = launch_geometry(cfg.kernel, cfg.tile, cfg.radius, cfg.precision, cfg.dims, cfg.block_shape);
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
    engine::ExecOptions o;
    o.trace.records = engine::TraceMode::block;
    o.trace.block = cfg.block;
    o.trace.count = true;
    o.cancel = cancel;
    LaunchRequest req;
    req.kernel = cfg.kernel, req.tile = cfg.tile, req.radius = cfg.radius, req.precision = cfg.precision;
    req.dims = cfg.dims;
    req.block = cfg.block_shape;
    const StencilWeights w = laplacian_weights(cfg.radius);
    // The stepper shows the engine's trace, whichever backend times: the CPU backend's EngineRuns.
    const std::unique_ptr<Backend> cpu = make_cpu_backend();
    EngineRuns& engine = *cpu->engine();
    engine::ExecReport rep;
    try {
        if (cfg.precision == Precision::f32) {
            const auto in = random_field<float>(cfg.dims, 1);
            auto out = poisoned_output(in, cfg.radius);
            rep = engine.run(req, w, in.data.data(), out.data.data(), o).report;
        } else {
            const auto in = random_field<double>(cfg.dims, 1);
            auto out = poisoned_output(in, cfg.radius);
            rep = engine.run(req, w, in.data.data(), out.data.data(), o).report;
        }
    } catch (const std::exception& e) {
        bad.error = e.what();
        return bad;
    }
    if (rep.cancelled) {
        bad.error = "cancelled";
        return bad;
    }
    if (!rep.ok) {
        bad.error = "the CPU backend reports: " + rep.summary();
        return bad;
    }
    StepperTrace t = build_stepper_trace(cfg, rep);
    if (rep.trace_truncated) t.error = "the trace was truncated: choose a smaller tile or grid";
    // The text the engine parsed (in memory: the launch above compiled or loaded it).
    EnginePtx ptx = engine.ptx(req);
    t.ptx = std::move(ptx.ptx);
    t.ptx_entry = std::move(ptx.entry);
    t.ptx_file = std::move(ptx.source_file);
    return t;
}

// Long because it replays the trace up to the step in one pass, each access updating the cells, the
// shared array and the threads.
StepperState stepper_state(const StepperTrace& t, int step) {
    StepperState s;
    step = std::clamp(step, 0, std::max(0, t.last_step()));
    s.step = step;
    s.loads.assign(t.box.cells(), 0);
    s.written.assign(t.box.cells(), 0);
    s.shared.assign((size_t)t.shared_planes * t.shared_nx * t.shared_ny, 0);
    s.threads.assign(t.threads, ThreadState::idle);
    if (!t.ok() || t.steps.empty()) return s;
    const Step& st = t.steps[step];
    s.interval = st.interval;
    s.sub = st.sub;
    const GridDims d = t.cfg.dims;

    // Threads that make no access in the whole launch (the trace says so: their cell is beyond the
    // grid and the kernel's guard skipped everything) are told apart from threads idle only now.
    // No copy of the kernel's thread -> cell mapping: the trace is the truth.
    for (int th = 0; th < t.threads; ++th)
        if (th < (int)t.acts.size() && !t.acts[th]) s.threads[th] = ThreadState::outside;

    int last_load_z = -1;
    for (int i = 0; i < st.end; ++i) {
        const auto& a = t.acc[i];
        const bool current = a.interval == st.interval;
        if (current && s.threads[a.thread] == ThreadState::idle) s.threads[a.thread] = ThreadState::active;
        if (a.space == engine::Space::global) {
            int x, y, z;
            cell_of(a.offset / a.size, d, &x, &y, &z);
            const bool in_box = t.box.contains(x, y, z);
            if (a.op == engine::Op::load) {
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
            if (a.op == engine::Op::load) {
                ++s.shared_loads;
            } else {
                ++s.shared_stores;
                // Every value the store writes (a 16-byte vector: 4 floats or 2 doubles).
                const int bytes = bytes_of(t.cfg.precision);
                for (long long cell = a.offset / bytes; cell < (a.offset + a.size) / bytes; ++cell)
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
    // (z-marching: the launch geometry gives a block one x-y plane of threads that walks several
    // output planes.)
    const bool z_marching = t.geo.block.z == 1 && t.geo.out_planes > 1;
    if (z_marching && last_load_z >= 0) {
        const int r = t.cfg.radius;
        const int zc = last_load_z - r;
        s.out_plane = zc;
        for (int dz = -r; dz <= r; ++dz) {
            PlaneInfo p;
            p.z = zc + dz;
            p.dz = dz;
            p.in_shared = std::find(t.shared_dz.begin(), t.shared_dz.end(), dz) != t.shared_dz.end();
            p.in_registers = t.register_planes;  // the rule at loads_to_registers()
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

int step_of_access(const StepperTrace& t, int index) {
    if (index < 0 || index >= (int)t.acc.size()) return 0;
    // The first step whose accesses [previous end, end) hold `index`.
    const auto it = std::upper_bound(t.steps.begin(), t.steps.end(), index,
                                     [](int i, const Step& s) { return i < s.end; });
    return (int)(it - t.steps.begin());
}

namespace {
AccessAt access_at(const StepperTrace& t, int i) {
    const auto& a = t.acc[i];
    AccessAt r;
    r.step = step_of_access(t, i);
    r.thread = a.thread;
    r.space = a.space;
    r.op = a.op;
    r.cell = a.offset / std::max<int>(1, a.size);
    r.where = step_source(t, r.step);
    return r;
}
}  // namespace

std::vector<AccessAt> loads_of_cell(const StepperTrace& t, int x, int y, int z) {
    std::vector<AccessAt> out;
    const GridDims d = t.cfg.dims;
    if (x < 0 || y < 0 || z < 0 || x >= d.nx || y >= d.ny || z >= d.nz) return out;
    const long long cell = ((long long)z * d.ny + y) * d.nx + x;
    for (int i = 0; i < (int)t.acc.size(); ++i) {
        const auto& a = t.acc[i];
        if (a.space == engine::Space::global && a.op == engine::Op::load && a.buffer == kInputBuffer &&
            a.offset / a.size == cell)
            out.push_back(access_at(t, i));
    }
    return out;
}

std::vector<AccessAt> accesses_of_thread(const StepperTrace& t, int thread) {
    std::vector<std::pair<int, int>> mine;  // (seq, index)
    for (int i = 0; i < (int)t.acc.size(); ++i)
        if (t.acc[i].thread == thread) mine.emplace_back(t.acc[i].seq, i);
    std::sort(mine.begin(), mine.end());
    std::vector<AccessAt> out;
    for (const auto& [seq, i] : mine) out.push_back(access_at(t, i));
    return out;
}

const char* to_string(StepZoom z) {
    switch (z) {
        case StepZoom::instruction: return "instruction";
        case StepZoom::line: return "line";
        case StepZoom::interval: return "interval";
    }
    return "?";
}

std::optional<StepZoom> parse_zoom(std::string_view s) {
    for (StepZoom z : {StepZoom::instruction, StepZoom::line, StepZoom::interval})
        if (s == to_string(z)) return z;
    return std::nullopt;
}

SourcePos step_source(const StepperTrace& t, int step) {
    if (step <= 0 || step >= (int)t.steps.size()) return {};
    const int site = t.steps[step].site;
    if (site < 0 || site >= (int)t.sites.size()) return {};
    const auto& s = t.sites[site];
    return {s.file, s.line, s.instruction};
}

int first_step_at_line(const StepperTrace& t, int line) {
    int best = 0, best_line = INT_MAX;
    for (int s = 1; s <= t.last_step(); ++s) {
        const int l = step_source(t, s).line;
        if (l >= line && l < best_line) best = s, best_line = l;
    }
    return best;
}

int story_step(const StepperTrace& t) {
    if (!t.ok() || t.last_step() <= 0) return 0;
    for (int s = 1; s <= t.last_step(); ++s) {
        const Step& st = t.steps[s];
        bool stores = false;
        for (int a = t.steps[s - 1].end; a < st.end && !stores; ++a)
            stores = t.acc[a].space == engine::Space::global && t.acc[a].op == engine::Op::store;
        if (!stores) continue;
        if (st.interval >= 0 && st.interval < (int)t.interval_end.size()) return t.interval_end[st.interval];
        return t.last_step();
    }
    return t.last_step();
}

namespace {
// Step s ends a unit of `zoom`: every step ends an instruction; a line ends where the next step is
// on another line (or in another interval); an interval at its last step.
bool is_stop(const StepperTrace& t, int s, StepZoom zoom) {
    if (s <= 0 || s >= t.last_step()) return true;
    if (zoom == StepZoom::instruction) return true;
    const bool interval_ends = t.steps[s + 1].interval != t.steps[s].interval;
    if (zoom == StepZoom::interval) return interval_ends;
    const SourcePos a = step_source(t, s), b = step_source(t, s + 1);
    return interval_ends || a.file != b.file || a.line != b.line;
}
}  // namespace

int next_stop(const StepperTrace& t, int step, StepZoom zoom) {
    int s = std::max(0, step) + 1;
    while (s < t.last_step() && !is_stop(t, s, zoom)) ++s;
    return std::clamp(s, 0, std::max(0, t.last_step()));
}

int prev_stop(const StepperTrace& t, int step, StepZoom zoom) {
    int s = std::min(step, t.last_step()) - 1;
    while (s > 0 && !is_stop(t, s, zoom)) --s;
    return std::max(0, s);
}

std::vector<int> zoom_stops(const StepperTrace& t, StepZoom zoom) {
    std::vector<int> stops = {0};
    for (int s = 0; s < t.last_step();) {
        const int n = next_stop(t, s, zoom);
        if (n <= s) break;
        stops.push_back(n);
        s = n;
    }
    return stops;
}

int step_for_key(const StepperTrace& t, int step, StepKey key, StepZoom zoom) {
    int to = step;
    switch (key) {
        case StepKey::space:
        case StepKey::right: to = next_interval_step(t, step); break;
        case StepKey::left: to = prev_interval_step(t, step); break;
        case StepKey::down: to = next_stop(t, step, zoom); break;
        case StepKey::up: to = prev_stop(t, step, zoom); break;
        case StepKey::home: to = 0; break;
        case StepKey::end: to = t.last_step(); break;
    }
    return std::clamp(to, 0, std::max(0, t.last_step()));
}

}  // namespace stencil::viewer
