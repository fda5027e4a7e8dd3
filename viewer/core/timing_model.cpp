#include "viewer/core/timing_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "viewer/core/warp_map.h"

namespace stencil::viewer {

namespace {

// One warp's part of one step: the instruction it executed and what it asked of memory.
struct WarpInstr {
    engine::Space space = engine::Space::global;
    engine::Op op = engine::Op::load;
    int sectors = 0;      // global: distinct 32-byte sectors
    int bank_degree = 1;  // shared: most distinct words one bank serves
};

WarpInstr instr_of(const std::vector<const engine::Access*>& acc) {
    WarpInstr w;
    w.space = acc.back()->space;
    w.op = acc.back()->op;
    if (w.space == engine::Space::global) {
        std::set<std::pair<int, long long>> sectors;
        for (const auto* a : acc) sectors.insert({a->buffer, a->offset / 32});
        w.sectors = (int)sectors.size();
    } else {
        std::map<long long, std::set<long long>> words;  // bank -> words
        for (const auto* a : acc) words[(a->offset / 4) % 32].insert(a->offset / 4);
        for (const auto& [bank, ws] : words) w.bank_degree = std::max(w.bank_degree, (int)ws.size());
    }
    return w;
}

void add_model_span(std::vector<TimelineSpan>& spans, TimelinePhase p, double begin, double end, int interval) {
    if (end <= begin) return;
    if (!spans.empty() && spans.back().phase == p && spans.back().end == begin && spans.back().interval == interval) {
        spans.back().end = end;
        return;
    }
    spans.push_back({p, begin, end, interval});
}

}  // namespace

BlockTimeline timeline_modelled(const StepperTrace& t, const TimingModel& m) {
    BlockTimeline tl;
    tl.unit = "cycles";
    tl.modelled = true;
    if (!t.ok() || t.steps.size() < 2) return tl;
    tl.source = fmt::format("modelled from the CPU engine's trace of {} T={} r={}, block ({}, {}, {}): issue, memory "
                            "latency and the memory pipe, barrier waits (a model, not a measurement)",
                            version(t.cfg.kernel).name, t.cfg.tile, t.cfg.radius, t.cfg.block.x, t.cfg.block.y,
                            t.cfg.block.z);
    const int nwarps = warps_in_block(t.geo.block);
    tl.warps.assign(nwarps, {});
    std::vector<double> clock(nwarps, 0), loads_ready(nwarps, 0), shared_ready(nwarps, 0);
    double pipe_free = 0;
    const double chain = (6.0 * t.cfg.radius + 1) * m.fma_latency;
    int interval = t.steps[1].interval;
    // Every warp arrives at the barrier that ends `k`; it releases after the last one.
    auto barrier = [&](int k) {
        const double release = *std::max_element(clock.begin(), clock.end()) + m.barrier_latency;
        for (int w = 0; w < nwarps; ++w) {
            add_model_span(tl.warps[w], TimelinePhase::wait, clock[w], release, k);
            clock[w] = release;
        }
        tl.barriers.push_back(release);
    };
    // The warp waits for its outstanding global loads (drawn as load).
    auto wait_loads = [&](int w, int k) {
        if (loads_ready[w] > clock[w]) add_model_span(tl.warps[w], TimelinePhase::load, clock[w], loads_ready[w], k);
        clock[w] = std::max(clock[w], loads_ready[w]);
    };
    for (int s = 1; s <= t.last_step(); ++s) {
        const Step& st = t.steps[s];
        while (interval < st.interval) barrier(interval++);
        std::map<int, std::vector<const engine::Access*>> by_warp;
        for (int i = t.steps[s - 1].end; i < st.end; ++i) by_warp[t.acc[i].warp()].push_back(&t.acc[i]);
        for (const auto& [w, acc] : by_warp) {
            if (w < 0 || w >= nwarps) continue;
            const WarpInstr in = instr_of(acc);
            const int k = st.interval;
            if (in.space == engine::Space::global && in.op == engine::Op::load) {
                add_model_span(tl.warps[w], TimelinePhase::load, clock[w], clock[w] + m.issue, k);
                clock[w] += m.issue;
                const double start = std::max(clock[w], pipe_free);
                pipe_free = start + in.sectors * m.cycles_per_sector;
                loads_ready[w] = std::max(loads_ready[w], pipe_free + m.global_latency);
            } else if (in.space == engine::Space::global) {  // a store: the output computed, then written
                wait_loads(w, k);
                const double from = std::max(clock[w], shared_ready[w]);
                add_model_span(tl.warps[w], TimelinePhase::compute, clock[w], from + chain, k);
                clock[w] = from + chain;
                const double start = std::max(clock[w] + m.issue, pipe_free);
                pipe_free = start + in.sectors * m.cycles_per_sector;
                add_model_span(tl.warps[w], TimelinePhase::store, clock[w], pipe_free, k);
                clock[w] = pipe_free;
            } else {
                wait_loads(w, k);
                const bool load = in.op == engine::Op::load;
                const double cost = m.issue * in.bank_degree;
                add_model_span(tl.warps[w], load ? TimelinePhase::compute : TimelinePhase::load, clock[w], clock[w] + cost, k);
                clock[w] += cost;
                if (load) shared_ready[w] = std::max(shared_ready[w], clock[w] + m.shared_latency);
            }
        }
    }
    tl.end = *std::max_element(clock.begin(), clock.end());
    return tl;
}

}  // namespace stencil::viewer
