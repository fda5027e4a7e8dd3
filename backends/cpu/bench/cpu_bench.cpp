// stencil_cpu_bench: the CPU backend's PTX engine (run_cpu) on the lab's kernels, each at its
// exercises' default tile, 64^3 fp32 by default. One run prints, per kernel:
//   - a plain launch: the best wall time of --reps launches, after one warm-up launch, so NVRTC's
//     compile (or the disk cache's load) and the first decode of the PTX stay out of the timings
//     (they are printed on their own);
//   - the PTX instructions interpreted, per second in total, per worker thread and per CPU-second
//     of the process (the machine may be shared: the CPU-second figure does not depend on how
//     much of a core each worker got), and emulated threads per second;
//   - whether the output passes the fp64 reference (core/compare.h's rigorous bound), and whether
//     its bits are NVRTC's fused multiply-add chain's;
//   - the checked 3-schedule sweep (schedule_check: in order, reversed, one seeded random, every
//     check on);
// then one verdict line against the targets for this 2-core machine: each plain launch
// < 2 s at 64^3, each sweep < 3 x 2 s.
//
// The peer it was measured against until issue 30, the retired fiber engine (the kernel sources
// compiled by the host compiler, threads as fibers), is out of the build; its last figures beside
// this engine's are in docs/results/cpu-bench-fiber-peer-64.txt.
//
// A benchmark, not a test: the figures are for people, --json gives them to machines. Exit status:
// 1 when an output is wrong or a launch fails, 2 when every output is right but a target is
// missed, 0 otherwise.
//
//   stencil_cpu_bench [--size N] [--reps R] [--workers W] [--sweep-reps S] [--cold] [--json]
//
// Sections: arguments; clocks; one launch's measurement and the rounding check; one kernel (the
// launches, the checked sweep); the summary and verdict; the tables and the JSON.
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/ptx/engine.h"
#include "backends/cpu/ptx/lab_ptx.h"
#include "core/compare.h"
#include "core/field.h"
#include "core/reference.h"

using namespace stencil;

namespace {

constexpr double kLaunchTarget = 2.0;                 // s, a plain launch at 64^3 fp32
constexpr double kSweepTarget = 3 * kLaunchTarget;    // s, the 3-schedule checked sweep
constexpr int kTargetSize = 64;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Args {
    int size = 64;
    int reps = 3;
    int workers = 0;  // 0 = all cores
    int sweep_reps = 1;
    bool cold = false;
    bool json = false;
};

[[noreturn]] void usage(int status) {
    std::fprintf(status ? stderr : stdout,
                 "usage: stencil_cpu_bench [--size N] [--reps R] [--workers W] [--sweep-reps S] [--cold] [--json]\n"
                 "  --size N        grid N^3 fp32, r = 1 (default 64; the targets are stated at 64)\n"
                 "  --reps R        timed plain launches per kernel, best taken (default 3)\n"
                 "  --workers W     worker OS threads (default 0 = all cores)\n"
                 "  --sweep-reps S  3-schedule sweeps per kernel, best taken (default 1)\n"
                 "  --cold          compile with NVRTC (an empty, temporary PTX disk cache)\n"
                 "  --json          print one JSON object instead of the tables\n");
    std::exit(status);
}

Args parse_args(int argc, char** argv) {
    Args a;
    for (int i = 1; i < argc; ++i) {
        const std::string_view s = argv[i];
        auto value = [&]() -> int {
            if (i + 1 >= argc) usage(64);
            char* end = nullptr;
            const long v = std::strtol(argv[++i], &end, 10);
            if (!end || *end) usage(64);
            return static_cast<int>(v);
        };
        if (s == "--size") a.size = value();
        else if (s == "--reps") a.reps = value();
        else if (s == "--workers") a.workers = value();
        else if (s == "--sweep-reps") a.sweep_reps = value();
        else if (s == "--cold") a.cold = true;
        else if (s == "--json") a.json = true;
        else if (s == "--help" || s == "-h") usage(0);
        else usage(64);
    }
    if (a.size < 3 || a.reps < 1 || a.workers < 0 || a.sweep_reps < 0) usage(64);
    return a;
}

// Wall and process CPU time (all threads).
struct Stamp {
    double wall = 0, cpu = 0;
};
Stamp now() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    return {wall, ts.tv_sec + ts.tv_nsec * 1e-9};
}

struct EngineResult {
    double first_s = 0;         // the warm-up launch's wall time
    double best_s = kInf;       // best wall time of the timed launches
    double best_cpu_s = 0;      // process CPU time of that launch
    long long instructions = 0; // PTX instructions interpreted
    long long threads = 0;
    int workers = 0;
    bool launches_ok = true;    // every launch ok (no fatal diagnostic)
    bool repeatable = true;     // every timed launch gave the warm-up's bits (and instruction count)
    bool ref_ok = true;         // every launch's output passed the fp64 reference
    CompareResult ref;          // the last launch's comparison
    std::string failure;        // the first failing launch's summary
    Field<float> out;           // the last launch's output
};

// Whose rounding the engine's bits are: each interior cell recomputed on the host in the kernels'
// term order (c0 centre, x-1, x+1, y-1, y+1, z-1, z+1; kernels/naive.cuh), once as NVRTC contracts
// it by default (fma(c0, x0, rounded c1 * x1), then an fma for each of the five other terms: the
// lab's PTX for r = 1, as on the GPU) and once with every product rounded before its add (what a
// host compiler emits without FMA contraction). Counts of interior cells whose bits equal each;
// r = 1 only.
struct Explain {
    long long interior = 0;
    long long ptx_fused = 0, ptx_unfused = 0;
};

Explain explain(const Field<float>& in, const StencilWeights& w, const Field<float>& ptx_out) {
    Explain e;
    const GridDims g = in.dims;
    const long long sy = g.nx, sz = (long long)g.nx * g.ny;
    const long long off[7] = {0, -1, 1, -sy, sy, -sz, sz};
    float c[7];
    for (int i = 0; i < 7; ++i) c[i] = static_cast<float>(w.c[i]);
    auto eq = [](float a, float b) { return std::memcmp(&a, &b, 4) == 0; };
    for (int z = 1; z < g.nz - 1; ++z)
        for (int y = 1; y < g.ny - 1; ++y)
            for (int x = 1; x < g.nx - 1; ++x) {
                const long long i = (long long)in.index(x, y, z);
                volatile float p0 = c[0] * in.data[i];  // volatile: rounded, never contracted
                volatile float p1 = c[1] * in.data[i + off[1]];
                float fused = std::fmaf(c[0], in.data[i], p1), unfused = p0 + p1;
                for (int t = 2; t < 7; ++t) {
                    fused = std::fmaf(c[t], in.data[i + off[t]], fused);
                    volatile float p = c[t] * in.data[i + off[t]];
                    unfused = unfused + p;
                }
                ++e.interior;
                e.ptx_fused += eq(ptx_out.data[i], fused);
                e.ptx_unfused += eq(ptx_out.data[i], unfused);
            }
    return e;
}

bool same_bits(const Field<float>& a, const Field<float>& b) {
    return a.data.size() == b.data.size() && std::memcmp(a.data.data(), b.data.data(), a.data.size() * 4) == 0;
}

struct KernelResult {
    const KernelVersion* v = nullptr;
    LaunchRequest req;
    LaunchGeometry geo;
    std::string error;  // an exception that stopped this kernel's measurements

    // PTX: obtaining it, decoding it
    double compile_s = 0;   // wall time of the first lab_ptx() for this kernel (NVRTC or disk)
    double nvrtc_s = 0;     // NVRTC's own time for the family (0: it came from the disk cache)
    double decode_s = 0;    // ptx::load of this instantiation
    int static_instructions = 0;  // in the entry
    int fma_instructions = 0;     // fma.* in the entry's PTX text

    EngineResult ptx;
    Explain why;

    double sweep_s = kInf;
    bool sweep_ok = true;
    bool sweep_run = false;
    std::string sweep_failure;

    bool correct() const { return error.empty() && ptx.launches_ok && ptx.ref_ok && sweep_ok; }
};

int count_fma(const std::string& ptx_text, const std::string& entry) {
    const std::string body = lab_ptx_detail::only_entry(ptx_text, entry);
    int n = 0;
    for (std::size_t p = body.find("\tfma."); p != std::string::npos; p = body.find("\tfma.", p + 1)) ++n;
    return n;
}

void measure_launch(const LaunchRequest& req, const StencilWeights& w, const Field<float>& in, const Reference& ref,
                    const CpuOptions& opt, EngineResult& r, bool warmup_only, const Field<float>* warm_out) {
    auto out = poisoned_output(in, 1);
    const Stamp t0 = now();
    const EngineRun run = run_cpu(req, w, in.data.data(), out.data.data(), opt);
    const Stamp t1 = now();
    if (warmup_only) {
        r.first_s = t1.wall - t0.wall;
        r.instructions = run.report.instructions;
        r.threads = run.report.threads_run;
        r.workers = run.report.workers;
    } else if (t1.wall - t0.wall < r.best_s) {
        r.best_s = t1.wall - t0.wall;
        r.best_cpu_s = t1.cpu - t0.cpu;
    }
    if (!run.report.ok) {
        r.launches_ok = false;
        if (r.failure.empty()) r.failure = run.report.summary();
    }
    if (!warmup_only) r.repeatable = r.repeatable && run.report.instructions == r.instructions;
    r.ref = compare_with_reference(out, ref, Precision::f32);
    r.ref_ok = r.ref_ok && r.ref.ok;
    if (warm_out) r.repeatable = r.repeatable && same_bits(*warm_out, out);
    r.out = std::move(out);
}

KernelResult run_kernel(const KernelVersion& v, const Args& a, const Field<float>& in, const StencilWeights& w,
                        const Reference& ref) {
    KernelResult k;
    k.v = &v;
    k.req.kernel = v.id;
    k.req.tile = v.default_tile;
    k.req.radius = 1;
    k.req.precision = Precision::f32;
    k.req.dims = {a.size, a.size, a.size};
    CpuOptions opt;
    opt.exec.workers = a.workers;
    try {
        k.geo = launch_geometry(k.req.kernel, k.req.tile, k.req.radius, k.req.precision, k.req.dims);
        // The PTX: NVRTC (or the disk cache), then a decode of our own, timed; run_cpu decodes its
        // own copy in the warm-up launch below.
        const Stamp c0 = now();
        const LabPtx& lab = lab_ptx(k.req.kernel, k.req.tile, k.req.radius, k.req.precision);
        const Stamp c1 = now();
        k.compile_s = c1.wall - c0.wall;
        k.nvrtc_s = lab.compile_seconds;
        const auto module = ptx::load(lab.ptx);
        const Stamp c2 = now();
        k.decode_s = c2.wall - c1.wall;
        if (const ptx::EntryInfo* e = ptx::find_entry(*module, lab.entry)) k.static_instructions = e->instructions;
        k.fma_instructions = count_fma(lab.ptx, lab.entry);

        // A warm-up (first decode, page faults), then the timed launches.
        measure_launch(k.req, w, in, ref, opt, k.ptx, true, nullptr);
        const Field<float> ptx_warm = k.ptx.out;
        for (int r = 0; r < a.reps; ++r) measure_launch(k.req, w, in, ref, opt, k.ptx, false, &ptx_warm);
        k.why = explain(in, w, k.ptx.out);

        for (int s = 0; s < a.sweep_reps; ++s) {
            const ScheduleCheck chk = schedule_check(k.req, w, in.data.data(), opt, 1);
            k.sweep_run = true;
            k.sweep_s = std::min(k.sweep_s, chk.seconds);
            if (!chk.ok) {
                k.sweep_ok = false;
                if (k.sweep_failure.empty()) k.sweep_failure = chk.summary();
            }
        }
    } catch (const std::exception& e) {
        k.error = e.what();
    }
    return k;
}

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

std::string load_average() {
    std::ifstream f("/proc/loadavg");
    std::string a, b, c;
    if (!(f >> a >> b >> c)) return "unknown";
    return a + " " + b + " " + c;
}

std::string json_string(std::string_view s) {
    std::string o = "\"";
    for (const char ch : s) {
        switch (ch) {
            case '"': o += "\\\""; break;
            case '\\': o += "\\\\"; break;
            case '\n': o += "\\n"; break;
            case '\t': o += "\\t"; break;
            default:
                if (static_cast<unsigned char>(ch) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", ch);
                    o += buf;
                } else {
                    o += ch;
                }
        }
    }
    return o + "\"";
}

std::string json_number(double v) {
    if (!std::isfinite(v)) return "null";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string si(double v) {  // 3 significant digits with an SI suffix: 1.23M, 45.6k, 7.89G
    if (!std::isfinite(v)) return "-";
    const char* suffix[] = {"", "k", "M", "G", "T"};
    int s = 0;
    while (std::fabs(v) >= 999.5 && s < 4) {
        v /= 1000;
        ++s;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, v >= 99.95 ? "%.0f%s" : v >= 9.995 ? "%.1f%s" : "%.2f%s", v, suffix[s]);
    return buf;
}

std::string ref_text(const EngineResult& e) {
    if (!e.launches_ok) return "LAUNCH FAILED";
    if (!e.ref_ok) return "WRONG";
    char buf[48];
    std::snprintf(buf, sizeof buf, "ok (max rel %.1e)", e.ref.max_rel_err);
    return buf;
}

struct Summary {
    double worst_launch = 0, worst_sweep = 0;
    const char* worst_launch_kernel = "-";
    const char* worst_sweep_kernel = "-";
    bool all_correct = true, launch_pass = true, sweep_pass = true;
    double ipc_min = kInf, ipc_max = 0;  // instructions per second per worker
    int measured = 0;                    // kernels whose launches were measured
};

Summary summarize(const std::vector<KernelResult>& ks) {
    Summary s;
    for (const auto& k : ks) {
        s.all_correct = s.all_correct && k.correct();
        if (!k.error.empty()) {
            s.launch_pass = s.sweep_pass = false;
            continue;
        }
        if (k.ptx.best_s > s.worst_launch) {
            s.worst_launch = k.ptx.best_s;
            s.worst_launch_kernel = k.v->name;
        }
        if (k.sweep_run && k.sweep_s > s.worst_sweep) {
            s.worst_sweep = k.sweep_s;
            s.worst_sweep_kernel = k.v->name;
        }
        s.launch_pass = s.launch_pass && k.ptx.best_s < kLaunchTarget;
        s.sweep_pass = s.sweep_pass && k.sweep_run && k.sweep_s < kSweepTarget;
        ++s.measured;
        const double ipw = k.ptx.instructions / k.ptx.best_s / std::max(1, k.ptx.workers);
        s.ipc_min = std::min(s.ipc_min, ipw);
        s.ipc_max = std::max(s.ipc_max, ipw);
    }
    return s;
}

std::string verdict_line(const Args& a, const Summary& s, bool any_sweep) {
    char buf[512];
    std::string v = "verdict";
    if (a.size != kTargetSize) v += " (the targets are stated at 64^3; this run is " + std::to_string(a.size) + "^3)";
    std::snprintf(buf, sizeof buf, ": plain launch < %.0f s: %s (slowest %s %.3f s); ", kLaunchTarget,
                  s.launch_pass ? "PASS" : "MISS", s.worst_launch_kernel, s.worst_launch);
    v += buf;
    if (any_sweep)
        std::snprintf(buf, sizeof buf, "3-schedule sweep < %.0f s: %s (slowest %s %.3f s); ", kSweepTarget,
                      s.sweep_pass ? "PASS" : "MISS", s.worst_sweep_kernel, s.worst_sweep);
    else
        std::snprintf(buf, sizeof buf, "3-schedule sweep: not run (--sweep-reps 0); ");
    v += buf;
    v += s.all_correct ? "outputs: all match the fp64 reference" : "outputs: WRONG (see above)";
    return v;
}

void print_header(const Args& a, const std::string& date, const std::string& load0, const std::string& load1,
                  const std::string& cache_dir) {
    const int n = a.size;
    std::printf("stencil_cpu_bench: the PTX engine, %dx%dx%d fp32, r = 1, each kernel at its default tile; best of "
                "%d plain launches, after one warm-up launch\n", n, n, n, a.reps);
    std::printf("machine: %s, %d hardware threads; workers requested: %s; load average %s at start, %s at end\n",
                cpu_model_name().c_str(), cpu_cores(), a.workers ? std::to_string(a.workers).c_str() : "all",
                load0.c_str(), load1.c_str());
    std::printf("date: %s; PTX cache: %s%s\n", date.c_str(), cache_dir.empty() ? "(none)" : cache_dir.c_str(),
                a.cold ? " (--cold: empty, NVRTC compiles)" : "");
    std::printf("the retired fiber engine, this engine's peer until issue 30: its last figures are in "
                "docs/results/cpu-bench-fiber-peer-64.txt\n\n");
}

void print_launch_table(const std::vector<KernelResult>& ks) {
    std::printf("Plain launch, wall seconds\n");
    std::printf("%-15s %3s %10s %9s %9s %9s\n", "kernel", "T", "block", "threads", "PTX s", "workers");
    for (const auto& k : ks) {
        if (!k.error.empty()) continue;
        char block[24];
        std::snprintf(block, sizeof block, "%dx%dx%d", k.geo.block.x, k.geo.block.y, k.geo.block.z);
        std::printf("%-15s %3d %10s %9lld %9.4f %9d\n", k.v->name, k.req.tile, block, k.ptx.threads, k.ptx.best_s,
                    k.ptx.workers);
    }
}

void print_rate_table(const std::vector<KernelResult>& ks) {
    std::printf("\nPTX engine rates (instr = PTX instructions interpreted, all threads; per worker = instr/s "
                "divided by the workers, W; per CPU-s = over the process's CPU time)\n");
    std::printf("%-15s %10s %10s %9s %13s %10s %11s\n", "kernel", "instr", "instr/thr", "instr/s", "per worker",
                "per CPU-s", "PTX thr/s");
    for (const auto& k : ks) {
        if (!k.error.empty()) continue;
        const double ips = k.ptx.instructions / k.ptx.best_s;
        char per_worker[32];
        std::snprintf(per_worker, sizeof per_worker, "%s (W=%d)", si(ips / std::max(1, k.ptx.workers)).c_str(),
                      k.ptx.workers);
        std::printf("%-15s %10s %10.1f %9s %13s %10s %11s\n", k.v->name, si((double)k.ptx.instructions).c_str(),
                    (double)k.ptx.instructions / std::max(1LL, k.ptx.threads), si(ips).c_str(), per_worker,
                    si(k.ptx.best_cpu_s > 0 ? k.ptx.instructions / k.ptx.best_cpu_s : kInf).c_str(),
                    si(k.ptx.threads / k.ptx.best_s).c_str());
    }
}

// Per-kernel match against the reference, then the details of every mismatch.
void print_output_table(const std::vector<KernelResult>& ks) {
    std::printf("\nOutputs (fp64 reference: core/compare.h's bound)\n");
    std::printf("%-15s %s\n", "kernel", "PTX vs reference");
    for (const auto& k : ks) {
        if (!k.error.empty()) continue;
        std::printf("%-15s %s%s\n", k.v->name, ref_text(k.ptx).c_str(),
                    k.ptx.repeatable ? "" : "; NOT REPEATABLE across launches");
    }
    for (const auto& k : ks) {
        if (!k.error.empty()) continue;
        if (!k.ptx.failure.empty()) std::printf("  %s PTX launch: %s\n", k.v->name, k.ptx.failure.c_str());
        if (!k.ptx.ref_ok) std::printf("  %s PTX: %s\n", k.v->name, k.ptx.ref.summary().c_str());
    }
}

// Whether the output equals the fma chain or the rounded mul+add, cell by cell.
void print_rounding_table(const std::vector<KernelResult>& ks) {
    std::printf("Rounding (each interior cell recomputed on the host in the kernels' term order c0..c6; fma = NVRTC's "
                "contraction fma(c0, x0, c1 * x1) then 5 fma, as on the GPU; mul+add = every product rounded, then "
                "added):\n");
    std::printf("%-15s %9s %14s %14s %8s\n", "kernel", "interior", "PTX = fma", "PTX = mul+add", "PTX fma");
    for (const auto& k : ks) {
        if (!k.error.empty()) continue;
        const auto& e = k.why;
        std::printf("%-15s %9lld %14lld %14lld %3d of %d\n", k.v->name, e.interior, e.ptx_fused, e.ptx_unfused,
                    k.fma_instructions, k.static_instructions);
    }
}

void print_compile_table(const std::vector<KernelResult>& ks) {
    std::printf("\nPTX compile (first lab_ptx: NVRTC or the disk cache), decode, first launch; checked sweep on "
                "the PTX engine\n");
    std::printf("%-15s %16s %9s %8s %11s %9s %9s  %s\n", "kernel", "compile s", "decode s", "PTX ins", "1st launch",
                "sweep s", "sw/plain", "sweep result");
    for (const auto& k : ks) {
        if (!k.error.empty()) continue;
        char compile[40];
        if (k.nvrtc_s > 0)
            std::snprintf(compile, sizeof compile, "%.3f (NVRTC)", k.compile_s);
        else
            std::snprintf(compile, sizeof compile, "%.3f (disk)", k.compile_s);
        std::string sweep = !k.sweep_run ? "not run" : k.sweep_ok ? "ok: 3 schedules agree, clean" : "FAILED";
        std::printf("%-15s %16s %9.4f %8d %11.4f %9.3f %8.1fx  %s\n", k.v->name, compile, k.decode_s,
                    k.static_instructions, k.ptx.first_s, k.sweep_s, k.sweep_s / k.ptx.best_s, sweep.c_str());
        if (!k.sweep_failure.empty()) std::printf("  %s sweep: %s\n", k.v->name, k.sweep_failure.c_str());
    }
}

void print_summary(const Args& a, const std::vector<KernelResult>& ks) {
    const Summary s = summarize(ks);
    bool any_sweep = false;
    for (const auto& k : ks) any_sweep = any_sweep || k.sweep_run;
    if (s.measured > 0)
        std::printf("\nPTX instructions per second per worker: %s to %s\n", si(s.ipc_min).c_str(),
                    si(s.ipc_max).c_str());
    std::printf("%s\n", verdict_line(a, s, any_sweep).c_str());
}

void print_tables(const Args& a, const std::vector<KernelResult>& ks, const std::string& date,
                  const std::string& load0, const std::string& load1, const std::string& cache_dir) {
    print_header(a, date, load0, load1, cache_dir);
    for (const auto& k : ks)
        if (!k.error.empty()) std::printf("%s: ERROR: %s\n\n", k.v->name, k.error.c_str());

    print_launch_table(ks);
    print_rate_table(ks);
    print_output_table(ks);
    print_rounding_table(ks);
    print_compile_table(ks);
    print_summary(a, ks);
}

std::string engine_json(const EngineResult& e) {
    std::string o = "{";
    o += "\"best_s\":" + json_number(e.best_s);
    o += ",\"best_cpu_s\":" + json_number(e.best_cpu_s);
    o += ",\"first_launch_s\":" + json_number(e.first_s);
    o += ",\"threads\":" + std::to_string(e.threads);
    o += ",\"threads_per_s\":" + json_number(e.threads / e.best_s);
    o += ",\"workers\":" + std::to_string(e.workers);
    o += ",\"instructions\":" + std::to_string(e.instructions);
    o += ",\"instructions_per_s\":" + json_number(e.instructions / e.best_s);
    o += ",\"instructions_per_s_per_worker\":" + json_number(e.instructions / e.best_s / std::max(1, e.workers));
    o += ",\"instructions_per_cpu_s\":" + json_number(e.best_cpu_s > 0 ? e.instructions / e.best_cpu_s : kInf);
    o += std::string(",\"launches_ok\":") + (e.launches_ok ? "true" : "false");
    o += std::string(",\"repeatable\":") + (e.repeatable ? "true" : "false");
    o += std::string(",\"matches_reference\":") + (e.ref_ok ? "true" : "false");
    o += ",\"reference\":{\"bad_cells\":" + std::to_string(e.ref.bad_cells) +
         ",\"max_abs_err\":" + json_number(e.ref.max_abs_err) + ",\"max_rel_err\":" + json_number(e.ref.max_rel_err) +
         ",\"summary\":" + json_string(e.ref.summary()) + "}";
    if (!e.failure.empty()) o += ",\"failure\":" + json_string(e.failure);
    return o + "}";
}

std::string run_json(const Args& a, const std::string& date, const std::string& load0, const std::string& load1,
                     const std::string& cache_dir) {
    std::string o;
    o += "\"benchmark\":\"stencil_cpu_bench\",\"date\":" + json_string(date);
    o += ",\"machine\":{\"cpu\":" + json_string(cpu_model_name()) + ",\"hardware_threads\":" +
         std::to_string(cpu_cores()) + ",\"load_average_start\":" + json_string(load0) +
         ",\"load_average_end\":" + json_string(load1) + "}";
    o += ",\"size\":" + std::to_string(a.size) + ",\"precision\":\"f32\",\"radius\":1,\"reps\":" +
         std::to_string(a.reps) + ",\"workers_requested\":" + std::to_string(a.workers) +
         ",\"sweep_reps\":" + std::to_string(a.sweep_reps) + ",\"cold\":" + (a.cold ? "true" : "false") +
         ",\"ptx_cache_dir\":" + json_string(cache_dir);
    o += ",\"targets\":{\"launch_s\":" + json_number(kLaunchTarget) + ",\"sweep_s\":" + json_number(kSweepTarget) +
         ",\"size\":" + std::to_string(kTargetSize) + "}";
    return o;
}

std::string kernel_json(const KernelResult& k) {
    std::string o;
    o += "{\"kernel\":" + json_string(k.v->name) + ",\"tile\":" + std::to_string(k.req.tile);
    if (!k.error.empty()) {
        o += ",\"error\":" + json_string(k.error) + "}";
        return o;
    }
    o += ",\"block\":[" + std::to_string(k.geo.block.x) + "," + std::to_string(k.geo.block.y) + "," +
         std::to_string(k.geo.block.z) + "],\"grid\":[" + std::to_string(k.geo.grid.x) + "," +
         std::to_string(k.geo.grid.y) + "," + std::to_string(k.geo.grid.z) + "]";
    o += ",\"compile_s\":" + json_number(k.compile_s) + ",\"nvrtc_s\":" + json_number(k.nvrtc_s) +
         ",\"compile_from\":" + (k.nvrtc_s > 0 ? "\"nvrtc\"" : "\"disk_cache\"") +
         ",\"decode_s\":" + json_number(k.decode_s) +
         ",\"ptx_static_instructions\":" + std::to_string(k.static_instructions) +
         ",\"ptx_fma_instructions\":" + std::to_string(k.fma_instructions);
    o += ",\"ptx\":" + engine_json(k.ptx);
    o += ",\"explain\":{\"interior_cells\":" + std::to_string(k.why.interior) +
         ",\"ptx_equals_fma_chain\":" + std::to_string(k.why.ptx_fused) +
         ",\"ptx_equals_mul_add\":" + std::to_string(k.why.ptx_unfused) + "}";
    o += ",\"sweep\":{\"run\":" + std::string(k.sweep_run ? "true" : "false") +
         ",\"seconds\":" + json_number(k.sweep_s) + ",\"ok\":" + (k.sweep_ok ? "true" : "false");
    if (!k.sweep_failure.empty()) o += ",\"failure\":" + json_string(k.sweep_failure);
    return o + "}}";
}

std::string summary_json(const Args& a, const Summary& s, bool any_sweep) {
    std::string o;
    o += ",\"summary\":{\"launch_pass\":" + std::string(s.launch_pass ? "true" : "false") +
         ",\"slowest_launch_s\":" + json_number(s.worst_launch) +
         ",\"slowest_launch_kernel\":" + json_string(s.worst_launch_kernel) +
         ",\"sweep_pass\":" + (any_sweep ? std::string(s.sweep_pass ? "true" : "false") : "null") +
         ",\"slowest_sweep_s\":" + json_number(any_sweep ? s.worst_sweep : kInf) +
         ",\"slowest_sweep_kernel\":" + json_string(s.worst_sweep_kernel) +
         ",\"all_correct\":" + (s.all_correct ? "true" : "false") +
         ",\"instructions_per_s_per_worker_min\":" + json_number(s.ipc_min) +
         ",\"instructions_per_s_per_worker_max\":" + json_number(s.ipc_max) +
         ",\"verdict\":" + json_string(verdict_line(a, s, any_sweep)) + "}";
    return o;
}

void print_json(const Args& a, const std::vector<KernelResult>& ks, const std::string& date, const std::string& load0,
                const std::string& load1, const std::string& cache_dir) {
    const Summary s = summarize(ks);
    bool any_sweep = false;
    for (const auto& k : ks) any_sweep = any_sweep || k.sweep_run;
    std::string o = "{" + run_json(a, date, load0, load1, cache_dir);
    o += ",\"kernels\":[";
    for (std::size_t i = 0; i < ks.size(); ++i) {
        if (i) o += ",";
        o += kernel_json(ks[i]);
    }
    o += "]";
    o += summary_json(a, s, any_sweep);
    o += "}";
    std::printf("%s\n", o.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    const Args a = parse_args(argc, argv);

    // --cold: point the PTX disk cache at an empty directory of our own (removed at the end), so
    // the first lab_ptx of each kernel runs NVRTC.
    std::string cold_dir;
    if (a.cold) {
        char tmpl[] = "/tmp/stencil_cpu_bench.XXXXXX";
        if (!mkdtemp(tmpl)) {
            std::perror("mkdtemp");
            return 1;
        }
        cold_dir = tmpl;
        setenv("STENCIL_LAB_CACHE_DIR", cold_dir.c_str(), 1);
    }
    const std::string cache_dir = lab_ptx_detail::default_cache_dir();

    const std::string date = utc_now();
    const std::string load0 = load_average();
    const GridDims dims{a.size, a.size, a.size};
    const auto in = random_field<float>(dims, 42);
    const auto w = random_weights(1, 7).rounded_to(Precision::f32);
    const auto ref = reference_stencil(in, w);

    std::vector<KernelResult> results;
    for (const auto& v : kernel_versions()) results.push_back(run_kernel(v, a, in, w, ref));
    const std::string load1 = load_average();

    if (a.json)
        print_json(a, results, date, load0, load1, cache_dir);
    else
        print_tables(a, results, date, load0, load1, cache_dir);

    if (!cold_dir.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(cold_dir, ec);
    }
    const Summary s = summarize(results);
    if (!s.all_correct) return 1;
    bool any_sweep = false;
    for (const auto& k : results) any_sweep = any_sweep || k.sweep_run;
    return s.launch_pass && (s.sweep_pass || !any_sweep) ? 0 : 2;
}
