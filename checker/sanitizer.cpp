#include "checker/sanitizer.h"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "core/error.h"

namespace stencil::checker {

SanitizerFinding classify_sanitizer_report(std::string_view report) {
    // memcheck's record of a store out of bounds: "Invalid __global__ write of size 4 bytes".
    if (report.find("Invalid __global__ write") != std::string_view::npos) return SanitizerFinding::invalid_global_write;
    return report.find("ERROR SUMMARY: 0 errors") != std::string_view::npos ? SanitizerFinding::none
                                                                            : SanitizerFinding::other_error;
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
        if (crashed) {  // keep the crash's evidence, add the sanitizer's
            if (bad_write) res.verdict = Verdict::out_of_bounds_write;
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
        return;
    }
}

}  // namespace stencil::checker
