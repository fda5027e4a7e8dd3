// `stencil-lab check FILE.cu --exercise NAME`: grade one submission (or a folder with --batch).
// The checking is checker/'s and the points grading/'s; this file maps options, runs a batch's
// checks in parallel (--jobs, bounded by memory), keeps the batch's state so that a rerun skips
// unchanged files, and prints.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>
#include <cstring>
#include <optional>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "checker/checker.h"
#include "checker/exercise_guess.h"
#include "checker/exercises.h"
#include "checker/report.h"
#include "cli/command.h"
#include "cli/suggest.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/sha256.h"
#include "core/version.h"
#include "grading/box.h"
#include "grading/platform_results.h"
#include "grading/rubric.h"
#include "grading/score.h"

namespace stencil::cli {
namespace {

struct CheckArgs {
    std::string file;
    std::string exercise;  // required: no default (a tiled file graded as naive says nothing useful)
    std::string tile;      // parsed here: 0, -1 or "abc" are errors, not "the default"
    std::string backend = "auto";
    bool json = false;
    std::string gradescope;
    bool sanitize = false;
    std::string batch;
    std::string csv;
    std::string time_limit;
    std::string seed;
    bool no_timing = false;
    bool explain = false;     // a backward slice of the first bad output (checker.h: CheckOptions)
    int jobs = 1;
    std::string results_dir;  // --batch: one platform results file per submission
    std::string platform = "gradescope";
    std::string rubric;
    bool fresh = false;       // --batch: ignore the folder's state, grade everything again
};

std::string csv_field(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    std::string o = "\"";
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

// Whole-string numbers only: "8x", "", "abc", "nan" and out-of-range values are errors.
int parse_tile(const std::string& s) {
    errno = 0;
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || errno == ERANGE || v <= 0 || v > 1024)
        throw UserError("--tile must be a positive whole number (IN_TILE_DIM), got '" + s + "'");
    return static_cast<int>(v);
}

double parse_time_limit(const std::string& s) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v) || v <= 0)
        throw UserError("--time-limit must be a positive number of seconds, got '" + s + "'");
    return v;
}

std::uint64_t parse_seed(const std::string& s) {
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s.c_str(), &end, 0);
    if (s.empty() || *end != '\0' || errno == ERANGE || s.find('-') != std::string::npos)
        throw UserError("--seed must be a non-negative integer (decimal or 0x hex, as a report "
                        "prints it), got '" + s + "'");
    return v;
}

// Without --exercise, a single file's exercise as the viewer guesses it (its folder, its opening
// comment, its name: checker/exercise_guess.h), said on stderr; none to be had is a usage error
// that lists the exercises.
std::string exercise_of(const CheckArgs& a) {
    if (!a.exercise.empty()) return a.exercise;
    if (a.batch.empty() && !a.file.empty()) {
        std::vector<std::string> names;
        for (const auto& e : checker::exercises()) names.push_back(e.name);
        if (const auto g = checker::guess_exercise(a.file, checker::read_header(a.file), names)) {
            fmt::print(stderr, "stencil-lab: no --exercise given: checking {} as the {} exercise ({}); --exercise "
                               "NAME picks another\n", a.file, g->name, g->reason);
            return g->name;
        }
    }
    throw UserError("check: --exercise is required" +
                    std::string(a.batch.empty() && !a.file.empty() ? " (nothing in the file's folder, opening comment or name says which)" : "") +
                    ": one of " + checker::exercise_names());
}

checker::CheckOptions options_of(const CheckArgs& a) {
    const std::string exercise = exercise_of(a);
    if (!checker::find_exercise(exercise))
        throw UserError(unknown_choice("exercise", exercise, checker::exercise_names()));
    checker::CheckOptions opt;
    opt.exercise = exercise;
    if (!a.tile.empty()) opt.tile = parse_tile(a.tile);
    opt.backend = a.backend;
    opt.sanitize = a.sanitize;
    if (!a.time_limit.empty()) opt.time_limit_s = parse_time_limit(a.time_limit);
    opt.timing = !a.no_timing;
    opt.explain = a.explain;
    if (!a.seed.empty()) opt.seed = parse_seed(a.seed);
    return opt;
}

// ---- [batch] ------------------------------------------------------------------------------------

std::string csv_row(const std::string& file, const std::string& verdict, const std::string& message,
                    const checker::CheckResult* r, std::uint64_t seed, const std::string& sha256) {
    const bool pass = verdict == "pass";
    return csv_field(file) + "," + verdict + "," + (pass ? "1" : "0") + "," + csv_field(message) + "," +
           (r && r->loads ? fmt::format("{:.4f}", r->loads->loads_per_output) : "") + "," +
           (r && r->loads ? fmt::format("{:.4f}", r->loads->budget) : "") + "," +
           (r && r->timing ? fmt::format("{:.3f}", r->timing->ratio) : "") + "," + fmt::format("{:#x}", seed) + "," +
           sha256 + "," + (r ? csv_field(r->exercise) + "," + r->exercise_hash : ",") + "," + stencil_lab_version() + "\n";
}

// A graded file's line after its verdict: its first finding's sizes, and how many more findings
// there are (the file's JSON, CSV row and results file hold them all, each once).
std::string batch_summary(const checker::CheckResult& r) {
    if (r.findings.empty()) return "";
    const std::string where = checker::finding_sizes(r, r.findings.front());
    std::string s = where.empty() ? "" : " at " + where;
    if (r.findings.size() > 1)
        s += fmt::format(" (and {} more finding{})", r.findings.size() - 1, r.findings.size() > 2 ? "s" : "");
    return s;
}

// One entry of the batch folder: a .cu file to grade, or why it cannot be graded.
struct BatchEntry {
    std::filesystem::path path;
    std::string problem;  // "" when it is graded
};

// Every entry of the folder but hidden ones (and the CSV being written), sorted: what cannot be
// graded (a folder, a FIFO, a dangling link, another extension, `.CU` included, an unreadable
// file) is listed with the reason, never dropped silently.
std::vector<BatchEntry> list_batch(const CheckArgs& a) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(a.batch, ec)) throw UserError("--batch: " + a.batch + " is not a folder");
    std::vector<BatchEntry> entries;
    fs::directory_iterator it(a.batch, ec);
    if (ec) throw UserError("--batch: cannot list " + a.batch + ": " + ec.message());
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) throw UserError("--batch: cannot list " + a.batch + ": " + ec.message());
        const fs::path p = it->path();
        if (p.filename().string().rfind('.', 0) == 0) continue;
        if (!a.csv.empty() && fs::equivalent(p, a.csv, ec)) continue;
        if (!a.results_dir.empty() && fs::equivalent(p, a.results_dir, ec)) continue;
        BatchEntry e{p, ""};
        const fs::file_status st = fs::status(p, ec);  // follows links
        if (p.extension() != ".cu")
            e.problem = fmt::format("not a .cu file (the extension is '{}'; only .cu is graded)", p.extension().string());
        else if (fs::is_symlink(fs::symlink_status(p, ec)) && !fs::exists(st))
            e.problem = "a dangling symbolic link";
        else if (fs::is_directory(st))
            e.problem = "a folder, not a .cu file";
        else if (!fs::is_regular_file(st))
            e.problem = "not a regular file (a FIFO, device or socket)";
        else if (access(p.c_str(), R_OK) != 0)
            e.problem = std::string("cannot be read: ") + std::strerror(errno);
        entries.push_back(std::move(e));
    }
    std::sort(entries.begin(), entries.end(), [](const BatchEntry& x, const BatchEntry& y) { return x.path < y.path; });
    if (entries.empty()) throw UserError("--batch: " + a.batch + " is empty");
    return entries;
}

// A graded entry as the batch keeps it: its row, its JSON and (with --results-dir) its platform
// results file, and what makes it the same next time (content hash, seed, options).
struct Graded {
    std::string name, sha256, options;
    std::uint64_t seed = 0;
    bool passed = false, error = false;
    std::string line, row;
    nlohmann::json json;
};

// The batch's state (`.stencil-lab-batch.json` in the batch folder): the batch's seed and every
// graded entry, rewritten whole after each one, so that a batch stopped half-way resumes and a
// rerun skips every file whose content, seed and options are unchanged.
class BatchState {
public:
    BatchState(std::filesystem::path path, bool load) : path_(std::move(path)) {
        std::ifstream in(path_);
        if (!load || !in) return;
        const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
        if (j.is_discarded() || j.value("version", 0) != 1) return;  // another format: start afresh
        if (j.contains("seed") && j["seed"].is_string()) std::sscanf(j["seed"].get<std::string>().c_str(), "%" SCNx64, &seed_);
        has_seed_ = j.contains("seed");
        if (j.contains("entries") && j["entries"].is_object()) entries_ = j["entries"];
    }
    bool has_seed() const { return has_seed_; }
    std::uint64_t seed() const { return seed_; }
    void set_seed(std::uint64_t s) { seed_ = s, has_seed_ = true; }
    std::optional<Graded> find(const std::string& name, const std::string& sha256, std::uint64_t seed,
                               const std::string& options) const {
        std::lock_guard<std::mutex> lock(m_);
        if (!entries_.contains(name)) return std::nullopt;
        const auto& e = entries_[name];
        if (e.value("sha256", "") != sha256 || e.value("seed", "") != fmt::format("{:#x}", seed) ||
            e.value("options", "") != options)
            return std::nullopt;
        Graded g{name, sha256, options, seed, e.value("passed", false), e.value("error", false),
                 e.value("line", ""), e.value("row", ""), e.value("json", nlohmann::json())};
        return g;
    }
    // Written at most once a second (a batch of a thousand would otherwise rewrite the file a thousand
    // times) and at the end: a batch stopped half-way loses at most a second of results.
    void put(const Graded& g) {
        std::lock_guard<std::mutex> lock(m_);
        entries_[g.name] = {{"sha256", g.sha256}, {"seed", fmt::format("{:#x}", g.seed)}, {"options", g.options},
                            {"passed", g.passed}, {"error", g.error}, {"line", g.line}, {"row", g.row}, {"json", g.json}};
        const auto now = std::chrono::steady_clock::now();
        if (now - saved_ >= std::chrono::seconds(1)) {
            save();
            saved_ = now;
        }
    }
    void flush() {
        std::lock_guard<std::mutex> lock(m_);
        save();
    }
    void save() const {
        const nlohmann::json j = {{"version", 1}, {"seed", fmt::format("{:#x}", seed_)}, {"entries", entries_}};
        const std::string tmp = path_.string() + ".tmp";
        {
            std::ofstream f(tmp, std::ios::trunc);
            f << j.dump() << "\n";
            if (!f) return;  // a folder we cannot write: no resume, the batch itself goes on
        }
        std::error_code ec;
        std::filesystem::rename(tmp, path_, ec);
    }

private:
    std::filesystem::path path_;
    std::uint64_t seed_ = 0;
    bool has_seed_ = false;
    nlohmann::json entries_ = nlohmann::json::object();
    mutable std::mutex m_;
    std::chrono::steady_clock::time_point saved_{};
};

// Each file's seed follows from the batch's seed and the file's content: the same file in the same
// batch gets the same inputs (a regrade reproduces it), a changed file gets new ones.
std::uint64_t file_seed(std::uint64_t batch_seed, const std::string& sha256) {
    return std::stoull(sha256_hex(fmt::format("{:#x}:{}", batch_seed, sha256)).substr(0, 16), nullptr, 16);
}

// How many checks run at once: --jobs, within the memory a check needs (about 768 MB, parent and
// runner together, docs/results/box-fit.md) against the memory available.
int bounded_jobs(int jobs, std::string& note) {
    const long long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
    const long long available = pages > 0 && page > 0 ? pages * page : 0;
    const long long per_check = grading::kCheckNeedsBytes;
    if (available <= 0) return jobs;
    const int fit = int(std::max<long long>(1, available / per_check));
    if (fit < jobs) note = fmt::format("--jobs {}: {} at once fit the {} MB available ({} MB a check)", jobs, fit,
                                       available >> 20, per_check >> 20);
    return std::min(jobs, fit);
}

// Every entry of the folder, one row each: a verdict, or `error` and the reason. Exit 0 only
// when all pass.
// Long because it is the batch's one pass: the grading options, the state kept between runs, the
// workers and the rows they print share its locals.
int run_batch(const CheckArgs& a, checker::CheckOptions opt) {
    namespace fs = std::filesystem;
    const std::vector<BatchEntry> entries = list_batch(a);
    std::optional<grading::Platform> platform;
    std::optional<grading::Rubric> rubric;
    if (!a.results_dir.empty()) {
        platform = grading::parse_platform(a.platform);
        if (!platform) throw UserError(fmt::format("--platform: unknown platform '{}'; one of: {}", a.platform,
                                                   grading::platform_names()));
        rubric = a.rubric.empty() ? grading::default_rubric(opt.exercise) : grading::load_rubric(a.rubric, opt.exercise);
        std::error_code ec;
        fs::create_directories(a.results_dir, ec);
        if (!fs::is_directory(a.results_dir, ec) || ::access(a.results_dir.c_str(), W_OK) != 0)
            throw UserError("--results-dir " + a.results_dir + ": cannot be written");
    }
    BatchState state(fs::path(a.batch) / ".stencil-lab-batch.json", !a.fresh);
    if (opt.seed) state.set_seed(*opt.seed);
    if (!state.has_seed()) {
        std::random_device rd;
        state.set_seed((std::uint64_t(rd()) << 32) ^ rd());
    }
    const std::uint64_t batch_seed = state.seed();
    const std::string options = fmt::format("{} T={} {} limit={}{}", opt.exercise, opt.tile, opt.backend,
                                            opt.time_limit_s, opt.explain ? " explain" : "");
    std::string note;
    const int jobs = bounded_jobs(a.jobs, note);
    if (!note.empty()) fmt::print(stderr, "stencil-lab: {}\n", note);
    // Each check's CPU engine gets its share of the cores; the probe runs once, before the threads.
    opt.workers = std::max(1, int(std::thread::hardware_concurrency()) / jobs);
    if (opt.backend != "cpu") checker::cuda_unavailable_for_checker();

    std::ofstream csv;
    if (!a.csv.empty()) {
        csv.open(a.csv, std::ios::trunc);
        if (!csv) throw UserError("cannot write " + a.csv);
        csv << "file,verdict,score,message,loads_per_output,load_budget,time_ratio,seed,sha256,exercise,exercise_hash,"
               "stencil_lab_version\n";
    }
    std::vector<Graded> done(entries.size());
    std::mutex out_m;
    std::atomic<size_t> next{0}, finished{0};
    std::optional<Progress> progress;
    if (entries.size() > 1 && !a.json) progress.emplace("check --batch", static_cast<long long>(entries.size()));
    int reused = 0;
    auto grade_one = [&](size_t i) {
        const BatchEntry& e = entries[i];
        Graded g;
        g.name = e.path.filename().string();
        g.options = options;
        if (e.problem.empty()) g.sha256 = file_sha256_hex(e.path);
        g.seed = e.problem.empty() ? file_seed(batch_seed, g.sha256) : 0;
        if (auto old = e.problem.empty() ? state.find(g.name, g.sha256, g.seed, options) : std::nullopt) {
            std::lock_guard<std::mutex> lock(out_m);
            ++reused;
            return *old;
        }
        try {
            if (!e.problem.empty()) throw UserError(e.problem);
            checker::CheckOptions o = opt;
            o.seed = g.seed;
            const checker::CheckResult r = checker::check_submission(e.path.string(), o);
            g.passed = r.verdict == checker::Verdict::pass;
            g.line = fmt::format("{:<40} {}{}", g.name, checker::to_string(r.verdict), batch_summary(r));
            g.row = csv_row(g.name, checker::to_string(r.verdict), checker::findings_line(r), &r, g.seed, g.sha256);
            g.json = checker::to_json(r);
            if (platform)
                grading::write_results_file(fs::path(a.results_dir) / (e.path.stem().string() + ".json"),
                                            grading::results_for(*platform, grading::score_check(*rubric, r), g.sha256));
        } catch (const std::exception& ex) {
            g.error = true;
            g.line = fmt::format("{:<40} error: {}", g.name, ex.what());
            g.row = csv_row(g.name, "error", ex.what(), nullptr, g.seed, g.sha256);
            // what would have graded, as a check's JSON and results file record it
            g.json = {{"file", e.path.string()}, {"verdict", "error"}, {"message", ex.what()},
                      {"submission_sha256", g.sha256}, {"seed", std::to_string(g.seed)},
                      {"stencil_lab_version", stencil_lab_version()}};
            if (platform) {
                grading::Score failed = grading::score_failure(*rubric, ex.what(), false);
                failed.record.seed = g.seed;
                grading::write_results_file(fs::path(a.results_dir) / (e.path.stem().string() + ".json"),
                                            grading::results_for(*platform, failed, g.sha256));
            }
        }
        if (e.problem.empty()) state.put(g);
        return g;
    };
    auto worker = [&] {
        for (size_t i; (i = next++) < entries.size();) {
            done[i] = grade_one(i);
            std::lock_guard<std::mutex> lock(out_m);
            const size_t n = ++finished;
            if (progress) progress->update(static_cast<long long>(n), done[i].name);
            if (!a.json) {
                fmt::print("{}\n", done[i].line);
                std::fflush(stdout);
            }
            if (csv) csv << done[i].row << std::flush;
        }
    };
    std::vector<std::thread> threads;
    for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
    worker();
    for (auto& t : threads) t.join();
    state.flush();
    if (progress) progress->finish();
    int passed = 0, errors = 0;
    for (const Graded& g : done) passed += g.passed, errors += g.error;
    if (a.json) {
        nlohmann::json results = nlohmann::json::array();
        for (const Graded& g : done) results.push_back(g.json);
        std::cout << nlohmann::json{{"results", results}, {"passed", passed}, {"total", done.size()},
                                    {"errors", errors}, {"seed", fmt::format("{:#x}", batch_seed)},
                                    {"reused", reused}}.dump(2) << "\n";
    } else {
        fmt::print("{} of {} passed{}{}; batch seed {:#x}\n", passed, entries.size(),
                   errors ? fmt::format("; {} could not be graded (verdict error)", errors) : "",
                   reused ? fmt::format("; {} unchanged since the last run (not checked again)", reused) : "",
                   batch_seed);
    }
    return passed == static_cast<int>(entries.size()) ? 0 : 1;
}

int run_check(const CheckArgs& a) {
    if (!a.batch.empty() && !a.file.empty())
        throw UserError("check: give either a FILE.cu or --batch DIR, not both");
    if (a.batch.empty() && !a.csv.empty()) throw UserError("check: --csv goes with --batch");
    if (!a.batch.empty() && !a.gradescope.empty())
        throw UserError("check: --gradescope writes one file's results; with --batch use --results-dir DIR");
    if (a.batch.empty() && (!a.results_dir.empty() || a.jobs != 1 || a.fresh))
        throw UserError("check: --results-dir, --jobs and --fresh go with --batch");
    if (!a.rubric.empty() && a.results_dir.empty() && a.gradescope.empty())
        throw UserError("check: --rubric goes with --gradescope or --results-dir");
    if (a.batch.empty() && a.file.empty()) throw UserError("check: give a FILE.cu (or --batch DIR)");
    // Where the results go is checked before anything is graded: a bad path costs no grading time.
    if (!a.gradescope.empty()) check_output_file(a.gradescope, "--gradescope");
    if (!a.rubric.empty()) grading::load_rubric(a.rubric, a.exercise);  // refused before any grading
    if (!a.csv.empty()) check_output_file(a.csv, "--csv");
    const checker::CheckOptions opt = options_of(a);
    if (!a.batch.empty()) return run_batch(a, opt);

    const checker::CheckResult r = checker::check_submission(a.file, opt);
    if (a.json)
        std::cout << checker::to_json(r).dump(2) << "\n";
    else
        std::cout << checker::to_text(r);
    if (!a.gradescope.empty()) {
        // Points by the rubric (the exercise's default without --rubric): a kernel right on some
        // sizes gets those sizes' points.
        const grading::Rubric rubric =
            a.rubric.empty() ? grading::default_rubric(opt.exercise) : grading::load_rubric(a.rubric, opt.exercise);
        grading::write_results_file(a.gradescope, grading::to_gradescope(grading::score_check(rubric, r), checker::to_json(r)));
    }
    return r.verdict == checker::Verdict::pass ? 0 : 1;
}

const Command check_command("check", 60, [](CLI::App& app) -> std::function<int()> {
    app.description("grade a student's kernel (.cu) for an exercise: one verdict with evidence");
    auto a = std::make_shared<CheckArgs>();
    app.add_option("file", a->file, "the submission: one .cu file with the exercise's kernel, e.g. __global__ "
                                    "void stencil_kernel(float* in, float* out, unsigned int N) (exercises/README.md)");
    app.add_option("--exercise,-e", a->exercise, "which exercise: " + checker::exercise_names() +
                                                  " (default: what the file's folder, opening comment or name says)");
    app.add_option("--tile,-t", a->tile, "T (IN_TILE_DIM); default: the exercise's (8 or 32)");
    add_backend_option(app, a->backend);
    add_problem_option(app);
    app.add_flag("--json", a->json, "print the verdict and its evidence as JSON (--batch: one document for all)");
    app.add_option("--gradescope", a->gradescope, "also write a Gradescope results.json here");
    app.add_flag("--sanitize", a->sanitize, "GPU: also run compute-sanitizer memcheck/racecheck/synccheck");
    app.add_option("--batch", a->batch, "grade every .cu file of this folder (exit 0 only if all pass)");
    app.add_option("--csv", a->csv, "with --batch: write grades here (one row per file, with its seed)");
    add_int_option(app, "--jobs,-j", a->jobs, 1, 64, "with --batch: checks at once (bounded by the memory available)");
    app.add_option("--results-dir", a->results_dir, "with --batch: one platform results file per submission here");
    app.add_option("--platform", a->platform, "with --results-dir: gradescope (default), prairielearn or classroom");
    app.add_option("--rubric", a->rubric, "with --gradescope or --results-dir: the rubric (default: the exercise's)");
    app.add_flag("--fresh", a->fresh, "with --batch: grade every file again (ignore the folder's .stencil-lab-batch.json)");
    app.add_option("--time-limit", a->time_limit, "seconds the kernel runs may take in all (default 60)");
    app.add_option("--seed", a->seed, "reproduce a run (the seed a report printed)");
    app.add_flag("--no-timing", a->no_timing, "GPU: skip timing against the lab's kernel");
    app.add_flag("--explain", a->explain,
                 "CPU: explain the first bad output back to the statement that made it (a backward slice of the "
                 "checked run's trace)");
    return [a] { return run_check(*a); };
});

}  // namespace
}  // namespace stencil::cli
