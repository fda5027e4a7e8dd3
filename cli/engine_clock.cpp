#include "cli/engine_clock.h"

#include <algorithm>
#include <chrono>

namespace stencil::cli {

long long EngineClock::position(double elapsed, double estimated) {
    if (estimated <= 0) return 0;
    // 99 at most: an estimate can be short, and a display at 100% that keeps running says nothing.
    return std::clamp(static_cast<long long>(100.0 * elapsed / estimated), 0LL, 99LL);
}

EngineClock::EngineClock(Progress& progress, double estimated_seconds)
    : progress_(progress), estimated_(estimated_seconds), start_(std::chrono::steady_clock::now()) {
    thread_ = std::thread([this] {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!stop_) {
            tick_locked();
            wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return stop_; });
        }
    });
}

EngineClock::~EngineClock() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void EngineClock::stage(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    stage_ = name;
    tick_locked();
}

void EngineClock::tick_locked() {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    progress_.update(stage_ == "done" ? 100 : position(elapsed, estimated_), stage_.empty() ? "starting" : stage_ + " (CPU engine)");
}

}  // namespace stencil::cli
