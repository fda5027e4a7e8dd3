#include "viewer/core/jobs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/compare.h"
#include "core/engine_runs.h"
#include "core/run.h"
#include "core/error.h"
#include "core/field.h"
#include "core/reference.h"
#include "core/stats.h"
#include "core/weights.h"

namespace stencil::viewer {

std::optional<long long> cpu_instructions(EngineRuns& engine, const LaunchRequest& req) {
    try {
        const StencilWeights w = random_weights(req.radius, 1).rounded_to(req.precision);
        const size_t bytes = (size_t)req.dims.cells() * bytes_of(req.precision);
        std::vector<unsigned char> in(bytes, 0), out(bytes, 0);  // zeros: the count does not depend on values
        const EngineRun r = engine.run(req, w, in.data(), out.data(), {});
        if (!r.ok()) return std::nullopt;
        return r.report.instructions;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::string run_status_line(const std::string& what, int number, int total, std::string_view stage, bool cancelling) {
    if (cancelling) return fmt::format("cancelling... ({} of {}: {} stops at its next stage)", number, total, what);
    return fmt::format("{} ({} of {}){}{}", what, number, total, stage.empty() ? "" : ": ", stage);
}

RunRecord run_one(Backend& b, const LaunchRequest& req, int warmup, int reps, bool check,
                  const std::atomic<bool>* cancel, const StageFn& stage) {
    RunRecord r;
    r.kernel = version(req.kernel).name;
    r.tile = req.tile;
    r.radius = req.radius;
    r.precision = std::string(to_string(req.precision));
    r.dims = req.dims;
    r.backend = std::string(to_string(b.kind()));
    r.flops = stencil_flops(req.dims, req.radius);
    try {
        RunOptions o;
        o.request = req;
        o.warmup = warmup;
        o.reps = reps;
        (void)check;  // run_kernel always checks before it times
        o.progress = [cancel, &stage](RunStage s, double f) {
            if (stage) stage(s, f);
            return !(cancel && cancel->load());
        };
        const RunReport rep = run_kernel(b, o);
        r.device = rep.device.name;
        r.checked = true;
        r.ok = rep.ok;
        r.max_rel_err = rep.check.max_rel_err;
        r.bound = rep.check.gamma;
        if (!rep.ok) r.error = rep.cancelled ? "cancelled" : rep.check.summary();
        r.ms_min = rep.ms.min;
        r.ms_median = rep.ms.median;
        r.ms_max = rep.ms.max;
        r.gbps = rep.gbps;
        r.copy_gbps = rep.copy_gbps;
        r.of_copy = rep.copy_ratio;
        // The engine's speed: its instructions (one counted launch) over the median time.
        if (EngineRuns* engine = b.engine(); engine && rep.ok && r.ms_median > 0 && !(cancel && cancel->load()))
            if (const auto n = cpu_instructions(*engine, req)) r.instructions_per_s = double(*n) / (r.ms_median * 1e-3);
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    return r;
}

std::vector<LaunchRequest> sweep_requests(KernelId k, int r, Precision p, GridDims d) {
    std::vector<LaunchRequest> out;
    for (int T : runnable_tiles(k, r, p)) {
        // naive (and conv27, naive-shaped): T is only the block edge; the two textbook blocks
        if (!version(k).tile_is_template && T != 4 && T != 8) continue;
        LaunchRequest q;
        q.kernel = k, q.tile = T, q.radius = r, q.precision = p, q.dims = d;
        out.push_back(q);
    }
    return out;
}

JobRunner::~JobRunner() {
    cancel();
    wait();
}

bool JobRunner::start(JobOptions opt, std::string* why) {
    if (running_) {
        if (why) *why = "a run is in progress";
        return false;
    }
    wait();
    cancel_ = false;
    done_ = 0;
    total_ = (int)opt.runs.size();
    running_ = true;
    thread_ = std::thread([this, o = std::move(opt)]() mutable { work(std::move(o)); });
    return true;
}

void JobRunner::cancel() { cancel_ = true; }

float JobRunner::progress() const {
    return total_ > 0 ? std::min(1.0f, ((float)done_ + within_.load()) / (float)total_) : 0.0f;
}

std::string JobRunner::status() const {
    std::lock_guard l(m_);
    return cancelling() ? "cancelling... (the run stops at its next stage)" : status_;
}

std::vector<RunRecord> JobRunner::take_finished() {
    std::lock_guard l(m_);
    return std::exchange(finished_, {});
}

void JobRunner::wait() {
    if (thread_.joinable()) thread_.join();
}

void JobRunner::work(JobOptions opt) {
    std::string why;
    std::unique_ptr<Backend> b = make_backend(opt.backend, &why);
    if (!b) {
        std::lock_guard l(m_);
        status_ = "no backend: " + why;
        running_ = false;
        return;
    }
    for (const auto& req : opt.runs) {
        if (cancel_) break;
        const std::string what = fmt::format("{} T={} r={} {} on {}", version(req.kernel).name, req.tile, req.radius,
                                             to_string(req.precision), to_string(b->kind()));
        within_ = 0;
        const int number = done_ + 1, total = total_.load();
        auto stage = [&](RunStage s, double f) {
            within_ = (float)std::clamp(f, 0.0, 1.0);
            std::lock_guard l(m_);
            status_ = run_status_line(what, number, total, to_string(s), false);
        };
        stage(RunStage::validating, 0);
        RunRecord rec = run_one(*b, req, opt.warmup, opt.reps, opt.check, &cancel_, stage);
        within_ = 0;
        {
            std::lock_guard l(m_);
            finished_.push_back(std::move(rec));
        }
        ++done_;
    }
    {
        std::lock_guard l(m_);
        status_ = cancel_ ? fmt::format("cancelled after {} of {} runs", done_.load(), total_.load())
                          : fmt::format("done: {} runs", done_.load());
    }
    running_ = false;
}

// ---- TraceWorker ------------------------------------------------------------------------------

TraceResult compute_trace(const StepperConfig& cfg, const std::atomic<bool>* cancel) {
    const auto t0 = std::chrono::steady_clock::now();
    TraceResult r;
    r.trace = trace_block(cfg, cancel);
    r.block_summary = summarize_loads(r.trace, -1);
    if (r.trace.ok()) r.prediction = predicted_warp(cfg.kernel, cfg.tile, cfg.radius, cfg.precision, cfg.dims);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

TraceWorker::TraceWorker() : TraceWorker(CancellableTraceFn(&compute_trace)) {}

TraceWorker::TraceWorker(TraceFn fn)
    : TraceWorker(CancellableTraceFn([fn = std::move(fn)](const StepperConfig& c, const std::atomic<bool>*) {
          return fn(c);
      })) {}

TraceWorker::TraceWorker(CancellableTraceFn fn) : fn_(std::move(fn)), thread_([this] { loop(); }) {}

TraceWorker::~TraceWorker() {
    {
        std::lock_guard l(m_);
        stop_ = true;
        cancel_running_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();  // a trace in flight stops at its next check
}

std::uint64_t TraceWorker::request(const StepperConfig& cfg) {
    std::uint64_t id;
    {
        std::lock_guard l(m_);
        id = ++newest_id_;
        want_ = cfg;
        want_id_ = id;
        newest_cfg_ = cfg;
        newest_at_ = std::chrono::steady_clock::now();
        ready_.reset();  // an older finished trace is stale now
        if (running_id_ != 0) cancel_running_ = true;  // so is the one in flight
    }
    cv_.notify_all();
    return id;
}

std::optional<TraceResult> TraceWorker::take() {
    std::lock_guard l(m_);
    if (!ready_ || ready_->id != newest_id_) return std::nullopt;
    return std::exchange(ready_, std::nullopt);
}

bool TraceWorker::busy() const {
    std::lock_guard l(m_);
    return newest_id_ > 0 && !(ready_ && ready_->id == newest_id_) && (want_ || running_id_ == newest_id_);
}

std::optional<StepperConfig> TraceWorker::pending() const {
    if (!busy()) return std::nullopt;
    std::lock_guard l(m_);
    return newest_cfg_;
}

double TraceWorker::busy_seconds() const {
    std::lock_guard l(m_);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - newest_at_).count();
}

void TraceWorker::wait() {
    std::unique_lock l(m_);
    done_cv_.wait(l, [&] { return stop_ || (!want_ && running_id_ != newest_id_); });
}

void TraceWorker::loop() {
    std::unique_lock l(m_);
    for (;;) {
        cv_.wait(l, [&] { return stop_ || want_.has_value(); });
        if (stop_) return;
        const StepperConfig cfg = *want_;
        const std::uint64_t id = want_id_;
        want_.reset();
        running_id_ = id;
        cancel_running_ = false;
        l.unlock();
        TraceResult r;
        try {
            r = fn_(cfg, &cancel_running_);
        } catch (const std::exception& e) {
            r.trace.cfg = cfg;
            r.trace.error = e.what();
        }
        r.id = id;
        l.lock();
        running_id_ = 0;
        if (id == newest_id_) ready_ = std::move(r);  // else a newer request is waiting: drop it
        done_cv_.notify_all();
    }
}

}  // namespace stencil::viewer
