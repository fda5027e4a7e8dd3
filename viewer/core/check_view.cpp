#include "viewer/core/check_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "checker/data_exercise.h"
#include "checker/hints.h"

namespace stencil::viewer {

using namespace stencil::checker;

namespace {

std::string triple(const std::array<int, 3>& v) { return fmt::format("({}, {}, {})", v[0], v[1], v[2]); }

// Per size (the tests' order), whether every test of it passed.
std::vector<std::pair<int, bool>> size_outcomes(const CheckResult& r) {
    std::vector<std::pair<int, bool>> out;
    for (const auto& t : r.tests) {
        if (t.size <= 0) continue;
        auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == t.size; });
        if (it == out.end()) out.emplace_back(t.size, t.passed);
        else it->second = it->second && t.passed;
    }
    return out;
}

FindingRow row_of(Verdict v, const std::string& message, const std::vector<SourceRef>& sources,
                  const std::vector<int>& sizes, int hint) {
    FindingRow row;
    row.verdict = v;
    row.hint = hint;
    row.headline = sizes.empty() ? fmt::format("{}: {}", to_string(v), message)
                                 : fmt::format("{} at {}: {}", to_string(v), sizes_text(sizes), message);
    for (const auto& s : sources) row.sources.push_back(source_link(s));
    return row;
}

}  // namespace

std::string sizes_text(std::vector<int> sizes) {
    std::sort(sizes.begin(), sizes.end());  // tested in another order (fixed sizes, then drawn ones)
    std::string s = "N = ";
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (i > 0) s += i + 1 == sizes.size() ? " and " : ", ";
        s += std::to_string(sizes[i]);
    }
    return sizes.empty() ? "" : s;
}

SourceLink source_link(const SourceRef& s) {
    SourceLink l;
    l.file = s.file;
    l.line = s.line;
    l.place = s.line > 0 ? fmt::format("{}:{}", s.file, s.line) : s.file.empty() ? "(no line)" : s.file;
    l.text = l.place;
    if (!s.role.empty()) l.text += "  " + s.role;
    if (s.thread) l.text += " by thread " + triple(*s.thread);
    if (s.block) l.text += (s.thread ? " of block " : " in block ") + triple(*s.block);
    if (!s.instruction.empty()) l.text += " [" + s.instruction + "]";
    return l;
}

CheckSummary summarize_check(const CheckResult& r) {
    CheckSummary s;
    const auto outcomes = size_outcomes(r);
    std::vector<int> passed, failed, not_run;
    for (const auto& [n, ok] : outcomes) (ok ? passed : failed).push_back(n);
    for (int n : r.sizes)
        if (std::none_of(outcomes.begin(), outcomes.end(), [&](const auto& p) { return p.first == n; }))
            not_run.push_back(n);
    std::vector<std::string> parts;
    if (!passed.empty()) parts.push_back("passed at " + sizes_text(passed));
    if (!failed.empty()) parts.push_back("failed at " + sizes_text(failed));
    if (!not_run.empty()) parts.push_back("not run at " + sizes_text(not_run));
    if (r.verdict != Verdict::pass && passed.empty() && !outcomes.empty()) parts.insert(parts.begin(), "no size passed");
    for (size_t i = 0; i < parts.size(); ++i) s.sizes += (i ? "; " : "") + parts[i];
    if (r.verdict == Verdict::pass) return s;

    for (const auto& f : r.findings) {
        s.findings.push_back(row_of(f.verdict, f.message, f.sources, f.sizes, f.hint));
        s.findings.back().cause = f.cause;
    }
    s.stencil = stencil_compare(r);
    if (s.findings.empty()) {  // a result with the evidence only: one row, at the sizes that failed
        const Evidence& e = r.evidence;
        std::vector<SourceRef> sources = e.sources;
        if (sources.empty() && e.line) sources.push_back({e.line->file, e.line->line, e.line->instruction, "", {}, {}});
        s.findings.push_back(row_of(r.verdict, e.message.empty() ? e.compiler_output : e.message, sources, failed, 0));
    }
    s.fitting_hint = s.findings.front().hint;
    std::optional<int> smallest = r.smallest_failing_size;
    if (!smallest && !failed.empty()) smallest = *std::min_element(failed.begin(), failed.end());
    if (smallest) {
        s.smallest = fmt::format("smallest failing size: N = {}", *smallest);
        if (r.evidence.n == *smallest) s.smallest += r.evidence.slice_map.empty() ? " (the evidence is at that size)"
                                                                                : " (the map below is at that size)";
        else if (r.evidence.n > 0) s.smallest += fmt::format(" (the evidence is at N = {})", r.evidence.n);
    }
    try {
        if (const Exercise* ex = find_exercise(r.exercise); ex && ex->is_data()) s.model = data_stencil_model(*ex);
    } catch (const std::exception&) {
        // a folder that no longer reads: no model, the check's own lines say what it gave
    }
    return s;
}

std::optional<StencilCompare> stencil_compare(const CheckResult& r) {
    if (!r.evidence.stencil) return std::nullopt;
    const checker::EffectiveStencilView& v = *r.evidence.stencil;
    // the lines are of the checked file: the name its findings give it
    std::string file = r.file.substr(r.file.rfind('/') == std::string::npos ? 0 : r.file.rfind('/') + 1);
    for (const SourceRef& x : r.evidence.sources)
        if (!x.file.empty()) file = x.file;
    auto link = [&](int line) {
        return line > 0 ? source_link(SourceRef{file, line, "", "", {}, {}}) : SourceLink{};
    };
    StencilCompare c;
    c.head = v.kernel.substr(0, v.kernel.find(" = ") == std::string::npos ? 0 : v.kernel.find(" = ") + 2);
    for (const auto& t : v.terms) c.terms.push_back({t.text, link(t.line), t.wrong});
    c.exercise = v.exercise;
    c.differences = v.differences;
    for (int l : v.lines) c.mistake.push_back(link(l));
    return c;
}

int SliceMap::nx() const {
    size_t w = 0;
    for (const auto& r : rows) w = std::max(w, r.size());
    return (int)w;
}

char SliceMap::mark(int x, int y) const {
    const int i = x - x0, k = y - y0;
    if (k < 0 || k >= ny() || i < 0 || i >= (int)rows[(size_t)k].size()) return ' ';
    return rows[(size_t)k][(size_t)i];
}

bool is_bad_mark(char m) { return m == 'X' || m == 'N' || m == 'U' || m == 'B' || m == '*'; }

std::optional<SliceMap> parse_slice_map(const std::string& text) {
    const std::string header = text.substr(0, text.find('\n'));
    static const std::regex range(R"(x (\d+)\.\.(\d+) across, y (\d+)\.\.(\d+) down)");
    std::smatch m;
    if (!std::regex_search(header, m, range)) return std::nullopt;
    SliceMap s;
    s.x0 = std::stoi(m[1]);
    s.y0 = std::stoi(m[3]);
    const int y1 = std::stoi(m[4]);
    static const std::regex zpos(R"(z=(\d+))");
    if (std::smatch z; std::regex_search(header, z, zpos)) s.z = std::stoi(z[1]);
    const size_t paren = header.find(" (");
    s.title = paren == std::string::npos ? "" : header.substr(0, paren);
    s.key = header;
    if (auto d = s.key.find(" down;"); d != std::string::npos) s.key.replace(d, 6, " up;");
    size_t a = text.find('\n');
    while (a != std::string::npos && a + 1 < text.size()) {
        const size_t e = std::min(text.find('\n', a + 1), text.size());
        const std::string line = text.substr(a + 1, e - a - 1);
        if (line.rfind("y=", 0) == 0 && line.size() > 6) s.rows.push_back(line.substr(6));
        a = e < text.size() ? e : std::string::npos;
    }
    if (s.rows.empty() || s.y0 + s.ny() - 1 != y1) return std::nullopt;
    return s;
}

SliceView slice_view(const Evidence& e, std::optional<std::array<int, 3>> asked, const std::string& backend) {
    SliceView v;
    if (e.first_bad) v.of = {e.first_bad->x, e.first_bad->y, e.first_bad->z};
    v.asked = asked.value_or(v.of);
    for (const auto& step : e.explain) {
        SourceLink l;
        if (step.at) l = source_link(*step.at);
        v.steps.push_back(step.at ? fmt::format("{}  ({})", step.text, l.place) : step.text);
        v.lines.push_back(l);
    }
    if (v.steps.empty()) {
        v.missing = backend == "cuda" ? "no backward slice: the GPU backend keeps no trace of the run to explain it "
                                        "from; choose the cpu backend and Check again"
                                      : "this result carries no backward slice (the CPU backend explains the first "
                                        "bad output of a check run with explain on)";
        v.title = "cell " + triple(v.asked);
    } else if (!e.first_bad) {  // a race: the slice of the reading thread's output
        v.title = "the backward slice the checker gave (no bad cell to click: the verdict has no map)";
    } else if (v.asked == v.of) {
        v.title = "the backward slice of cell " + triple(v.of) + ", the first bad output";
    } else {
        v.title = fmt::format("the slice is of cell {}, the first bad output, not of the cell clicked {}: the "
                              "checker explains the first bad output only",
                              triple(v.of), triple(v.asked));
    }
    return v;
}

std::vector<Hint> numbered_hints(const std::vector<std::string>& texts) {
    std::vector<Hint> hints;
    for (size_t k = 0; k < texts.size(); ++k) hints.push_back({static_cast<int>(k) + 1, texts[k]});
    return hints;
}

std::vector<Hint> hint_order(std::vector<Hint> hints, int fitting) {
    std::stable_sort(hints.begin(), hints.end(), [&](const Hint& a, const Hint& b) {
        const bool fa = a.number == fitting, fb = b.number == fitting;
        return fa != fb ? fa : a.number < b.number;
    });
    return hints;
}

std::vector<Hint> exercise_hints(const std::string& exercise, std::string* why) {
    auto hints = numbered_hints(checker::exercise_hints(exercise));
    if (hints.empty() && why) *why = "no numbered hints found for exercise " + exercise + " (" + checker::readme_name(exercise) + ")";
    return hints;
}

}  // namespace stencil::viewer
