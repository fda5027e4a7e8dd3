// `stencil-lab check FILE.cu --exercise NAME`: grade one submission (or a folder with --batch).
// All the work is in checker/; this file only maps options and prints.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "checker/checker.h"
#include "checker/exercises.h"
#include "cli/command.h"
#include "core/error.h"

namespace stencil::cli {
namespace {

struct CheckArgs {
    std::string file;
    std::string exercise = "naive";
    int tile = 0;
    std::string backend = "auto";
    bool json = false;
    std::string gradescope;
    bool sanitize = false;
    std::string batch;
    std::string csv;
    double time_limit = 60;
    std::string seed;
    bool no_timing = false;
};

std::string csv_field(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    std::string o = "\"";
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

int run_check(const CheckArgs& a) {
    checker::CheckOptions opt;
    opt.exercise = a.exercise;
    opt.tile = a.tile;
    opt.backend = a.backend;
    opt.sanitize = a.sanitize;
    opt.time_limit_s = a.time_limit;
    opt.timing = !a.no_timing;
    if (!a.seed.empty()) opt.seed = std::stoull(a.seed, nullptr, 0);

    if (!a.batch.empty()) {
        namespace fs = std::filesystem;
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(a.batch))
            if (e.is_regular_file() && e.path().extension() == ".cu") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        if (files.empty()) throw UserError("--batch: no .cu files in " + a.batch);
        std::ofstream csv;
        if (!a.csv.empty()) {
            csv.open(a.csv, std::ios::trunc);
            if (!csv) throw UserError("cannot write " + a.csv);
            csv << "file,verdict,score,message,loads_per_output,load_budget,time_ratio\n";
        }
        int passed = 0;
        for (const auto& f : files) {
            // Each file's compile and run happen in their own child processes.
            const checker::CheckResult r = checker::check_submission(f.string(), opt);
            passed += r.verdict == checker::Verdict::pass;
            fmt::print("{:<40} {}\n", f.filename().string(), checker::to_string(r.verdict));
            if (csv)
                csv << csv_field(f.filename().string()) << "," << checker::to_string(r.verdict) << ","
                    << (r.verdict == checker::Verdict::pass ? 1 : 0) << ","
                    << csv_field(r.evidence.message) << ","
                    << (r.loads ? fmt::format("{:.4f}", r.loads->loads_per_output) : "") << ","
                    << (r.loads ? fmt::format("{:.4f}", r.loads->budget) : "") << ","
                    << (r.timing ? fmt::format("{:.3f}", r.timing->ratio) : "") << "\n";
        }
        fmt::print("{} of {} passed\n", passed, files.size());
        return 0;
    }

    if (a.file.empty()) throw UserError("check: give a FILE.cu (or --batch DIR)");
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
    app.description("grade a student's stencil_kernel (.cu): one verdict with evidence");
    auto a = std::make_shared<CheckArgs>();
    app.add_option("file", a->file, "the submission: one .cu file with __global__ void "
                                    "stencil_kernel(float* in, float* out, unsigned int N)");
    app.add_option("--exercise,-e", a->exercise, "which exercise: " + checker::exercise_names())
        ->capture_default_str();
    app.add_option("--tile,-t", a->tile, "T (IN_TILE_DIM); default: the exercise's (8 or 32)");
    add_backend_option(app, a->backend);
    app.add_flag("--json", a->json, "print the verdict and its evidence as JSON");
    app.add_option("--gradescope", a->gradescope, "also write a Gradescope results.json here");
    app.add_flag("--sanitize", a->sanitize, "GPU: also run compute-sanitizer memcheck/racecheck/synccheck");
    app.add_option("--batch", a->batch, "grade every .cu file of this folder");
    app.add_option("--csv", a->csv, "with --batch: write grades here");
    app.add_option("--time-limit", a->time_limit, "seconds the kernel runs may take in all")
        ->capture_default_str();
    app.add_option("--seed", a->seed, "reproduce a run (the seed a report printed)");
    app.add_flag("--no-timing", a->no_timing, "GPU: skip timing against the lab's kernel");
    return [a] { return run_check(*a); };
});

}  // namespace
}  // namespace stencil::cli
