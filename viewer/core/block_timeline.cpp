#include "viewer/core/block_timeline.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/backend.h"
#include "core/block_timelines.h"
#include "viewer/core/warp_map.h"

namespace stencil::viewer {

const char* to_string(TimelinePhase p) {
    switch (p) {
        case TimelinePhase::load: return "load";
        case TimelinePhase::wait: return "wait at barrier";
        case TimelinePhase::compute: return "compute";
        case TimelinePhase::store: return "store";
    }
    return "?";
}

double BlockTimeline::total(TimelinePhase p) const {
    double sum = 0;
    for (const auto& w : warps)
        for (const auto& s : w)
            if (s.phase == p) sum += s.end - s.begin;
    return sum;
}

namespace {

// Appends [begin, end) to a warp's spans, merged with the previous one when it continues it.
void add_span(std::vector<TimelineSpan>& spans, TimelinePhase p, double begin, double end, int interval) {
    if (end <= begin) return;
    if (!spans.empty() && spans.back().phase == p && spans.back().end == begin && spans.back().interval == interval) {
        spans.back().end = end;
        return;
    }
    spans.push_back({p, begin, end, interval});
}

TimelinePhase phase_of(const engine::Access& a) {
    if (a.space == engine::Space::global) return a.op == engine::Op::load ? TimelinePhase::load : TimelinePhase::store;
    return a.op == engine::Op::load ? TimelinePhase::compute : TimelinePhase::load;  // shared store: the load's end
}

}  // namespace

BlockTimeline timeline_from_trace(const StepperTrace& t) {
    BlockTimeline tl;
    tl.unit = "step";
    if (!t.ok() || t.steps.size() < 2) return tl;
    tl.source = fmt::format("CPU engine trace of {} T={} r={}, block ({}, {}, {}): one step = one instruction of "
                            "the block",
                            version(t.cfg.kernel).name, t.cfg.tile, t.cfg.radius, t.cfg.block.x, t.cfg.block.y,
                            t.cfg.block.z);
    const int nwarps = warps_in_block(t.geo.block);
    tl.warps.assign(nwarps, {});
    std::vector<int> last_step(nwarps, -1), last_interval(nwarps, -1);
    // The wait of warp w: from its last step in interval k to the step that ends k (the barrier).
    auto close_interval = [&](int w, int interval) {
        if (last_interval[w] < 0 || interval < 0 || interval + 1 >= t.intervals) return;
        const int release = t.interval_end.at(interval);
        add_span(tl.warps[w], TimelinePhase::wait, last_step[w], release, interval);
    };
    for (int s = 1; s <= t.last_step(); ++s) {
        const Step& st = t.steps[s];
        std::vector<bool> in_step(nwarps, false);
        for (int i = t.steps[s - 1].end; i < st.end; ++i) in_step[t.acc[i].warp()] = true;
        const TimelinePhase p = phase_of(t.acc[st.end - 1]);
        for (int w = 0; w < nwarps; ++w) {
            if (!in_step[w]) continue;
            if (last_interval[w] != st.interval) {
                // Intervals the warp made no access in: it waited through each (its barriers).
                for (int k = last_interval[w]; k >= 0 && k < st.interval; ++k) {
                    close_interval(w, k);
                    last_step[w] = t.interval_end.at(k);
                    last_interval[w] = k + 1;
                }
                last_interval[w] = st.interval;
            }
            add_span(tl.warps[w], p, s - 1, s, st.interval);
            last_step[w] = s;
        }
    }
    for (int w = 0; w < nwarps; ++w)
        for (int k = std::max(0, last_interval[w]); k + 1 < t.intervals; ++k) {
            if (last_interval[w] < 0) break;  // a warp that did nothing at all
            close_interval(w, k);
            last_step[w] = t.interval_end.at(k);
            last_interval[w] = k + 1;
        }
    for (int k = 0; k + 1 < t.intervals; ++k) tl.barriers.push_back(t.interval_end.at(k));
    tl.end = t.last_step();
    return tl;
}

BlockTimeline timeline_from_stamps(const BlockStamps& s) {
    BlockTimeline tl;
    tl.unit = s.unit;
    tl.source = s.source;
    if (s.warps.empty() || s.warps[0].empty()) return tl;
    std::uint64_t t0 = s.warps[0][0][(int)Mark::start];
    size_t planes = 0;
    for (const auto& w : s.warps) {
        if (!w.empty()) t0 = std::min(t0, w[0][(int)Mark::start]);
        planes = std::max(planes, w.size());
    }
    // Per plane: the load barrier's first release, and the shift barrier's (the next plane's
    // first start). Each warp's own stamp comes a few cycles after, as it is scheduled again.
    std::vector<double> load_release(planes, -1), shift_release(planes, -1);
    auto earliest = [](double& at, double t) { at = at < 0 ? t : std::min(at, t); };
    for (const auto& w : s.warps) {
        std::vector<TimelineSpan> spans;
        for (size_t p = 0; p < w.size(); ++p) {
            auto at = [&](Mark m) { return (double)(w[p][(int)m] - t0); };
            const int k = 2 * (int)p;
            add_span(spans, TimelinePhase::load, at(Mark::start), at(Mark::loaded), k);
            add_span(spans, TimelinePhase::compute, at(Mark::loaded), at(Mark::arrived), k);
            add_span(spans, TimelinePhase::wait, at(Mark::arrived), at(Mark::released), k);
            add_span(spans, TimelinePhase::compute, at(Mark::released), at(Mark::computed), k + 1);
            add_span(spans, TimelinePhase::store, at(Mark::computed), at(Mark::stored), k + 1);
            earliest(load_release[p], at(Mark::released));
            if (p + 1 < w.size()) {
                const double next = (double)(w[p + 1][(int)Mark::start] - t0);
                add_span(spans, TimelinePhase::wait, at(Mark::stored), next, k + 1);
                earliest(shift_release[p], next);
            }
            tl.end = std::max(tl.end, at(Mark::stored));
        }
        tl.warps.push_back(std::move(spans));
    }
    for (size_t p = 0; p < planes; ++p) {
        if (load_release[p] >= 0) tl.barriers.push_back(load_release[p]);
        if (shift_release[p] >= 0) tl.barriers.push_back(shift_release[p]);
    }
    return tl;
}

std::vector<KernelId> gpu_timeline_kernels() {
    std::vector<KernelId> v;
    for (const auto& k : kernel_versions())
        if (has_block_timeline(k.id)) v.push_back(k.id);
    return v;
}

std::optional<BlockStamps> record_gpu_stamps(const StepperConfig& cfg, std::string* why) {
    if (!cfg.kernel_file.empty() || !has_block_timeline(cfg.kernel)) {
        *why = "the GPU timeline instruments the lab's tiled and coarsened kernels (their barriers between load "
               "and compute): choose one above";
        return std::nullopt;
    }
    try {
        std::string no_backend;
        const std::unique_ptr<Backend> gpu = make_cuda_backend(&no_backend);
        BlockTimelines* timelines = gpu ? gpu->block_timelines() : nullptr;
        if (!timelines) {
            *why = gpu ? "this GPU backend records no block timelines" : "no GPU here: " + no_backend;
            return std::nullopt;
        }
        LaunchRequest req;
        req.kernel = cfg.kernel, req.tile = cfg.tile, req.radius = cfg.radius, req.precision = cfg.precision;
        req.dims = cfg.dims;
        const RecordedTimeline r = timelines->record(req, cfg.block.x, cfg.block.y, cfg.block.z);
        BlockStamps s;
        s.unit = "cycles";
        s.source = fmt::format("{}: {} T={} r={} {}, block ({}, {}, {}), clock64{}{}", r.device,
                               version(cfg.kernel).name, cfg.tile, cfg.radius, to_string(cfg.precision), cfg.block.x,
                               cfg.block.y, cfg.block.z, r.planes > 1 ? fmt::format(", {} planes", r.planes) : "",
                               r.output_ok ? "" : " (its output failed the check: " + r.check + ")");
        for (int w = 0; w < r.warps; ++w) {
            std::vector<WarpStamps> planes;
            for (int p = 0; p < r.planes; ++p) {
                WarpStamps ws{};
                for (int m = 0; m < kMarks; ++m) ws[m] = r.at(r.cycles, w, p, m);
                planes.push_back(ws);
            }
            s.warps.push_back(std::move(planes));
        }
        return s;
    } catch (const std::exception& e) {
        *why = e.what();
        return std::nullopt;
    }
}

TimeWindow zoom_window(TimeWindow w, double at, double factor, double end) {
    end = std::max(end, 1.0);
    const double width = std::clamp((w.to - w.from) / factor, std::min(1.0, end), end);
    const double share = w.to > w.from ? (at - w.from) / (w.to - w.from) : 0.5;
    double from = at - share * width;
    from = std::clamp(from, 0.0, end - width);
    return {from, from + width};
}

}  // namespace stencil::viewer
