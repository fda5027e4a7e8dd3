#include "grading/score.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "checker/exercises.h"
#include "checker/report.h"
#include "core/error.h"
#include "grading/points.h"

namespace stencil::grading {

using checker::CheckResult;
using checker::Verdict;

namespace {

bool drawn(const CheckResult& r, int n) {
    return std::find(r.drawn_sizes.begin(), r.drawn_sizes.end(), n) != r.drawn_sizes.end();
}

bool is_hidden(const Rubric& rubric, const CheckResult& r, int n) { return n > 0 && rubric.hidden_size(n, drawn(r, n)); }

// A finding's sizes the student may see, and how many hidden ones it has besides.
std::vector<int> visible_sizes(const Rubric& rubric, const CheckResult& r, const checker::Finding& f, int& hidden_count) {
    std::vector<int> v;
    hidden_count = 0;
    for (int n : f.sizes) {
        if (is_hidden(rubric, r, n)) ++hidden_count;
        else v.push_back(n);
    }
    return v;
}

bool hidden_only(const Rubric& rubric, const CheckResult& r, const checker::Finding& f) {
    int hidden_count = 0;
    return visible_sizes(rubric, r, f, hidden_count).empty() && hidden_count > 0;
}

// Whether `text` names size n ("N=68", "N = 68", "n=68", "my = 68"): a warning of a hidden run.
bool names_size(const std::string& text, int n) {
    const std::string num = std::to_string(n);
    for (size_t p = text.find(num); p != std::string::npos; p = text.find(num, p + 1)) {
        if (p + num.size() < text.size() && std::isdigit(static_cast<unsigned char>(text[p + num.size()]))) continue;
        size_t q = p;
        while (q > 0 && text[q - 1] == ' ') --q;
        if (q > 0 && text[q - 1] == '=') return true;
    }
    return false;
}

// A test record is hidden by its size; one without a size (compute-sanitizer's rerun of a case)
// by the size its name gives.
bool record_hidden(const Rubric& rubric, const CheckResult& r, const checker::TestRecord& t) {
    if (t.size > 0) return is_hidden(rubric, r, t.size);
    for (int n : r.sizes)
        if (is_hidden(rubric, r, n) && names_size(t.name, n)) return true;
    return false;
}

// What the student may be told: the check judged on the visible sizes alone. A kernel that fails
// only hidden sizes is, here, a pass: anything else would tell that a hidden test failed.
struct VisibleView {
    bool pass = false;                  // every visible size passed, and nothing failed without a size
    checker::Verdict verdict = checker::Verdict::pass;
    std::vector<std::string> warnings;  // those naming no hidden size
    std::optional<checker::LoadCount> loads;
    std::optional<checker::Timing> timing;  // the GPU's, of a kernel right on the visible sizes
};

// Warnings about the grading machine, not the kernel (its GPU could not count or time): the checker
// gives them next to a pass only, so a "clean" item judged on them would tell a hidden test failed.
bool machine_warning(const std::string& w) { return w.rfind("no timing: ", 0) == 0 || w.rfind("no load count: ", 0) == 0; }

VisibleView visible_view(const Rubric& rubric, const CheckResult& r) {
    VisibleView v;
    v.loads = r.loads ? r.loads : r.measured_loads;
    v.timing = r.timing ? r.timing : r.measured_timing;
    const bool sizeless_failure = r.verdict != Verdict::pass &&
                                  (r.tests.empty() || std::any_of(r.findings.begin(), r.findings.end(),
                                                                  [](const auto& f) { return f.sizes.empty(); }));
    bool visible_failed = false;
    for (const auto& t : r.tests)
        if (!record_hidden(rubric, r, t) && !t.passed) visible_failed = true;
    v.pass = r.verdict == Verdict::pass || (!sizeless_failure && !visible_failed && !r.tests.empty());
    if (!v.pass) {
        v.verdict = r.verdict;
        const bool verdict_seen = std::any_of(r.findings.begin(), r.findings.end(), [&](const auto& f) {
            return f.verdict == r.verdict && !hidden_only(rubric, r, f);
        });
        if (!verdict_seen)
            for (const auto& f : r.findings)
                if (!hidden_only(rubric, r, f)) {
                    v.verdict = f.verdict;
                    break;
                }
        v.loads.reset();
        v.timing.reset();
    }
    for (const auto& w : r.warnings) {
        if (machine_warning(w)) continue;
        bool hidden = false;
        for (int n : r.sizes) hidden = hidden || (is_hidden(rubric, r, n) && names_size(w, n));
        if (!hidden) v.warnings.push_back(w);
    }
    // The checker warns of a count over the budget only next to a pass; judged on the visible
    // sizes, a kernel failing a hidden one gets the same warning.
    if (v.pass && r.verdict != Verdict::pass && v.loads && !v.loads->within_budget)
        v.warnings.push_back(fmt::format("{:.3f} global loads per output at {}={}, over the budget of {:.3f}",
                                         v.loads->loads_per_output, checker::size_name(r), v.loads->n, v.loads->budget));
    return v;
}

// A failing size's test output: its finding is printed once, in the output (visible sizes) or in
// the first hidden test it failed (a finding seen at hidden sizes only); every other test of it
// names it.
std::string failing_test_output(const Rubric& rubric, const CheckResult& r, const checker::TestRecord& t,
                                char& said) {
    if (t.finding <= 0 || size_t(t.finding) > r.findings.size()) return t.output;
    const checker::Finding& f = r.findings[size_t(t.finding) - 1];
    if (!hidden_only(rubric, r, f)) return fmt::format("{}: finding {} of the output", checker::to_string(f.verdict), t.finding);
    if (said) return fmt::format("{}: the finding of the first failing hidden test", checker::to_string(f.verdict));
    said = true;
    std::string text = checker::finding_text(r, f, "", "");
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
}

// The tests of one correctness item: the item's units split evenly over its sizes. Names are
// plain and the same on every run ("N = 13", "hidden size 2 of 3"); what ran (the schedules and
// their seeds) is in the output.
void size_tests(Score& s, const Item& item, long long units, const Rubric& rubric, const CheckResult& r, bool hidden) {
    std::vector<const checker::TestRecord*> mine;
    for (const auto& t : r.tests)
        if (record_hidden(rubric, r, t) == hidden) mine.push_back(&t);
    const char* label = hidden ? "hidden" : "visible";
    if (mine.empty()) {
        // Nothing of this kind ran (a compile error, a crash before the first case): the item's
        // points are still on the sheet, so that the total stays the rubric's.
        s.tests.push_back({fmt::format("the {} sizes", label), item.kind, 0, to_points(rubric, units), false,
                           item.visibility,
                           r.tests.empty() ? fmt::format("not run: {}", checker::to_string(r.verdict))
                                           : "no size of this kind was tested", ""});
        return;
    }
    const std::vector<long long> shares = split_even(units, mine.size());
    std::vector<char> said(r.findings.size() + 1, 0);  // per finding: printed in a test already
    for (size_t k = 0; k < mine.size(); ++k) {
        const checker::TestRecord& t = *mine[k];
        const std::string name = hidden        ? fmt::format("hidden size {} of {}", k + 1, mine.size())
                                 : t.size > 0 ? fmt::format("{} = {}", checker::size_name(r), t.size)
                                              : t.name;
        const std::string out =
            t.passed ? "ok: " + t.name
                     : t.name + ": " + failing_test_output(rubric, r, t, said[size_t(std::clamp(t.finding, 0, int(r.findings.size())))]);
        const double share = to_points(rubric, shares[k]);
        s.tests.push_back({name, item.kind, t.passed ? share : 0, share, t.passed, item.visibility, out, ""});
    }
}

bool gpu_check(const CheckResult& r) { return r.backend == "cuda"; }

// A finding's visible sizes: "N = 3, 5" (its hidden ones are not counted: a count would tell).
std::string visible_where(const Rubric& rubric, const CheckResult& r, const checker::Finding& f) {
    int hidden_count = 0;
    std::string s;
    for (int n : visible_sizes(rubric, r, f, hidden_count)) s += (s.empty() ? "" : ", ") + std::to_string(n);
    return s.empty() ? s : checker::size_name(r) + " = " + s;
}

// The student's text, judged on the visible sizes only: the visible verdict, each finding seen at a
// visible size once (with those sizes), the smallest failing case's slice map when its size is
// visible, the compiler's output, which visible sizes passed, the warnings that name no hidden
// size, the seed (which reproduces the visible sizes only: the hidden ones come from the course
// secret). Nothing here depends on a hidden size's outcome.
std::string student_output(const Rubric& rubric, const CheckResult& r, const VisibleView& v) {
    const bool sized = !r.tests.empty();
    std::string s = fmt::format("{}: {}{} ({} exercise, {} backend)\n", std::filesystem::path(r.file).filename().string(),
                                checker::to_string(v.verdict), sized ? " on the visible sizes" : "", r.exercise, r.backend);
    bool evidence_said = false;
    for (size_t k = 0; k < r.findings.size(); ++k) {
        const checker::Finding& f = r.findings[k];
        if (f.sizes.empty()) {  // a compile error, the child's end: no size to hide
            if (evidence_said) continue;
            evidence_said = true;
            s += checker::finding_text(r, f, "  ", "");
            if (!r.evidence.compiler_output.empty() && r.evidence.compiler_output != r.evidence.message + "\n")
                s += r.evidence.compiler_output;
            continue;
        }
        if (hidden_only(rubric, r, f)) continue;
        s += checker::finding_text(r, f, "  ", visible_where(rubric, r, f), checker::hint_said_before(r, k))
                 .replace(2, 0, fmt::format("finding {}: ", k + 1));
    }
    const bool hidden_evidence = r.evidence.n > 0 && is_hidden(rubric, r, r.evidence.n);
    if (r.findings.empty() && !hidden_evidence && !r.evidence.message.empty()) s += "  " + r.evidence.message + "\n";
    if (!hidden_evidence && r.smallest_failing_size && r.evidence.n > 0)
        s += fmt::format("  smallest failing case: {} = {}{}\n", checker::size_name(r), r.evidence.n,
                         r.evidence.run.empty() ? "" : " (" + r.evidence.run + ")");
    if (!hidden_evidence && !r.evidence.slice_map.empty()) s += r.evidence.slice_map;
    std::string passed;
    int visible_tested = 0;
    for (const auto& t : r.tests) {
        if (t.size <= 0 || is_hidden(rubric, r, t.size)) continue;
        ++visible_tested;
        if (t.passed) passed += (passed.empty() ? "" : ", ") + std::to_string(t.size);
    }
    if (visible_tested > 0)
        s += passed.empty() ? "  passed at no visible size\n"
                            : fmt::format("  passed at {} = {} (of the visible sizes)\n", checker::size_name(r), passed);
    for (const auto& w : v.warnings) s += "  warning: " + w + "\n";
    s += fmt::format("  seed {:#x} (stencil-lab check FILE --exercise {} --seed {:#x} reproduces the visible sizes)\n",
                     r.seed, r.exercise, r.seed);
    return s;
}

// How the student's text names the exercise: a built-in by its name, a course's own folder by the
// folder's name. The folder's path is the grading machine's (/autograder/source/exercise/my-heat on
// Gradescope): it means nothing to a student, and tells them how the grader is laid out.
struct ShownExercise {
    std::string name;
    std::vector<std::string> paths;  // how the checker's messages may spell the folder
};

ShownExercise shown_exercise(const std::string& exercise) {
    ShownExercise e{exercise, {}};
    const checker::Exercise* ex = nullptr;
    try {
        ex = checker::find_exercise(exercise);
    } catch (const UserError&) {  // a folder that went away since the check: named as given
    }
    if (!ex || ex->builtin) return e;
    e.name = ex->name;
    for (std::string p : {ex->display, ex->id, ex->folder.string()}) {
        while (p.size() > 1 && p.back() == '/') p.pop_back();
        if (!p.empty() && p != e.name && std::find(e.paths.begin(), e.paths.end(), p) == e.paths.end())
            e.paths.push_back(p);
    }
    // the longest first: a path is never left half-replaced by a shorter one inside it
    std::sort(e.paths.begin(), e.paths.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
    return e;
}

void name_by_folder(std::string& text, const ShownExercise& e) {
    for (const std::string& p : e.paths)
        for (size_t at = text.find(p); at != std::string::npos; at = text.find(p, at + e.name.size()))
            text.replace(at, p.size(), e.name);
}

// Every text of `s` a student may see names a course folder by its name, not its path.
void name_exercise_by_folder(Score& s, const std::string& exercise) {
    const ShownExercise e = shown_exercise(exercise);
    s.record.exercise = e.name;
    if (e.paths.empty()) return;
    name_by_folder(s.output, e);
    for (ScoredTest& t : s.tests) {
        name_by_folder(t.name, e);
        name_by_folder(t.output, e);
    }
}

}  // namespace

namespace {

// A stencil written as data has no lab kernel to time a submission against: its time item is
// treated as on a machine without a GPU (left out and the others scaled up, by default).
bool has_lab_kernel(const checker::CheckResult& r) {
    try {
        const checker::Exercise* ex = checker::find_exercise(r.exercise);
        return !ex || !ex->is_data();
    } catch (const UserError&) {  // a folder that went away since the check: as before
        return true;
    }
}

}  // namespace

Score score_check(const Rubric& rubric, const CheckResult& r) {
    Score s;
    s.max_points = rubric.total;
    s.seconds = r.seconds;
    s.record = {r.exercise, r.exercise_hash, r.seed, checker::submission_sha256(r)};
    // Nothing of the submission was judged: it did not compile, or the checker itself failed.
    s.gradable = r.verdict != Verdict::compile_error && r.verdict != Verdict::internal_error;
    const VisibleView v = visible_view(rubric, r);
    const bool gpu = gpu_check(r);
    const bool timed = gpu && has_lab_kernel(r);
    const bool time_left_out = !timed && rubric.time.rescale_without_gpu;
    const std::vector<long long> units = item_units(rubric, time_left_out);
    const char* needs = "needs every visible size passed first";
    for (size_t i = 0; i < rubric.items.size(); ++i) {
        const Item& item = rubric.items[i];
        const double max = to_points(rubric, units[i]);
        switch (item.kind) {
            case ItemKind::visible: size_tests(s, item, units[i], rubric, r, false); break;
            case ItemKind::hidden: size_tests(s, item, units[i], rubric, r, true); break;
            case ItemKind::loads: {
                const bool ok = v.pass && v.loads && v.loads->within_budget;
                std::string out = !v.pass    ? needs
                                  : !v.loads ? "no load count was measured"
                                             : fmt::format("{:.3f} global loads per output at {}={}, budget {:.3f} ({})",
                                                           v.loads->loads_per_output, checker::size_name(r), v.loads->n,
                                                           v.loads->budget, v.loads->within_budget ? "within" : "over");
                s.tests.push_back({"global loads per output within the budget", item.kind, ok ? max : 0, max, ok,
                                   item.visibility, out, ""});
                break;
            }
            case ItemKind::clean: {
                const bool ok = v.pass && v.warnings.empty();
                std::string out = !v.pass ? needs
                                  : ok    ? "no warning"
                                          : fmt::format("{} warning(s): {}", v.warnings.size(), v.warnings.front());
                s.tests.push_back({"a clean run (no warnings)", item.kind, ok ? max : 0, max, ok, item.visibility, out, ""});
                break;
            }
            case ItemKind::time: {
                if (time_left_out) break;  // the others were scaled up to the total (item_units)
                if (!timed) {
                    s.tests.push_back({"time against the lab's kernel", item.kind, 0, max, false, item.visibility,
                                       gpu ? "the exercise's stencil is written as data: the lab has no kernel to time it against"
                                           : "no GPU on the grading machine: not timed", ""});
                    break;
                }
                double got = 0;
                std::string out = v.pass ? "not timed on this run" : fmt::format("{} (timed on the GPU)", needs);
                if (v.timing) {
                    const double x = v.timing->ratio, lo = rubric.time.full_at_ratio, hi = rubric.time.zero_at_ratio;
                    const double frac = x <= lo ? 1 : x >= hi ? 0 : (hi - x) / (hi - lo);
                    got = to_points(rubric, (long long)std::floor(double(units[i]) * frac + 1e-9));
                    out = fmt::format("{:.3f} ms against the lab's {:.3f} ms at N={}: ratio {:.2f} (all points up to "
                                      "{:g}, none from {:g})",
                                      v.timing->student_ms, v.timing->reference_ms, v.timing->n, x, lo, hi);
                }
                s.tests.push_back({"time against the lab's kernel", item.kind, got, max, got >= max, item.visibility, out, ""});
                break;
            }
        }
    }
    long long earned = 0;
    for (const auto& t : s.tests) earned += to_units(rubric, t.points);
    s.points = to_points(rubric, earned);
    for (LeaderboardColumn c : rubric.leaderboard) {
        if (c == LeaderboardColumn::loads_per_output && v.pass && v.loads)
            s.leaderboard.push_back({to_string(c), v.loads->loads_per_output, true});
        if (c == LeaderboardColumn::time_ratio && v.timing)
            s.leaderboard.push_back({to_string(c), v.timing->ratio, true});
    }
    s.output = student_output(rubric, r, v);
    name_exercise_by_folder(s, r.exercise);
    return s;
}

Score score_failure(const Rubric& rubric, const std::string& why, bool gradable) {
    Score s;
    s.gradable = gradable;
    s.max_points = rubric.total;
    s.record.exercise = rubric.exercise;
    const std::vector<long long> units = item_units(rubric, rubric.time.rescale_without_gpu);
    for (size_t i = 0; i < rubric.items.size(); ++i) {
        const Item& item = rubric.items[i];
        if (item.kind == ItemKind::time && rubric.time.rescale_without_gpu) continue;
        s.tests.push_back({to_string(item.kind), item.kind, 0, to_points(rubric, units[i]), false, item.visibility, why, ""});
    }
    s.output = why + "\n";
    name_exercise_by_folder(s, rubric.exercise);
    return s;
}

}  // namespace stencil::grading
