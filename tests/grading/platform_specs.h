// The platforms' results files as their documentation specifies them, as checks: every key a
// platform documents, no key it does not, each value of the documented type and range. Written
// from the documents themselves, not from our writer:
//   Gradescope: gradescope-autograders.readthedocs.io, "Autograder Specifications" (Output format;
//     Controlling Test Case Visibility; Test case status) and "Leaderboards"
//   PrairieLearn: docs/externalGrading.md, "Grading results" (score in [0, 1] when gradable,
//     gradable, format_errors, the tests rendered by <pl-external-grader-results>, 1 MB)
// Each returns "" when the file conforms, else the first violation.
#pragma once
#include <nlohmann/json.hpp>

#include <set>
#include <string>

namespace platform_specs {

using json = nlohmann::json;

inline bool one_of(const json& v, std::initializer_list<const char*> names) {
    if (!v.is_string()) return false;
    for (const char* n : names)
        if (v == n) return true;
    return false;
}

inline std::string keys_known(const json& obj, const std::set<std::string>& known, const std::string& where) {
    for (const auto& [k, v] : obj.items())
        if (!known.count(k)) return where + ": undocumented key '" + k + "'";
    return "";
}

inline std::string gradescope_violation(const json& r) {
    if (!r.is_object()) return "not an object";
    if (auto e = keys_known(r, {"score", "execution_time", "output", "output_format", "test_output_format",
                                "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests",
                                "leaderboard"}, "results");
        !e.empty())
        return e;
    const auto visibility = {"hidden", "after_due_date", "after_published", "visible"};
    if (r.contains("score") && !r["score"].is_number()) return "score is not a number";
    if (r.contains("execution_time") && (!r["execution_time"].is_number() || r["execution_time"].get<double>() < 0))
        return "execution_time is not a number of seconds";
    if (r.contains("output") && !r["output"].is_string()) return "output is not a string";
    if (r.contains("visibility") && !one_of(r["visibility"], visibility)) return "visibility is not a documented value";
    if (r.contains("stdout_visibility") && !one_of(r["stdout_visibility"], visibility))
        return "stdout_visibility is not a documented value";
    bool every_test_scored = r.contains("tests") && r["tests"].is_array() && !r["tests"].empty();
    if (r.contains("tests")) {
        if (!r["tests"].is_array()) return "tests is not an array";
        for (const auto& t : r["tests"]) {
            if (!t.is_object()) return "a test is not an object";
            if (auto e = keys_known(t, {"score", "max_score", "status", "name", "name_format", "number", "output",
                                        "output_format", "tags", "visibility", "extra_data"}, "test");
                !e.empty())
                return e;
            if (t.contains("score") && !t["score"].is_number()) return "a test's score is not a number";
            if (t.contains("max_score") && !t["max_score"].is_number()) return "a test's max_score is not a number";
            if (t.contains("status") && !one_of(t["status"], {"passed", "failed"})) return "a test's status is not passed or failed";
            if (t.contains("name") && !t["name"].is_string()) return "a test's name is not a string";
            if (t.contains("output") && !t["output"].is_string()) return "a test's output is not a string";
            if (t.contains("visibility") && !one_of(t["visibility"], visibility)) return "a test's visibility is not documented";
            if (t.contains("tags")) {
                if (!t["tags"].is_array()) return "a test's tags is not an array";
                for (const auto& g : t["tags"])
                    if (!g.is_string()) return "a tag is not a string";
            }
            every_test_scored = every_test_scored && t.contains("score");
        }
    }
    // "score: optional, but required if not on each test case"
    if (!r.contains("score") && !every_test_scored) return "no top-level score and not every test has one";
    if (r.contains("leaderboard")) {
        if (!r["leaderboard"].is_array()) return "leaderboard is not an array";
        for (const auto& e : r["leaderboard"]) {
            if (!e.is_object()) return "a leaderboard entry is not an object";
            if (auto k = keys_known(e, {"name", "value", "order"}, "leaderboard entry"); !k.empty()) return k;
            if (!e.contains("name") || !e["name"].is_string()) return "a leaderboard entry has no name";
            if (!e.contains("value") || !(e["value"].is_number() || e["value"].is_string()))
                return "a leaderboard entry has no value";
            if (e.contains("order") && !one_of(e["order"], {"asc", "desc"})) return "a leaderboard order is not asc or desc";
        }
    }
    return "";
}

inline std::string prairielearn_violation(const json& r, size_t bytes) {
    if (bytes > 1000 * 1000) return "larger than 1 MB";
    if (!r.is_object()) return "not an object";
    const bool gradable = !r.contains("gradable") || r["gradable"] == true;
    if (r.contains("gradable") && !r["gradable"].is_boolean()) return "gradable is not a boolean";
    if (gradable) {
        if (!r.contains("score") || !r["score"].is_number()) return "a gradable result has no numeric score";
        const double s = r["score"].get<double>();
        if (s < 0 || s > 1) return "score is outside [0, 1]";
    }
    if (r.contains("format_errors") && !r["format_errors"].is_string()) {
        if (!r["format_errors"].is_array()) return "format_errors is neither a string nor an array";
        for (const auto& e : r["format_errors"])
            if (!e.is_string()) return "a format error is not a string";
    }
    for (const char* k : {"message", "output"})
        if (r.contains(k) && !r[k].is_string()) return std::string(k) + " is not a string";
    if (r.contains("tests")) {
        if (!r["tests"].is_array()) return "tests is not an array";
        for (const auto& t : r["tests"]) {
            if (auto e = keys_known(t, {"name", "description", "points", "max_points", "message", "output", "images"}, "test");
                !e.empty())
                return e;
            if (!t.contains("name") || !t["name"].is_string()) return "a test has no name";
            for (const char* k : {"points", "max_points"})
                if (t.contains(k) && !t[k].is_number()) return std::string("a test's ") + k + " is not a number";
            for (const char* k : {"description", "message", "output"})
                if (t.contains(k) && !t[k].is_string()) return std::string("a test's ") + k + " is not a string";
        }
    }
    return "";
}

}  // namespace platform_specs
