// The protocol between the parent (`stencil-lab check`: checker.cpp, evaluate.cpp) and its child
// (stencil-check-runner): the request the parent writes (request.json), the result the child
// writes back (result.json), the exit codes the child ends with when one of its own limits is
// reached, and the limits both backends hold a submission to.
//
// Both files are JSON made from these structs only (to_json / from_json below): no side reads a
// key by string. Each carries kSchemaVersion; a side that reads another version refuses it with
// one line (the runner exits kProtocolMismatchExit, the parent gives the internal_error verdict),
// so a runner left over from another build is never half-understood. The parent never trusts
// the child: a result that does not parse into Result is a `crash` with the reason, never an
// exception.
//
// Sections: [enums] the wire's enums, one name table each; [request]; [result]; [exit codes and
// limits]; [reading and writing].
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kernels/versions.h"

namespace stencil::checker {

// Bump when a field is added, removed, renamed or changes meaning.
inline constexpr int kSchemaVersion = 8;

// A request or result that does not fit the structs below: one line, naming the field.
struct ProtocolError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// One of another schema version (its fields are not read).
struct SchemaMismatch : ProtocolError {
    using ProtocolError::ProtocolError;
};

// ---- [enums] ----------------------------------------------------------------------------------
// Each enum's names live in one table (protocol.cpp); to_string and parse_* read it, and so does
// the JSON conversion: a name is spelled once.

// What the runner is asked to do: run the submission on a backend, or probe something.
enum class RunnerMode { cpu, cuda, probe_cuda, probe_sandbox };
// The order a CPU run gives the threads of a block (and the blocks); `repeat` is a GPU run.
enum class Schedule { in_order, reversed, random, repeat };
// Where a compile failed: NVRTC's log; the PTX could not be assembled or loaded (the GPU's
// driver, the CPU engine); more static shared memory than a GPU allows; NVRTC ran out of the
// memory the runner gives it (a macro or template bomb); the PTX breaks the contract where only
// the PTX shows it (ptx_vetting.h: the kernel's parameter types, inline assembly).
enum class CompileStage { nvrtc, load, limits, memory, contract };
// The CPU engine's diagnostics, as the parent's diagnose() knows them (diagnostics.h).
enum class DiagnosticKind {
    race,
    uninitialized_shared_read,
    divergent_barrier,
    exit_before_barrier,
    out_of_bounds,
    kernel_exception,
    timeout,
    input_write,
};
enum class AccessOp { load, store, atomic };
enum class MemorySpace { global, shared };
// Why the runner stopped before the last run (a verdict is decided; the rest would only cost).
enum class StopReason { instruction_budget };
// One link of the backward slice of a replay (backends/cpu/ptx/slice.h's LinkKind, in the wire's
// terms; checker/explain.h words them).
enum class SliceLinkKind {
    stored, condition, computed, rounded, loaded_global, loaded_shared, stored_by, stored_after,
    never_stored, skipped, no_store,
};
// What a kernel parameter is: one of the case's buffers (a pointer to its first cell), or a scalar
// (`real` in the request's precision).
enum class ArgKind { buffer, i32, u32, real };

std::string_view to_string(RunnerMode v);
std::string_view to_string(Schedule v);
std::string_view to_string(CompileStage v);
std::string_view to_string(DiagnosticKind v);
std::string_view to_string(AccessOp v);
std::string_view to_string(MemorySpace v);
std::string_view to_string(StopReason v);
std::string_view to_string(ArgKind v);
std::string_view to_string(SliceLinkKind v);
std::optional<RunnerMode> parse_runner_mode(std::string_view s);
std::optional<Schedule> parse_schedule(std::string_view s);
std::optional<CompileStage> parse_compile_stage(std::string_view s);
std::optional<DiagnosticKind> parse_diagnostic_kind(std::string_view s);
std::optional<AccessOp> parse_access_op(std::string_view s);
std::optional<MemorySpace> parse_memory_space(std::string_view s);
std::optional<StopReason> parse_stop_reason(std::string_view s);
std::optional<ArgKind> parse_arg_kind(std::string_view s);
std::optional<SliceLinkKind> parse_slice_link_kind(std::string_view s);

using Int3 = std::array<int, 3>;

// ---- [request] --------------------------------------------------------------------------------
struct RunSpec {
    Schedule schedule = Schedule::in_order;
    Schedule block_order = Schedule::in_order;  // CPU: blocks in this order too (never `repeat`)
    std::uint64_t seed = 0;                     // the `random` schedule's, and the exploration's
    // CPU: the engine's race detector and uninitialised-read check on (bounds are always checked)
    bool checked = true;
    // CPU: what the GPU leaves unspecified varied from the seed (shared memory's first bytes, the
    // clocks, approximate results: ptx::Explore); off, the fixed choice (0xFF bytes, exact)
    bool explore = false;
    bool operator==(const RunSpec&) const = default;
};

// One array the kernel is given. Its file (in the request's folder) holds guard + cells + guard
// values of the request's precision; the runner writes what the array holds after each run to
// case<c>.run<r>.<name> beside it. A read-only array is the kernel's input: the CPU engine reports
// every store to it (input_write), the parent compares it after every run on both backends.
struct BufferSpec {
    std::string name;  // "in", "out"; "E_prev", "E", "R"; "f", "df": the kernel parameter's name
    std::string file;
    long long cells = 0;
    bool read_only = false;
    bool operator==(const BufferSpec&) const = default;
};

// One kernel argument, in the kernel's parameter order.
struct KernelArg {
    ArgKind kind = ArgKind::buffer;
    int buffer = 0;     // ArgKind::buffer: the index into the case's buffers
    double value = 0;   // scalars: exact for every int and for reals of the request's precision
    bool operator==(const KernelArg&) const = default;
};

// One test case: its arrays, the kernel's arguments and the launch.
struct CaseSpec {
    int n = 0;          // the size the case is known by (progress lines; the instruction budget)
    long long guard = 0;
    std::vector<BufferSpec> buffers;
    std::vector<KernelArg> args;
    Int3 grid{1, 1, 1}, block{1, 1, 1};
    long long dynamic_shared_bytes = 0;  // the launch's third argument (extern __shared__ arrays)
    std::vector<RunSpec> runs;
    // CPU: the checked runs check every k-th block (a large case's sample; 1: every block)
    int check_block_stride = 1;
    bool operator==(const CaseSpec&) const = default;
};

// A __constant__ the harness declares, set before the runs: `values` in the request's precision,
// one (a scalar weight) or more (an array). `name` is the source name; the runner asks NVRTC for
// the lowered one.
struct ConstantSpec {
    std::string name;
    std::vector<double> values;
    bool operator==(const ConstantSpec&) const = default;
};

struct RunRef {
    int case_index = 0;
    int run = 0;
    bool operator==(const RunRef&) const = default;
};

struct TimingSpec {
    int case_index = 0;
    int reps = 20;
    bool operator==(const TimingSpec&) const = default;
};

// The viewer's stepper (viewer/core/student_trace.h): the CPU engine records every access of one
// block of one run, with each site's file, line and PTX instruction, into `file` beside the
// request (core/engine_trace_text.h). Only CPU runs trace.
struct TraceSpec {
    int case_index = 0;
    int run = 0;
    Int3 block{0, 0, 0};
    std::string file;
    bool operator==(const TraceSpec&) const = default;
};

// The parent's follow-up of a failing CPU check (checker/replay.h): the request's one case, its
// one run again, on a recording launch (backends/cpu/ptx/provenance.h): the last store to each
// watched cell, and with `explain` the backward slice of the first cell's store in its block (or,
// when no thread stored it, of the store the thread that should have made did not make).
struct CellRef {
    int buffer = 0;         // the case's buffer
    long long element = 0;  // its cell
    // From this cell to the first, in cells along x, y, z: the thread that should have stored the
    // first cell is, when no thread did, this cell's writer moved by this much.
    Int3 step{0, 0, 0};
    bool operator==(const CellRef&) const = default;
};
struct ReplaySpec {
    std::vector<CellRef> cells;  // the first bad cell first, then cells beside it
    bool explain = false;
    // The thread to explain when no neighbour's writer names one: the cell's owner by the exercise's
    // geometry; or a race's reader (cells[0].element < 0), whose last store into the buffer is explained
    std::optional<Int3> block, thread;
    bool operator==(const ReplaySpec&) const = default;
};

struct Request {
    int schema_version = kSchemaVersion;
    RunnerMode mode = RunnerMode::cpu;
    std::string exercise;
    Problem problem = Problem::star3d;
    std::string lab_kernel;       // the GPU times and counts it beside the submission (in the
                                  // problem's table; star3d at `radius` and `tile`)
    Precision precision = Precision::f32;
    int radius = 1;
    int tile = 8;
    std::string kernel_name;      // the submission's __global__ function, as the source names it
    std::string kernel_signature; // the contract's declaration of it, for the runner's refusal
                                  // of other parameter types (ptx_vetting.h)
    std::string display_name;     // the student's file name, as diagnostics show it
    std::string source;           // the translation unit's path
    std::vector<ConstantSpec> constants;  // already rounded to the precision
    int workers = 1;              // CPU: worker threads
    std::vector<CaseSpec> cases;
    std::optional<RunRef> count;        // the run whose global loads are counted
    std::optional<TimingSpec> timing;   // GPU: the case timed against the lab's kernel
    std::optional<TraceSpec> trace;     // CPU: one block's accesses recorded for the viewer
    std::optional<ReplaySpec> replay;   // CPU: the statements behind a bad cell (cases: one, one run)
    double compile_seconds = 0;   // NVRTC's clock (then kCompileTimeLimitExit)
    long long compile_memory_bytes = 0;  // NVRTC's memory beyond what the runner had (RLIMIT_AS)
    double time_limit = 0;        // the runs' clock (then kRunTimeLimitExit)
    long long printf_cap_bytes = 0;  // device printf kept per run (CPU) / the FIFO (GPU)
    bool operator==(const Request&) const = default;
};

// ---- [result] ---------------------------------------------------------------------------------
struct CompileOutcome {
    bool ok = false;
    std::optional<CompileStage> stage;  // when !ok
    std::string log;                    // NVRTC's log, or why the PTX cannot be used
    double seconds = 0;
    bool operator==(const CompileOutcome&) const = default;
};

// A statement of the student's file (the PTX's line info): file, line, PTX instruction.
struct SourceAt {
    std::string file;
    int line = 0;
    std::string instruction;
    bool operator==(const SourceAt&) const = default;
};

// One CPU engine diagnostic (core/engine_trace.h's Diagnostic, in the wire's terms).
struct EngineDiagnostic {
    DiagnosticKind kind = DiagnosticKind::kernel_exception;
    std::string message;         // the engine's sentence
    Int3 block{}, block_b{}, thread_a{}, thread_b{};
    int interval = -1;           // barrier interval
    AccessOp op_a = AccessOp::load, op_b = AccessOp::load;
    MemorySpace space = MemorySpace::global;
    std::string array;           // shared: "#N"; global: "in" / "out"
    long long offset = -1;       // bytes into the array
    int elem_size = 0;
    long long element = -1;      // offset / elem_size, -1 when unknown
    std::string site_a, site_b;  // barrier misuse: "file:line" of the barriers
    std::string file;            // the student's line, from the PTX's line info
    int line = -1;
    std::string instruction;     // "st.shared.f32"
    SourceAt other;              // race: the other access's statement (site_b's), when known
    bool operator==(const EngineDiagnostic&) const = default;
};

// The last store to a watched cell of a replay.
struct CellWriter {
    bool stored = false;  // false: no thread stored the cell
    SourceAt at;
    Int3 block{}, thread{};
    long long stores = 0;
    bool operator==(const CellWriter&) const = default;
};

// One link of a replay's backward slice (backends/cpu/ptx/slice.h says what each kind means).
struct SliceLinkOutcome {
    SliceLinkKind kind = SliceLinkKind::stored;
    int depth = 0;
    SourceAt at;
    Int3 thread{};
    MemorySpace space = MemorySpace::global;
    std::string array;       // global: the buffer's name; shared: the variable's
    long long offset = 0;    // bytes into the array
    int elem_size = 0;
    std::optional<std::uint64_t> loaded;  // a load's bits (f32: the low 32)
    std::optional<Int3> other;
    SourceAt other_at;
    std::vector<int> lines;  // computed: the statements' lines
    bool unordered = false;  // stored_by: by another thread in the same barrier interval (a race)
    bool operator==(const SliceLinkOutcome&) const = default;
};

// A global cell one product of the output's sum read (checker/runner_terms.h).
struct TermCell {
    std::string array;              // the buffer's name ("in")
    long long element = -1;         // its element (x fastest)
    int line = 0;                   // the statement where the output's thread read it (a shared copy: the read)
    std::vector<int> copy_lines;    // a shared copy: the line that stored it and the line that loaded it
    std::vector<int> index_lines;   // the lines that computed the global load's address
    std::string shared;             // a shared copy: the variable the output's thread read it from
    long long shared_offset = -1;   // ... and the bytes into it
    std::vector<int> move_lines;    // register moves it passed through after its load (a queue's rotation)
    bool operator==(const TermCell&) const = default;
};

// One product of the sum the output was computed as: factor x weights x cells x others.
struct SumTermOutcome {
    double factor = 1;                 // the literal constants and signs multiplied in
    std::vector<std::string> weights;  // the __constant__s multiplied in ("c3")
    std::vector<TermCell> cells;
    std::vector<std::string> others;   // factors that are neither ("sqrtf at line 9", an unstored shared cell)
    int line = 0;                      // the statement that multiplied it in (a load shared by two terms: each's)
    bool operator==(const SumTermOutcome&) const = default;
};

struct ReplayOutcome {
    std::vector<CellWriter> writers;       // by ReplaySpec::cells
    std::vector<SourceAt> buffer_stores;   // the statements that stored into the first cell's buffer
    std::optional<Int3> traced_block;      // explain: the block whose slice follows
    std::vector<SliceLinkOutcome> slice;
    // explain: the stored value as a sum of products (empty with terms_note: why it is not one)
    std::vector<SumTermOutcome> terms;
    std::string terms_note;
    bool operator==(const ReplayOutcome&) const = default;
};

struct RunOutcome {
    int case_index = 0;
    int run = 0;
    bool ok = true;
    double seconds = 0;
    long long instructions = 0;
    long long races = 0;
    long long uninitialized_shared_reads = 0;
    std::vector<EngineDiagnostic> diagnostics;
    std::optional<std::string> launch_error;  // GPU: the CUDA error of the launch (the runner stops)
    long long printf_bytes = 0;               // device printf output of this run
    bool printf_truncated = false;            // more than printf_cap_bytes (CPU) or the FIFO (GPU)
    // What the run touched that the GPU does not fix, for a verdict that names what differed (the
    // GPU runner reports state_changed too; the rest are the CPU engine's)
    std::vector<std::string> state_changed;   // __device__ variables the run changed (kept for the next)
    long long clock_reads = 0;                // reads of %clock, %clock64, %globaltimer
    long long approximate_results = 0;        // results of approximate instructions
    long long mallocs_refused = 0;            // device mallocs answered with a null pointer (explored)
    bool operator==(const RunOutcome&) const = default;
};

struct LoadCounts {
    int case_index = 0;
    long long global_loads = 0;  // elements
    std::string source;          // GPU: the counter's name; CPU: empty (the parent says)
    std::optional<long long> lab_global_loads;  // GPU: the lab's kernel, same counter, same N
    std::optional<std::string> lab_unavailable;
    bool operator==(const LoadCounts&) const = default;
};

struct TimingOutcome {
    int case_index = 0;
    int reps = 0;
    double student_ms = 0, reference_ms = 0;  // medians
    std::vector<double> student_all, reference_all;
    long long mismatched_reps = 0;  // timed launches whose output differs from the checked one
    std::string reference;          // "the lab's kernel: kernels/tiled.cuh"
    bool operator==(const TimingOutcome&) const = default;
};

struct Result {
    int schema_version = kSchemaVersion;
    std::string device;                     // GPU: its name
    std::optional<CompileOutcome> compile;  // absent: the runner died before compiling
    std::vector<RunOutcome> runs;
    std::optional<LoadCounts> counts;
    std::optional<std::string> counts_unavailable;
    std::optional<TimingOutcome> timing;
    std::optional<std::string> timing_unavailable;
    std::optional<StopReason> stopped;
    std::optional<ReplayOutcome> replay;
    bool operator==(const Result&) const = default;
};

// ---- [exit codes and limits] ------------------------------------------------------------------
// The runner's own exits; the parent decides on these numbers, never on the runner's words.
inline constexpr int kBackendNotBuiltExit = 5;     // the request's mode is not in this runner
inline constexpr int kProbeNoDeviceExit = 1;       // probe_cuda: no usable device
inline constexpr int kForbiddenCallExit = 86;      // the seccomp filter trapped a call (sandbox.h)
inline constexpr int kCompileTimeLimitExit = 87;   // NVRTC ran past compile_seconds: compile_error
inline constexpr int kRunTimeLimitExit = 88;       // the runs ran past time_limit: timeout
inline constexpr int kProtocolMismatchExit = 89;   // the request's schema_version is not ours
inline constexpr int kBadRequestExit = 90;         // the request does not parse
inline constexpr int kCompileCrashExit = 91;       // NVRTC died (out of its memory bound): compile_error
inline constexpr int kSanitizerErrorExit = 92;     // compute-sanitizer --error-exitcode

// Static __shared__ bytes per block: every CUDA GPU refuses more when it assembles the PTX
// (ptxas: "uses too much shared data"); the CPU engine says the same before it runs anything.
inline constexpr long long kMaxStaticSharedBytes = 48 * 1024;
// Static and dynamic __shared__ bytes per block together: sm_90's limit for a kernel that opts in
// (cudaFuncAttributeMaxDynamicSharedMemorySize), which the GPU path does for a launch past 48 KiB.
inline constexpr long long kMaxSharedBytesPerBlock = 227 * 1024;

// NVRTC's own limits. A stencil kernel compiles in about a second in well under 1 GiB; a macro
// or template bomb reaches one of these instead of keeping a check busy or the machine short of
// memory.
inline constexpr double kCompileSeconds = 30;
inline constexpr long long kCompileMemoryBytes = 2LL << 30;

// Device printf kept per run on the CPU, and the GPU's printf FIFO: a kernel that prints in a
// loop fills it and the rest is dropped, so it costs a moment, not minutes.
inline constexpr long long kPrintfCapBytes = 64 * 1024;

// ---- [reading and writing] --------------------------------------------------------------------
void to_json(nlohmann::json& j, const Request& r);
void from_json(const nlohmann::json& j, Request& r);
void to_json(nlohmann::json& j, const Result& r);
void from_json(const nlohmann::json& j, Result& r);

// Parses a request or result, version first: ProtocolError with one line ("schema version 1,
// this build speaks 2", "runs[0].diagnostics[1].block: ...") when it does not fit.
Request parse_request(std::string_view text);
Result parse_result(std::string_view text);

// What the parent makes of result.json.
struct ResultFile {
    enum class Status { ok, missing, malformed, wrong_version };
    Status status = Status::missing;
    Result result;        // when ok
    std::string problem;  // otherwise: one line
    bool ok() const { return status == Status::ok; }
};
ResultFile read_result_file(const std::string& path);
ResultFile result_file_from_text(std::string_view text);

}  // namespace stencil::checker
