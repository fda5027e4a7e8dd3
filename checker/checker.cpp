// check_submission: the parent's whole procedure. See checker.h for the verdicts and evaluate.cpp
// for how outputs are judged.
#include "checker/checker.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "checker/evaluate.h"
#include "checker/exercises.h"
#include "checker/process.h"
#include "checker/protocol.h"
#include "checker/shared_arrays.h"
#include "checker/source.h"
#include "core/error.h"
#include "core/weights.h"

namespace stencil::checker {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string runner_path() {
    if (const char* v = std::getenv("STENCIL_CHECK_RUNNER"); v && *v) return v;
    // Next to the running binary first (an installed or copied build), then the build tree.
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        // next to it (stencil-lab), or one folder up (the test binaries in <build>/tests)
        for (const fs::path& p : {self.parent_path() / "stencil-check-runner",
                                  self.parent_path().parent_path() / "stencil-check-runner"})
            if (fs::exists(p)) return p.string();
    }
    return STENCIL_CHECKER_RUNNER;
}

void write_text(const std::string& path, const std::string& s) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << s;
    if (!f) throw UserError("cannot write " + path);
}

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

LoadCount load_count(const Exercise& ex, int tile, int n, long long loads, std::string source) {
    LoadCount lc;
    lc.n = n;
    lc.loads_per_output = double(loads) / outputs_of(ex, n);
    lc.budget = load_budget(ex, n, tile);
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

std::uint64_t splitmix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

std::uint64_t fresh_seed() {
    std::random_device rd;
    return (std::uint64_t(rd()) << 32) ^ rd() ^
           static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
}

json read_json(const std::string& path) {
    std::ifstream f(path);
    if (!f) return nullptr;
    try {
        return json::parse(f);
    } catch (...) {
        return nullptr;
    }
}

std::string find_sanitizer() {
    for (const char* p : {"/usr/local/cuda/bin/compute-sanitizer", "/usr/bin/compute-sanitizer"})
        if (access(p, X_OK) == 0) return p;
    if (const char* path = std::getenv("PATH")) {
        std::string s = path;
        size_t a = 0;
        while (a <= s.size()) {
            size_t e = s.find(':', a);
            if (e == std::string::npos) e = s.size();
            const std::string cand = s.substr(a, e - a) + "/compute-sanitizer";
            if (access(cand.c_str(), X_OK) == 0) return cand;
            a = e + 1;
        }
    }
    return "";
}

// Options a caller can get wrong (the CLI checks the same before; tests call in directly).
std::string options_problem(const CheckOptions& opt) {
    if (opt.tile < 0) return fmt::format("--tile must be positive (got {})", opt.tile);
    if (!std::isfinite(opt.time_limit_s) || opt.time_limit_s <= 0)
        return fmt::format("--time-limit must be a positive number of seconds (got {})", opt.time_limit_s);
    return {};
}

// The runner's limits: its own clocks end the compile and the runs (runner.h: arm_time_limit);
// the wall clock here is the outer wall, with room for both and for starting the GPU.
ChildLimits runner_limits(const CheckOptions& opt, bool gpu) {
    ChildLimits lim;
    lim.wall_seconds = kCompileSeconds + opt.time_limit_s + 30;
    if (!gpu) lim.address_space_bytes = opt.memory_limit_mb << 20;
    lim.file_bytes = 4LL << 30;
    return lim;
}

// The runner's result.json, or null when it is missing, unreadable or malformed (evaluate.cpp
// then gives `crash` with the reason).
bool usable(const json& result) { return !result.is_null() && result_problem(result).empty(); }

// NVRTC's tidied log when the submission did not compile (or its PTX could not be assembled or
// loaded), or when NVRTC ran past its limit; nullopt when it compiled.
std::optional<std::string> compile_problem(const ChildResult& child, const json& result,
                                           const std::string& display) {
    if (child.started && child.signal == 0 && child.exit_code == kCompileTimeLimitExit)
        return fmt::format("{}: NVRTC did not finish compiling within {:.0f} s\n", display, kCompileSeconds);
    if (!usable(result) || !result.contains("compile") || result["compile"]["ok"].get<bool>())
        return std::nullopt;
    std::string log = tidy_compiler_output(result["compile"].value("log", ""), display);
    if (log.empty()) log = display + ": the compiler gave no reason\n";
    return log;
}

// Where the GPU's counters could not be read: the CPU engine's count of a checked run of the
// count size, from fresh inputs. That run is judged like any other: a count is reported only
// when the CPU backend passes it too.
std::optional<LoadCount> cpu_load_count(const Exercise& ex, int tile, const StencilWeights& weights,
                                        const json& req, const std::string& work,
                                        const CheckOptions& opt, const SharedArrays& arrays,
                                        std::uint64_t seed, const std::string& why,
                                        std::vector<std::string>& warnings) {
    const int n = load_count_size(ex, tile);
    const std::string dir = work + "/count";
    fs::create_directories(dir);
    TestCase tc = make_case(ex, n, tile, splitmix(seed + 99));
    tc.runs = {"in_order"};
    tc.run_seeds = {0};
    json creq = req;
    creq["backend"] = "cpu";
    creq.erase("timing");
    creq["cases"] = json::array({case_json(tc, 0)});
    creq["count"] = {{"case", 0}, {"run", 0}};
    write_cells(dir + "/case0.in", tc.input);
    write_cells(dir + "/case0.out", tc.output);
    write_text(dir + "/request.json", creq.dump(1));
    const ChildResult cr = run_child({runner_path(), "request.json"}, runner_limits(opt, false), dir);
    const json cres = read_json(dir + "/result.json");
    const Judgement j = compile_problem(cr, cres, req.value("display_name", ""))
                            ? Judgement{Verdict::compile_error, {}, {}, {}}
                            : judge_runs(ex, tile, weights, {tc}, cres, cr, dir, arrays);
    if (j.verdict != Verdict::pass || !usable(cres) || !cres.contains("counts")) {
        warnings.push_back(fmt::format("no load count: the GPU's counters could not be read ({}), and the "
                                       "CPU backend's run at N={} is not a pass ({}{})", why, n,
                                       to_string(j.verdict),
                                       j.evidence.message.empty() ? "" : ": " + j.evidence.message));
        return std::nullopt;
    }
    return load_count(ex, tile, n, cres["counts"].value("global_loads", 0LL),
                      "the CPU backend's count in a checked run (the GPU's counters could not be "
                      "read: " + why + ")");
}

}  // namespace

std::optional<std::string> cuda_unavailable_for_checker() {
    static std::optional<std::optional<std::string>> cached;
    if (cached) return *cached;
    WorkDir w;
    write_text(w.path + "/probe.json", R"({"backend":"probe-cuda"})");
    ChildLimits lim;
    lim.wall_seconds = 60;
    const ChildResult r = run_child({runner_path(), "probe.json"}, lim, w.path);
    if (r.ok()) cached = std::optional<std::string>();
    else
        cached = std::optional<std::string>(
            r.output.find("not built") != std::string::npos
                ? "this build has no CUDA support"
                : "no usable CUDA device (" + (r.output.empty() ? r.describe() : r.output) + ")");
    return *cached;
}

CheckResult check_submission(const std::string& path, const CheckOptions& opt) {
    const auto t0 = std::chrono::steady_clock::now();
    CheckResult res;
    res.file = path;
    const Exercise* ex = find_exercise(opt.exercise);
    if (!ex) throw UserError("unknown exercise '" + opt.exercise + "'; one of: " + exercise_names());
    res.exercise = ex->name;
    if (auto p = options_problem(opt); !p.empty()) throw UserError(p);
    const int tile = opt.tile > 0 ? opt.tile : ex->default_tile;
    if (auto p = tile_problem(*ex, tile); !p.empty()) throw UserError(p);
    res.tile = tile;
    std::string backend = opt.backend == "gpu" ? "cuda" : opt.backend;
    if (backend == "auto") backend = cuda_unavailable_for_checker() ? "cpu" : "cuda";
    if (backend == "cuda")
        if (auto why = cuda_unavailable_for_checker()) throw UserError("--backend cuda: " + *why);
    if (backend != "cpu" && backend != "cuda")
        throw UserError("--backend must be auto, cuda or cpu");
    res.backend = backend;
    const bool gpu = backend == "cuda";
    res.seed = opt.seed ? *opt.seed : fresh_seed();
    auto finish = [&](CheckResult& r) -> CheckResult {
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return std::move(r);
    };

    // ---- 1. read and vet --------------------------------------------------------------------
    VettedSource src = read_and_vet(path);
    if (src.ok && src.element != element_type(*ex)) {
        src.ok = false;
        src.problem = fmt::format("{}: wrong precision: the {} exercise is {}; the kernel must be "
                                  "declared as `{}`, and the harness's weights {} are {}",
                                  src.display_name, ex->name,
                                  ex->precision == Precision::f64 ? "double precision" : "single precision",
                                  kernel_signature(*ex), weight_names(*ex), element_type(*ex));
    }
    if (!src.ok && ex->precision != Precision::f32 && src.problem.find("signature") != std::string::npos)
        src.problem += fmt::format("\n{}: for the {} exercise: `{}`", src.display_name, ex->name,
                                   kernel_signature(*ex));
    if (!src.ok) {
        res.verdict = Verdict::compile_error;
        res.evidence.message = src.problem;
        res.evidence.compiler_output = src.problem + "\n";
        return finish(res);
    }
    WorkDir work;
    const SharedArrays arrays = find_shared_arrays(src.text, *ex, tile);

    // ---- 2. test cases: fresh inputs, weights and poison from the seed --------------------------
    const StencilWeights weights =
        random_weights(ex->radius, splitmix(res.seed)).rounded_to(ex->precision);
    std::vector<int> sizes = test_sizes(*ex, tile, opt.quick);
    for (int n : random_sizes(*ex, tile, splitmix(res.seed + 3), sizes, opt.quick)) sizes.push_back(n);
    const int count_n = load_count_size(*ex, tile);
    int timing_n = 0;
    if (gpu) {
        sizes.push_back(127);
        if (opt.timing) sizes.push_back(timing_n = 256);
    }
    std::vector<TestCase> cases;
    for (size_t c = 0; c < sizes.size(); ++c) {
        TestCase tc = make_case(*ex, sizes[c], tile, splitmix(res.seed + 1000 + c));
        if (gpu) {
            tc.runs = {"repeat", "repeat", "repeat"};
            tc.run_seeds = {0, 0, 0};
        } else {
            // Threads of a block and, where the backend supports it, the blocks themselves in
            // these orders (evaluate.cpp: runs must agree bit for bit).
            tc.runs = {"in_order", "reversed", "random"};
            tc.run_seeds = {0, 0, splitmix(res.seed + 7 + c) % 1000000};
        }
        cases.push_back(std::move(tc));
        res.sizes.push_back(sizes[c]);
    }
    json req;
    req["backend"] = backend;
    req["exercise"] = ex->name;
    req["lab_kernel"] = version(ex->kernel).name;  // the GPU times and counts it beside the submission
    req["precision"] = std::string(to_string(ex->precision));
    req["radius"] = ex->radius;
    req["tile"] = tile;
    req["display_name"] = src.display_name;
    // Already rounded to the exercise's precision: exact in JSON's doubles.
    std::vector<double> coef(weights.c.begin(), weights.c.begin() + weight_count(*ex));
    req["coefficients"] = coef;
    // CPU runs use at most 4 worker threads: the child lives under an address-space limit
    // (memory_limit_mb), and every worker holds a block's state (registers, local memory, shared
    // shadows) and a malloc arena; on a 16-core machine all cores would pass 4 GiB first.
    req["workers"] = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
    req["cases"] = json::array();
    for (size_t c = 0; c < cases.size(); ++c) {
        req["cases"].push_back(case_json(cases[c], int(c)));
        write_cells(fmt::format("{}/case{}.in", work.path, c), cases[c].input);
        write_cells(fmt::format("{}/case{}.out", work.path, c), cases[c].output);
        // The load count of a passing kernel: the CPU counts its first checked run at this size
        // (the GPU's counters count a launch of this case after the checked ones).
        if (cases[c].n == count_n && opt.count_loads) req["count"] = {{"case", c}, {"run", 0}};
        if (gpu && cases[c].n == timing_n) req["timing"] = {{"case", c}, {"reps", 20}};
    }
    // Both backends compile the same translation unit, in the runner, with NVRTC.
    write_text(work.path + "/submission.cu", translation_unit(src, *ex, tile));
    req["source"] = work.path + "/submission.cu";
    req["compile_seconds"] = kCompileSeconds;
    req["time_limit"] = opt.time_limit_s;
    write_text(work.path + "/request.json", req.dump(1));

    // ---- 3. compile and run in the child --------------------------------------------------------
    const ChildResult child = run_child({runner_path(), "request.json"}, runner_limits(opt, gpu), work.path);
    const json result = read_json(work.path + "/result.json");
    if (auto log = compile_problem(child, result, src.display_name)) {
        res.verdict = Verdict::compile_error;
        // NVRTC's errors are in the compiler output; a refusal after it is one line of its own.
        const bool nvrtc = usable(result) && result.contains("compile") &&
                           result["compile"].value("stage", "") == "nvrtc";
        res.evidence.message = nvrtc ? "the submission does not compile (NVRTC)"
                                     : log->substr(0, log->find('\n'));
        res.evidence.compiler_output = *log;
        res.sizes.clear();  // nothing ran
        return finish(res);
    }

    // ---- 4. judge -----------------------------------------------------------------------------
    Judgement j = judge_runs(*ex, tile, weights, cases, result, child, work.path, arrays);
    res.verdict = j.verdict;
    res.evidence = std::move(j.evidence);
    res.tests = std::move(j.tests);
    res.warnings = std::move(j.warnings);

    // Loads per output: the GPU's counters on the GPU, the CPU engine's count of a checked run.
    if (usable(result) && result.contains("counts")) {
        const json& c = result["counts"];
        res.loads = load_count(*ex, tile, count_n, c.value("global_loads", 0LL),
                               gpu ? c.value("source", std::string("GPU counters"))
                                   : "the CPU backend's count in a checked run (in-order schedule)");
        if (c.contains("lab_global_loads") && c["lab_global_loads"].is_number())
            res.loads->lab_loads_per_output = c["lab_global_loads"].get<double>() / outputs_of(*ex, count_n);
    }
    if (usable(result) && result.contains("timing_unavailable") && res.verdict == Verdict::pass)
        res.warnings.push_back("no timing: " + result.value("timing_unavailable", std::string()));
    if (gpu && res.verdict == Verdict::pass && usable(result) && result.contains("timing")) {
        const auto& t = result["timing"];
        if (t.value("mismatched_reps", 0LL) > 0) {
            res.verdict = Verdict::wrong_result;
            res.evidence.message = fmt::format(
                "N={}: {} timed launches produced an output different from the checked launch "
                "(the kernel behaves differently when repeated)", timing_n,
                t["mismatched_reps"].get<long long>());
        } else {
            Timing tm;
            tm.n = timing_n;
            tm.reps = t.value("reps", 0);
            tm.student_ms = t.value("student_ms", 0.0);
            tm.reference_ms = t.value("reference_ms", 0.0);
            tm.ratio = tm.reference_ms > 0 ? tm.student_ms / tm.reference_ms : 0;
            tm.reference = t.contains("reference") && t["reference"].is_string() ? t["reference"].get<std::string>() : "";
            res.timing = tm;
        }
    }

    // ---- 5. GPU extras: compute-sanitizer; the load count from a checked CPU run where the GPU's
    //         counters could not be read -------------------------------------------------------
    if (!gpu && opt.sanitize)
        res.warnings.push_back("--sanitize applies to the GPU backend only (compute-sanitizer); on the "
                               "CPU backend the bounds and race checks are always on");
    // On a pass (what plain runs tolerated) and on a crash (to add the faulting line).
    if (gpu && opt.sanitize && (res.verdict == Verdict::pass || res.verdict == Verdict::crash)) {
        const std::string san = find_sanitizer();
        if (san.empty()) {
            res.warnings.push_back("--sanitize: compute-sanitizer not found; skipped");
        } else {
            // A pass: one mid-size case under memcheck, racecheck and synccheck. A crash: the
            // case that crashed under memcheck, whose report names the faulting line.
            const bool crashed = res.verdict == Verdict::crash;
            size_t pick = 0;
            for (size_t c = 0; c < cases.size(); ++c)
                if (crashed ? cases[c].n == res.evidence.n : cases[c].n <= 40) pick = c;
            json sreq = req;
            sreq.erase("timing");
            sreq.erase("count");  // an index into the full case list; one case remains
            json one = req["cases"][pick];
            one["runs"] = json::array({json{{"schedule", "repeat"}, {"seed", 0}}});
            sreq["cases"] = json::array({one});
            const std::vector<std::string> tools =
                crashed ? std::vector<std::string>{"memcheck"}
                        : std::vector<std::string>{"memcheck", "racecheck", "synccheck"};
            for (const std::string& tool : tools) {
                ChildLimits sl;
                sreq["time_limit"] = std::max(120.0, opt.time_limit_s);  // the runner's own clock
                sl.wall_seconds = kCompileSeconds + sreq["time_limit"].get<double>() + 30;
                write_text(work.path + "/sanitize.json", sreq.dump(1));
                const ChildResult sr = run_child({san, "--tool", tool, "--error-exitcode", "86",
                                                  "--print-limit", "8", runner_path(), "sanitize.json"},
                                                 sl, work.path);
                res.tests.push_back({fmt::format("compute-sanitizer --tool {} (N={})", tool, cases[pick].n),
                                     sr.ok(), sr.ok() ? "no errors" : sr.describe()});
                if (sr.ok()) continue;
                const std::string report = sr.output.size() > 4000 ? sr.output.substr(0, 4000) : sr.output;
                const bool bad_write = sr.output.find("Invalid __global__ write") != std::string::npos;
                if (crashed) {  // keep the crash's evidence, add the sanitizer's
                    if (bad_write) res.verdict = Verdict::out_of_bounds_write;
                    res.evidence.message += "; compute-sanitizer memcheck's report (below) names the line";
                    res.evidence.child_output += "\ncompute-sanitizer --tool memcheck:\n" + report;
                    break;
                }
                Verdict v = tool == "memcheck" ? Verdict::crash : Verdict::race;
                if (bad_write) v = Verdict::out_of_bounds_write;
                if (sr.timed_out) v = Verdict::timeout;
                res.verdict = v;
                res.evidence = Evidence{};
                res.evidence.n = cases[pick].n;
                res.evidence.message = fmt::format("compute-sanitizer {} reported errors ({})", tool,
                                                   sr.describe());
                res.evidence.child_output = report;
                break;
            }
        }
    }
    if (gpu && opt.count_loads && res.verdict == Verdict::pass && !res.loads) {
        const std::string why = usable(result) ? result.value("counts_unavailable", std::string("not measured"))
                                               : std::string("no result");
        res.loads = cpu_load_count(*ex, tile, weights, req, work.path, opt, arrays, res.seed, why,
                                   res.warnings);
    }
    // The count describes a correct kernel; next to a failing verdict it would only distract.
    if (res.verdict != Verdict::pass) res.loads.reset();
    if (res.loads && !res.loads->within_budget)
        res.warnings.push_back(fmt::format(
            "{:.3f} global loads per output at N={}, over the budget of {:.3f} (the textbook "
            "kernel's count; {})", res.loads->loads_per_output, count_n, res.loads->budget,
            res.loads->source));
    return finish(res);
}

}  // namespace stencil::checker
