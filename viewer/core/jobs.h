// Runs for the runs panel, on a worker thread: one kernel or a sweep over T, on the GPU or the CPU
// backend, with progress and cancellation between launches. The window keeps drawing; the panel
// polls progress() and collects the records when done.
//
// Each run goes through core/run.h's run_kernel (check against the fp64 reference, then time,
// then copy bandwidth); cancellation reaches it through its progress callback.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/backend.h"
#include "viewer/core/results.h"

namespace stencil::viewer {

struct JobOptions {
    std::string backend = "cpu";  // auto | cuda | cpu
    std::vector<LaunchRequest> runs;
    int warmup = 1, reps = 3;
    bool check = true;            // compare one launch with the fp64 reference
};

// One request: check, time, effective GB/s, copy GB/s. Never throws: errors land in `error`.
RunRecord run_one(Backend& b, const LaunchRequest& req, int warmup, int reps, bool check,
                  const std::atomic<bool>* cancel = nullptr);

// The requests of a T sweep: every T that can run for (k, r, p) (runnable_tiles).
std::vector<LaunchRequest> sweep_requests(KernelId k, int r, Precision p, GridDims d);

class JobRunner {
public:
    ~JobRunner();
    // Starts on a worker thread; false (and why) when a job is already running.
    bool start(JobOptions opt, std::string* why = nullptr);
    void cancel();            // stops after the launch in flight
    bool running() const { return running_.load(); }
    float progress() const;   // 0..1
    std::string status() const;
    // The records finished since the last call (the panel appends them to its table).
    std::vector<RunRecord> take_finished();
    void wait();              // joins the worker (tests, shutdown)

private:
    void work(JobOptions opt);
    std::thread thread_;
    std::atomic<bool> running_{false}, cancel_{false};
    std::atomic<int> done_{0}, total_{0};
    mutable std::mutex m_;
    std::vector<RunRecord> finished_;
    std::string status_;
};

}  // namespace stencil::viewer
