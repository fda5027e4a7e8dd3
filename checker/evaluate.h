// The parent's side of one check: the test cases it writes for the runner, and the judgement of
// what the runner leaves behind. Internal to stencil_checker (tests use it through checker.h).
#pragma once
#include <cstdint>
#include <future>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "checker/checker.h"
#include "checker/diagnostics.h"
#include "checker/exercises.h"
#include "checker/findings.h"
#include "checker/process.h"
#include "checker/protocol.h"
#include "checker/run_plan.h"
#include "checker/shared_arrays.h"
#include "core/field.h"
#include "core/reference.h"
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
    void* data() { return precision == Precision::f64 ? static_cast<void*>(f64.data()) : f32.data(); }
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
    std::vector<RunSpec> runs;     // run_plan.h
    int check_block_stride = 1;
    Launch launch;
};

TestCase make_case(const Exercise& ex, int n, int tile, std::uint64_t seed);

// The poison an output starts as: a quiet NaN of the precision whose payload is random (never the
// canonical NaN arithmetic produces), as a bit pattern (f32: the low 32 bits).
std::uint64_t random_poison(Precision p, std::mt19937_64& rng);
CaseSpec case_spec(const TestCase& c, int index);  // the request's view of it (files case<index>.*)

int priority(Verdict v);  // lower wins

// Why two runs of one case may differ, in words, from what the runs reported: their results are
// result.runs[first, last]; every earlier run may have left __device__ state.
std::string why_runs_differ(const Result& result, size_t first, size_t last);
// " (earlier launches changed the __device__ variables x, y: ...)" when runs before `before` did.
std::string state_note(const Result& result, size_t before);
// The verdict of runs of one case that differ: wrong_result where the only reason is an output that
// read shared cells no thread stored (no two accesses conflict: on a GPU the read gets whatever
// shared memory held, and an H100 gives wrong_result), else race.
Verdict runs_differ_verdict(const Result& result, size_t first, size_t last);

struct Judgement {
    Verdict verdict = Verdict::pass;
    Evidence evidence;
    std::vector<TestRecord> tests;
    std::vector<std::string> warnings;
    std::vector<CaseFinding> cases;  // each failing case's worst finding (the report's summary)
};

// The verdict so far: the highest-priority finding wins, with its evidence; and the worst finding
// of the case being judged, kept per case by end_case.
struct Findings {
    Judgement& j;
    CaseFinding current{};
    void consider(Verdict v, Evidence ev) {
        if (priority(v) < priority(current.verdict)) {
            current.verdict = v;
            current.evidence = ev;
        }
        if (priority(v) < priority(j.verdict)) {
            j.verdict = v;
            j.evidence = std::move(ev);
        }
    }
    void end_case(int size) {
        current.size = size;
        if (current.verdict != Verdict::pass) j.cases.push_back(std::move(current));
        current = CaseFinding{};
    }
};

// One case's line in the report: its worst finding.
struct CaseLine {
    Verdict verdict = Verdict::pass;
    std::string line = "ok";
    void note(Verdict v, const std::string& message) {
        if (priority(v) < priority(verdict)) {
            verdict = v;
            line = message;
        }
    }
};

// The CPU engine's diagnostics of one run (`where`: "N=13 in_order schedule"), each through
// diagnose() into `findings` and the case's `line`, and once a check a warning for loads of shared
// cells no thread had stored. True when the engine abandoned the run (its outputs tell nothing).
bool take_engine_diagnostics(const RunOutcome& run, const Evidence& base, const std::string& where,
                             const DiagnosisContext& ctx, Findings& findings, CaseLine& line);

// The fp64 reference of case `c` (core/reference.h), with the exercise's weights.
Reference case_reference(const Exercise& ex, const StencilWeights& weights, const TestCase& c);
// Every case's reference, computed on threads of their own while the runner runs.
using CaseReferences = std::vector<std::shared_future<Reference>>;
CaseReferences start_case_references(const Exercise& ex, const StencilWeights& weights,
                                     const std::vector<TestCase>& cases);

// `result` is what the parent made of the runner's result.json; `dir` holds its run files;
// `arrays` the submission's __shared__ declarations (evidence names their cells); `refs` the
// cases' references when they were started before (else each is computed when its case is judged).
Judgement judge_runs(const Exercise& ex, int tile, const StencilWeights& weights,
                     const std::vector<TestCase>& cases, const ResultFile& result,
                     const ChildResult& child, const std::string& dir, const SharedArrays& arrays = {},
                     const CaseReferences* refs = nullptr);

// The verdict the child's end decides alone, before any run file is read: internal_error (the
// runner is of another protocol, or could not read its request: its exit code, or a result of
// another schema version), timeout (its run clock's exit code, or the wall), crash (a signal, an
// exit code, the seccomp filter's exit code, a result that does not parse). nullopt: the runs
// can be judged.
std::optional<Judgement> judge_child(const ChildResult& child, const ResultFile& result);

// Where cell (x, y, z) of an n^3 grid sits for the student (CellClass in checker.h).
CellClass classify_cell(const Exercise& ex, int tile, int n, int x, int y, int z);


// "in_order schedule", "random schedule (seed 7)", "GPU run 2": run r of a case, for people.
// One warning for device printf that went past its cap (the first such run).
void printf_warning(const Result& result, std::vector<std::string>& warnings);

// Why CUDA cannot run checks here, from the runner's probe (protocol.h's exit codes: a runner
// built without CUDA, or no usable device); nullopt when the probe succeeded.
std::optional<std::string> cuda_unavailable_from_probe(const ChildResult& probe);

// The parent never trusts the child it started: a result that does not parse (protocol.h) is a
// `crash` with this and the reason, never an exception or a pass.
inline constexpr const char* kMalformedResult = "the runner's result is malformed";

}  // namespace stencil::checker
