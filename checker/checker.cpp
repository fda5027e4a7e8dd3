// check_submission: the parent's whole procedure, step by step. See checker.h for the verdicts,
// protocol.h for what parent and runner exchange, evaluate.cpp for how outputs are judged.
//
// Sections: [helpers] files, seeds, limits; [the probe] whether CUDA can run; [steps] one function
// per step of check_submission; [check_submission].
#include "checker/checker.h"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <random>
#include <thread>

#include "checker/evaluate.h"
#include "checker/contract.h"
#include "checker/data_exercise.h"
#include "checker/exercises.h"
#include "checker/field_exercises.h"
#include "checker/findings.h"
#include "checker/process.h"
#include "checker/protocol.h"
#include "checker/replay.h"
#include "checker/sanitizer.h"
#include "checker/shared_arrays.h"
#include "checker/solution_budget.h"
#include "checker/source.h"
#include "core/backend_choice.h"
#include "core/error.h"
#include "core/install_layout.h"
#include "core/parallel.h"
#include "core/weights.h"

namespace stencil::checker {

namespace fs = std::filesystem;
using json = nlohmann::json;

// ---- [helpers] --------------------------------------------------------------------------------
namespace {

// The runner beside an installed or copied binary, in an install tree's libexec/, or in the build
// tree (core/install_layout.h).
std::string runner_path() { return find_runner(STENCIL_CHECKER_RUNNER); }

void write_text(const std::string& path, const std::string& s) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << s;
    if (!f) throw UserError("cannot write " + path);
}

void write_request(const std::string& path, const Request& req) { write_text(path, json(req).dump(1)); }

void write_cells(const std::string& path, const Cells& v) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(static_cast<const char*>(v.data()), static_cast<std::streamsize>(v.bytes()));
    if (!f) throw UserError("cannot write " + path + " (is /tmp full?)");
}

// Interior cells of an n^3 grid with a boundary r cells wide: the outputs.
double outputs_of(const Exercise& ex, int n) {
    const double m = n - 2.0 * ex.radius;
    return m > 0 ? m * m * m : 0;
}

LoadCount load_count(const Exercise& ex, int tile, int n, long long loads, std::string source, bool count_only) {
    LoadCount lc;
    lc.n = n;
    lc.loads_per_output = double(loads) / outputs_of(ex, n);
    lc.budget = count_only ? 0 : ex.budget.from_solution ? data_budget(ex, tile) : load_budget(ex, n, tile);
    lc.within_budget = lc.loads_per_output <= lc.budget * (1 + 1e-9);
    lc.source = std::move(source);
    return lc;
}

// A private temporary folder, removed with everything in it.
struct WorkDir {
    std::string path;
    WorkDir() {
        std::string tmpl = (fs::temp_directory_path() / "stencil-check-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw UserError("cannot create a temporary folder");
        path = tmpl;
    }
    ~WorkDir() {
        std::error_code ec;
        if (!std::getenv("STENCIL_CHECK_KEEP")) fs::remove_all(path, ec);
    }
};

std::uint64_t fresh_seed() {
    std::random_device rd;
    return (std::uint64_t(rd()) << 32) ^ rd() ^
           static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
}

// Options a caller can get wrong (the CLI checks the same before; tests call in directly).
std::string options_problem(const CheckOptions& opt) {
    if (opt.tile < 0) return fmt::format("--tile must be positive (got {})", opt.tile);
    if (!std::isfinite(opt.time_limit_s) || opt.time_limit_s < 0)
        return fmt::format("--time-limit must be a positive number of seconds (got {})", opt.time_limit_s);
    if (!std::isfinite(opt.compile_seconds) || opt.compile_seconds <= 0 || opt.compile_memory_mb <= 0)
        return "the compile's time and memory limits must be positive";
    return {};
}

// The runner's limits: its own clocks end the compile and the runs (runner.h: arm_time_limit);
// the wall clock here is the outer wall, with room for both and for starting the GPU.
// sizes > 0: the run of the check's cases, whose progress lines reach opt.progress.
ChildLimits runner_limits(const CheckOptions& opt, bool gpu, int sizes = 0) {
    ChildLimits lim;
    lim.wall_seconds = opt.compile_seconds + opt.time_limit_s + 30;
    if (!gpu) lim.address_space_bytes = opt.memory_limit_mb << 20;
    lim.file_bytes = 4LL << 30;
    lim.stop = opt.stop;
    if (opt.progress && sizes > 0) {
        auto reader = std::make_shared<RunnerProgressReader>(sizes, opt.progress);
        lim.on_output = [reader](std::string_view piece) { reader->feed(piece); };
    }
    return lim;
}

// A check stopped by its front end ends here: no verdict is made from a killed runner.
void throw_if_stopped(const ChildResult& child) {
    if (child.stopped) throw UserError("check cancelled (its runner was stopped)");
}

// NVRTC's tidied log when the submission did not compile (or its PTX could not be assembled or
// loaded, or NVRTC ran past its time or memory bound); nullopt when it compiled.
std::optional<std::string> compile_problem(const ChildResult& child, const ResultFile& result,
                                           const std::string& display, const CheckOptions& opt) {
    const bool exited = child.started && !child.timed_out && child.signal == 0;
    if (exited && child.exit_code == kCompileTimeLimitExit)
        return fmt::format("{}: NVRTC did not finish compiling within {:.0f} s (a macro or template "
                           "that expands without end?)\n", display, opt.compile_seconds);
    if (exited && child.exit_code == kCompileCrashExit)
        return fmt::format("{}: NVRTC died while compiling, within the {} MiB it may use (a macro or "
                           "template that expands without end?)\n", display, opt.compile_memory_mb);
    if (!result.ok() || !result.result.compile || result.result.compile->ok) return std::nullopt;
    std::string log = tidy_compiler_output(result.result.compile->log, display);
    if (log.empty()) log = display + ": the compiler gave no reason\n";
    return log;
}

}  // namespace

// ---- [the probe] ------------------------------------------------------------------------------
std::optional<std::string> cuda_unavailable_from_probe(const ChildResult& probe) {
    if (probe.ok()) return std::nullopt;
    if (probe.started && !probe.timed_out && probe.signal == 0 && probe.exit_code == kBackendNotBuiltExit)
        return "this build has no CUDA support";
    return "no usable CUDA device (" + (probe.output.empty() ? probe.describe() : probe.output) + ")";
}

std::optional<std::string> cuda_unavailable_for_checker() {
    static std::optional<std::optional<std::string>> cached;
    if (cached) return *cached;
    WorkDir w;
    Request probe;
    probe.mode = RunnerMode::probe_cuda;
    write_request(w.path + "/probe.json", probe);
    ChildLimits lim;
    lim.wall_seconds = 60;
    cached = cuda_unavailable_from_probe(run_child({runner_path(), "probe.json"}, lim, w.path));
    return *cached;
}

// ---- [steps] ----------------------------------------------------------------------------------
namespace {

// What the options resolve to: the exercise, the tile, the backend (never auto), the seed.
struct Setup {
    const Exercise* ex = nullptr;
    int tile = 0;
    bool gpu = false;
    std::uint64_t seed = 0;
    std::uint64_t hidden_seed = 0;  // CheckOptions::hidden_seed: the drawn sizes and the later cases' data
};

Setup resolve(const CheckOptions& opt) {
    Setup s;
    s.ex = find_exercise(opt.exercise);
    if (!s.ex) throw UserError("unknown exercise '" + opt.exercise + "'; one of: " + exercise_names());
    if (auto p = options_problem(opt); !p.empty()) throw UserError(p);
    s.tile = opt.tile > 0 ? opt.tile : default_tile(*s.ex);
    if (auto p = tile_problem(*s.ex, s.tile); !p.empty()) throw UserError(p);
    const auto choice = parse_backend_choice(opt.backend);
    if (!choice) throw UserError(fmt::format("--backend must be {} (got '{}')", kBackendChoices, opt.backend));
    switch (*choice) {
        case BackendChoice::automatic: s.gpu = !cuda_unavailable_for_checker(); break;
        case BackendChoice::cuda:
            if (auto why = cuda_unavailable_for_checker()) throw UserError("--backend cuda: " + *why);
            s.gpu = true;
            break;
        case BackendChoice::cpu: s.gpu = false; break;
    }
    s.seed = opt.seed ? *opt.seed : fresh_seed();
    s.hidden_seed = opt.hidden_seed ? *opt.hidden_seed : s.seed;
    return s;
}

// The test cases: the fixed sizes, those drawn from the seed, and the large one, each with fresh
// inputs and poison; on the GPU also the timed size. How often each runs: run_plan.h.
struct Plan {
    std::vector<TestCase> cases;
    int count_n = 0;   // the size whose loads are counted
    int timing_n = 0;  // GPU: the size timed against the lab's kernel (0: none)
    std::vector<int> drawn;  // the sizes drawn from the seed
};

Plan plan_cases(const Exercise& ex, const Setup& s, const CheckOptions& opt) {
    Plan p;
    std::vector<int> sizes = test_sizes(ex, s.tile, opt.quick);
    const size_t fixed = sizes.size();  // the cases after these are made from the hidden seed
    p.drawn = random_sizes(ex, s.tile, mix_seed(s.hidden_seed + 3), sizes, opt.quick);
    for (int n : p.drawn) sizes.push_back(n);
    p.count_n = load_count_size(ex, s.tile);
    if (opt.large_case) sizes.push_back(kLargeStarN);
    if (s.gpu && opt.timing) sizes.push_back(p.timing_n = 256);
    // Inputs, poison and guard zones of every size at once (a 256^3 case is 2 x 67 MB of random
    // cells): each case from its own seed, so the order they are made in changes nothing.
    std::vector<std::future<TestCase>> made;
    for (size_t c = 0; c < sizes.size(); ++c)
        made.push_back(std::async(std::launch::async, [&ex, n = sizes[c], tile = s.tile,
                                                       seed = mix_seed((c < fixed ? s.seed : s.hidden_seed) + 1000 + c)] {
            return make_case(ex, n, tile, seed);
        }));
    for (size_t c = 0; c < sizes.size(); ++c) {
        TestCase tc = made[c].get();
        const auto& l = tc.launch;
        const long long threads = (long long)l.grid[0] * l.grid[1] * l.grid[2] * l.block[0] * l.block[1] * l.block[2];
        CaseRuns runs = plan_runs(s.gpu, s.gpu && tc.n == p.timing_n, tc.n == kLargeStarN, threads,
                                  mix_seed(s.seed + 7 + c));
        tc.runs = std::move(runs.runs);
        tc.check_block_stride = runs.check_block_stride;
        p.cases.push_back(std::move(tc));
    }
    return p;
}

// The request without its cases: the exercise, the limits, the harness's constants, and the
// translation unit (written into `work`) that both backends compile, in the runner, with NVRTC.
Request base_request(const Exercise& ex, const Setup& s, const VettedSource& src, std::vector<ConstantSpec> constants,
                     const CheckOptions& opt, const std::string& work) {
    Request req;
    req.mode = s.gpu ? RunnerMode::cuda : RunnerMode::cpu;
    req.exercise = ex.name;
    req.problem = ex.problem;
    req.lab_kernel = ex.version;  // the GPU times and counts it beside the submission (a data
                                  // exercise has none: its row is empty)
    req.precision = ex.precision;
    req.radius = ex.radius;
    req.tile = s.tile;
    req.kernel_name = kernel_contract(ex).kernel;
    req.kernel_signature = kernel_signature(ex);
    req.display_name = src.display_name;
    req.constants = std::move(constants);
    // CPU runs use at most 4 worker threads: the child lives under an address-space limit
    // (memory_limit_mb), and every worker holds a block's state (registers, local memory, shared
    // shadows) and a malloc arena; on a 16-core machine all cores would pass 4 GiB first.
    req.workers = opt.workers > 0 ? std::min(opt.workers, 4)
                                  : static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
    write_text(work + "/submission.cu", translation_unit(src, ex, s.tile));
    req.source = work + "/submission.cu";
    req.compile_seconds = opt.compile_seconds;
    req.compile_memory_bytes = opt.compile_memory_mb << 20;
    req.time_limit = opt.time_limit_s;
    req.printf_cap_bytes = kPrintfCapBytes;
    return req;
}

// The star3d request, with the cases' files written into `work`.
Request write_request_files(const Exercise& ex, const Setup& s, const VettedSource& src,
                            const StencilWeights& weights, const Plan& plan, const CheckOptions& opt,
                            const std::string& work) {
    // The weights are already rounded to the exercise's precision: exact in JSON's doubles.
    Request req = base_request(ex, s, src,
                               harness_constants(ex, {weights.c.begin(), weights.c.begin() + weight_count(ex)}), opt, work);
    for (size_t c = 0; c < plan.cases.size(); ++c) {
        const TestCase& tc = plan.cases[c];
        req.cases.push_back(case_spec(tc, int(c)));
        write_cells(fmt::format("{}/case{}.in", work, c), tc.input);
        write_cells(fmt::format("{}/case{}.out", work, c), tc.output);
        // The load count of a passing kernel: the CPU counts its first checked run at this size
        // (the GPU's counters count a launch of this case after the checked ones).
        if (tc.n == plan.count_n && opt.count_loads) req.count = RunRef{int(c), 0};
        if (s.gpu && tc.n == plan.timing_n) req.timing = TimingSpec{int(c), 20};
    }
    write_request(work + "/request.json", req);
    return req;
}

// The compile_error of a file that failed vetting, or of NVRTC's log.
void set_compile_error(CheckResult& res, const std::string& message, const std::string& compiler_output) {
    res.verdict = Verdict::compile_error;
    res.evidence.message = message;
    res.evidence.compiler_output = compiler_output;
    res.sizes.clear();  // nothing ran
}

// The child's compile failure (NVRTC's errors, or a refusal after it, one line of its own) as
// the check's compile_error; false when the submission compiled.
bool take_compile_failure(CheckResult& res, const ChildResult& child, const ResultFile& result,
                          const std::string& display, const CheckOptions& opt) {
    const auto log = compile_problem(child, result, display, opt);
    if (!log) return false;
    const bool nvrtc = result.ok() && result.result.compile && result.result.compile->stage == CompileStage::nvrtc;
    set_compile_error(res, nvrtc ? "the submission does not compile (NVRTC)" : log->substr(0, log->find('\n')), *log);
    return true;
}

// The judgement into `res`, with the smallest failing case's evidence (findings.h); returns each
// failing case's finding, which the report summarises once the verdict is final.
std::vector<CaseFinding> take_judgement(CheckResult& res, Judgement j) {
    res.verdict = j.verdict;
    res.evidence = std::move(j.evidence);
    res.tests = std::move(j.tests);
    res.warnings = std::move(j.warnings);
    take_smallest_counterexample(res, j.cases);
    return std::move(j.cases);
}

// compute-sanitizer on the GPU (`--sanitize`); on the CPU backend a warning that it does not apply.
void sanitize_step(CheckResult& res, const Request& req, bool gpu, const std::string& work, const CheckOptions& opt) {
    if (!opt.sanitize) return;
    if (gpu) sanitize(res, req, res.sizes, runner_path(), work, opt);
    else res.warnings.push_back("--sanitize applies to the GPU backend only (compute-sanitizer); on the "
                                "CPU backend the bounds and race checks are always on");
}

// The GPU's timing against the lab's kernel at size `n` into `res`: `timing` for a pass,
// `measured_timing` for any kernel that ran (a rubric's, judged on the visible sizes).
void add_timing(CheckResult& res, const Result& result, int n, bool gpu) {
    if (result.timing_unavailable && res.verdict == Verdict::pass)
        res.warnings.push_back("no timing: " + *result.timing_unavailable);
    if (!gpu || !result.timing) return;
    const TimingOutcome& t = *result.timing;
    // A kernel failing elsewhere is timed for the rubric only (measured_timing): its grade is
    // judged on the visible sizes, and a time missing there would tell that a hidden one failed.
    const bool passed = res.verdict == Verdict::pass;
    if (!passed && (res.verdict == Verdict::compile_error || res.verdict == Verdict::internal_error)) return;
    if (t.mismatched_reps > 0) {
        if (!passed) return;
        res.verdict = Verdict::wrong_result;
        res.evidence.message = fmt::format(
            "N={}: {} timed launches produced an output different from the checked launch (the "
            "kernel behaves differently when repeated)", n, t.mismatched_reps);
        return;
    }
    Timing tm;
    tm.n = n;
    tm.reps = t.reps;
    tm.student_ms = t.student_ms;
    tm.reference_ms = t.reference_ms;
    tm.ratio = tm.reference_ms > 0 ? tm.student_ms / tm.reference_ms : 0;
    tm.reference = t.reference;
    res.measured_timing = tm;
    if (passed) res.timing = tm;
}

// Loads per output from the result (the GPU's counters, the CPU engine's count of a checked run),
// and the GPU's timing, into `res`.
void add_measurements(CheckResult& res, const Exercise& ex, const Result& result, const Plan& plan, bool gpu,
                      bool count_only) {
    if (result.counts) {
        res.loads = load_count(ex, res.tile, plan.count_n, result.counts->global_loads,
                               gpu ? result.counts->source
                                   : "the CPU backend's count in a checked run (in-order schedule)",
                               count_only);
        if (result.counts->lab_global_loads)
            res.loads->lab_loads_per_output = double(*result.counts->lab_global_loads) / outputs_of(ex, plan.count_n);
    }
    add_timing(res, result, plan.timing_n, gpu);
}

// Whether every checked run of size n passed (false when none ran, or nothing could be judged).
bool size_passed(const CheckResult& res, int n) {
    if (res.verdict == Verdict::compile_error || res.verdict == Verdict::internal_error) return false;
    bool any = false;
    for (const TestRecord& t : res.tests) {
        if (t.size != n) continue;
        if (!t.passed) return false;
        any = true;
    }
    return any;
}

// Where the GPU's counters could not be read: the CPU engine's count of a checked run of the
// count size, from fresh inputs. That run is judged like any other: a count is reported only
// when the CPU backend passes it too.
std::optional<LoadCount> cpu_load_count(const Exercise& ex, const Setup& s, const StencilWeights& weights,
                                        const Request& req, const std::string& work, const CheckOptions& opt,
                                        const SharedArrays& arrays, const std::string& why,
                                        std::vector<std::string>& warnings) {
    const int n = load_count_size(ex, s.tile);
    const std::string dir = work + "/count";
    fs::create_directories(dir);
    TestCase tc = make_case(ex, n, s.tile, mix_seed(s.seed + 99));
    tc.runs = {RunSpec{}};
    Request creq = req;
    creq.mode = RunnerMode::cpu;
    creq.timing.reset();
    creq.cases = {case_spec(tc, 0)};
    creq.count = RunRef{0, 0};
    write_cells(dir + "/case0.in", tc.input);
    write_cells(dir + "/case0.out", tc.output);
    write_request(dir + "/request.json", creq);
    const ChildResult cr = run_child({runner_path(), "request.json"}, runner_limits(opt, false), dir);
    throw_if_stopped(cr);
    const ResultFile cres = read_result_file(dir + "/result.json");
    const Judgement j = compile_problem(cr, cres, req.display_name, opt)
                            ? Judgement{Verdict::compile_error, {}, {}, {}, {}}
                            : judge_runs(ex, s.tile, weights, {tc}, cres, cr, dir, arrays);
    if (j.verdict != Verdict::pass || !cres.ok() || !cres.result.counts) {
        warnings.push_back(fmt::format("no load count: the GPU's counters could not be read ({}), and the "
                                       "CPU backend's run at N={} is not a pass ({}{})", why, n,
                                       to_string(j.verdict),
                                       j.evidence.message.empty() ? "" : ": " + j.evidence.message));
        return std::nullopt;
    }
    return load_count(ex, s.tile, n, cres.result.counts->global_loads,
                      "the CPU backend's count in a checked run (the GPU's counters could not be "
                      "read: " + why + ")",
                      opt.count_only);
}

// Steps 2 to 5 for the cardiac2d and derivative exercises (field_exercises.h): their cases, the
// run, the judgement, the load count against the lab's kernel's exact count, the GPU's timing.
void check_fields(CheckResult& res, std::vector<CaseFinding>& failing, const Exercise& ex, const Setup& s,
                  const VettedSource& src, const CheckOptions& opt) {
    WorkDir work;
    const SharedArrays arrays = find_shared_arrays(src.text, ex, s.tile);
    int timing = -1;
    const std::vector<FieldCase> cases = make_field_cases(ex, s.tile, s.seed, opt.quick, opt.large_case, s.gpu, opt.timing,
                                                          timing, s.hidden_seed);
    Request req = base_request(ex, s, src, harness_constants(ex, ex.is_data() ? data_weights(ex, s.seed) : std::vector<double>{}),
                               opt, work.path);
    // Loads are counted at the largest case every backend runs (the GPU-only ones and the timed
    // one left out): partial tiles and whole ones both. A data exercise counts at its spec's size,
    // the one its budget is for.
    int count = -1;
    for (size_t c = 0; c < cases.size(); ++c) {
        res.sizes.push_back(cases[c].n);
        if (cases[c].drawn) res.drawn_sizes.push_back(cases[c].n);
        req.cases.push_back(field_case_spec(cases[c], int(c)));
        write_field_case_files(cases[c], int(c), work.path);
        if (cases[c].gpu_only || cases[c].large) continue;
        if (ex.is_data() ? cases[c].n == ex.data->sizes.count && count < 0
                         : count < 0 || cases[c].outputs > cases[size_t(count)].outputs)
            count = int(c);
    }
    if (opt.count_loads && count >= 0) req.count = RunRef{count, 0};
    if (timing >= 0) req.timing = TimingSpec{timing, 20};
    write_request(work.path + "/request.json", req);

    const ChildResult child =
        run_child({runner_path(), "request.json"}, runner_limits(opt, s.gpu, int(cases.size())), work.path);
    throw_if_stopped(child);
    const ResultFile result = read_result_file(work.path + "/result.json");
    if (take_compile_failure(res, child, result, src.display_name, opt)) return;
    failing = take_judgement(res, judge_field_runs(ex, s.tile, cases, result, child, work.path, arrays));
    if (!s.gpu && res.verdict != Verdict::pass)
        replay_failing_field_run(res.verdict, res.evidence, res.warnings,
                                 ReplayInputs{ex, s.tile, arrays, req, {}, runner_path(), work.path, opt}, cases);
    if (result.ok() && result.result.counts && count >= 0) {
        const FieldCase& c = cases[size_t(count)];
        LoadCount lc;
        lc.n = c.n;
        lc.loads_per_output = double(result.result.counts->global_loads) / double(c.outputs);
        lc.budget = ex.is_data() ? (opt.count_only ? 0 : data_budget(ex, s.tile))
                                 : ex.budget.loads_per_output ? *ex.budget.loads_per_output
                                                              : ex.budget.factor * double(c.lab_loads) / double(c.outputs);
        lc.within_budget = lc.loads_per_output <= lc.budget * (1 + 1e-9);
        lc.source = s.gpu ? result.result.counts->source : "the CPU backend's count in a checked run (in-order schedule)";
        if (result.result.counts->lab_global_loads)
            lc.lab_loads_per_output = double(*result.result.counts->lab_global_loads) / double(c.outputs);
        res.loads = lc;
    } else if (result.ok() && result.result.counts_unavailable && res.verdict == Verdict::pass) {
        res.warnings.push_back("no load count: " + *result.result.counts_unavailable);
    }
    if (result.ok()) add_timing(res, result.result, timing >= 0 ? cases[size_t(timing)].n : 0, s.gpu);
    sanitize_step(res, req, s.gpu, work.path, opt);
    res.measured_loads = res.loads;
    if (res.verdict != Verdict::pass) res.loads.reset();
    if (res.loads && !res.loads->within_budget && !opt.count_only)
        res.warnings.push_back(fmt::format(
            "{:.3f} global loads per output, over the budget of {:.3f} ({}; {})", res.loads->loads_per_output,
            res.loads->budget, budget_source(ex), res.loads->source));
}

}  // namespace

// ---- [check_submission] -----------------------------------------------------------------------
CheckResult check_submission(const std::string& path, const CheckOptions& given) {
    const auto t0 = std::chrono::steady_clock::now();
    const Setup s = resolve(given);
    CheckOptions opt = given;
    if (opt.time_limit_s == 0) opt.time_limit_s = s.ex->time_limit_s > 0 ? s.ex->time_limit_s : kDefaultCheckSeconds;
    const Exercise& ex = *s.ex;
    CheckResult res;
    res.file = path;
    res.exercise = ex.id;  // what find_exercise takes back: a built-in's name, a folder's path
    res.exercise_hash = exercise_spec_hash(ex);
    res.tile = s.tile;
    res.backend = std::string(to_string(s.gpu ? BackendChoice::cuda : BackendChoice::cpu));
    res.seed = s.seed;
    std::vector<CaseFinding> failing;  // each failing case's finding, summarised at the end
    auto finish = [&](CheckResult& r) -> CheckResult {
        summarise(r, failing);
        if (opt.explain && s.gpu && r.verdict != Verdict::pass && r.verdict != Verdict::compile_error)
            r.warnings.push_back("--explain walks the CPU engine's trace of a run, which the GPU backend does not "
                                 "keep: rerun with --backend cpu for the explanation");
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return std::move(r);
    };

    // 1. read and vet
    const VettedSource src = read_and_vet(path, kernel_contract(ex));
    if (!src.ok) {
        set_compile_error(res, src.problem, src.problem + "\n");
        return finish(res);
    }
    if (!ex.is_star3d()) {
        check_fields(res, failing, ex, s, src, opt);
        return finish(res);
    }
    WorkDir work;
    const SharedArrays arrays = find_shared_arrays(src.text, ex, s.tile);

    // 2. test cases: fresh inputs, weights and poison from the seed
    const StencilWeights weights = random_weights(ex.radius, mix_seed(s.seed)).rounded_to(ex.precision);
    const Plan plan = plan_cases(ex, s, opt);
    for (const TestCase& tc : plan.cases) res.sizes.push_back(tc.n);
    res.drawn_sizes = plan.drawn;
    const Request req = write_request_files(ex, s, src, weights, plan, opt, work.path);

    // 3. compile and run in the child (the references are computed meanwhile)
    const CaseReferences refs = start_case_references(ex, weights, plan.cases);
    const ChildResult child =
        run_child({runner_path(), "request.json"}, runner_limits(opt, s.gpu, int(plan.cases.size())), work.path);
    throw_if_stopped(child);
    const ResultFile result = read_result_file(work.path + "/result.json");
    if (take_compile_failure(res, child, result, src.display_name, opt)) return finish(res);

    // 4. judge (the smallest failing case's evidence: findings.h); on the CPU, the failing run
    //    replayed for the statements behind the verdict (replay.h)
    failing = take_judgement(res, judge_runs(ex, s.tile, weights, plan.cases, result, child, work.path, arrays, &refs));
    if (!s.gpu && res.verdict != Verdict::pass)
        replay_failing_run(res.verdict, res.evidence, res.warnings,
                           ReplayInputs{ex, s.tile, arrays, req, plan.cases, runner_path(), work.path, opt});
    if (result.ok()) add_measurements(res, ex, result.result, plan, s.gpu, opt.count_only);

    // 5. GPU extras: compute-sanitizer; the load count from a checked CPU run where the GPU's
    //    counters could not be read
    sanitize_step(res, req, s.gpu, work.path, opt);
    // Counted when the count size passed, not only when everything did: a rubric judges the loads
    // of a kernel right on the visible sizes, whatever it did at the hidden ones (grading/score.h).
    if (s.gpu && opt.count_loads && !res.loads && size_passed(res, plan.count_n)) {
        const std::string why = !result.ok() ? "no result"
                                : result.result.counts_unavailable ? *result.result.counts_unavailable
                                                                   : "not measured";
        res.loads = cpu_load_count(ex, s, weights, req, work.path, opt, arrays, why, res.warnings);
    }
    // The count describes a correct kernel; next to a failing verdict it would only distract.
    res.measured_loads = res.loads;
    if (res.verdict != Verdict::pass) res.loads.reset();
    if (res.loads && !res.loads->within_budget && !opt.count_only)
        res.warnings.push_back(fmt::format(
            "{:.3f} global loads per output at N={}, over the budget of {:.3f} ({}; {})",
            res.loads->loads_per_output, plan.count_n, res.loads->budget, budget_source(ex), res.loads->source));
    return finish(res);
}

}  // namespace stencil::checker
