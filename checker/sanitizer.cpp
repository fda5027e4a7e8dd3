#include "checker/sanitizer.h"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "checker/diagnostics.h"
#include "core/error.h"

namespace stencil::checker {

SanitizerFinding classify_sanitizer_report(std::string_view report) {
    // memcheck's record of a store out of bounds: "Invalid __global__ write of size 4 bytes".
    if (report.find("Invalid __global__ write") != std::string_view::npos) return SanitizerFinding::invalid_global_write;
    return report.find("ERROR SUMMARY: 0 errors") != std::string_view::npos ? SanitizerFinding::none
                                                                            : SanitizerFinding::other_error;
}

namespace {

std::string_view trimmed_line(std::string_view line) {
    while (!line.empty() && (line.front() == '=' || line.front() == ' ')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    return line;
}

// "FILE:LINE" or "FILE:LINE:function" after the last " in " of an "at ..." line; false when the
// location has no line (a kernel without line info).
bool location(std::string_view at, std::string& file, int& line) {
    const size_t in = at.rfind(" in ");
    if (in == std::string_view::npos) return false;
    const std::string_view loc = at.substr(in + 4);
    for (size_t c = loc.find(':'); c != std::string_view::npos; c = loc.find(':', c + 1)) {
        size_t e = c + 1;
        int n = 0;
        while (e < loc.size() && loc[e] >= '0' && loc[e] <= '9') n = n * 10 + (loc[e++] - '0');
        if (e > c + 1 && (e == loc.size() || loc[e] == ':' || loc[e] == ' ')) {
            file = base_name(loc.substr(0, c));
            line = n;
            return true;
        }
    }
    return false;
}

// "(9,0,0)" -> {9, 0, 0}
std::optional<std::array<int, 3>> triple_at(std::string_view s, size_t open) {
    std::array<int, 3> v{};
    if (open == std::string_view::npos ||
        std::sscanf(std::string(s.substr(open)).c_str(), "(%d,%d,%d)", &v[0], &v[1], &v[2]) != 3)
        return std::nullopt;
    return v;
}

}  // namespace

std::vector<SourceRef> sanitizer_sources(std::string_view report, const std::string& display) {
    std::vector<SourceRef> out;
    const std::string student = base_name(display);
    std::optional<SourceRef> open;  // the record being read
    auto close = [&] {
        if (!open || open->line <= 0) return;
        for (const SourceRef& s : out)
            if (s.file == open->file && s.line == open->line && s.role == open->role) return;
        out.push_back(*open);
    };
    size_t start = 0;
    while (start < report.size()) {
        size_t end = report.find('\n', start);
        if (end == std::string_view::npos) end = report.size();
        const std::string_view line = trimmed_line(report.substr(start, end - start));
        start = end + 1;
        if (line.rfind("Invalid ", 0) == 0) {  // "Invalid __global__ read of size 4 bytes"
            close();
            open = SourceRef{};
            const bool write = line.find(" write ") != std::string_view::npos;
            const size_t space = line.find("__", 8);
            const std::string_view mem = space == std::string_view::npos ? "" : line.substr(space, line.find(' ', space) - space);
            open->role = fmt::format("out-of-bounds {}{}", write ? "write" : "read",
                                     mem.empty() ? "" : fmt::format(" of {} memory", mem));
        } else if (open && open->line == 0 && line.rfind("at ", 0) == 0) {
            std::string file;
            int n = 0;
            if (location(line, file, n) && file == student) open->file = file, open->line = n;
        } else if (open && line.rfind("by thread ", 0) == 0) {
            open->thread = triple_at(line, line.find('('));
            open->block = triple_at(line, line.find('(', line.find(" in block")));
        }
    }
    close();
    return out;
}

std::string find_sanitizer() {
    for (const char* p : {"/usr/local/cuda/bin/compute-sanitizer", "/usr/bin/compute-sanitizer"})
        if (access(p, X_OK) == 0) return p;
    if (const char* path = std::getenv("PATH")) {
        const std::string s = path;
        size_t a = 0;
        while (a <= s.size()) {
            size_t e = s.find(':', a);
            if (e == std::string::npos) e = s.size();
            const std::string cand = s.substr(a, e - a) + "/compute-sanitizer";
            if (access(cand.c_str(), X_OK) == 0) return cand;
            a = e + 1;
        }
    }
    return "";
}

namespace {

// The one case rerun: the crash's, or the last of at most N = 40 on a pass.
size_t case_to_rerun(const CheckResult& res, const std::vector<int>& sizes, bool crashed) {
    size_t pick = 0;
    for (size_t c = 0; c < sizes.size(); ++c)
        if (crashed ? sizes[c] == res.evidence.n : sizes[c] <= 40) pick = c;
    return pick;
}

// The request for that case alone: one GPU run, no timing, no count (its index would point into
// the full case list), the runner's own clock long enough for the tool's slowdown.
Request sanitizer_request(const Request& req, size_t pick, const CheckOptions& opt) {
    Request one = req;
    one.timing.reset();
    one.count.reset();
    CaseSpec cs = req.cases.at(pick);
    cs.runs = {RunSpec{Schedule::repeat, Schedule::in_order, 0, true, false}};
    one.cases = {cs};
    one.time_limit = std::max(120.0, opt.time_limit_s);
    return one;
}

}  // namespace

void sanitize(CheckResult& res, const Request& req, const std::vector<int>& sizes,
              const std::string& runner, const std::string& work, const CheckOptions& opt) {
    const bool crashed = res.verdict == Verdict::crash;
    if (!(res.verdict == Verdict::pass || crashed)) return;
    const std::string san = find_sanitizer();
    if (san.empty()) {
        res.warnings.push_back("--sanitize: compute-sanitizer not found; skipped");
        return;
    }
    const size_t pick = case_to_rerun(res, sizes, crashed);
    const Request sreq = sanitizer_request(req, pick, opt);
    {
        std::ofstream f(work + "/sanitize.json", std::ios::trunc);
        f << nlohmann::json(sreq).dump(1);
        if (!f) throw UserError("cannot write " + work + "/sanitize.json");
    }
    const std::vector<std::string> tools = crashed ? std::vector<std::string>{"memcheck"}
                                                   : std::vector<std::string>{"memcheck", "racecheck", "synccheck"};
    for (const std::string& tool : tools) {
        ChildLimits sl;
        sl.wall_seconds = sreq.compile_seconds + sreq.time_limit + 30;
        const ChildResult sr = run_child({san, "--tool", tool, "--error-exitcode", std::to_string(kSanitizerErrorExit),
                                          "--print-limit", "8", runner, "sanitize.json"},
                                         sl, work);
        res.tests.push_back({fmt::format("compute-sanitizer --tool {} (N={})", tool, sizes[pick]), sr.ok(),
                             sr.ok() ? "no errors" : sr.describe()});
        if (sr.ok()) continue;
        const std::string report = sr.output.size() > 4000 ? sr.output.substr(0, 4000) : sr.output;
        const bool bad_write = classify_sanitizer_report(sr.output) == SanitizerFinding::invalid_global_write;
        const std::vector<SourceRef> lines = tool == "memcheck" ? sanitizer_sources(sr.output, req.display_name)
                                                                : std::vector<SourceRef>{};
        if (crashed) {  // keep the crash's evidence, add the sanitizer's
            if (bad_write) res.verdict = Verdict::out_of_bounds_write;
            if (!lines.empty()) res.evidence.sources = lines;
            res.evidence.message += "; compute-sanitizer memcheck's report (below) names the line";
            res.evidence.child_output += "\ncompute-sanitizer --tool memcheck:\n" + report;
            return;
        }
        Verdict v = tool == "memcheck" ? Verdict::crash : Verdict::race;
        if (bad_write) v = Verdict::out_of_bounds_write;
        if (sr.timed_out) v = Verdict::timeout;
        res.verdict = v;
        res.evidence = Evidence{};
        res.evidence.n = sizes[pick];
        res.evidence.message = fmt::format("compute-sanitizer {} reported errors ({})", tool, sr.describe());
        res.evidence.child_output = report;
        res.evidence.sources = lines;
        return;
    }
}

}  // namespace stencil::checker
