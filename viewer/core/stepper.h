// The stepper's data: one block's real execution, recorded by the CPU backend's tracer, and the
// state of that block after k steps. A step is one instruction of the block: the threads that
// executed one traced load or store (a PTX site, its n-th time in a barrier interval) together,
// with the source line it came from; source lines and barrier intervals are runs of steps.
//
//   StepperTrace t = trace_block(cfg);          // runs the kernel once (CPU backend), when asked
//   StepperState s = stepper_state(t, k);       // cheap: recomputed only when k changes
#pragma once
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine_trace.h"
#include "kernels/versions.h"
#include "viewer/core/model_view.h"

namespace stencil::viewer {

struct StepperConfig {
    KernelId kernel = KernelId::tiled;
    int tile = 8;
    int radius = 1;
    Precision precision = Precision::f32;
    GridDims dims{20, 20, 20};
    engine::Idx3 block{1, 1, 1};
    // A block shape of the user's for a version that takes one (naive: the textbook's 8x8x8
    // against the coalescing cure 32x4x2; kernels/versions.h block_error); none: the row's T^3.
    std::optional<Dim3> block_shape;
    // A student's kernel instead of the lab's (viewer/core/student_trace.h): its file and the
    // exercise whose contract it follows; kernel, T's rules, r and precision are the exercise's.
    std::string kernel_file, exercise;
    bool operator==(const StepperConfig& o) const {
        return kernel == o.kernel && tile == o.tile && radius == o.radius && precision == o.precision &&
               dims == o.dims && block == o.block && block_shape == o.block_shape && kernel_file == o.kernel_file &&
               exercise == o.exercise;
    }
};

// The region of the input grid the block reads, in grid coordinates: the box the stepper draws.
struct Box {
    int x0 = 0, y0 = 0, z0 = 0;
    int nx = 0, ny = 0, nz = 0;
    long long cells() const { return (long long)nx * ny * nz; }
    int index(int x, int y, int z) const { return ((z - z0) * ny + (y - y0)) * nx + (x - x0); }
    bool contains(int x, int y, int z) const {
        return x >= x0 && x < x0 + nx && y >= y0 && y < y0 + ny && z >= z0 && z < z0 + nz;
    }
};

// One instruction of the block: the threads that executed one access instruction (a PTX load or
// store: site) for the occurrence-th time in a barrier interval.
struct Step {
    int interval = -1;  // -1: before the launch
    int sub = 0;        // instruction index within the interval
    int end = 0;        // accesses [0, end) have happened after this step
    int site = -1;      // StepperTrace::sites[site] is its file, line and PTX instruction
    int occurrence = 0;
    int threads = 0;    // threads that executed it
};

struct StepperTrace {
    StepperConfig cfg;
    std::string error;  // why there is no trace (invalid tile, grid, block out of range)
    LaunchGeometry geo;
    KernelModel model;
    int threads = 0;
    Box box;            // input region of the block: min / max of its global loads (the trace's)
    int shared_planes = 0;  // planes of the shared array the trace touches (T tiled, 2r+1 coarsened,
                            // 1 register-tiled and streaming, 0 naive, for an interior block)
    int shared_nx = 0, shared_ny = 0;  // one plane of the shared array, as the table declares it
                                       // (shared_plane_shape): T x T, streaming's (T+2r) x (T+2r)
    bool register_planes = false;  // some global load is not stored straight to shared memory: the
                                   // thread keeps it in a register (stepper.cpp, loads_to_registers)
    std::vector<engine::Access> acc;  // this block's accesses in step order
    std::vector<engine::ExecReport::SiteSource> sites;  // per site: file, line, PTX instruction
    std::vector<std::uintptr_t> site_instr;  // per site: its instruction's index in the PTX entry
    // The PTX the engine ran (lab_ptx's text, its entry and the kernel's .file name); empty for a
    // student's kernel, which runs in the checker's child process.
    std::string ptx, ptx_entry, ptx_file;
    std::vector<Step> steps;        // steps[0] is "before the launch"
    std::vector<int> interval_end;  // step index that completes each interval
    int intervals = 0;
    std::vector<std::uint8_t> computes;  // per thread: it stores an output during the launch
    std::vector<std::uint8_t> acts;      // per thread: it makes any traced access during the launch
    std::vector<int> shared_dz;          // z offsets (-r..r) the compute reads from shared memory,
                                         // from what each shared cell holds (stepper.cpp)
    engine::Counts totals;                 // whole block
    long long outputs = 0;               // global stores of the block
    double seconds = 0;                  // time the traced launch took
    std::vector<std::string> notes;      // what the CPU engine found (a student's race, a fault)
    bool ok() const { return error.empty(); }
    int last_step() const { return (int)steps.size() - 1; }
};

// The x-y shape of one plane of a version's __shared__ array, from its SharedTile row (zero for
// none; `bytes`: a value's). Planes are counted in these: streaming's row tile is two planes of
// (T + 2r) rows of 32 V cells (its double buffer).
struct PlaneShape {
    int nx = 0, ny = 0;
    long long cells() const { return (long long)nx * ny; }
};
PlaneShape shared_plane_shape(KernelId k, int tile, int radius, int bytes);

// Runs the whole grid on the CPU backend with the records of one block (a random input).
// `cancel` (may be null), set from another thread, stops the launch promptly: error "cancelled".
StepperTrace trace_block(const StepperConfig& cfg, const std::atomic<bool>* cancel = nullptr);
// The same from a recorded trace (tests feed a trace directly).
StepperTrace build_stepper_trace(const StepperConfig& cfg, const engine::ExecReport& rep);

enum class ThreadState : std::uint8_t {
    outside,   // its cell lies beyond the grid: it does nothing
    idle,      // no access in the current interval so far
    active,    // loads/stores in the current interval
    computing  // wrote its output in the current interval
};

struct PlaneInfo {
    int z = 0;         // grid plane
    int dz = 0;        // relative to the output plane (-r..r)
    bool in_shared = false;
    bool in_registers = false;
    bool loaded = false;  // already read from global memory
};

struct StepperState {
    int step = 0, interval = -1, sub = 0;
    std::vector<std::uint8_t> loads;    // per box cell: global loads so far (saturates at 255)
    std::vector<std::uint8_t> written;  // per box cell: output stored so far
    std::vector<std::uint8_t> shared;   // per shared cell: 1 once stored
    std::vector<ThreadState> threads;   // per thread of the block
    long long global_loads = 0, global_load_bytes = 0, shared_loads = 0, shared_stores = 0,
              global_stores = 0;
    double flops = 0;                   // outputs stored x (12r + 1)
    int out_plane = -1;                 // z of the output plane in flight (z-marching kernels)
    std::vector<PlaneInfo> planes;      // its 2r + 1 input planes and where they live
    int active_threads = 0, idle_threads = 0;
};

StepperState stepper_state(const StepperTrace& t, int step);

// Steps of the previous / next interval boundary from `step` (for the arrow keys).
int next_interval_step(const StepperTrace& t, int step);
int prev_interval_step(const StepperTrace& t, int step);

// How far a step goes: one instruction of the block, the run of instructions of one source line,
// or a whole barrier interval. A zoom's stops are the steps that end one of its units.
enum class StepZoom { instruction, line, interval };
const char* to_string(StepZoom z);                      // "instruction", "line", "interval"
std::optional<StepZoom> parse_zoom(std::string_view s);
int next_stop(const StepperTrace& t, int step, StepZoom zoom);
int prev_stop(const StepperTrace& t, int step, StepZoom zoom);
// Every stop of a stepping at `zoom`, from step 0 (before the launch) to the last step: the slides
// --export-slides writes, one per stop (an interval stepping: one more than the intervals).
std::vector<int> zoom_stops(const StepperTrace& t, StepZoom zoom);

// Where the instruction of `step` came from: the PTX's .loc (file as NVRTC names it, 1-based
// line) and the PTX instruction. Empty file and line 0 before the launch or without line info.
struct SourcePos {
    std::string file;
    int line = 0;
    std::string instruction;
    bool known() const { return line > 0; }
};
SourcePos step_source(const StepperTrace& t, int step);

// The first step that runs source line `line` of the traced kernel (1-based); a line that makes no
// load or store (a condition, arithmetic) has none: then the first step of the nearest line after
// it. 0 when no traced line is at or after it.
int first_step_at_line(const StepperTrace& t, int line);
// The step the stepper opens on: the end of the first barrier interval in which the block stores
// outputs (tiled: the halo loaded and the tile's interior computed; a z-march: its first output
// plane), where the picture, the counts and OP/B tell the kernel's story. Before the launch (step
// 0) or mid-load (the first interval's end: every plane "loaded once", OP/B 0.00) they say nothing
// yet. The last step when the block stores nothing.
int story_step(const StepperTrace& t);

// Who touched what, for the pointer over the stepper's pictures: an access of the traced block
// with the step it happened in and the line it came from.
struct AccessAt {
    int step = 0;
    int thread = 0;
    engine::Space space = engine::Space::global;
    engine::Op op = engine::Op::load;
    long long cell = 0;  // global: the grid cell's index; shared: the shared array's cell
    SourcePos where;
};
int step_of_access(const StepperTrace& t, int index);  // index into t.acc; 0 when out of range
// The block's global loads of input cell (x, y, z), in step order.
std::vector<AccessAt> loads_of_cell(const StepperTrace& t, int x, int y, int z);
// Every load and store of thread `thread` (linear index in the block), in its program order.
std::vector<AccessAt> accesses_of_thread(const StepperTrace& t, int thread);

// The stepper's keys and what each does, without ImGui (the panel maps ImGui's keys to these):
// space / right = next interval, left = previous interval, down / up = one step forward / back at
// `zoom` (an instruction, a source line or an interval), Home / End = first / last step. Returns
// the new step, clamped to the trace.
enum class StepKey { space, right, left, down, up, home, end };
int step_for_key(const StepperTrace& t, int step, StepKey key, StepZoom zoom = StepZoom::instruction);

}  // namespace stencil::viewer
