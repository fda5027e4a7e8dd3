#include "grading/score.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "checker/report.h"

namespace stencil::grading {

using checker::CheckResult;
using checker::Verdict;

namespace {

bool drawn(const CheckResult& r, int n) {
    return std::find(r.drawn_sizes.begin(), r.drawn_sizes.end(), n) != r.drawn_sizes.end();
}

bool is_hidden(const Rubric& rubric, const CheckResult& r, int n) { return rubric.hidden_size(n, drawn(r, n)); }

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

// A failing size's test output: its finding is printed once, in the output (visible sizes) or in
// the first hidden test it failed (a finding seen at hidden sizes only); every other test of it
// names it.
std::string failing_test_output(const Rubric& rubric, const CheckResult& r, const checker::TestRecord& t,
                                char& said) {
    if (t.finding <= 0 || size_t(t.finding) > r.findings.size()) return t.output;
    const checker::Finding& f = r.findings[size_t(t.finding) - 1];
    int hidden_count = 0;
    const bool seen_visible = !visible_sizes(rubric, r, f, hidden_count).empty();
    if (seen_visible) return fmt::format("{}: finding {} of the output", checker::to_string(f.verdict), t.finding);
    if (said) return fmt::format("{}: the finding of the first failing hidden test", checker::to_string(f.verdict));
    said = true;
    std::string text = checker::finding_text(r, f, "", "");
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
}

// The tests of one correctness item: the item's points split evenly over its sizes.
void size_tests(Score& s, const Item& item, const Rubric& rubric, const CheckResult& r, bool hidden) {
    std::vector<const checker::TestRecord*> mine;
    for (const auto& t : r.tests)
        if (rubric.hidden_size(t.size, drawn(r, t.size)) == hidden) mine.push_back(&t);
    const char* label = hidden ? "hidden" : "visible";
    if (mine.empty()) {
        // Nothing of this kind ran (a compile error, a crash before the first case): the item's
        // points are still on the sheet, so that the total stays the rubric's.
        s.tests.push_back({fmt::format("{}: the {} sizes", label, label), item.kind, 0, item.points, false,
                           item.visibility,
                           r.tests.empty() ? fmt::format("not run: {}", checker::to_string(r.verdict))
                                           : "no size of this kind was tested", ""});
        return;
    }
    const double share = item.points / double(mine.size());
    std::vector<char> said(r.findings.size() + 1, 0);  // per finding: printed in a test already
    for (const auto* t : mine) {
        const std::string out =
            t->passed ? "ok" : failing_test_output(rubric, r, *t, said[size_t(std::clamp(t->finding, 0, int(r.findings.size())))]);
        s.tests.push_back({fmt::format("{}: {}", label, t->name), item.kind, t->passed ? share : 0, share, t->passed,
                           item.visibility, out, ""});
    }
}

bool gpu_check(const CheckResult& r) { return r.backend == "cuda"; }

// A size list of the visible sizes: "N = 3, 5 and 2 hidden sizes".
std::string visible_where(const Rubric& rubric, const CheckResult& r, const checker::Finding& f) {
    int hidden_count = 0;
    const std::vector<int> v = visible_sizes(rubric, r, f, hidden_count);
    std::string s;
    for (int n : v) s += (s.empty() ? "" : ", ") + std::to_string(n);
    if (!s.empty()) s = checker::size_name(r) + " = " + s;
    if (hidden_count) s += fmt::format("{}{} hidden size{}", s.empty() ? "" : " and ", hidden_count, hidden_count > 1 ? "s" : "");
    return s;
}

// The student's text: the verdict, each finding once with the visible sizes it appeared at (one
// seen only at hidden sizes is shown with the first hidden test it failed: its evidence would
// tell the hidden size), the smallest failing case's slice map when its size is visible, the
// compiler's output, which visible sizes passed, warnings, the seed.
std::string student_output(const Rubric& rubric, const CheckResult& r) {
    std::string s = fmt::format("{}: {} ({} exercise, {} backend, {:.1f} s)\n",
                                std::filesystem::path(r.file).filename().string(), checker::to_string(r.verdict),
                                r.exercise, r.backend, r.seconds);
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
        int hidden_count = 0;
        if (visible_sizes(rubric, r, f, hidden_count).empty())
            s += fmt::format("  a hidden test failed ({} at {}): its evidence is shown with the first hidden test "
                             "it failed\n", checker::to_string(f.verdict), visible_where(rubric, r, f));
        else
            s += checker::finding_text(r, f, "  ", visible_where(rubric, r, f), checker::hint_said_before(r, k))
                     .replace(2, 0, fmt::format("finding {}: ", k + 1));
    }
    const bool hidden_evidence = r.evidence.n > 0 && is_hidden(rubric, r, r.evidence.n);
    if (r.findings.empty() && hidden_evidence)
        s += "  a hidden test failed: its evidence is shown with the hidden tests\n";
    else if (r.findings.empty() && !r.evidence.message.empty())
        s += "  " + r.evidence.message + "\n";
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
    for (const auto& w : r.warnings) s += "  warning: " + w + "\n";
    s += fmt::format("  seed {:#x} (stencil-lab check FILE --exercise {} --seed {:#x} reproduces the visible sizes)\n",
                     r.seed, r.exercise, r.seed);
    return s;
}

}  // namespace

Score score_check(const Rubric& rubric, const CheckResult& r) {
    Score s;
    s.max_points = rubric.total;
    s.seconds = r.seconds;
    // Nothing of the submission was judged: it did not compile, or the checker itself failed.
    s.gradable = r.verdict != Verdict::compile_error && r.verdict != Verdict::internal_error;
    const bool pass = r.verdict == Verdict::pass;
    const bool gpu = gpu_check(r);
    for (const Item& item : rubric.items) {
        switch (item.kind) {
            case ItemKind::visible: size_tests(s, item, rubric, r, false); break;
            case ItemKind::hidden: size_tests(s, item, rubric, r, true); break;
            case ItemKind::loads: {
                const bool ok = pass && r.loads && r.loads->within_budget;
                std::string out = !pass       ? "needs a pass first"
                                  : !r.loads ? "no load count was measured"
                                             : fmt::format("{:.3f} global loads per output at N={}, budget {:.3f} ({})",
                                                           r.loads->loads_per_output, r.loads->n, r.loads->budget,
                                                           r.loads->within_budget ? "within" : "over");
                s.tests.push_back({"global loads per output within the budget", item.kind, ok ? item.points : 0,
                                   item.points, ok, item.visibility, out, ""});
                break;
            }
            case ItemKind::clean: {
                const bool ok = pass && r.warnings.empty();
                std::string out = !pass ? "needs a pass first"
                                  : ok  ? "no warning"
                                        : fmt::format("{} warning(s): {}", r.warnings.size(), r.warnings.front());
                s.tests.push_back({"a clean run (no warnings)", item.kind, ok ? item.points : 0, item.points, ok,
                                   item.visibility, out, ""});
                break;
            }
            case ItemKind::time: {
                if (!gpu) {
                    if (rubric.time.rescale_without_gpu) break;  // left out; the others scale up below
                    s.tests.push_back({"time against the lab's kernel", item.kind, 0, item.points, false,
                                       item.visibility, "no GPU on the grading machine: not timed", ""});
                    break;
                }
                double got = 0;
                std::string out = "needs a pass first (timed on the GPU)";
                if (pass && r.timing) {
                    const double x = r.timing->ratio, lo = rubric.time.full_at_ratio, hi = rubric.time.zero_at_ratio;
                    const double frac = x <= lo ? 1 : x >= hi ? 0 : (hi - x) / (hi - lo);
                    got = item.points * frac;
                    out = fmt::format("{:.3f} ms against the lab's {:.3f} ms at N={}: ratio {:.2f} (all points up to "
                                      "{:g}, none from {:g})",
                                      r.timing->student_ms, r.timing->reference_ms, r.timing->n, x, lo, hi);
                } else if (pass) {
                    out = "not timed on this GPU (see the warnings)";
                }
                s.tests.push_back({"time against the lab's kernel", item.kind, got, item.points, got >= item.points,
                                   item.visibility, out, ""});
                break;
            }
        }
    }
    // Without a GPU the time item is left out and the others scale up to the rubric's total.
    double max = 0;
    for (const auto& t : s.tests) max += t.max_points;
    if (max > 0 && std::fabs(max - rubric.total) > 1e-9) {
        const double k = rubric.total / max;
        for (auto& t : s.tests) t.points *= k, t.max_points *= k;
    }
    for (const auto& t : s.tests) s.points += t.points;
    for (LeaderboardColumn c : rubric.leaderboard) {
        if (c == LeaderboardColumn::loads_per_output && pass && r.loads)
            s.leaderboard.push_back({to_string(c), r.loads->loads_per_output, true});
        if (c == LeaderboardColumn::time_ratio && pass && r.timing)
            s.leaderboard.push_back({to_string(c), r.timing->ratio, true});
    }
    s.output = student_output(rubric, r);
    return s;
}

Score score_failure(const Rubric& rubric, const std::string& why, bool gradable) {
    Score s;
    s.gradable = gradable;
    s.max_points = rubric.total;
    double max = 0;
    for (const Item& item : rubric.items) max += item.kind == ItemKind::time && rubric.time.rescale_without_gpu ? 0 : item.points;
    const double k = max > 0 ? rubric.total / max : 1;
    for (const Item& item : rubric.items) {
        if (item.kind == ItemKind::time && rubric.time.rescale_without_gpu) continue;
        s.tests.push_back({to_string(item.kind), item.kind, 0, item.points * k, false, item.visibility, why, ""});
    }
    s.output = why + "\n";
    return s;
}

}  // namespace stencil::grading
