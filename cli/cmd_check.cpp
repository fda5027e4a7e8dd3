// `stencil-lab check FILE.cu --exercise NAME`: grade one submission (or a folder with --batch).
// All the work is in checker/; this file only maps options and prints.
#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "checker/checker.h"
#include "checker/exercises.h"
#include "cli/command.h"
#include "cli/suggest.h"
#include "core/error.h"
#include "core/progress.h"

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

checker::CheckOptions options_of(const CheckArgs& a) {
    if (a.exercise.empty())
        throw UserError("check: --exercise is required (one of: " + checker::exercise_names() + ")");
    if (!checker::find_exercise(a.exercise))
        throw UserError(unknown_choice("exercise", a.exercise, checker::exercise_names()));
    checker::CheckOptions opt;
    opt.exercise = a.exercise;
    if (!a.tile.empty()) opt.tile = parse_tile(a.tile);
    opt.backend = a.backend;
    opt.sanitize = a.sanitize;
    if (!a.time_limit.empty()) opt.time_limit_s = parse_time_limit(a.time_limit);
    opt.timing = !a.no_timing;
    if (!a.seed.empty()) opt.seed = parse_seed(a.seed);
    return opt;
}

std::string csv_row(const std::string& file, const std::string& verdict, const std::string& message,
                    const checker::CheckResult* r) {
    const bool pass = verdict == "pass";
    return csv_field(file) + "," + verdict + "," + (pass ? "1" : "0") + "," + csv_field(message) + "," +
           (r && r->loads ? fmt::format("{:.4f}", r->loads->loads_per_output) : "") + "," +
           (r && r->loads ? fmt::format("{:.4f}", r->loads->budget) : "") + "," +
           (r && r->timing ? fmt::format("{:.3f}", r->timing->ratio) : "") + "\n";
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

// Every entry of the folder, one row each: a verdict, or `error` and the reason. Exit 0 only
// when all pass.
int run_batch(const CheckArgs& a, const checker::CheckOptions& opt) {
    const std::vector<BatchEntry> entries = list_batch(a);
    std::ofstream csv;
    if (!a.csv.empty()) {
        csv.open(a.csv, std::ios::trunc);
        if (!csv) throw UserError("cannot write " + a.csv);
        csv << "file,verdict,score,message,loads_per_output,load_budget,time_ratio\n";
    }
    int passed = 0, errors = 0;
    std::optional<Progress> progress;
    if (entries.size() > 1) progress.emplace("check --batch", static_cast<long long>(entries.size()));
    for (size_t i = 0; i < entries.size(); ++i) {
        const std::string name = entries[i].path.filename().string();
        if (progress) progress->update(static_cast<long long>(i), name);
        std::string row, line;
        try {
            if (!entries[i].problem.empty()) throw UserError(entries[i].problem);
            // Each file's compile and run happen in their own child processes.
            const checker::CheckResult r = checker::check_submission(entries[i].path.string(), opt);
            passed += r.verdict == checker::Verdict::pass;
            line = fmt::format("{:<40} {}", name, checker::to_string(r.verdict));
            row = csv_row(name, checker::to_string(r.verdict), r.evidence.message, &r);
        } catch (const std::exception& e) {
            ++errors;
            line = fmt::format("{:<40} error: {}", name, e.what());
            row = csv_row(name, "error", e.what(), nullptr);
        }
        if (progress) progress->update(static_cast<long long>(i + 1), name);
        fmt::print("{}\n", line);
        std::fflush(stdout);
        if (csv) csv << row << std::flush;
    }
    if (progress) progress->finish();
    fmt::print("{} of {} passed{}\n", passed, entries.size(),
               errors ? fmt::format("; {} could not be graded (verdict error)", errors) : "");
    return passed == static_cast<int>(entries.size()) ? 0 : 1;
}

int run_check(const CheckArgs& a) {
    if (!a.batch.empty() && !a.file.empty())
        throw UserError("check: give either a FILE.cu or --batch DIR, not both");
    if (a.batch.empty() && !a.csv.empty()) throw UserError("check: --csv goes with --batch");
    if (!a.batch.empty() && !a.gradescope.empty())
        throw UserError("check: --gradescope writes one file's results; not with --batch (use --csv)");
    if (a.batch.empty() && a.file.empty()) throw UserError("check: give a FILE.cu (or --batch DIR)");
    // Where the results go is checked before anything is graded: a bad path costs no grading time.
    if (!a.gradescope.empty()) check_output_file(a.gradescope, "--gradescope");
    if (!a.csv.empty()) check_output_file(a.csv, "--csv");
    const checker::CheckOptions opt = options_of(a);
    if (!a.batch.empty()) return run_batch(a, opt);

    const checker::CheckResult r = checker::check_submission(a.file, opt);
    if (a.json)
        std::cout << checker::to_json(r).dump(2) << "\n";
    else
        std::cout << checker::to_text(r);
    if (!a.gradescope.empty()) {
        std::ofstream g(a.gradescope, std::ios::trunc);
        g << checker::to_gradescope(r).dump(2) << "\n";
        if (!g) throw UserError("cannot write " + a.gradescope);
    }
    return r.verdict == checker::Verdict::pass ? 0 : 1;
}

const Command check_command("check", 60, [](CLI::App& app) -> std::function<int()> {
    app.description("grade a student's kernel (.cu) for an exercise: one verdict with evidence");
    auto a = std::make_shared<CheckArgs>();
    app.add_option("file", a->file, "the submission: one .cu file with the exercise's kernel, e.g. __global__ "
                                    "void stencil_kernel(float* in, float* out, unsigned int N) (exercises/README.md)");
    app.add_option("--exercise,-e", a->exercise, "which exercise (required): " + checker::exercise_names());
    app.add_option("--tile,-t", a->tile, "T (IN_TILE_DIM); default: the exercise's (8 or 32)");
    add_backend_option(app, a->backend);
    add_problem_option(app);
    app.add_flag("--json", a->json, "print the verdict and its evidence as JSON");
    app.add_option("--gradescope", a->gradescope, "also write a Gradescope results.json here");
    app.add_flag("--sanitize", a->sanitize, "GPU: also run compute-sanitizer memcheck/racecheck/synccheck");
    app.add_option("--batch", a->batch, "grade every .cu file of this folder (exit 0 only if all pass)");
    app.add_option("--csv", a->csv, "with --batch: write grades here");
    app.add_option("--time-limit", a->time_limit, "seconds the kernel runs may take in all (default 60)");
    app.add_option("--seed", a->seed, "reproduce a run (the seed a report printed)");
    app.add_flag("--no-timing", a->no_timing, "GPU: skip timing against the lab's kernel");
    return [a] { return run_check(*a); };
});

}  // namespace
}  // namespace stencil::cli
