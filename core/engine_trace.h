// What the PTX engine (backends/cpu/ptx/, the CPU backend) reports about one launch: diagnostics,
// access counts and (when asked) the exact trace of every global and shared load/store, the options
// a launch takes, plus the helpers the analysis and the viewer use to turn a trace into warp-level
// requests (sectors, lines, bank conflicts).
//
// Plain C++ (std only), below backends/: the engine fills these records, and analysis/, the
// checker and the viewer read them without depending on the backend that runs it.
//
// ---- What an Access record identifies ------------------------------------------------------
//   block     linear block index  (bz * gridDim.y + by) * gridDim.x + bx
//   thread    linear thread index (tz * blockDim.y + ty) * blockDim.x + tx; warp = thread / 32,
//             lane = thread % 32 (CUDA's numbering)
//   interval  barrier interval: 0 before the block's first __syncthreads(), +1 after each
//   site      the access instruction: an index into ExecReport::sites. One site is one PTX
//             load/store/atomic instruction, and ExecReport::site_source gives its file, line and
//             opcode
//   occurrence how many times this thread already executed `site` in this interval (loops that
//             the compiler did not unroll run one site many times)
// The lanes of one warp that share (interval, site, occurrence) executed the same instruction:
// that is one warp-level request. Limit: a thread that runs a loop a different number of times
// than its neighbours pairs its k-th iteration with theirs, which is what SIMT reconvergence does
// too for a uniform loop but not for a divergent one.
#pragma once
#include <atomic>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace engine {

struct Idx3 {
    int x = 0, y = 0, z = 0;
    bool operator==(const Idx3&) const = default;
};

enum class Space : std::uint8_t { global, shared };
enum class Op : std::uint8_t { load, store, atomic };
enum class Schedule : std::uint8_t { in_order, reversed, random };
// The order in which blocks leave the launch's queue (workers take the next one in this order).
enum class BlockOrder : std::uint8_t { in_order, reversed, random };

const char* to_string(Space s);
const char* to_string(Op o);
const char* to_string(Schedule s);
const char* to_string(BlockOrder b);

struct Access {
    int block = 0;        // linear block index (see above)
    int thread = 0;       // linear thread index in the block
    int interval = 0;     // barrier interval
    int site = 0;         // index into ExecReport::sites
    int occurrence = 0;   // k-th execution of `site` by this thread in this interval
    int seq = 0;          // k-th traced access of this thread in the launch (program order)
    Space space = Space::global;
    Op op = Op::load;
    std::uint8_t size = 0;  // bytes
    int buffer = 0;         // global: the launch buffer's id (ptx::Buffer); shared: the shared array id
    long long offset = 0;   // bytes from the buffer base (global) or the array base (shared)

    int warp() const { return thread / 32; }
    int lane() const { return thread % 32; }
};

struct Counts {
    long long global_loads = 0, global_stores = 0, global_atomics = 0;
    long long shared_loads = 0, shared_stores = 0, shared_atomics = 0;
    long long global_load_bytes = 0, global_store_bytes = 0;
    long long shared_load_bytes = 0, shared_store_bytes = 0;

    void add(Space s, Op o, long long bytes);
    Counts& operator+=(const Counts& o);
    bool operator==(const Counts&) const = default;
};

// ---- diagnostics ---------------------------------------------------------------------------
enum class DiagKind : std::uint8_t {
    race,                       // shared: two threads, one cell, one interval, >= 1 store;
                                // global: the same, or two blocks touching one cell, >= 1 store
    uninitialized_shared_read,  // a load of a shared cell no thread of the block stored
    divergent_barrier,          // threads wait at different __syncthreads() call sites (or a
                                // __syncwarp() some lanes of the warp never reach)
    exit_before_barrier,        // threads returned while others wait at a barrier
    out_of_bounds,              // an access outside every launch buffer, a shared index outside its array
    kernel_exception,           // anything else thrown by kernel code
    input_write,                // a store through a read-only global pointer (the kernel's input)
    timeout,                    // a block did not finish within ExecOptions::deadline_seconds
};
inline constexpr int kDiagKinds = 8;
const char* to_string(DiagKind k);
// Fatal kinds abandon the block (its threads stop where they are) and fail the launch; races and
// uninitialized reads are reported and the caller decides.
constexpr bool is_fatal(DiagKind k) {
    return k != DiagKind::race && k != DiagKind::uninitialized_shared_read;
}

struct Diagnostic {
    DiagKind kind = DiagKind::race;
    Idx3 block;
    int interval = -1;            // barrier interval, -1 if not applicable
    int thread_a = -1;            // linear thread (the later access for a race; the faulting one)
    int thread_b = -1;            // the other thread of a race / a thread at another barrier
    Idx3 thread_a_idx, thread_b_idx;
    Op op_a = Op::load, op_b = Op::load;
    Space space = Space::shared;  // where `array` lives (race, uninitialized read, bounds, input_write)
    std::string array;            // shared: "#N" (N = array id); global: the launch buffer's name ("in")
    long long offset = -1;        // byte offset in the array / buffer
    int elem_size = 0;            // bytes per cell; element index = offset / elem_size
    Idx3 block_b;                 // global race: the block of thread_b (== block within a block)
    std::string site_a, site_b;   // "file:line" of the barriers involved (barrier misuse)
    // Where in the kernel's source the faulting (or, for a race, the later) access is: from the
    // PTX's .loc directives on the PTX engine; empty / -1 when not known.
    std::string file;
    int line = -1;
    std::string instruction;      // PTX engine: the PTX instruction, as written ("st.shared.f32")
    // A race's other access (thread_b's), the same way; empty / -1 when not known.
    std::string file_b;
    int line_b = -1;
    std::string instruction_b;
    std::string message;          // one line for people, names everything above
};

struct ExecReport {
    Idx3 grid, block;           // launch geometry (blocks, threads per block)
    Schedule schedule = Schedule::in_order;
    std::uint64_t seed = 0;
    int workers = 1;            // OS threads that ran blocks

    bool ok = true;             // no fatal diagnostic: every block ran to its end
    std::vector<Diagnostic> diagnostics;  // the first few of each kind, in block order
    std::array<long long, kDiagKinds> totals{};  // every occurrence, by kind

    Counts counts;                    // over all blocks (TraceOptions::count)
    std::vector<Counts> block_counts; // by linear block (TraceOptions::per_block_counts)
    std::vector<Access> trace;        // TraceOptions::records
    bool trace_truncated = false;     // max_records reached
    std::vector<std::uintptr_t> sites;  // the PTX instruction index of each Access::site
    struct SiteSource {
        std::string file;  // the kernel's source file, as the PTX's .file names it
        int line = 0;
        std::string instruction;  // the PTX instruction ("ld.global.f32")
    };
    std::vector<SiteSource> site_source;  // parallel to sites

    bool cancelled = false;     // stopped through ExecOptions::cancel: outputs are incomplete
    long long blocks_run = 0;
    long long threads_run = 0;  // emulated threads that ran (to their end or to a fault)
    long long instructions = 0; // PTX engine: instructions interpreted (all threads)
    // PTX engine: what the kernel read that a GPU leaves unspecified (ptx::Explore varies it)
    long long clock_reads = 0;          // %clock, %clock64, %globaltimer
    long long approximate_results = 0;  // approximate instructions' results
    long long mallocs_refused = 0;      // device mallocs an explored run answered with a null pointer
    double seconds = 0;         // wall time of the launch

    long long total(DiagKind k) const { return totals[static_cast<int>(k)]; }
    const Diagnostic* first(DiagKind k) const;
    // No fatal diagnostic, no race and no uninitialized shared read.
    bool clean() const;
    std::string summary() const;  // one line: ok/diagnostic totals/threads/time
    Idx3 block_coord(int linear_block) const;
    Idx3 thread_coord(int linear_thread) const;
};

// ---- launch options (ptx::run in backends/cpu/ptx/engine.h) -----------------------------------
enum class TraceMode : std::uint8_t { off, block, all };

struct TraceOptions {
    bool count = false;             // count every access of every block -> ExecReport::counts
    bool per_block_counts = false;  // and by block -> ExecReport::block_counts (implies count)
    TraceMode records = TraceMode::off;  // record Access entries for one block or for all
    Idx3 block;                     // the block recorded with TraceMode::block
    std::size_t max_records = std::size_t(1) << 22;  // then recording stops, trace_truncated
};

struct ExecOptions {
    Schedule schedule = Schedule::in_order;  // the order threads run in each barrier interval
    std::uint64_t seed = 1;                  // for Schedule::random (per block and interval) and
                                             // BlockOrder::random
    BlockOrder block_order = BlockOrder::in_order;  // the order blocks leave the queue
    int workers = 0;                         // OS threads running blocks; 0 = all cores
    // "Checks on": shared races, uninitialized shared reads, and global races (a shadow of every
    // traced global buffer: last writer and readers per cell, allocated only in this mode).
    // Shared bounds and read-only stores are checked in every mode.
    bool check_shared = false;
    TraceOptions trace;
    int max_diagnostics = 8;                 // kept per kind (all are counted in totals)
    bool stop_on_error = true;               // a fatal diagnostic stops handing out blocks
    // A block running longer than this is stopped with DiagKind::timeout (checked every few
    // thousand traced accesses, so a loop that touches no memory at all is not caught in-process).
    // < 0: automatic, off for plain launches and kDefaultCheckedDeadline with checks on; 0: off.
    double deadline_seconds = -1;
    // Set from another thread to stop the launch: checked before each block is handed out (and
    // every few thousand slow-path accesses of a traced or checked block). A cancelled launch
    // returns promptly with ExecReport::cancelled (ok = false, no diagnostic): a request that
    // was withdrawn, not an error of the kernel.
    const std::atomic<bool>* cancel = nullptr;
};
inline constexpr double kDefaultCheckedDeadline = 20.0;

// ---- analysis helpers ----------------------------------------------------------------------
// Totals of a trace (only the recorded accesses).
Counts count_accesses(std::span<const Access> trace);
// Per block: (linear block, counts) in increasing block order.
std::vector<std::pair<int, Counts>> counts_per_block(std::span<const Access> trace);

// One warp-level request: the lanes of one warp that executed the same access instruction.
struct LaneSet {
    long long index = 0;         // sector / line / bank
    std::uint32_t lanes = 0;     // bit i = lane i touched it
};
struct WarpRequest {
    int block = 0, warp = 0, interval = 0, site = 0, occurrence = 0;
    Space space = Space::global;
    Op op = Op::load;
    int buffer = 0;
    int size = 0;                 // bytes per lane access
    std::uint32_t active = 0;     // lanes taking part
    // global: distinct 32-byte sectors and 128-byte lines, offsets relative to a 256-byte
    // aligned buffer base (as cudaMalloc returns), with the lanes touching each, ascending.
    std::vector<LaneSet> sectors, lines;
    // shared (bank = (offset / 4) % 32, assuming the array starts at a 128-byte multiple):
    // degree = most distinct 4-byte words any one bank must serve (1 = conflict-free; lanes
    // reading the same word are a broadcast). 0 for global requests.
    int bank_degree = 0;
    int lane_count() const;
};
// Every warp-level request in the trace (block < 0: all blocks), ordered by
// (block, warp, interval, first seq in program order).
std::vector<WarpRequest> warp_requests(std::span<const Access> trace, int block = -1);

}  // namespace engine
