// Verdict names and the two output formats: text and JSON (a platform's results file, with points,
// is grading/platform_results.h's). Both print each distinct finding once, with the sizes it
// appeared at (findings.h), and the smallest failing case's evidence.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "checker/causes.h"
#include "checker/checker.h"
#include "checker/exercises.h"
#include "checker/findings.h"
#include "checker/hints.h"
#include "checker/report.h"
#include "core/sha256.h"
#include "core/version.h"

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

namespace {

// JSON has no NaN/Inf: those are written as strings.
json number(double v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "Inf" : "-Inf";
    return v;
}

json to_json(const SourceRef& s) {
    json j = {{"source_file", s.file}, {"source_line", s.line}, {"instruction", s.instruction}, {"role", s.role}};
    j["block"] = s.block ? json(*s.block) : json(nullptr);
    j["thread"] = s.thread ? json(*s.thread) : json(nullptr);
    return j;
}

json sources_json(const std::vector<SourceRef>& sources) {
    json a = json::array();
    for (const SourceRef& s : sources) a.push_back(to_json(s));
    return a;
}

std::string triple(const std::array<int, 3>& a) { return fmt::format("({}, {}, {})", a[0], a[1], a[2]); }

// One step of the --explain chain without an arrow of its own (the chain draws them), with its
// statement unless the text names a line already.
std::string step_text(const ExplainStep& st) {
    std::string text = st.text.rfind("<- ", 0) == 0 ? st.text.substr(3) : st.text;
    if (!st.at || st.at->line <= 0) return text;
    const std::string at = fmt::format("{}:{}", st.at->file, st.at->line);
    if (text.find(at) != std::string::npos || text.find("line") != std::string::npos) return text;
    return text + " (" + at + ")";
}

}  // namespace

std::string source_text(const SourceRef& s) {
    std::string what = s.role;
    if (!s.instruction.empty()) what += (what.empty() ? "" : ", ") + s.instruction;
    std::string t = fmt::format("at {}:{}{}", s.file, s.line, what.empty() ? "" : " (" + what + ")");
    if (s.thread) t += " by thread " + triple(*s.thread);
    if (s.block) t += (s.thread ? " of block " : " in block ") + triple(*s.block);
    return t;
}

std::string hint_line(const CheckResult& r, const Finding& f) {
    if (f.hint <= 0) return "";
    return fmt::format("hint {} of {}{}", f.hint, readme_name(r.exercise), f.hint_text.empty() ? "" : ": " + f.hint_text);
}

std::string line_unknown_note(const CheckResult& r, const Finding& f) {
    if (r.backend != "cuda" || !f.sources.empty()) return "";
    if (f.verdict == Verdict::pass || f.verdict == Verdict::compile_error || f.verdict == Verdict::internal_error)
        return "";
    return "the GPU path cannot name the line of this finding (the GPU reports only what the outputs show); "
           "--backend cpu runs the same PTX on the CPU engine, which names it";
}

std::string submission_sha256(const CheckResult& r) {
    std::error_code ec;
    if (r.file.empty() || !std::filesystem::is_regular_file(r.file, ec)) return "";
    return file_sha256_hex(r.file);
}

// Long because it is the report's JSON: every field written in one place, a line or two each.
json to_json(const CheckResult& r) {
    json j;
    j["verdict"] = to_string(r.verdict);
    j["file"] = r.file;
    j["exercise"] = r.exercise;
    j["exercise_hash"] = r.exercise_hash;  // the exercise's content (checker/exercises.h)
    j["stencil_lab_version"] = stencil_lab_version();
    j["submission_sha256"] = submission_sha256(r);
    j["tile"] = r.tile;
    j["backend"] = r.backend;
    j["seed"] = std::to_string(r.seed);  // a string: JavaScript readers would round a 64-bit number
    j["sizes"] = r.sizes;
    j["drawn_sizes"] = r.drawn_sizes;
    j["passed_sizes"] = passed_sizes(r);
    j["smallest_failing_size"] = r.smallest_failing_size ? json(*r.smallest_failing_size) : json(nullptr);
    j["seconds"] = r.seconds;
    j["findings"] = json::array();
    for (const Finding& f : r.findings) {
        json fj = {{"verdict", to_string(f.verdict)}, {"message", f.message}, {"sizes", f.sizes},
                   {"hint", f.hint}, {"sources", sources_json(f.sources)}, {"cause", f.cause}};
        if (f.hint > 0) {
            fj["hint_file"] = readme_name(r.exercise);
            fj["hint_text"] = f.hint_text;
        }
        if (const std::string note = line_unknown_note(r, f); !note.empty()) fj["line_unknown"] = note;
        j["findings"].push_back(fj);
    }
    // The smallest failing case's evidence (findings.h), in full.
    const Evidence& e = r.evidence;
    json ev;
    ev["message"] = e.message;
    if (e.n) ev["n"] = e.n;
    if (!e.run.empty()) ev["run"] = e.run;
    if (e.bad_cells) ev["bad_cells"] = e.bad_cells;
    if (e.first_bad) {
        const auto& b = *e.first_bad;
        ev["first_bad"] = {{"x", b.x}, {"y", b.y}, {"z", b.z}, {"expected", number(b.expected)},
                           {"got", number(b.got)}, {"bound", b.bound}, {"cell", to_string(b.cell)},
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
    ev["sources"] = sources_json(e.sources);
    // check --explain's backward slice, first bad output first
    ev["explain"] = json::array();
    for (const ExplainStep& st : e.explain) {
        json sj = {{"text", st.text}, {"source_file", nullptr}, {"source_line", nullptr}};
        if (st.at) sj["source_file"] = st.at->file, sj["source_line"] = st.at->line;
        ev["explain"].push_back(sj);
    }
    if (!e.cause.empty()) ev["cause"] = e.cause;
    // check --explain: the first bad output's value as a stencil beside the exercise's
    if (e.stencil) {
        const EffectiveStencilView& st = *e.stencil;
        json terms = json::array();
        for (const StencilTermView& t : st.terms)
            terms.push_back({{"text", t.text}, {"line", t.line}, {"wrong", t.wrong}});
        ev["stencil"] = {{"kernel", st.kernel}, {"exercise", st.exercise}, {"terms", terms},
                         {"differences", st.differences}, {"lines", st.lines}};
    }
    if (!e.compiler_output.empty()) ev["compiler_output"] = e.compiler_output;
    if (!e.child_output.empty()) ev["child_output"] = e.child_output;
    j["evidence"] = ev;
    // A failing size's test names its finding rather than repeating its sentence.
    j["tests"] = json::array();
    for (const auto& t : r.tests) {
        json tj = {{"name", t.name}, {"size", t.size}, {"passed", t.passed}, {"output", t.output}};
        if (t.finding > 0 && size_t(t.finding) <= r.findings.size()) {
            tj["finding"] = t.finding;
            tj["output"] = fmt::format("{}: finding {}", to_string(r.findings[size_t(t.finding) - 1].verdict), t.finding);
        }
        j["tests"].push_back(tj);
    }
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

std::string size_name(const CheckResult& r) {
    // What a size is called: star3d's N (N^3 cells); cardiac2d's n (n x n interior cells); the
    // derivative's my (MX x my x mz).
    const Exercise* ex = find_exercise(r.exercise);
    const Problem problem = ex ? ex->problem : Problem::star3d;
    return problem == Problem::cardiac2d ? "n" : problem == Problem::derivative ? "my" : "N";
}

bool hint_said_before(const CheckResult& r, size_t k) {
    for (size_t i = 0; i < k && i < r.findings.size(); ++i)
        if (r.findings[i].hint > 0 && r.findings[i].hint == r.findings[k].hint) return true;
    return false;
}

std::string finding_text(const CheckResult& r, const Finding& f, const std::string& indent, const std::string& where,
                         bool hint_said) {
    std::string s = indent + to_string(f.verdict) + (where.empty() ? "" : " at " + where) + ": " + f.message + "\n";
    if (const auto cause = parse_cause(f.cause); cause && *cause != Cause::wrong_value)
        s += indent + "  cause: " + std::string(cause_words(*cause)) + "\n";
    if (f.verdict != Verdict::compile_error)  // (the compiler's output, printed beside, names its lines)
        for (const SourceRef& src : f.sources) s += indent + "  " + source_text(src) + "\n";
    if (const std::string note = line_unknown_note(r, f); !note.empty()) s += indent + "  " + note + "\n";
    if (hint_said) s += indent + "  " + fmt::format("hint {} of {} (above)", f.hint, readme_name(r.exercise)) + "\n";
    else if (const std::string h = hint_line(r, f); !h.empty()) s += indent + "  " + h + "\n";
    return s;
}

std::string finding_sizes(const CheckResult& r, const Finding& f) {
    return f.sizes.empty() ? "" : fmt::format("{} = {}", size_name(r), size_list(f.sizes, r.sizes));
}

std::string findings_line(const CheckResult& r) {
    std::string s;
    for (const Finding& f : r.findings) {
        const std::string where = finding_sizes(r, f);
        s += fmt::format("{}{}{}: {}", s.empty() ? "" : "; ", to_string(f.verdict), where.empty() ? "" : " at " + where,
                         f.message);
    }
    return s.empty() ? r.evidence.message : s;
}

// Long because it is the report's text in reading order: the verdict, the findings, the smallest
// counterexample, the sizes that passed.
std::string to_text(const CheckResult& r) {
    const Exercise* ex = find_exercise(r.exercise);
    const Problem problem = ex ? ex->problem : Problem::star3d;
    const std::string size = size_name(r);
    // (cardiac2d's and the derivative's blocks are the lab's, so no T)
    const std::string tile = problem == Problem::star3d ? fmt::format("T={}, ", r.tile) : "";
    std::string s = fmt::format("{}: {} ({} exercise, {}{} backend, {:.1f} s)\n", r.file,
                                to_string(r.verdict), exercise_label(r.exercise), tile, r.backend, r.seconds);
    const Evidence& e = r.evidence;
    // One line per distinct finding with the sizes it appeared at; a finding of no size (a compile
    // error, the child's end) is the evidence's message, with the compiler's or the run's output.
    bool evidence_said = false;
    for (size_t k = 0; k < r.findings.size(); ++k) {
        const Finding& f = r.findings[k];
        if (f.sizes.empty() && !evidence_said) {
            evidence_said = true;
            if (!e.message.empty()) s += "  " + e.message + "\n";
            if (!e.compiler_output.empty() && e.compiler_output != e.message + "\n") s += e.compiler_output;
            if (e.compiler_output.empty())  // (the compiler's output names its lines itself)
                for (const SourceRef& src : f.sources) s += "    " + source_text(src) + "\n";
            if (const std::string note = line_unknown_note(r, f); !note.empty()) s += "    " + note + "\n";
            if (const std::string h = hint_line(r, f); !h.empty()) s += "    " + h + "\n";
            continue;
        }
        s += finding_text(r, f, "  ", finding_sizes(r, f), hint_said_before(r, k));
    }
    if (r.findings.empty() && !e.message.empty()) s += "  " + e.message + "\n";
    // The smallest counterexample: its size, block and run, and its slice map at that size.
    if (r.smallest_failing_size) {
        std::optional<std::array<int, 3>> block;
        if (e.race) block = std::array<int, 3>{e.race->block[0], e.race->block[1], e.race->block[2]};
        for (const SourceRef& src : e.sources)
            if (!block && src.block) block = src.block;
        s += fmt::format("  smallest failing case: {} = {}{}{}\n", size, *r.smallest_failing_size,
                         e.n == *r.smallest_failing_size && block ? ", block " + triple(*block) : "",
                         e.n == *r.smallest_failing_size && !e.run.empty() ? " (" + e.run + ")" : "");
    }
    if (!e.slice_map.empty()) s += e.slice_map;
    if (!e.explain.empty()) {
        s += "  why, from the first bad output back to its cause (--explain):\n";
        for (size_t k = 0; k < e.explain.size(); ++k)
            s += (k == 0 ? "    " : "      <- ") + step_text(e.explain[k]) + "\n";
    }
    if (!e.child_output.empty()) s += "  output of the run:\n" + e.child_output + "\n";
    // Which sizes passed; checks of no size (compute-sanitizer's) and failing sizes no finding
    // names (not run after a timeout) are listed as they are.
    if (!r.tests.empty()) {
        const std::vector<int> passed = passed_sizes(r);
        int sized = 0;
        for (const auto& t : r.tests) sized += t.size > 0;
        if (sized > 0)
            s += passed.empty() ? fmt::format("  passed at no size ({} sizes tested)\n", sized)
                                : fmt::format("  passed at {} = {}\n", size, size_list(passed, r.sizes));
        // Failing sizes no finding names (not run after a timeout): one line per reason, with its sizes.
        std::vector<std::pair<std::string, std::vector<int>>> unnamed;
        for (const auto& t : r.tests) {
            if (t.size <= 0) {
                s += fmt::format("  [{}] {}{}\n", t.passed ? "ok" : "FAIL", t.name, t.passed ? "" : ": " + t.output);
                continue;
            }
            if (t.passed || t.finding != 0) continue;
            auto u = std::find_if(unnamed.begin(), unnamed.end(), [&](const auto& x) { return x.first == t.output; });
            if (u == unnamed.end()) unnamed.push_back({t.output, {t.size}});
            else u->second.push_back(t.size);
        }
        for (const auto& [why, sizes] : unnamed)
            s += fmt::format("  [FAIL] {} = {}: {}\n", size, size_list(sizes, r.sizes), why);
    }
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
