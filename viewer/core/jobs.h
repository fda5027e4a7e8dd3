// Runs for the runs panel, on a worker thread: one kernel or a sweep over T, on the GPU or the CPU
// backend, with progress and cancellation between launches. The window keeps drawing; the panel
// polls progress() and collects the records when done.
//
// Each run goes through core/run.h's run_kernel (check against the fp64 reference, then time,
// then copy bandwidth); cancellation reaches it through its progress callback.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <optional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/backend.h"
#include "core/run.h"
#include "viewer/core/model_view.h"
#include "viewer/core/results.h"
#include "viewer/core/stepper.h"
#include "viewer/core/warp_map.h"

namespace stencil::viewer {

struct JobOptions {
    std::string backend = "cpu";  // auto | cuda | cpu
    std::vector<LaunchRequest> runs;
    int warmup = 1, reps = 3;
    bool check = true;            // compare one launch with the fp64 reference
};

// Where a run is within itself (core/run.h's stages), for the progress bar between launches.
using StageFn = std::function<void(RunStage stage, double fraction)>;
// One request: check, time, effective GB/s, copy GB/s; on the CPU backend also the PTX engine's
// emulated instructions per second (one more launch, counted). Never throws: errors land in `error`.
RunRecord run_one(Backend& b, const LaunchRequest& req, int warmup, int reps, bool check,
                  const std::atomic<bool>* cancel = nullptr, const StageFn& stage = {});
// The PTX engine's instruction count of one launch of `req` (the CPU backend's engine), nullopt
// when it fails.
std::optional<long long> cpu_instructions(EngineRuns& engine, const LaunchRequest& req);
// "tiled T=8 r=1 f32 on cpu (2 of 5): timing", "cancelling...": the runs panel's status line.
std::string run_status_line(const std::string& what, int number, int total, std::string_view stage, bool cancelling);

// The requests of a T sweep: every T that can run for (k, r, p) (runnable_tiles).
std::vector<LaunchRequest> sweep_requests(KernelId k, int r, Precision p, GridDims d);

class JobRunner {
public:
    ~JobRunner();
    // Starts on a worker thread; false (and why) when a job is already running.
    bool start(JobOptions opt, std::string* why = nullptr);
    void cancel();            // stops at the next stage of the run in flight
    bool running() const { return running_.load(); }
    bool cancelling() const { return running_.load() && cancel_.load(); }
    float progress() const;   // 0..1, within a run too (its stages)
    std::string status() const;
    // The records finished since the last call (the panel appends them to its table).
    std::vector<RunRecord> take_finished();
    void wait();              // joins the worker (tests, shutdown)

private:
    void work(JobOptions opt);
    std::thread thread_;
    std::atomic<bool> running_{false}, cancel_{false};
    std::atomic<int> done_{0}, total_{0};
    std::atomic<float> within_{0};  // the run in flight: fraction done (its stage)
    mutable std::mutex m_;
    std::vector<RunRecord> finished_;
    std::string status_;
};

// ---- the stepper's trace, on a worker thread ----------------------------------------------------
// Tracing a block runs the whole grid on the CPU backend (a 256^3 grid: seconds), so it never runs
// on the UI thread. The panels keep showing the previous trace until take() hands over the new one.
// A request made while a trace is running replaces any request still waiting and cancels the trace
// in flight (engine::ExecOptions::cancel: it stops between blocks, or within a few thousand traced
// accesses); a stale result is dropped in any case, and the newest request is traced next: take()
// only ever returns the trace of the newest config requested.

// What a config change recomputes off the UI thread: the trace and what is derived from it once.
struct TraceResult {
    std::uint64_t id = 0;      // the request it answers
    StepperTrace trace;
    WarpSummary block_summary; // every warp's loads
    WarpPrediction prediction; // analysis::warp_pattern for the config
    double seconds = 0;        // wall time of the whole job
};
// The work done per request (trace_block + summaries); tests may substitute a slow or fake one.
using TraceFn = std::function<TraceResult(const StepperConfig&)>;
// The same, told to stop early when `*cancel` becomes true (its result is then dropped).
using CancellableTraceFn = std::function<TraceResult(const StepperConfig&, const std::atomic<bool>*)>;
TraceResult compute_trace(const StepperConfig& cfg, const std::atomic<bool>* cancel = nullptr);

class TraceWorker {
public:
    TraceWorker();                          // compute_trace, cancellable
    explicit TraceWorker(TraceFn fn);       // runs to its end even when stale
    explicit TraceWorker(CancellableTraceFn fn);
    ~TraceWorker();
    TraceWorker(const TraceWorker&) = delete;
    TraceWorker& operator=(const TraceWorker&) = delete;

    // Asks for the trace of `cfg`; returns the request's id. Replaces a request still waiting.
    std::uint64_t request(const StepperConfig& cfg);
    // The finished trace of the newest request, once; nullopt while it is being traced (or when
    // already taken). A finished trace of an older request is never returned.
    std::optional<TraceResult> take();
    bool busy() const;                          // the newest request is not finished yet
    std::optional<StepperConfig> pending() const;  // the config being traced (busy() only)
    double busy_seconds() const;                // since the newest request
    void wait();                                // until not busy (tests, --screenshot)

private:
    void loop();
    CancellableTraceFn fn_;
    std::atomic<bool> cancel_running_{false};  // the trace in flight is stale
    mutable std::mutex m_;
    std::condition_variable cv_;        // wakes the worker: a request or stop
    std::condition_variable done_cv_;   // wakes wait(): the newest request finished
    std::optional<StepperConfig> want_;  // waiting to be traced
    std::uint64_t want_id_ = 0, newest_id_ = 0, running_id_ = 0;
    StepperConfig newest_cfg_;
    std::chrono::steady_clock::time_point newest_at_;
    std::optional<TraceResult> ready_;
    bool stop_ = false;
    std::thread thread_;                 // last: starts after the members above exist
};

}  // namespace stencil::viewer
