// Verdict names and the two output formats: text and JSON (a platform's results file, with points,
// is grading/platform_results.h's).
#include <fmt/format.h>

#include <cmath>

#include "checker/checker.h"
#include "checker/exercises.h"

namespace stencil::checker {

using json = nlohmann::json;

const char* to_string(Verdict v) {
    switch (v) {
        case Verdict::internal_error: return "internal_error";
        case Verdict::pass: return "pass";
        case Verdict::compile_error: return "compile_error";
        case Verdict::wrong_result: return "wrong_result";
        case Verdict::unwritten: return "unwritten";
        case Verdict::boundary_modified: return "boundary_modified";
        case Verdict::input_modified: return "input_modified";
        case Verdict::out_of_bounds_write: return "out_of_bounds_write";
        case Verdict::race: return "race";
        case Verdict::timeout: return "timeout";
        case Verdict::crash: return "crash";
    }
    return "?";
}

std::optional<Verdict> parse_verdict(std::string_view s) {
    for (Verdict v : {Verdict::internal_error, Verdict::pass, Verdict::compile_error, Verdict::wrong_result, Verdict::unwritten,
                      Verdict::boundary_modified, Verdict::input_modified,
                      Verdict::out_of_bounds_write, Verdict::race, Verdict::timeout, Verdict::crash})
        if (s == to_string(v)) return v;
    return std::nullopt;
}

const char* to_string(CellClass c) {
    switch (c) {
        case CellClass::boundary: return "boundary";
        case CellClass::next_to_boundary: return "next-to-boundary";
        case CellClass::tile_edge: return "tile-edge";
        case CellClass::halo: return "halo";
        case CellClass::tile_interior: return "tile-interior";
    }
    return "?";
}

json to_json(const CheckResult& r) {
    json j;
    j["verdict"] = to_string(r.verdict);
    j["file"] = r.file;
    j["exercise"] = r.exercise;
    j["tile"] = r.tile;
    j["backend"] = r.backend;
    j["seed"] = std::to_string(r.seed);  // a string: JavaScript readers would round a 64-bit number
    j["sizes"] = r.sizes;
    j["drawn_sizes"] = r.drawn_sizes;
    j["seconds"] = r.seconds;
    const Evidence& e = r.evidence;
    json ev;
    ev["message"] = e.message;
    if (e.n) ev["n"] = e.n;
    if (!e.run.empty()) ev["run"] = e.run;
    if (e.bad_cells) ev["bad_cells"] = e.bad_cells;
    if (e.first_bad) {
        const auto& b = *e.first_bad;
        // JSON has no NaN/Inf: those are written as strings.
        auto num = [](double v) -> json {
            if (std::isnan(v)) return "NaN";
            if (std::isinf(v)) return v > 0 ? "Inf" : "-Inf";
            return v;
        };
        ev["first_bad"] = {{"x", b.x}, {"y", b.y}, {"z", b.z}, {"expected", num(b.expected)},
                           {"got", num(b.got)}, {"bound", b.bound}, {"cell", to_string(b.cell)},
                           {"what", b.what}};
    }
    if (!e.slice_map.empty()) ev["slice_map"] = e.slice_map;
    if (e.race) {
        const auto& x = *e.race;
        ev["race"] = {{"block", {x.block[0], x.block[1], x.block[2]}},
                      {"barrier_interval", x.interval},
                      {"thread_a", {x.thread_a[0], x.thread_a[1], x.thread_a[2]}},
                      {"thread_b", {x.thread_b[0], x.thread_b[1], x.thread_b[2]}},
                      {"message", x.message}};
    }
    if (e.line)
        ev["source"] = {{"file", e.line->file}, {"line", e.line->line}, {"instruction", e.line->instruction}};
    auto source = [](const SourceRef& x) {
        json o = {{"source_file", x.file}, {"source_line", x.line}, {"instruction", x.instruction}, {"role", x.role}};
        if (x.block) o["block"] = *x.block;
        if (x.thread) o["thread"] = *x.thread;
        return o;
    };
    ev["sources"] = json::array();
    for (const auto& x : e.sources) ev["sources"].push_back(source(x));
    if (!e.explain.empty()) {
        ev["explain"] = json::array();
        for (const auto& x : e.explain) ev["explain"].push_back(x.at ? json{{"text", x.text}, {"at", source(*x.at)}}
                                                                     : json{{"text", x.text}});
    }
    if (!e.compiler_output.empty()) ev["compiler_output"] = e.compiler_output;
    if (!e.child_output.empty()) ev["child_output"] = e.child_output;
    j["evidence"] = ev;
    j["tests"] = json::array();
    for (const auto& t : r.tests)
        j["tests"].push_back({{"name", t.name}, {"size", t.size}, {"passed", t.passed}, {"output", t.output}});
    j["warnings"] = r.warnings;
    if (r.timing)
        j["timing"] = {{"n", r.timing->n}, {"reps", r.timing->reps}, {"student_ms", r.timing->student_ms},
                       {"reference_ms", r.timing->reference_ms}, {"ratio", r.timing->ratio},
                       {"reference", r.timing->reference}};
    if (r.loads) {
        j["loads"] = {{"n", r.loads->n}, {"loads_per_output", r.loads->loads_per_output},
                      {"budget", r.loads->budget}, {"within_budget", r.loads->within_budget},
                      {"source", r.loads->source}};
        if (r.loads->lab_loads_per_output) j["loads"]["lab_loads_per_output"] = *r.loads->lab_loads_per_output;
    }
    return j;
}

std::string to_text(const CheckResult& r) {
    // What a size is called: star3d's N (N^3 cells) and T; cardiac2d's n (n x n interior cells);
    // the derivative's my (MX x my x mz). Their blocks are the lab's, so no T.
    const Exercise* ex = find_exercise(r.exercise);
    const Problem problem = ex ? ex->problem : Problem::star3d;
    const char* size = problem == Problem::cardiac2d ? "n" : problem == Problem::derivative ? "my" : "N";
    const std::string tile = problem == Problem::star3d ? fmt::format("T={}, ", r.tile) : "";
    std::string s = fmt::format("{}: {} ({} exercise, {}{} backend, {:.1f} s)\n", r.file,
                                to_string(r.verdict), r.exercise, tile, r.backend, r.seconds);
    const Evidence& e = r.evidence;
    if (!e.message.empty()) s += "  " + e.message + "\n";
    if (!e.compiler_output.empty() && e.compiler_output != e.message + "\n") s += e.compiler_output;
    if (e.race) {
        const auto& x = *e.race;
        s += fmt::format("  race: block ({}, {}, {}), barrier interval {} (0 = before the first "
                         "__syncthreads()), threads ({}, {}, {}) and ({}, {}, {})\n",
                         x.block[0], x.block[1], x.block[2], x.interval, x.thread_a[0], x.thread_a[1],
                         x.thread_a[2], x.thread_b[0], x.thread_b[1], x.thread_b[2]);
    }
    for (const auto& x : e.sources)
        s += fmt::format("  at {}:{} ({}{}{})\n", x.file, x.line, x.role,
                         x.thread ? fmt::format(", thread ({}, {}, {})", (*x.thread)[0], (*x.thread)[1], (*x.thread)[2]) : "",
                         x.block ? fmt::format(" of block ({}, {}, {})", (*x.block)[0], (*x.block)[1], (*x.block)[2]) : "");
    if (!e.explain.empty()) s += "  explain:\n";
    for (const auto& x : e.explain) s += "    " + x.text + "\n";
    if (!e.slice_map.empty()) s += e.slice_map;
    if (!e.child_output.empty()) s += "  output of the run:\n" + e.child_output + "\n";
    for (const auto& t : r.tests)
        s += fmt::format("  [{}] {}{}\n", t.passed ? "ok" : "FAIL", t.name,
                         t.passed ? "" : ": " + t.output);
    if (r.loads) {
        s += fmt::format("  global loads per output: {:.3f} at {}={} (budget {:.3f}: {}; {})\n",
                         r.loads->loads_per_output, size, r.loads->n, r.loads->budget,
                         r.loads->within_budget ? "within" : "over", r.loads->source);
        if (r.loads->lab_loads_per_output)
            s += fmt::format("  the lab's kernel, same counter and N: {:.3f} per output\n",
                             *r.loads->lab_loads_per_output);
    }
    if (r.timing)
        s += fmt::format("  time at {}={}: {:.3f} ms vs the lab's {:.3f} ms (ratio {:.2f}; median of "
                         "{}, interleaved; {})\n",
                         size, r.timing->n, r.timing->student_ms, r.timing->reference_ms, r.timing->ratio,
                         r.timing->reps, r.timing->reference);
    for (const auto& w : r.warnings) s += "  warning: " + w + "\n";
    if (!r.sizes.empty()) {
        std::string sizes;
        for (int n : r.sizes) sizes += (sizes.empty() ? "" : ", ") + std::to_string(n);
        s += fmt::format("  sizes tested: {} = {}\n", size, sizes);
    }
    s += fmt::format("  seed {:#x}\n", r.seed);
    return s;
}

}  // namespace stencil::checker
