// The submission checker: one student `.cu` file in, exactly one verdict out, with evidence.
//
//   check_submission(path, options)  vets the file, has a child process compile it with NVRTC to
//   PTX and run that PTX (the CPU backend's PTX engine, or the GPU's driver) on fresh random
//   inputs from a seed the submission cannot predict, and judges what comes back.
//
// Verdicts, in the order they are decided (the first that applies wins):
//   internal_error       the checker itself failed, not the submission: its runner is from another
//                        build (protocol.h's schema version), or was given a request it cannot read
//   compile_error        the file is empty, binary, not UTF-8 text, too large, breaks the contract
//                        (no or two kernels, wrong signature, #include, asm, ...), does not compile
//                        (NVRTC's time or memory bound included), or its PTX cannot be assembled
//                        (more than 48 KiB of static shared memory, ...)
//   timeout              the runs went past the time limit, or (CPU) a block past its instruction
//                        budget (an endless loop, a deadlock)
//   crash                the child died (signal, illegal address, a CUDA launch error), or the
//                        CPU backend caught an out-of-bounds *read* or a store through a pointer
//                        into no buffer
//   out_of_bounds_write  a store outside out[]/in[]: a guard zone changed, or the CPU backend's
//                        bounds check caught the store
//   input_modified       in[] differs after the run, or (CPU) a store went through in[] (decided
//                        before race: a kernel that writes in[] also makes its outputs depend on
//                        the thread order)
//   race                 the CPU backend saw two threads touch one shared cell in one barrier
//                        interval, or one global cell in one interval or from two blocks (one of
//                        them a store), or threads returned / diverged around a
//                        __syncthreads() (a barrier error), or outputs differ between schedules
//                        (CPU) or repeats (GPU), or compute-sanitizer racecheck/synccheck failed
//   boundary_modified    a fixed boundary cell no longer equals the input
//   unwritten            an interior cell still holds the poison (a NaN whose payload is random)
//   wrong_result         an interior cell is outside the rigorous rounding bound of
//                        core/compare.h; a NaN or Inf that is not the poison is a wrong result
//   pass                 none of the above, on every size, schedule and repeat
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "checker/progress.h"

namespace stencil::checker {

enum class Verdict {
    internal_error,
    pass,
    compile_error,
    wrong_result,
    unwritten,
    boundary_modified,
    input_modified,
    out_of_bounds_write,
    race,
    timeout,
    crash,
};
const char* to_string(Verdict v);
std::optional<Verdict> parse_verdict(std::string_view s);

// Where a bad cell sits, for the student: on the fixed boundary, next to it, on the edge of the
// output tile a block computes (its neighbours come from the halo), or inside a tile.
enum class CellClass { boundary, next_to_boundary, tile_edge, halo, tile_interior };
const char* to_string(CellClass c);

struct BadCellEvidence {
    int x = 0, y = 0, z = 0;
    double expected = 0, got = 0, bound = 0;
    CellClass cell = CellClass::tile_interior;
    std::string what;  // "outside the bound", "unwritten (poison still there)", "NaN", ...
};

struct RaceEvidence {
    int block[3] = {0, 0, 0};
    int interval = -1;  // barrier interval: 0 = before the first __syncthreads()
    int thread_a[3] = {0, 0, 0}, thread_b[3] = {0, 0, 0};
    std::string message;
};

// The line of the student's file an engine diagnostic came from (the PTX's line info).
struct SourceLine {
    std::string file;         // the student's file name
    int line = 0;
    std::string instruction;  // the PTX instruction that faulted ("st.shared.f32")
};

// A statement of the student's file that a finding points at, and what it did there. A race has
// two (the store and the load, each with its thread); a wrong value has the statement that wrote
// it; a timeout the statement that was spinning. JSON: "source_file", "source_line" per entry.
struct SourceRef {
    std::string file;         // the student's file name
    int line = 0;
    std::string instruction;  // the PTX instruction there ("st.global.f32"); empty if unknown
    std::string role;         // "store", "load", "wrote the bad cell", "spinning", "barrier", ...
    std::optional<std::array<int, 3>> block, thread;
};

// One link of a backward slice from the first bad output (check --explain), e.g.
// "out(1,1,1) = NaN <- tile[1][1][0] read at line 21", then "never stored: thread (0,1,1)'s load
// at line 10 was skipped because `i < N - 1` was false". The last step is the first that went wrong.
struct ExplainStep {
    std::string text;             // one line for people
    std::optional<SourceRef> at;  // the statement of this step, when it has one
};

// check --explain: the first bad output's value as the stencil the kernel computed, beside the
// exercise's (checker/effective_stencil.h).
struct StencilTermView {
    std::string text;    // "c3 in(x, y, z-1)"
    int line = 0;        // the statement that read the cell (0: unknown)
    bool wrong = false;  // this term differs from the exercise's stencil
};
struct EffectiveStencilView {
    std::string kernel;    // "out(x, y, z) = c0 in(x, y, z) + c1 in(x-1, y, z) + ..."
    std::string exercise;  // the exercise's stencil, written the same way
    std::vector<StencilTermView> terms;     // the kernel's, each with its line
    std::vector<std::string> differences;   // in words, one per difference
    std::vector<int> lines;                 // the lines that hold the mistake
};

struct Evidence {
    std::string message;          // one or a few lines for people
    int n = 0;                    // the grid size of the failing test (N^3)
    int tile = 0;
    std::string run;              // "in_order", "reversed", "random seed 7", "gpu repeat 2"
    long long bad_cells = 0;
    std::optional<BadCellEvidence> first_bad;
    std::string slice_map;        // a small map of the z slice of the first bad cell
    std::optional<RaceEvidence> race;
    std::optional<SourceLine> line;  // CPU backend: where the diagnosed access or barrier is
    std::string compiler_output;  // compile errors, file:line of the student's file
    std::string child_output;     // the tail of the runner's stderr (crash, timeout)
    std::vector<SourceRef> sources;    // every statement the verdict names (see SourceRef)
    std::vector<ExplainStep> explain;  // check --explain: the backward slice, first bad output first
    std::string cause;                 // what went wrong, one of checker/causes.h's names ("" unknown)
    std::optional<EffectiveStencilView> stencil;  // check --explain, star3d: the kernel's stencil
};

// What the assessment of one test case found: its verdict and the evidence for it (pass: none).
struct CaseVerdict {
    Verdict verdict = Verdict::pass;
    Evidence ev;
};

// One distinct finding of a check with every size it appeared at: the report prints one line per
// finding, not one per size.
struct Finding {
    Verdict verdict = Verdict::pass;
    std::string message;            // the finding, without the size and schedule it was seen at
    std::vector<SourceRef> sources;
    std::vector<int> sizes;         // the sizes (N) it appeared at, in the order tested
    int hint = 0;                   // the exercise README's numbered hint that fits; 0: none
    std::string hint_text;          // that hint's text, from the README (empty if not found)
    std::string cause;              // checker/causes.h's name of what went wrong ("" unknown)
};

struct TestRecord {
    std::string name;    // "N=13 in_order"
    bool passed = false;
    std::string output;  // one line
    int size = 0;        // the case's size (star3d N, cardiac2d n, derivative my): a rubric scores
                         // sizes apart (grading/score.h)
    int finding = 0;     // a failing case: its finding, 1-based in CheckResult::findings; 0: none
};

struct Timing {
    int n = 0, reps = 0;
    double student_ms = 0, reference_ms = 0;  // medians
    double ratio = 0;                         // student / reference (< 1: faster than the lab)
    std::string reference;                    // "the lab's kernel: kernels/tiled.cuh"
};

struct LoadCount {
    int n = 0;
    double loads_per_output = 0;  // global loads (elements) / interior cells
    double budget = 0;            // the textbook kernel's count at the same N and T
    bool within_budget = false;
    std::string source;           // "GPU counters (smsp__sass_data_bytes_mem_global_op_ld.sum)",
                                  // or "CPU backend trace"
    std::optional<double> lab_loads_per_output;  // GPU: the lab's kernel, same counter, same N
};

struct CheckResult {
    Verdict verdict = Verdict::compile_error;
    Evidence evidence;
    std::vector<TestRecord> tests;
    std::vector<std::string> warnings;  // uninitialized shared reads, over budget, ...
    std::vector<Finding> findings;      // the failing verdict's distinct findings (summary)
    std::optional<int> smallest_failing_size;  // the smallest N among the checked ones that failed
    std::string file;                   // as given
    std::string exercise;
    std::string exercise_hash;          // checker/exercises.h's exercise_spec_hash: which content
    int tile = 0;
    std::string backend;                // "cpu" or "cuda"
    std::uint64_t seed = 0;             // for the record; drawn by the parent, never passed in
    std::vector<int> sizes;             // every N tested (the fixed ones and those from the seed)
    std::vector<int> drawn_sizes;       // those of `sizes` drawn from the seed (a rubric's hidden tests)
    std::optional<Timing> timing;       // GPU, passing kernels
    std::optional<LoadCount> loads;     // GPU counters on the GPU, a checked run's count on the CPU
    // The count as measured, kept when a failing verdict resets `loads`: a rubric judges the loads
    // on the visible sizes (a kernel failing only a hidden size keeps that item)
    std::optional<LoadCount> measured_loads;
    // The GPU's timing of a kernel that passed the timed case's check, kept whatever the other
    // sizes gave: a rubric times a kernel right on the visible sizes (leaderboard, time item), so
    // that its absence cannot tell a hidden test failed. `timing` stays for passing kernels only.
    std::optional<Timing> measured_timing;
    double seconds = 0;
};

inline constexpr double kDefaultCheckSeconds = 60;

struct CheckOptions {
    std::string exercise = "naive";  // naive, tiled, coarsened, register-tiled, ...
    int tile = 0;                    // 0: the exercise's default
    std::string backend = "auto";    // auto | cuda | cpu (core/backend_choice.h)
    bool sanitize = false;           // GPU: compute-sanitizer on a pass (memcheck, racecheck,
                                     // synccheck) and on a crash (memcheck); CPU: a warning
    double time_limit_s = 0;         // the kernel's runs, in all (NVRTC's compile has its own); 0:
                                     // the exercise's [limits] time, else kDefaultCheckSeconds
    double compile_seconds = 30;     // NVRTC's clock (protocol.h: kCompileSeconds)
    long long compile_memory_mb = 2048;  // NVRTC's memory (protocol.h: kCompileMemoryBytes)
    long long memory_limit_mb = 4096;  // RLIMIT_AS of CPU children (not set for CUDA children)
    bool timing = true;              // GPU: time a passing kernel against the lab's kernel
    bool count_loads = true;         // global loads per output (GPU counters or CPU trace)
    std::optional<std::uint64_t> seed;  // tests only: a fixed seed (never from the submission)
    // The seed of what a rubric hides (grading/score.h): the sizes drawn beyond the fixed ones and
    // the data of every case past the fixed sizes (drawn, large, timed). Unset: `seed` itself. A
    // grading job sets it from the course secret, so the `seed` it shows a student reproduces the
    // visible sizes, weights and schedules but not the hidden draw.
    std::optional<std::uint64_t> hidden_seed;
    bool explain = false;            // check --explain: a backward slice of the first bad output
    bool quick = false;              // fewer sizes (tests of the checker itself)
    bool count_only = false;         // the count a budget is made of (a data exercise's solution):
                                     // no budget is applied to it
    bool large_case = true;          // the large case (run_plan.h; tests of the checker leave it out
                                     // where it is not what they test)
    int workers = 0;                 // CPU engine threads per check; 0: min(cores, 4). A batch of
                                     // N parallel checks gives each its share of the cores
    // A front end's live check (the viewer): set `stop` from another thread to end the check (its
    // runner's process group is killed; check_submission then throws UserError "cancelled");
    // `progress` is called from the checking thread with each case the runner starts.
    const std::atomic<bool>* stop = nullptr;
    CheckProgressFn progress;
};

CheckResult check_submission(const std::string& path, const CheckOptions& opt);

// Output formats (a platform's results file, with points: grading/platform_results.h).
nlohmann::json to_json(const CheckResult& r);
std::string to_text(const CheckResult& r);          // for a terminal

// Whether the CUDA path can run here (driver + GPU, probed in a child); nullopt when it can.
std::optional<std::string> cuda_unavailable_for_checker();

}  // namespace stencil::checker
