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
//   shared   per block, sized from the PTX (static) plus the launch's dynamic bytes, poisoned
//            (0xFF bytes: NaN as float or double) at block start
//   local    per thread (the function's local depot and its callees' frames), bounded
//   const    the module's .const variables, zero or their initialisers, then Launch::constants
//   param    the entry's parameters from Launch::params
// The trace (simt::Access), counts and diagnostics are those of backends/cpu/trace.h, so the
// analysis, the viewer and the checker read this engine's reports as they read any other.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "backends/cpu/trace.h"

namespace ptx {

// A PTX text the engine cannot load or run: one line, naming the PTX instruction and, when the
// PTX says, the source file and line it came from.
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Module;  // parsed and decoded PTX; immutable, shared by any number of concurrent launches

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
    int id = 0;               // simt::Access::buffer in traces
    std::string name;         // in diagnostics ("in", "out")
    bool read_only = false;   // every store is DiagKind::input_write, and it does not happen
};
// The device address of Launch::buffers[index].
constexpr std::uint64_t buffer_address(int index) { return std::uint64_t(index + 1) << 40; }

struct ConstantInit {
    std::string symbol;               // the PTX name (find_symbol helps)
    std::vector<unsigned char> bytes; // written from the symbol's start; at most its size
};

struct Launch {
    std::string entry;                        // the PTX (mangled) name
    simt::Idx3 grid{1, 1, 1}, block{1, 1, 1};
    std::vector<Buffer> buffers;
    // One value per .param of the entry, in order, truncated to the parameter's size:
    // integers as they are, pointers as buffer_address(i) + byte offset, floats bit-cast.
    std::vector<std::uint64_t> params;
    std::vector<ConstantInit> constants;
    std::size_t dynamic_shared_bytes = 0;
    // Instructions any one block may execute before the launch stops with DiagKind::timeout
    // (0: no limit). The checker's way to stop a kernel that never ends, exactly and at once.
    long long block_instruction_budget = 0;
    // Device printf (vprintf): formatted text is appended here, at most printf_cap bytes (then
    // "[printf output truncated]" once); nullptr: printf prints nothing.
    std::string* printf_output = nullptr;
    std::size_t printf_cap = 64 * 1024;
};

// Runs the launch. Never throws for a fault of the kernel (bounds, races, barriers, budget, an
// instruction this engine does not run): those are diagnostics in the report, each with the
// source file and line. Throws ptx::Error only for a launch that does not fit the module (no
// such entry, wrong number of params, an unknown constant symbol, a block the GPU would refuse).
// Reports: ExecReport::sites[i] is the instruction index of site i, ExecReport::site_source[i]
// its source position.
simt::ExecReport run(const Module& m, const Launch& launch, const simt::ExecOptions& opt);

// Interpreted instructions per second of the last run() on this OS thread (for benchmarks):
// the total is in ExecReport::instructions.

}  // namespace ptx
