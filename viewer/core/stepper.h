// The stepper's data: one block's real execution, recorded by the CPU backend's tracer, and the
// state of that block after k steps. A step is one "instruction" of every thread (the k-th traced
// access each thread makes in a barrier interval); whole barrier intervals are runs of steps.
//
//   StepperTrace t = trace_block(cfg);          // runs the kernel once (CPU backend), when asked
//   StepperState s = stepper_state(t, k);       // cheap: recomputed only when k changes
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/trace.h"
#include "kernels/versions.h"
#include "viewer/core/model_view.h"

namespace stencil::viewer {

struct StepperConfig {
    KernelId kernel = KernelId::tiled;
    int tile = 8;
    int radius = 1;
    Precision precision = Precision::f32;
    GridDims dims{20, 20, 20};
    simt::Idx3 block{1, 1, 1};
    bool operator==(const StepperConfig& o) const {
        return kernel == o.kernel && tile == o.tile && radius == o.radius && precision == o.precision &&
               dims == o.dims && block == o.block;
    }
};

// The region of the input grid the block reads, in grid coordinates: the box the stepper draws.
struct Box {
    int x0 = 0, y0 = 0, z0 = 0;
    int nx = 0, ny = 0, nz = 0;
    long long cells() const { return (long long)nx * ny * nz; }
    int index(int x, int y, int z) const { return ((z - z0) * ny + (y - y0)) * nx + (x - x0); }
    bool contains(int x, int y, int z) const {
        return x >= x0 && x < x0 + nx && y >= y0 && y < y0 + ny && z >= z0 && z < z0 + nz;
    }
};

struct Step {
    int interval = -1;  // -1: before the launch
    int sub = 0;        // instruction index within the interval
    int end = 0;        // accesses [0, end) have happened after this step
};

struct StepperTrace {
    StepperConfig cfg;
    std::string error;  // why there is no trace (invalid tile, grid, block out of range)
    LaunchGeometry geo;
    KernelModel model;
    int threads = 0;
    Box box;            // input region of the block: min / max of its global loads (the trace's)
    int shared_planes = 0;  // planes of the shared array the trace touches (T tiled, 2r+1 coarsened,
                            // 1 register-tiled, 0 naive, for an interior block)
    bool register_planes = false;  // some global load is not stored straight to shared memory: the
                                   // thread keeps it in a register (stepper.cpp, loads_to_registers)
    std::vector<simt::Access> acc;  // this block's accesses in step order
    std::vector<Step> steps;        // steps[0] is "before the launch"
    std::vector<int> interval_end;  // step index that completes each interval
    int intervals = 0;
    std::vector<std::uint8_t> computes;  // per thread: it stores an output during the launch
    std::vector<std::uint8_t> acts;      // per thread: it makes any traced access during the launch
    std::vector<int> shared_dz;          // z offsets (-r..r) the compute reads from shared memory,
                                         // from what each shared cell holds (stepper.cpp)
    simt::Counts totals;                 // whole block
    long long outputs = 0;               // global stores of the block
    double seconds = 0;                  // time the traced launch took
    bool ok() const { return error.empty(); }
    int last_step() const { return (int)steps.size() - 1; }
};

// Runs the whole grid on the CPU backend with the records of one block (a random input).
// `cancel` (may be null), set from another thread, stops the launch promptly: error "cancelled".
StepperTrace trace_block(const StepperConfig& cfg, const std::atomic<bool>* cancel = nullptr);
// The same from a recorded trace (tests feed a trace directly).
StepperTrace build_stepper_trace(const StepperConfig& cfg, const simt::ExecReport& rep);

enum class ThreadState : std::uint8_t {
    outside,   // its cell lies beyond the grid: it does nothing
    idle,      // no access in the current interval so far
    active,    // loads/stores in the current interval
    computing  // wrote its output in the current interval
};

struct PlaneInfo {
    int z = 0;         // grid plane
    int dz = 0;        // relative to the output plane (-r..r)
    bool in_shared = false;
    bool in_registers = false;
    bool loaded = false;  // already read from global memory
};

struct StepperState {
    int step = 0, interval = -1, sub = 0;
    std::vector<std::uint8_t> loads;    // per box cell: global loads so far (saturates at 255)
    std::vector<std::uint8_t> written;  // per box cell: output stored so far
    std::vector<std::uint8_t> shared;   // per shared cell: 1 once stored
    std::vector<ThreadState> threads;   // per thread of the block
    long long global_loads = 0, global_load_bytes = 0, shared_loads = 0, shared_stores = 0,
              global_stores = 0;
    double flops = 0;                   // outputs stored x (12r + 1)
    int out_plane = -1;                 // z of the output plane in flight (z-marching kernels)
    std::vector<PlaneInfo> planes;      // its 2r + 1 input planes and where they live
    int active_threads = 0, idle_threads = 0;
};

StepperState stepper_state(const StepperTrace& t, int step);

// Steps of the previous / next interval boundary from `step` (for the arrow keys).
int next_interval_step(const StepperTrace& t, int step);
int prev_interval_step(const StepperTrace& t, int step);

// The stepper's keys and what each does, without ImGui (the panel maps ImGui's keys to these):
// space / right = next interval, left = previous interval, down / up = one instruction forward /
// back, Home / End = first / last step. Returns the new step, clamped to the trace.
enum class StepKey { space, right, left, down, up, home, end };
int step_for_key(const StepperTrace& t, int step, StepKey key);

}  // namespace stencil::viewer
