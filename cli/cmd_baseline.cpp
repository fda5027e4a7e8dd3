// `stencil-lab baseline [--size 512] [--reps 20] [--warmup 3] [--seed 1] [--no-time] [--strict]
// [--json | --json-file PATH]`: the textbook's listings (bench/textbook/, as printed) against the
// lab's kernels at the seed table's configurations, both checked against the fp64 reference,
// then timed interleaved in one run (bench/baseline.h). GPU only.
//
// Exit: 0 when every output matches the reference; 1 when one does not; with --strict also 4
// when a lab kernel is slower than the textbook's in every timed round; 2 (from main) for a usage
// error or no GPU, with one line on stderr.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "core/error.h"
#ifdef STENCIL_LAB_HAVE_BENCH
#include "bench/baseline.h"
#endif

namespace stencil::cli {
namespace {

struct BaselineArgs {
    int size = 512;
    int reps = 20;
    int warmup = 3;
    std::uint64_t seed = 1;
    bool no_time = false;
    bool strict = false;
    bool json = false;
    std::string json_file;  // the report for people on stdout, the JSON of the same run here
};

int baseline_command(const BaselineArgs& a) {
#ifdef STENCIL_LAB_HAVE_BENCH
    bench::BaselineOptions o;
    o.size = a.size;
    o.reps = a.reps;
    o.warmup = a.warmup;
    o.seed = a.seed;
    o.time = !a.no_time;
    std::ofstream json_out;
    if (!a.json_file.empty()) {  // opened first: a bad path is said before minutes of GPU work
        json_out.open(a.json_file);
        if (!json_out) throw UserError(fmt::format("--json-file {}: cannot be written", a.json_file));
    }
    const bench::BaselineReport rep = [&] {
        try {
            return bench::run_baseline(o);  // UserError: usage, "no GPU: ..."
        } catch (...) {
            if (json_out.is_open()) {  // no empty file left behind
                json_out.close();
                std::error_code ec;
                std::filesystem::remove(a.json_file, ec);
            }
            throw;
        }
    }();
    if (json_out.is_open()) json_out << rep.to_json().dump() << "\n";
    if (a.json)
        std::cout << rep.to_json().dump() << "\n";
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
    throw UserError("no GPU: this build has no CUDA backend (configure with nvcc and -DSTENCIL_LAB_CUDA=ON), "
                    "and the baseline runs only on the GPU");
#endif
}

const Command baseline_cmd("baseline", 45, [](CLI::App& app) -> std::function<int()> {
    app.description("the textbook's listings against the lab's kernels at the same configurations: checked, "
                    "then timed interleaved (GPU only)");
    auto a = std::make_shared<BaselineArgs>();
    app.add_option("--size,-n", a->size, "grid N x N x N (fp32)")->capture_default_str();
    app.add_option("--reps", a->reps, "timed launches of each kernel, interleaved")->capture_default_str();
    app.add_option("--warmup", a->warmup, "untimed launches of each kernel first")->capture_default_str();
    app.add_option("--seed", a->seed, "input and weights are drawn from this seed")->capture_default_str();
    app.add_flag("--no-time", a->no_time, "check only, do not time");
    app.add_flag("--strict", a->strict, "exit 4 when a lab kernel is slower than the textbook listing in every timed round");
    auto* json = app.add_flag("--json", a->json, "print one JSON object (one line) instead of the report");
    app.add_option("--json-file", a->json_file, "also write the JSON of this run to a file (the report stays on stdout)")
        ->excludes(json);
    return [a] { return baseline_command(*a); };
});

}  // namespace
}  // namespace stencil::cli
