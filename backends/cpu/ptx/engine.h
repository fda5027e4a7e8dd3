// The CPU engine: executes the PTX that NVRTC compiles, with CUDA's execution model.
//
// One engine runs every kernel on the CPU (the lab's own four and students' submissions): the
// same PTX the GPU's driver would assemble, so a kernel cannot tell the two backends apart, and
// every load, store, barrier and fault is known with the source line it came from (the PTX's
// `.loc` directives, compiled with -lineinfo).
//
//   ptx::load(text)            parse the PTX text once, decode each function into a compact
//                              instruction array (throws ptx::Error naming the PTX line and the
//                              source line of anything it cannot run)
//   ptx::run(module, launch, options)
//                              run one grid: blocks spread over worker OS threads, the threads of
//                              a block interpreted one at a time, each with its own program
//                              counter, switching at barriers, warp rendezvous and exit
//
// Memory is a virtual device address space:
//   global   the launch's buffers, buffer i at buffer_address(i) (1 TiB apart, 256-byte aligned):
//            every access is checked against its buffer's true bounds, whatever arithmetic or
//            cast produced the address; a store to a read-only buffer is DiagKind::input_write
//   shared   per block, sized from the PTX (static) plus the launch's dynamic bytes, its first bytes
//            as Launch::explore says (0xFF bytes: NaN as float or double; or seeded random bytes)
//   local    per thread (the function's local depot and its callees' frames), bounded
//   const    the module's .const variables, zero or their initialisers, then Launch::constants
//   param    the entry's parameters from Launch::params
//   heap     device malloc/free: each allocation its own bounds-checked block, from a heap of the
//            GPU's default size (8 MiB), kept in the DeviceState with the __device__ variables
// The trace (engine::Access), counts and diagnostics are those of core/engine_trace.h, so the
// analysis, the viewer and the checker read this engine's reports as they read any other.
//
// What a GPU decides and a CPU must not fix to one value (Launch::explore), what a GPU refuses
// (Launch::limits: a launch it cannot make is a diagnostic naming the limit in numbers), and what
// it keeps between launches (DeviceState) are the engine's too: docs/DESIGN.md, "The PTX engine".
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine_trace.h"

namespace ptx {

// A PTX text the engine cannot load or run: one line, naming the PTX instruction and, when the
// PTX says, the source file and line it came from.
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Module;  // parsed and decoded PTX; immutable, shared by any number of concurrent launches
class DeviceState;  // what a GPU keeps between launches of one loaded module (below)
struct Recording;   // the recording mode's questions and answers (provenance.h)

struct Param {
    std::string name;
    int bytes = 0;  // 1, 2, 4 or 8 (a larger .param is refused at load)
};
struct EntryInfo {
    std::string name;               // the PTX (mangled) name
    std::vector<Param> params;
    long long static_shared_bytes;  // .shared variables this entry reaches (module and function scope)
    long long local_bytes;          // the entry's local depot (its callees' frames come on top)
    int instructions = 0;
    // Performance directives (__launch_bounds__ and the like): 0 when absent.
    int maxntid = 0;       // threads per block at most (.maxntid x*y*z)
    int reqntid = 0;       // threads per block exactly (.reqntid x*y*z)
    int minnctapersm = 0;  // blocks per SM the compiler was asked to fit (.minnctapersm)
};

std::shared_ptr<const Module> load(std::string_view ptx_text);
std::vector<EntryInfo> entries(const Module& m);
const EntryInfo* find_entry(const Module& m, std::string_view name);
// The module's source files (from `.file`), and a `.const`/`.global` variable's size in bytes
// (-1 when the module has no such symbol).
std::vector<std::string> source_files(const Module& m);
long long symbol_bytes(const Module& m, std::string_view symbol);
// The PTX symbol whose demangled name ends in `::suffix` or equals `suffix` (so "c0" or
// "c_coefficients_f32" find NVRTC's mangled names); empty when none or more than one match.
std::string find_symbol(const Module& m, std::string_view suffix);

// One global allocation the kernel may reach.
struct Buffer {
    void* data = nullptr;
    std::size_t bytes = 0;
    int id = 0;               // engine::Access::buffer in traces
    std::string name;         // in diagnostics ("in", "out")
    bool read_only = false;   // every store is DiagKind::input_write, and it does not happen
};
// The device address of Launch::buffers[index].
constexpr std::uint64_t buffer_address(int index) { return std::uint64_t(index + 1) << 40; }

struct ConstantInit {
    std::string symbol;               // the PTX name (find_symbol helps)
    std::vector<unsigned char> bytes; // written from the symbol's start; at most its size
};

// The GPU's limits a launch is held to, beside the geometry every launch is (at most 1024 threads
// per block, 64 along z, 65535 blocks along y and z). A launch the GPU would refuse, or a thread
// that would overflow its stack, is a kernel_exception naming the limit in numbers.
struct GpuLimits {
    // Registers per thread of each function, and each function's stack frame in bytes, as ptxas
    // gave them for the GPU (the cubin NVRTC makes for sm_90): by the PTX (mangled) name. Empty:
    // the register and stack limits are not applied (the lab's own kernels).
    std::vector<std::pair<std::string, int>> registers;
    std::vector<std::pair<std::string, long long>> frame_bytes;
    int register_file = 64 * 1024;       // 32-bit registers one block may use (sm_90)
    int register_granule = 256;          // registers are given to a warp in units of this many
    long long stack_bytes = 1024;        // per thread: the driver's default (cudaLimitStackSize)
};

// What the GPU leaves unspecified, fixed for one run and varied between runs (a checked launch
// runs several): a kernel whose output depends on it shows outputs that differ.
struct Explore {
    enum class SharedInit : std::uint8_t { poison, random };
    SharedInit shared_init = SharedInit::poison;  // poison: 0xFF bytes (NaN); random: from seed
    // %clock, %clock64, %globaltimer: monotone per thread; the thread's executed instructions
    // times `clock_stride` plus a per-thread offset drawn from the seed when clock_jitter. More than
    // one a instruction, as a GPU's clock runs at cycles: a kernel that waits some cycles in a loop
    // costs the engine that many cycles' worth of instructions, not one per cycle.
    std::uint32_t clock_stride = 16;
    bool clock_jitter = false;
    // Approximate instructions (div.approx/full, rcp/sqrt/rsqrt.approx, ex2, lg2, sin, cos, tanh):
    // correctly rounded, or moved by the seed within PTX's documented error bound.
    bool perturb_approx = false;
    // Device malloc: a GPU's heap is shared by every thread resident at once, so whether a call
    // gets memory depends on what the others hold at that moment. The engine runs few threads at
    // once and its heap never runs out that way; when refuse_some_mallocs, one call in four (by
    // the seed, the thread and the call site) gets a null pointer, as such a GPU would give it.
    bool refuse_some_mallocs = false;
    // The lanes of a warp take a memory instruction's accesses (atomics among them) in lane
    // order, reversed, or shuffled by the seed; engine::Schedule orders the warps.
    std::uint64_t seed = 0;
};

struct Launch {
    std::string entry;                        // the PTX (mangled) name
    engine::Idx3 grid{1, 1, 1}, block{1, 1, 1};
    std::vector<Buffer> buffers;
    // One value per .param of the entry, in order, truncated to the parameter's size:
    // integers as they are, pointers as buffer_address(i) + byte offset, floats bit-cast.
    std::vector<std::uint64_t> params;
    std::vector<ConstantInit> constants;
    std::size_t dynamic_shared_bytes = 0;
    // Instructions a block may execute, on average: the launch stops with DiagKind::timeout once
    // its blocks together executed this times their number (0: no limit). The checker's way to stop
    // a kernel that never ends, exactly and at once; one pool, so a block may do others' work.
    long long block_instruction_budget = 0;
    // Device printf (vprintf): formatted text is appended here, at most printf_cap bytes (then
    // "[printf output truncated]" once); nullptr: printf prints nothing.
    std::string* printf_output = nullptr;
    std::size_t printf_cap = 64 * 1024;
    GpuLimits limits;
    Explore explore;
    // With ExecOptions::check_shared: check every k-th block only (a large grid's sample; global
    // memory is then not shadowed, so races between blocks are not looked for). 1: every block.
    int check_block_stride = 1;
    // The recording mode (provenance.h): stores to watched cells, one block's instructions and
    // accesses, filled in by run(); nullptr: none (a normal launch pays nothing for it).
    Recording* recording = nullptr;
    // What persists between launches of the module (its __device__ variables, the device heap),
    // as on a GPU, where a loaded module keeps them: nullptr, a fresh copy for this launch alone.
    DeviceState* state = nullptr;
};

// A loaded module's device memory between launches. Launches that share one are ordered (one at a
// time), as launches on one stream are.
class DeviceState {
public:
    explicit DeviceState(const Module& m);
    ~DeviceState();
    DeviceState(const DeviceState&) = delete;
    DeviceState& operator=(const DeviceState&) = delete;
    // The __device__ variables' bytes (module .global memory), and those the variable `symbol`
    // occupies (empty when no such variable).
    const std::vector<unsigned char>& globals() const;
    std::vector<std::string> changed_variables(const std::vector<unsigned char>& before) const;
    struct Impl;
    Impl& impl() { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

// Runs the launch. Never throws for a fault of the kernel (bounds, races, barriers, budget, an
// instruction this engine does not run): those are diagnostics in the report, each with the
// source file and line. Throws ptx::Error only for a launch that does not fit the module (no
// such entry, wrong number of params, an unknown constant symbol, a block the GPU would refuse).
// Reports: ExecReport::sites[i] is the instruction index of site i, ExecReport::site_source[i]
// its source position.
engine::ExecReport run(const Module& m, const Launch& launch, const engine::ExecOptions& opt);

// Interpreted instructions per second of the last run() on this OS thread (for benchmarks):
// the total is in ExecReport::instructions.

}  // namespace ptx
