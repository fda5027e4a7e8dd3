#include "checker/findings.h"

#include "checker/causes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "checker/evaluate.h"
#include "checker/hints.h"

namespace stencil::checker {

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Every number of a message as '#' ("-0.0447", "1e-05", "0x1f", "nan", "inf" included): sizes,
// cells, counts and values change from size to size, what the sentence says does not.
std::string numbers_masked(const std::string& s) {
    std::string out;
    size_t i = 0;
    auto word_at = [&](const char* w) {
        const size_t n = std::char_traits<char>::length(w);
        if (s.size() - i < n) return false;
        for (size_t k = 0; k < n; ++k)
            if (std::tolower(static_cast<unsigned char>(s[i + k])) != w[k]) return false;
        const bool before = i == 0 || !std::isalnum(static_cast<unsigned char>(s[i - 1]));
        const bool after = i + n == s.size() || !std::isalnum(static_cast<unsigned char>(s[i + n]));
        return before && after;
    };
    while (i < s.size()) {
        if (word_at("nan") || word_at("inf")) {
            out += '#';
            i += 3;
            continue;
        }
        if (!is_digit(s[i])) {
            out += s[i++];
            continue;
        }
        // a number: 0x and hex digits, or digits, a fraction and an exponent
        if (s[i] == '0' && i + 1 < s.size() && s[i + 1] == 'x') {
            for (i += 2; i < s.size() && std::isxdigit(static_cast<unsigned char>(s[i]));) ++i;
        } else {
            while (i < s.size() && (is_digit(s[i]) || (s[i] == '.' && i + 1 < s.size() && is_digit(s[i + 1])))) ++i;
            if (i + 1 < s.size() && (s[i] == 'e' || s[i] == 'E') &&
                (is_digit(s[i + 1]) || ((s[i + 1] == '-' || s[i + 1] == '+') && i + 2 < s.size() && is_digit(s[i + 2]))))
                for (i += 2; i < s.size() && is_digit(s[i]);) ++i;
        }
        if (!out.empty() && (out.back() == '-' || out.back() == '+')) out.pop_back();
        out += '#';
    }
    return out;
}

std::string statement(const SourceRef& s) { return fmt::format("{}:{} {}", s.file, s.line, s.role); }

}  // namespace

std::vector<SourceRef> compiler_sources(const std::string& compiler_output) {
    std::vector<SourceRef> out;
    size_t start = 0;
    while (start < compiler_output.size() && out.size() < 8) {
        size_t end = compiler_output.find('\n', start);
        if (end == std::string::npos) end = compiler_output.size();
        const std::string line = compiler_output.substr(start, end - start);
        start = end + 1;
        // "FILE.cu:LINE: error: ..." (source.cpp's tidy_compiler_output), the file without spaces
        const size_t colon = line.find(':');
        if (colon == std::string::npos || colon == 0 || line.find(' ') < colon) continue;
        size_t e = colon + 1;
        int n = 0;
        while (e < line.size() && is_digit(line[e])) n = n * 10 + (line[e++] - '0');
        if (e == colon + 1 || line.compare(e, 2, ": ") != 0) continue;
        // NVRTC's "error:" or "warning:"; the vetting's own refusal says why in words (source.cpp)
        const size_t kind_end = line.find(':', e + 2);
        std::string role = kind_end == std::string::npos ? "" : line.substr(e + 2, kind_end - e - 2);
        if (role != "error" && role != "warning") role = "refused";
        const bool seen = std::any_of(out.begin(), out.end(), [&](const SourceRef& r) { return r.line == n && r.role == role; });
        if (!seen) out.push_back(SourceRef{line.substr(0, colon), n, "", role, std::nullopt, std::nullopt});
    }
    return out;
}

std::vector<SourceRef> sources_of(const Evidence& ev) {
    if (ev.sources.empty() && !ev.compiler_output.empty()) return compiler_sources(ev.compiler_output);
    if (!ev.sources.empty() || !ev.line || ev.line->line <= 0) return ev.sources;
    SourceRef s{ev.line->file, ev.line->line, ev.line->instruction, "where the CPU engine caught it", std::nullopt,
                std::nullopt};
    if (ev.race) {
        s.block = std::array<int, 3>{ev.race->block[0], ev.race->block[1], ev.race->block[2]};
        s.thread = std::array<int, 3>{ev.race->thread_a[0], ev.race->thread_a[1], ev.race->thread_a[2]};
    }
    return {s};
}

std::string without_size_and_run(const Evidence& ev) {
    const std::string& m = ev.message;
    // "N=13 in_order schedule: ...": the run's label, then ": ".
    if (!ev.run.empty())
        if (const size_t p = m.find(ev.run + ": "); p != std::string::npos && p < 64) return m.substr(p + ev.run.size() + 2);
    // "N=13: the output differs ...", "n=17 (19x19 with ghosts): ...", "64x8x3: ...": a size first.
    const size_t colon = m.find(": ");
    if (colon != std::string::npos && colon < 40 && ev.n > 0 && m.find(std::to_string(ev.n)) < colon)
        return m.substr(colon + 2);
    return m;
}

std::string finding_key(Verdict v, const Evidence& ev) {
    std::string key = std::string(to_string(v)) + "|";
    for (const SourceRef& s : ev.sources) key += statement(s) + ";";
    if (ev.line) key += fmt::format("{}:{}", ev.line->file, ev.line->line);
    // A 2D case's cell "(x=#, y=#)" and a 3D one's "(x=#, y=#, z=#)" are the same place in words.
    std::string masked = numbers_masked(without_size_and_run(ev));
    for (size_t p; (p = masked.find(", z=#")) != std::string::npos;) masked.erase(p, 5);
    // Runs that differ are one finding whichever two runs showed it (run_plan.cpp's labels).
    for (const char* run : {"in_order schedule", "reversed schedule", "random schedule (seed #)", "GPU run #"})
        for (size_t p; (p = masked.find(run)) != std::string::npos;) masked.replace(p, std::strlen(run), "a run");
    return key + "|" + masked;
}

std::string cause_of(Verdict v, const Evidence& ev) {
    if (!ev.cause.empty()) return ev.cause;
    const auto c = default_cause(v, ev);
    return c ? std::string(cause_name(*c)) : std::string{};
}

std::vector<Finding> summarise_cases(const std::vector<CaseFinding>& cases, const std::string& exercise) {
    struct Group {
        std::string key;
        Finding f;
        const CaseFinding* smallest = nullptr;
        size_t first = 0;  // the index of the first case it appeared in
    };
    std::vector<Group> groups;
    for (size_t c = 0; c < cases.size(); ++c) {
        const CaseFinding& cf = cases[c];
        if (cf.verdict == Verdict::pass) continue;
        const std::string key = finding_key(cf.verdict, cf.evidence);
        auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) { return x.key == key; });
        if (g == groups.end()) {
            groups.push_back({key, {}, nullptr, c});
            g = groups.end() - 1;
            g->f.verdict = cf.verdict;
        }
        if (std::find(g->f.sizes.begin(), g->f.sizes.end(), cf.size) == g->f.sizes.end()) g->f.sizes.push_back(cf.size);
        // The message and statements of the smallest size: the one a student reproduces first.
        if (!g->smallest || cf.size < g->smallest->size) g->smallest = &cf;
    }
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
        if (priority(a.f.verdict) != priority(b.f.verdict)) return priority(a.f.verdict) < priority(b.f.verdict);
        return a.first < b.first;
    });
    std::vector<Finding> out;
    for (Group& g : groups) {
        g.f.message = without_size_and_run(g.smallest->evidence);
        g.f.sources = sources_of(g.smallest->evidence);
        g.f.cause = cause_of(g.f.verdict, g.smallest->evidence);
        g.f.hint = hint_for(exercise, g.f.cause);
        out.push_back(std::move(g.f));
    }
    return out;
}

void take_smallest_counterexample(CheckResult& res, const std::vector<CaseFinding>& cases) {
    const CaseFinding* smallest = nullptr;
    for (const CaseFinding& c : cases)
        if (c.verdict == res.verdict && c.size > 0 && (!smallest || c.size < smallest->size)) smallest = &c;
    if (smallest) res.evidence = smallest->evidence;
}

void summarise(CheckResult& res, const std::vector<CaseFinding>& cases) {
    res.findings = summarise_cases(cases, res.exercise);
    res.smallest_failing_size.reset();
    bool carried = false;
    for (const CaseFinding& c : cases) {
        if (c.verdict == Verdict::pass || c.size <= 0) continue;
        if (!res.smallest_failing_size || c.size < *res.smallest_failing_size) res.smallest_failing_size = c.size;
        carried = carried || c.verdict == res.verdict;
    }
    if (!carried && res.verdict != Verdict::pass) {
        // A verdict no case carries: a compile error, the child's end, the sanitizer's, the
        // timing's. It comes first, and replaces a case's finding it only adds to (a crash whose
        // message the sanitizer's note extends).
        Finding f;
        f.verdict = res.verdict;
        f.message = without_size_and_run(res.evidence);
        f.sources = sources_of(res.evidence);
        f.cause = cause_of(f.verdict, res.evidence);
        if (res.evidence.n > 0) f.sizes = {res.evidence.n};
        f.hint = hint_for(res.exercise, f.cause);
        std::erase_if(res.findings, [&](const Finding& old) {
            if (old.message.empty() || f.message.find(old.message) == std::string::npos) return false;
            for (int n : old.sizes)
                if (std::find(f.sizes.begin(), f.sizes.end(), n) == f.sizes.end()) f.sizes.push_back(n);
            return true;
        });
        res.findings.insert(res.findings.begin(), std::move(f));
    }
    // The statements and the cause found after the verdict for the smallest case (a replay of its
    // run: they are in res.evidence only) are its finding's.
    for (Finding& f : res.findings)
        if (f.verdict == res.verdict && std::find(f.sizes.begin(), f.sizes.end(), res.evidence.n) != f.sizes.end()) {
            if (!res.evidence.sources.empty()) f.sources = res.evidence.sources;
            if (!res.evidence.cause.empty()) f.cause = res.evidence.cause;
            break;
        }
    // Which finding each failing size's test belongs to (1-based; each case has one worst finding).
    for (TestRecord& t : res.tests) {
        t.finding = 0;
        if (t.passed || t.size <= 0) continue;
        for (size_t k = 0; k < res.findings.size() && !t.finding; ++k)
            if (std::find(res.findings[k].sizes.begin(), res.findings[k].sizes.end(), t.size) != res.findings[k].sizes.end())
                t.finding = int(k) + 1;
    }
    const std::vector<std::string> hints = res.findings.empty() ? std::vector<std::string>{} : exercise_hints(res.exercise);
    for (Finding& f : res.findings)
        if (f.hint > 0 && size_t(f.hint) <= hints.size()) f.hint_text = hints[size_t(f.hint) - 1];
}

std::vector<int> passed_sizes(const CheckResult& res) {
    std::vector<int> out;
    for (const TestRecord& t : res.tests)
        if (t.passed && t.size > 0 && std::find(out.begin(), out.end(), t.size) == out.end()) out.push_back(t.size);
    return out;
}

std::string size_list(const std::vector<int>& sizes, const std::vector<int>& tested) {
    std::string s;
    for (int n : sizes) s += (s.empty() ? "" : ", ") + std::to_string(n);
    if (tested.size() <= 1) return s;
    if (sizes.size() == tested.size()) return s + fmt::format(" (all {} sizes)", tested.size());
    return s + fmt::format(" ({} of {} sizes)", sizes.size(), tested.size());
}

}  // namespace stencil::checker
