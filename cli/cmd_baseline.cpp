// `stencil-lab baseline [--size 512] [--reps 20] [--warmup 3] [--seed 1] [--no-time] [--strict]
// [--json | --json-file PATH] [--backend auto|cuda]`: the textbook's listings (bench/textbook/, as
// printed) against the lab's kernels at the seed table's configurations, both checked against the
// fp64 reference, then timed interleaved in one run (experiments/baseline.h). GPU only.
//
// Exit: 0 when every output matches the reference; 1 when one does not; with --strict also 4
// when a lab kernel is slower than the textbook's in every timed round; 2 (from main) for a usage
// error or no GPU (and for --backend cpu), with one line on stderr. --json-file is checked before
// the run and written after it (a failed run leaves an existing file as it was).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/error.h"
#include "core/progress.h"
#ifdef STENCIL_LAB_HAVE_BASELINE
#include "bench/textbook/textbook.h"
#include "experiments/baseline.h"
#endif

namespace stencil::cli {
namespace {

// bench/textbook/textbook.h: the largest N with N^3 < 2^32.
constexpr int kTextbookMaxN = 1625;
#ifdef STENCIL_LAB_HAVE_BASELINE
static_assert(kTextbookMaxN == static_cast<int>(stencil::textbook::kMaxN));
#endif

struct BaselineArgs {
    int size = 512;
    int reps = 20;
    int warmup = 3;
    std::uint64_t seed = 1;
    std::string backend = "auto";
    bool no_time = false;
    bool strict = false;
    bool json = false;
    std::string json_file;  // the report for people on stdout, the JSON of the same run here
};

// null for unknown (a register count the runtime did not give), never -1; the 64-bit seed as a
// decimal string (`--seed` takes it back as it is).
nlohmann::json json_unknowns_as_null(nlohmann::json j) {
    if (j.contains("seed") && j["seed"].is_number_unsigned()) j["seed"] = std::to_string(j["seed"].get<std::uint64_t>());
    if (j.contains("rows"))
        for (auto& row : j["rows"])
            for (const char* side : {"textbook", "lab"})
                if (row.contains(side) && row[side].is_object() && row[side].contains("registers") &&
                    row[side]["registers"].is_number() && row[side]["registers"].get<long long>() < 0)
                    row[side]["registers"] = nullptr;
    return j;
}

int baseline_command(const BaselineArgs& a) {
    // Usage first, before the GPU is looked at: the textbook's listings are CUDA only.
    if (a.backend == "cpu")
        throw UserError("baseline runs the textbook's CUDA listings on the GPU only: --backend cpu cannot run it "
                        "(use --backend auto or cuda)");
    // The output file is checked (not created) before minutes of GPU work; it is written at the end.
    if (!a.json_file.empty()) check_output_file(a.json_file, "--json-file");
#ifdef STENCIL_LAB_HAVE_BASELINE
    experiments::BaselineOptions o;
    o.size = a.size;
    o.reps = a.reps;
    o.warmup = a.warmup;
    o.seed = a.seed;
    o.time = !a.no_time;
    std::optional<Progress> progress;
    o.progress = [&progress](int done, int total, const std::string& what) {
        if (!progress) progress.emplace("baseline", total);
        progress->update(done, what);
    };
    const experiments::BaselineReport rep = experiments::run_baseline(o);  // UserError: usage, "no GPU: ..."
    if (progress) progress->finish();
    const nlohmann::json j = json_unknowns_as_null(rep.to_json());
    if (!a.json_file.empty()) {
        std::ofstream json_out(a.json_file, std::ios::trunc);
        json_out << j.dump() << "\n";
        json_out.close();
        if (!json_out) throw UserError(fmt::format("--json-file {}: cannot be written", a.json_file));
    }
    if (a.json)
        std::cout << j.dump() << "\n";
    else
        std::cout << rep.text();
    std::cout.flush();
    if (!rep.all_checks_ok()) {
        fmt::print(stderr, "stencil-lab: baseline: an output does not match the fp64 reference (see the report)\n");
        return 1;
    }
    if (a.strict && !rep.slower().empty()) {
        fmt::print(stderr, "stencil-lab: baseline: {}\n", rep.verdict_line());
        return 4;
    }
    return 0;
#else
    (void)a;
    (void)json_unknowns_as_null;
    throw UserError("no GPU: this build has no CUDA backend (configure with nvcc and -DSTENCIL_LAB_CUDA=ON), "
                    "and the baseline runs only on the GPU");
#endif
}

const Command baseline_cmd("baseline", 45, [](CLI::App& app) -> std::function<int()> {
    app.description("the textbook's listings against the lab's kernels at the same configurations: checked, "
                    "then timed interleaved (GPU only)");
    auto a = std::make_shared<BaselineArgs>();
    // The caps are the baseline's own (experiments/baseline.cpp, options_error), said here too so that a
    // build without the CUDA backend gives the same usage errors.
    add_int_option(app, "--size,-n", a->size, 3, kTextbookMaxN, "grid N x N x N (fp32)",
                   "a boundary on each face and one interior cell need 3; the textbook's listings index with "
                   "32-bit unsigned i*N*N + j*N + k, so N^3 must stay below 2^32")
        ->capture_default_str();
    auto* reps = add_int_option(app, "--reps", a->reps, 1, kMaxReps, "timed launches of each kernel, interleaved")
                     ->capture_default_str();
    auto* warmup = add_int_option(app, "--warmup", a->warmup, 0, kMaxWarmup, "untimed launches of each kernel first")
                       ->capture_default_str();
    add_seed_option(app, a->seed, "input and weights are drawn from this seed (decimal or 0x hex)");
    add_backend_option(app, a->backend, "auto or cuda: the baseline runs on the GPU only");
    add_problem_option(app);
    auto* no_time = app.add_flag("--no-time", a->no_time, "check only, do not time");
    auto* strict = app.add_flag("--strict", a->strict,
                                "exit 4 when a lab kernel is slower than the textbook listing in every timed round");
    no_time->excludes(reps)->excludes(warmup)->excludes(strict);
    auto* json = app.add_flag("--json", a->json, "print one JSON object (one line) instead of the report");
    app.add_option("--json-file", a->json_file,
                   "also write the JSON of this run to a file (the report stays on stdout); checked before the run")
        ->excludes(json);
    return [a] { return baseline_command(*a); };
});

}  // namespace
}  // namespace stencil::cli
