#include "grading/platform_results.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cmath>
#include <fstream>

#include "core/error.h"
#include "core/version.h"

namespace stencil::grading {

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Scores a platform shows: no -0, no 33.333333333333336.
double rounded(double x) { return std::round(x * 10000) / 10000 + 0.0; }

std::string cut(const std::string& s, size_t max) {
    if (s.size() <= max) return s;
    return s.substr(0, max) + fmt::format("\n[... {} more bytes cut]\n", s.size() - max);
}

}  // namespace

json grade_record(const Score& s) {
    return {{"stencil_lab_version", stencil_lab_version()},
            {"exercise", s.record.exercise},
            {"exercise_hash", s.record.exercise_hash},
            {"seed", std::to_string(s.record.seed)},  // a string: JavaScript readers would round it
            {"submission_sha256", s.record.submission_sha256}};
}

json to_gradescope(const Score& s) { return to_gradescope(s, nullptr); }

json to_gradescope(const Score& s, const json& extra) {
    json g;
    g["score"] = rounded(s.points);
    g["execution_time"] = static_cast<long long>(std::ceil(s.seconds));
    g["output"] = s.output;
    g["stdout_visibility"] = "hidden";  // the run's own log is for the instructor
    g["tests"] = json::array();
    for (const auto& t : s.tests)
        g["tests"].push_back({{"name", t.name},
                              {"score", rounded(t.points)},
                              {"max_score", rounded(t.max_points)},
                              {"status", t.passed ? "passed" : "failed"},
                              {"output", t.output},
                              {"tags", json::array({to_string(t.item)})},
                              {"visibility", to_string(t.visibility)}});
    g["leaderboard"] = json::array();
    for (const auto& e : s.leaderboard)
        g["leaderboard"].push_back({{"name", e.name}, {"value", e.value}, {"order", e.ascending ? "asc" : "desc"}});
    g["extra_data"] = extra.is_object() ? extra : json::object();
    g["extra_data"]["graded_by"] = grade_record(s);
    return g;
}

json to_prairielearn(const Score& s) {
    size_t budget = 16 * 1024;  // bytes per output; halved until the file fits PrairieLearn's limit
    for (;;) {
        json p;
        p["gradable"] = s.gradable;
        p["score"] = s.max_points > 0 ? rounded(s.points / s.max_points) : 0.0;
        p["message"] = cut(s.output.substr(0, s.output.find('\n')), budget);
        // PrairieLearn documents no field for it: what graded is the output's last line.
        p["output"] = cut(s.output, budget) +
                      fmt::format("graded by stencil-lab {}, exercise {} ({}), seed {:#x}, submission {}\n",
                                  stencil_lab_version(), s.record.exercise, s.record.exercise_hash.substr(0, 12),
                                  s.record.seed, s.record.submission_sha256.empty() ? "none" : s.record.submission_sha256.substr(0, 12));
        if (!s.gradable) p["format_errors"] = cut(s.output, budget);
        p["tests"] = json::array();
        for (const auto& t : s.tests)
            p["tests"].push_back({{"name", t.name},
                                  {"description", to_string(t.item)},
                                  {"points", rounded(t.points)},
                                  {"max_points", rounded(t.max_points)},
                                  {"message", t.passed ? "passed" : "failed"},
                                  {"output", cut(t.output, budget)}});
        if (p.dump().size() <= kPrairieLearnMaxBytes || budget < 64) return p;
        budget /= 2;
    }
}

json to_classroom(const Score& s, const std::string& submission_hash) {
    json items = json::object();
    for (const auto& t : s.tests) {
        json& it = items[t.group.empty() ? std::string(to_string(t.item)) : t.group];
        if (it.is_null()) it = {{"points", 0.0}, {"max_points", 0.0}, {"lines", json::array()}};
        it["points"] = rounded(it["points"].get<double>() + t.points);
        it["max_points"] = rounded(it["max_points"].get<double>() + t.max_points);
        it["lines"].push_back(fmt::format("[{}] {}: {}", t.passed ? "ok" : "FAIL", t.name, t.output));
    }
    return {{"submission_sha256", submission_hash}, {"score", rounded(s.points)}, {"max_score", rounded(s.max_points)},
            {"gradable", s.gradable}, {"output", s.output}, {"items", items}, {"graded_by", grade_record(s)}};
}

json results_for(Platform p, const Score& scored, const std::string& submission_hash) {
    Score s = scored;  // the hash the caller took of the file it graded, where the check gave none
    if (s.record.submission_sha256.empty()) s.record.submission_sha256 = submission_hash;
    switch (p) {
        case Platform::gradescope: return to_gradescope(s);
        case Platform::prairielearn: return to_prairielearn(s);
        case Platform::classroom: return to_classroom(s, submission_hash);
    }
    return nullptr;
}

void write_results_file(const fs::path& path, const json& j) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    const fs::path tmp = path.string() + fmt::format(".tmp{}", ::getpid());
    {
        std::ofstream f(tmp, std::ios::trunc);
        f << j.dump(2) << "\n";
        if (!f) {
            fs::remove(tmp, ec);
            throw UserError(fmt::format("cannot write {}", path.string()));
        }
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw UserError(fmt::format("cannot write {}: {}", path.string(), ec.message()));
    }
}

}  // namespace stencil::grading
