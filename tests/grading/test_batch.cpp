// `check --batch` for a course's many submissions: checks in parallel (--jobs), the seed and the
// content hash in every CSV row, --json honoured, one platform results file per submission, and a
// rerun that checks again only what changed (the folder's .stencil-lab-batch.json).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sstream>
#include <vector>

#include "core/sha256.h"
#include "tests/grading/grading_test_support.h"
#include "tests/grading/platform_specs.h"

using namespace grading_test;
using nlohmann::json;

namespace {

std::vector<std::string> rows(const std::string& csv) {
    std::vector<std::string> r;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);) r.push_back(line);
    return r;
}

}  // namespace

TEST_CASE("check --batch: parallel, seeded, resumable, with platform results files", "[grading][cli]") {
    TempDir t;
    const fs::path subs = t.path / "subs";
    fs::create_directories(subs);
    for (const char* f : {"naive_ok.cu", "naive_zeros.cu", "naive_big_n_wrong.cu", "naive_syntax_error.cu"})
        fs::copy_file(corpus(f), subs / f);
    const std::string batch = "stencil-lab check --batch " + subs.string() + " -e naive --backend cpu --jobs 2 --csv " +
                              (t.path / "grades.csv").string() + " --results-dir " + (t.path / "results").string() +
                              " --platform prairielearn";
    const Shell first = sh(batch);
    CAPTURE(first.out);
    REQUIRE(first.code == 1);
    REQUIRE(first.out.find("1 of 4 passed") != std::string::npos);
    const std::vector<std::string> csv = rows(slurp(t.path / "grades.csv"));
    REQUIRE(csv.size() == 5);
    REQUIRE(csv[0] == "file,verdict,score,message,loads_per_output,load_budget,time_ratio,seed,sha256,exercise,"
                      "exercise_hash,stencil_lab_version");
    for (size_t i = 1; i < csv.size(); ++i) {
        CAPTURE(csv[i]);
        REQUIRE(csv[i].find(",0x") != std::string::npos);  // the seed a regrade reproduces
    }
    // a failing file's row and line: its finding once, with the sizes it appeared at
    for (const std::string& row : csv)
        if (row.rfind("\"naive_zeros.cu\"", 0) == 0) REQUIRE(row.find("wrong_result at N = 3, ") != std::string::npos);
    REQUIRE(first.out.find("naive_zeros.cu") != std::string::npos);
    REQUIRE(first.out.find("wrong_result at N = 3, ") != std::string::npos);
    for (const char* f : {"naive_ok", "naive_zeros", "naive_big_n_wrong", "naive_syntax_error"}) {
        const std::string text = slurp(t.path / "results" / (std::string(f) + ".json"));
        CAPTURE(f, text);
        REQUIRE(platform_specs::prairielearn_violation(json::parse(text), text.size()) == "");
        // what graded, the submitted file's hash included (a check that threw too)
        const std::string hash = stencil::file_sha256_hex((subs / (std::string(f) + ".cu")).string());
        REQUIRE(json::parse(text)["output"].get<std::string>().find("submission " + hash.substr(0, 12) + "\n") !=
                std::string::npos);
    }
    // A rerun checks nothing that did not change, and writes the same rows.
    const Shell again = sh(batch);
    CAPTURE(again.out);
    REQUIRE(again.out.find("4 unchanged since the last run") != std::string::npos);
    std::vector<std::string> csv2 = rows(slurp(t.path / "grades.csv"));
    std::sort(csv2.begin() + 1, csv2.end());
    std::vector<std::string> sorted = csv;
    std::sort(sorted.begin() + 1, sorted.end());
    REQUIRE(csv2 == sorted);
    // One file changed: it alone is checked again.
    std::ofstream(subs / "naive_ok.cu", std::ios::app) << "\n// changed\n";
    const Shell changed = sh(batch);
    REQUIRE(changed.out.find("3 unchanged since the last run") != std::string::npos);
    // --json: one document; --fresh checks everything again.
    const Shell j = sh("stencil-lab check --batch " + subs.string() + " -e naive --backend cpu --jobs 2 --json --fresh");
    CAPTURE(j.out);
    const json doc = json::parse(j.out, nullptr, false);
    REQUIRE(doc.is_object());
    REQUIRE(doc["results"].size() == 4);
    REQUIRE(doc["passed"] == 1);
    REQUIRE(doc["reused"] == 0);
    REQUIRE(doc["seed"].get<std::string>().rfind("0x", 0) == 0);
    for (const auto& r : doc["results"]) {
        REQUIRE(r.contains("verdict"));
        REQUIRE(r["submission_sha256"] == stencil::file_sha256_hex(r["file"].get<std::string>()));
    }
}
