// Checking a cardiac2d kernel against the fp64 reference (core/cardiac2d.h), on any backend:
//   one step  from a developed state (kWarmSteps reference steps after the spiral's start, rounded to
//             the kernel's precision), each cell within a rounding bound of the reference step;
//   K steps   from the spiral's start, max |E - E_ref| and |R - R_ref| within a stated tolerance,
//             and the assignment's statistics (max |E|, L2 of E) beside the reference's.
// A backend supplies a Stepper; the check itself runs no kernel.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/cardiac2d.h"
#include "kernels/cardiac2d/versions.h"

namespace stencil {
class Backend;
}

namespace stencil::cardiac2d {

// A stepper's timing of the kernels, where its backend times them (the GPU's).
class StepTimer {
public:
    virtual ~StepTimer() = default;
    // Milliseconds per step: `reps` samples, each the mean over `steps` steps from the spiral's
    // start on an n x n mesh, after one untimed run of the same steps; the steps follow each other
    // as in a simulation (no cache flush between them).
    virtual std::vector<double> time_step_ms(KernelId k, Precision p, int n, int steps, int reps) = 0;
};

// One backend's way of running the kernels (backends/cpu/cardiac2d_cpu.h, backends/cuda/cardiac2d.h).
class Stepper {
public:
    virtual ~Stepper() = default;
    virtual std::string backend_name() const = 0;  // "cpu" or "cuda"
    // Advances `s` by `steps` steps of kernel k computing in precision p: the state is rounded to p
    // on the way in and widened on the way out. Throws UserError when the kernel cannot run or
    // faults (with the backend's one-line reason).
    virtual void advance(KernelId k, Precision p, State& s, int steps) = 0;
    // Its timing, or nullptr where the backend does not time the kernels (the CPU's engine).
    virtual StepTimer* timer() { return nullptr; }
};

// The stepper of the backend make_backend() gave (backends/problem_backends.cpp): the front ends
// name no backend's stepper themselves.
std::unique_ptr<Stepper> make_stepper(const Backend& backend);

// The per-cell rounding bound of one step (PDE then ODE) computed in precision p from `in`,
// against the exact step: forward error analysis to first order (gamma_k = k u / (1 - k u) per
// expression of k operations, each input's error carried through the derivative of what follows),
// doubled to cover the second-order terms and the fp64 reference's own rounding. Fused
// multiply-adds round less, so they stay inside it.
struct StepBound {
    std::vector<double> E, R;  // per mesh cell; 0 on ghosts
};
StepBound one_step_bound(const StepCoefficients& c, const State& in, Precision p);

// The stated tolerance of K steps against the reference, in max |difference| of E and of R (both
// are O(1)): rounding errors grow through the steps, most at the wave front.
double k_step_tolerance(Precision p, int steps);
// The relative tolerance of the statistics (max |E|, L2 of E) after K steps.
double statistics_tolerance(Precision p, int steps);

struct Comparison {
    double max_error_E = 0, max_error_R = 0;
    long long failed = 0;          // cells (E or R) over their bound
    int first_x = -1, first_y = -1;  // the first failed cell in row order
    double first_got = 0, first_want = 0, first_bound = 0;
    bool ok() const { return failed == 0; }
    std::string summary() const;   // one line
};
// Interior cells of `got` against `want`, each value within bound (per cell, or `tolerance`).
Comparison compare(const State& got, const State& want, const StepBound& bound);
Comparison compare(const State& got, const State& want, double tolerance);

inline constexpr int kWarmSteps = 20;
// The most steps the K-step check is stated for (the tolerance grows linearly, which was measured up
// to here; a longer run is checked on its first kMaxCheckedSteps, and timed on all of them).
inline constexpr int kMaxCheckedSteps = 1000;

struct CheckReport {
    KernelId kernel = KernelId::naive;
    Precision precision = Precision::f32;
    int n = 0, steps = 0;
    Comparison one_step;   // against the rounding bound
    Comparison k_steps;    // against k_step_tolerance
    double tolerance = 0, statistics_tolerance = 0;
    Statistics got, want;  // after the K steps
    bool statistics_ok = false;
    bool ok() const { return one_step.ok() && k_steps.ok() && statistics_ok; }
};
CheckReport check_kernel(Stepper& stepper, KernelId k, Precision p, int n, int steps);

}  // namespace stencil::cardiac2d
