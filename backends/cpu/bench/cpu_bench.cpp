// stencil_cpu_bench: how fast the SIMT emulator runs the four kernels (64^3 fp32 by default, each
// at its exercises' default tile): one plain launch, one checked launch, and the 3-schedule sweep
// (schedule_check: in order, reversed, one seeded random, with every check on). The targets (the
// issue's, for a 2-core machine): each launch < 2 s, each sweep < 6 s (3 x 2 s). The sweep/launch
// ratio is printed as information: a checked launch costs more than a plain one (every shared and
// global access takes the slow path through the race shadows), so the ratio is above 3 by design.
//
//   stencil_cpu_bench [n] [workers] [reps]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "core/compare.h"
#include "core/field.h"
#include "core/reference.h"

using namespace stencil;

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 64;
    const int workers = argc > 2 ? std::atoi(argv[2]) : 0;
    const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
    const GridDims dims{n, n, n};
    const auto in = random_field<float>(dims, 42);
    const auto w = random_weights(1, 7).rounded_to(Precision::f32);
    const auto ref = reference_stencil(in, w);

    constexpr double kLaunchTarget = 2.0, kSweepTarget = 3 * kLaunchTarget;
    std::printf("stencil_cpu_bench: %dx%dx%d fp32, r = 1, %s workers, best of %d\n", n, n, n,
                workers > 0 ? std::to_string(workers).c_str() : "all", reps);
    std::printf("targets: launch < %.0f s, 3-schedule sweep < %.0f s (3 x %.0f s); sweep/launch is information\n",
                kLaunchTarget, kSweepTarget, kLaunchTarget);
    std::printf("%-15s %4s %9s %9s %11s %9s %9s %7s  %s\n", "kernel", "T", "threads", "launch s",
                "threads/s", "checked s", "sweep s", "ratio", "result");
    bool all_ok = true;
    for (const auto& v : kernel_versions()) {
        LaunchRequest req;
        req.kernel = v.id;
        req.tile = v.default_tile;
        req.radius = 1;
        req.precision = Precision::f32;
        req.dims = dims;
        CpuOptions opt;
        opt.exec.workers = workers;

        double best = 1e30;
        long long threads = 0;
        bool correct = true;
        for (int r = 0; r < reps; ++r) {
            auto out = poisoned_output(in, 1);
            CpuRun run = run_cpu(req, w, in.data.data(), out.data.data(), opt);
            best = std::min(best, run.report.seconds);
            threads = run.report.threads_run;
            correct = correct && run.report.ok && compare_with_reference(out, ref, Precision::f32).ok;
        }
        double checked = 1e30;
        for (int r = 0; r < reps; ++r) {
            auto out = poisoned_output(in, 1);
            CpuOptions c = opt;
            c.exec.check_shared = true;
            CpuRun run = run_cpu(req, w, in.data.data(), out.data.data(), c);
            checked = std::min(checked, run.report.seconds);
            correct = correct && run.report.clean();
        }
        double sweep = 1e30;
        for (int r = 0; r < std::max(1, reps / 2); ++r) {
            ScheduleCheck chk = schedule_check(req, w, in.data.data(), opt, 1);
            sweep = std::min(sweep, chk.seconds);
            correct = correct && chk.ok;
        }
        const bool fast = best < kLaunchTarget && sweep < kSweepTarget;
        all_ok = all_ok && correct && fast;
        const char* result = !correct ? "WRONG (diagnostic or mismatch)"
                             : fast  ? "ok (both targets met)"
                             : best >= kLaunchTarget ? "SLOW (launch over target)"
                                                     : "SLOW (sweep over target)";
        std::printf("%-15s %4d %9lld %9.3f %11.3g %9.3f %9.3f %6.2fx  %s\n", v.name, req.tile, threads, best,
                    threads / best, checked, sweep, sweep / best, result);
    }
    return all_ok ? 0 : 1;
}
