#include "viewer/core/jobs.h"

#include <fmt/format.h>

#include <cstring>

#include "core/compare.h"
#include "core/run.h"
#include "core/error.h"
#include "core/field.h"
#include "core/reference.h"
#include "core/stats.h"
#include "core/weights.h"

namespace stencil::viewer {

RunRecord run_one(Backend& b, const LaunchRequest& req, int warmup, int reps, bool check,
                  const std::atomic<bool>* cancel) {
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
        if (cancel) o.progress = [cancel](RunStage, double) { return !cancel->load(); };
        const RunReport rep = run_kernel(b, o);
        r.device = rep.device.name;
        r.checked = true;
        r.ok = rep.ok;
        r.max_rel_err = rep.check.max_rel_err;
        if (!rep.ok) r.error = rep.cancelled ? "cancelled" : rep.check.summary();
        r.ms_min = rep.ms.min;
        r.ms_median = rep.ms.median;
        r.ms_max = rep.ms.max;
        r.gbps = rep.gbps;
        r.copy_gbps = rep.copy_gbps;
        r.of_copy = rep.copy_ratio;
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    return r;
}

std::vector<LaunchRequest> sweep_requests(KernelId k, int r, Precision p, GridDims d) {
    std::vector<LaunchRequest> out;
    for (int T : runnable_tiles(k, r, p)) {
        if (k == KernelId::naive && T != 4 && T != 8) continue;  // naive: the two textbook blocks
        out.push_back({k, T, r, p, d});
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

float JobRunner::progress() const { return total_ > 0 ? (float)done_ / (float)total_ : 0.0f; }

std::string JobRunner::status() const {
    std::lock_guard l(m_);
    return status_;
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
        {
            std::lock_guard l(m_);
            status_ = fmt::format("{} T={} r={} {} on {} ({} of {})", version(req.kernel).name, req.tile, req.radius,
                                  to_string(req.precision), to_string(b->kind()), done_ + 1, total_.load());
        }
        RunRecord rec = run_one(*b, req, opt.warmup, opt.reps, opt.check, &cancel_);
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

}  // namespace stencil::viewer
