// The progress of a run whose one long stage reports nothing from inside (a CPU-engine launch of a
// big grid is minutes in one call): a thread moves the display with the time elapsed against the
// run's measured estimate (cli/engine_estimate.h), never past 99% before the run ends, and the
// run's own stage callbacks name the stage. Both draw under one lock, since Progress draws from
// whichever thread calls it.
#pragma once
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "core/progress.h"

namespace stencil::cli {

class EngineClock {
public:
    EngineClock(Progress& progress, double estimated_seconds);
    ~EngineClock();  // stops the thread; the caller finishes the display
    void stage(const std::string& name);

    EngineClock(const EngineClock&) = delete;
    EngineClock& operator=(const EngineClock&) = delete;

    // The display's position after `elapsed` seconds of an `estimated` run, in 0..99 of 100.
    static long long position(double elapsed, double estimated);

private:
    void tick_locked();

    Progress& progress_;
    double estimated_;
    std::chrono::steady_clock::time_point start_;
    std::string stage_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace stencil::cli
