// The parent's side of one check: the test cases it writes for the runner, and the judgement of
// what the runner leaves behind. Internal to stencil_checker (tests use it through checker.h).
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "checker/checker.h"
#include "checker/exercises.h"
#include "checker/process.h"
#include "checker/shared_arrays.h"
#include "core/field.h"
#include "core/weights.h"

namespace stencil::checker {

// One buffer in the exercise's precision: the vector of that type holds the cells, the other is
// empty.
struct Cells {
    Precision precision = Precision::f32;
    std::vector<float> f32;
    std::vector<double> f64;

    size_t size() const { return precision == Precision::f64 ? f64.size() : f32.size(); }
    size_t bytes() const { return size() * bytes_of(precision); }
    const void* data() const {
        return precision == Precision::f64 ? static_cast<const void*>(f64.data()) : f32.data();
    }
    template <class real>
    const std::vector<real>& as() const {
        if constexpr (std::is_same_v<real, double>) return f64;
        else return f32;
    }
    template <class real>
    std::vector<real>& as() {
        if constexpr (std::is_same_v<real, double>) return f64;
        else return f32;
    }
};

struct TestCase {
    int n = 0;
    long long guard = 0;         // cells of guard zone before and after each buffer
    std::uint64_t poison = 0;    // bit pattern of the NaN the interior starts as (f32: low 32 bits)
    Cells input;                 // guard + n^3 + guard, as given to the kernel
    Cells output;                // guard + n^3 + guard, poisoned
    std::vector<std::string> runs;  // "in_order", "reversed", "random", "repeat"
    std::vector<std::uint64_t> run_seeds;
    Launch launch;
};

TestCase make_case(const Exercise& ex, int n, int tile, std::uint64_t seed);
nlohmann::json case_json(const TestCase& c, int index);

struct Judgement {
    Verdict verdict = Verdict::pass;
    Evidence evidence;
    std::vector<TestRecord> tests;
    std::vector<std::string> warnings;
};

// `result` is the runner's result.json (null when it wrote none); `dir` holds its run files;
// `arrays` the submission's __shared__ declarations (evidence names their cells).
Judgement judge_runs(const Exercise& ex, int tile, const StencilWeights& weights,
                     const std::vector<TestCase>& cases, const nlohmann::json& result,
                     const ChildResult& child, const std::string& dir, const SharedArrays& arrays = {});

// Where cell (x, y, z) of an n^3 grid sits for the student (CellClass in checker.h).
CellClass classify_cell(const Exercise& ex, int tile, int n, int x, int y, int z);

int priority(Verdict v);  // lower wins

// What is wrong with the runner's result.json ("" when every field the parent reads is there
// with the right type). The parent never trusts the child it started: a malformed result is a
// `crash`, never an exception or a pass.
std::string result_problem(const nlohmann::json& result);
inline constexpr const char* kMalformedResult = "the runner's result is malformed";

}  // namespace stencil::checker
