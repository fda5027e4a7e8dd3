// Internal to the PTX engine: the state of a launch and of the block a worker runs, shared by the
// files of the executor:
//   launch.cpp       run(): the entry and its limits, the launch's memory, the workers, the report
//   interpret.cpp    the interpreter: a warp's lanes run together while they share a program
//                    counter, one instruction for all of them (the hot path)
//   memory.cpp       loads, stores and atomics: each space, its bounds, the accesses observed
//   calls.cpp        calls and returns: the frames, and the builtins' dispatch
//   rendezvous.cpp   the block's barrier and the warp collectives, and a stuck block's diagnostics
//   faults.cpp       the diagnostics of faulting accesses (bounds, alignment, no allocation)
//   printf.cpp       device printf
//   device_state.cpp what persists between launches: __device__ variables and the device heap
// and the checks, observers of the interpreter (observer.h): race_detector.cpp, provenance.cpp.
//
// Threads and warps. Every thread has its own program counter and call stack (CUDA's independent
// thread scheduling); its registers live in its warp's register file, one row of 32 lanes per
// register slot, so that the lanes of a warp that are at the same instruction with the same call
// stack (a group) execute it together, the instruction decoded once for all of them. A group runs
// until its lanes part (a branch some take), until it waits (a barrier, a warp collective that
// needs lanes elsewhere), until its lanes exit, or until its quantum ends; then the warp's next
// group runs (the one furthest behind, so that parted lanes meet again where they rejoin).
#pragma once
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/ptx/engine.h"
#include "backends/cpu/ptx/ir.h"
#include "backends/cpu/ptx/observer.h"

namespace ptx::detail {

using u64 = std::uint64_t;
using u32 = std::uint32_t;
using engine::DiagKind;

// Instructions a warp runs before the block's other warps may: small, so that a warp spinning on a
// flag another warp sets lets that warp run soon (warps of a block run at once on a GPU).
inline constexpr long long kQuantum = 1 << 10;
inline constexpr long long kLocalLimit = 512 * 1024;  // bytes of local memory (frames) per thread
inline constexpr int kMaxFrames = 4096;               // call depth
inline constexpr long long kCheckEvery = 1 << 16;     // deadline / cancel polling, in instructions
inline constexpr int kWarpSize = 32;
inline constexpr u32 kAllLanes = 0xffffffffu;

// The device heap (device_state.h): a global buffer slot of its own, just below the module's variables.
inline constexpr int kHeapIndex = kModuleGlobalsIndex - 1;

enum class State : std::uint8_t { ready, barrier, warp, exited };

struct Frame {
    int fn = 0;
    int pc = 0;
    int reg_base = 0;
    long long local_base = 0;
    int param_base = 0;
    int ret_offset = -1, ret_bytes = 0;  // where the caller wants the return value (absolute)
};

struct Thread {
    int linear = 0;
    int lane = 0;
    int warp = 0;
    engine::Idx3 idx;
    State state = State::ready;
    std::vector<Frame> frames;
    std::vector<unsigned char> local, params;
    long long local_top = 0;
    int param_top = 0;
    int reg_top = 0;
    long long stack_bytes = 0;  // the GPU stack its call chain occupies (GpuLimits::frame_bytes)
    // waiting at a rendezvous
    const Instr* wait = nullptr;
    int wait_fn = 0, wait_pc = 0;
    u32 wait_mask = 0;
    u64 wait_value = 0;
    int interval = 0;      // the block's barrier interval
    long long executed = 0;
    u64 clock_offset = 0;  // Explore: where this thread's clocks start
    int seq = 0;
    u32 carry = 0;
    std::vector<std::pair<int, int>> occurrence;  // per site: (interval, count) when recording
};

// One warp: its threads are block threads [first, first + lanes), its registers one row of 32
// values per slot (slot s of lane l at regs[s * 32 + l]).
struct Warp {
    int first = 0;
    int lanes = 0;
    u32 all = 0;  // the lanes that exist
    std::vector<u64> regs;
    int rows = 0;
    // scheduling: the group picked last, and how many times in a row (fairness)
    u64 last_key = 0;
    int streak = 0;
    // its last poll (a strong load or an atomic): where, and a hash of what its lanes read
    u64 poll_at = 0, poll_read = 0;
    void reserve_rows(int n) {
        if (n <= rows) return;
        rows = std::max(n, rows * 2);
        regs.resize(size_t(rows) * kWarpSize, 0);
    }
    u64* row(int slot) { return regs.data() + size_t(slot) * kWarpSize; }
};

struct BufferSlot {
    unsigned char* data = nullptr;
    std::size_t bytes = 0;
    int id = 0;
    std::string name;
    bool read_only = false;
    bool heap = false;  // the device heap: each access checked against its malloc'd block
};

struct LaunchState {
    LaunchState(const Module& m_, const Launch& l, const engine::ExecOptions& o) : m(m_), launch(l), opt(o) {}
    const Module& m;
    const Launch& launch;
    const engine::ExecOptions& opt;
    const Function* entry = nullptr;
    int entry_index = 0;
    std::vector<BufferSlot> buffers;
    BufferSlot module_globals;
    DeviceState::Impl* device = nullptr;  // the globals and the heap (the launch's own or shared)
    std::unique_ptr<DeviceState> own_device;
    std::vector<unsigned char> const_mem, entry_params;
    long long entry_formal_bytes = 0;  // the kernel's own parameters: the first bytes of its param space
    long long shared_total = 0;
    int nthreads = 0;
    bool counting = false, recording = false;
    bool uses_heap = false;  // the entry may call malloc or free (heap_reachable)
    std::atomic<bool> stop{false};
    // Launch::block_instruction_budget times the blocks: one pool for the launch, so a block that
    // does other blocks' work (a work queue) may, and an endless loop still ends exactly
    long long instruction_pool = 0;
    std::atomic<long long> instructions_drawn{0};
    std::mutex printf_mutex;
    // Held across a strong access's observation and its effect while the checks observe: another
    // worker that sees the effect (an atomic's count, a flag) sees what the race detector published
    // with it (the release made at the access), not an older state of the location.
    std::mutex strong_access_mutex;
    // Set once the sink is full (or there is none): later printfs only count their conversions,
    // so a kernel that prints in every thread costs no formatting past the cap.
    std::atomic<bool> printf_full{false};
    std::chrono::steady_clock::time_point start;
    double deadline = 0;
    std::vector<std::pair<long long, int>> shared_vars;  // (offset, variable) sorted, of this entry
    std::vector<long long> frame_bytes;                   // per function (GpuLimits), -1 unknown
    std::unique_ptr<LaunchObservers> observers;            // the checks; null when none
};

// What an instruction's handler tells the interpreter loop to do next.
enum class Next : std::uint8_t {
    advance,  // the next instruction, for the whole group
    jumped,   // the handler set the group's program counter (a uniform branch)
    part,     // the group's lanes no longer share a program counter: the warp picks again
    stop,     // the group stops running for now: it waits, yields, exited or faulted
    call,     // the group entered a callee (its frames are pushed)
    ret,      // the group leaves its current frame
};

// The lanes running together: their warp, which lanes, and the frame they share (every lane of
// a group has the same call stack).
struct Group {
    Warp& w;
    u32 mask;
    Thread* const* lanes;  // by lane: the warp's threads
    int fn = 0;
    const Function* f = nullptr;
    int pc = 0;
    int reg_base = 0;
    long long local_base = 0;
    int param_base = 0;
    long long steps = 0;  // instructions this group ran since it was formed
    u64* R = nullptr;     // the register rows of the frame: slot s of lane l at R[s * 32 + l]
    u64& reg(int slot, int lane) const { return R[size_t(slot) * kWarpSize + lane]; }
};

const char* op_word(engine::Op o);
std::string idx_text(engine::Idx3 i);
std::string short_file(const std::string& f);

// ---- one worker: runs blocks one after another -------------------------------------------------
class BlockRunner {
public:
    BlockRunner(LaunchState& L, int worker);
    ~BlockRunner();

    engine::ExecReport report;
    // (linear block, its diagnostic totals), in the order this worker ran them
    std::vector<std::pair<int, std::array<long long, engine::kDiagKinds>>> log;

    void run_block(int linear_block);
    int start_threads_and_warps(int n);  // returns the warps' count
    void schedule_warps(int linear_block, int nwarps);
    bool cancelled() const { return report.cancelled; }

    // -- for the observers and the rendezvous: names, places, diagnostics
    LaunchState& launch() { return L_; }
    const Module& module() const { return L_.m; }
    int block() const { return block_; }
    engine::Idx3 block_idx() const { return block_idx_; }
    std::vector<Thread>& threads() { return threads_; }
    const unsigned char* shared_memory() const { return shared_.data(); }
    void add_diag(engine::Diagnostic d);
    bool wants(DiagKind k);  // false past the kind's cap: only counted
    void locate(engine::Diagnostic& d, const Thread& t, const Instr* in) const;
    std::string where(const Instr* in) const;
    std::string instr_text(const Function& f, const Instr& in) const;
    std::string instr_text_at(int fn, const Instr& in) const { return instr_text(L_.m.functions[fn], in); }
    std::string thread_text(const Thread& t) const;
    std::pair<int, long long> shared_var(long long off) const;
    std::string shared_var_name(int var, long long off) const;
    void fatal(DiagKind kind, const Thread& t, const Instr* in, std::string message);
    void fail_block();
    u64* regs_of(Thread& t) {
        return warps_[(size_t)t.warp].regs.data() + size_t(t.frames.back().reg_base) * kWarpSize + t.lane;
    }
    // slot s of thread t's current frame (the pointer's stride is a warp's row)
    u64& reg_of(Thread& t, int slot) { return regs_of(t)[size_t(slot) * kWarpSize]; }

private:
    LaunchState& L_;
    int worker_;
    std::vector<Thread> threads_;
    std::vector<Warp> warps_;
    std::vector<Thread*> lane_ptrs_;  // per warp, 32 pointers (nullptr past the block)
    std::vector<unsigned char> shared_;
    std::vector<std::unique_ptr<BlockObserver>> observers_;  // the checks of this worker
    bool observing_ = false;
    bool stepping_ = false;  // an observer wants this block's instructions (observer.h: step)
    int block_ = 0;
    engine::Idx3 block_idx_;
    bool abort_ = false;
    bool record_block_ = false;
    // Set while a builtin (printf, assert) reads its strings and arguments: those reads are the
    // device runtime's, not the kernel's, so the load count leaves them out (they are still checked).
    bool builtin_reading_ = false;
    // A warp all of whose ready lanes poll (a strong load or an atomic) and read what they read at
    // the same instruction last time yields to the block's other warps (a consumer spinning on a
    // flag lets the producer run). After a round in which no warp ran but to yield so, the next
    // round runs full quanta: a kernel that spins forever spends its budget at the usual rate.
    bool polls_yield_ = true;
    bool poll_yielded_ = false;
    bool poll_unchanged(Warp& w, const Group& g, const Instr& in, u32 active);
    long long block_instructions_ = 0;
    long long drawn_ = 0;  // of block_instructions_, what is drawn from the launch's pool already
    long long next_poll_ = 0;
    std::chrono::steady_clock::time_point block_start_;
    std::mt19937_64 rng_;
    std::array<std::uint8_t, kWarpSize> lane_order_{};  // the order a warp's lanes access memory
    engine::Counts block_counts_;
    std::array<int, engine::kDiagKinds> kept_{};

    // -- setup
    void start_thread(Thread& t, int linear);
    void start_block_memory();

    // -- the interpreter (interpret.cpp; memory.cpp: loads, stores, atomics; calls.cpp: calls)
    void run_warp(Warp& w, long long& quantum);
    u32 pick_group(Warp& w);
    void run_group(Warp& w, u32 mask, long long& quantum);
    template <bool kStep>
    void run_group_as(Warp& w, u32 mask, long long& quantum);
    bool poll_limits(Group& g, const Instr& in);
    u64 operand(const Group& g, const Operand& o, int lane);
    u64 special(const Group& g, const Thread& t, Special s);
    Next execute(Group& g, const Instr& in, u32 active);
    Next exec_mov(Group& g, const Instr& in, u32 active);
    Next exec_address(Group& g, const Instr& in, u32 active);
    bool plain_access(const Instr& in) const;
    bool uniform_load(const Group& g, const Instr& in) const;
    Next load_plain(Group& g, const Instr& in, u32 active);
    Next store_plain(Group& g, const Instr& in, u32 active);
    Next exec_load(Group& g, const Instr& in, u32 active);
    Next exec_store(Group& g, const Instr& in, u32 active);
    Next exec_atomic(Group& g, const Instr& in, u32 active);
    Next exec_branch(Group& g, const Instr& in, u32 active);
    Next exec_call(Group& g, const Instr& in, u32 active);
    Next exec_builtin_call(Group& g, const Instr& in, u32 active);
    Next exec_ret(Group& g, const Instr& in, u32 active);
    Next exec_exit(Group& g, const Instr& in, u32 active);
    Next exec_fence(Group& g, const Instr& in, u32 active);
    Next exec_alu(Group& g, const Instr& in, u32 active);
    Next exec_barrier(Group& g, const Instr& in, u32 active);
    Next exec_warp(Group& g, const Instr& in, u32 active);
    bool push_frame(Group& g, Thread& t, const Instr& in, int callee);
    bool leave_frame(Thread& t);
    void write_back(Group& g, u32 lanes, int pc);
    template <class F>
    void each_lane(u32 active, F f) const;
    u64 approx_moved(const Instr& in, u64 exact, int lane, const Thread& t) const;

    // -- memory (memory.cpp: the hot path; faults.cpp: the diagnostics)
    template <bool kStore>
    bool access(Thread& t, const Instr& in, Sp space, u64 addr, int size, void* data, bool atomic_op = false);
    bool resolve_generic(Thread& t, const Instr& in, Sp& space, u64& addr, int size, bool store);
    const BufferSlot* buffer_of(u64 addr, int& index) const;
    bool global_pointer(Thread& t, const Instr& in, u64 addr, int size, engine::Op op, bool store, unsigned char*& p);
    bool shared_pointer(Thread& t, const Instr& in, u64 addr, int size, engine::Op op, bool store, unsigned char*& p);
    bool local_pointer(Thread& t, const Instr& in, u64 addr, int size, engine::Op op, bool store, unsigned char*& p);
    void no_allocation(Thread& t, const Instr& in, u64 addr, int size, bool store);
    void buffer_fault(Thread& t, const Instr& in, const BufferSlot& b, long long off, engine::Op op, DiagKind kind,
                      bool store);
    void shared_out_of_bounds(Thread& t, const Instr& in, long long a, engine::Op op, bool store);
    void local_out_of_bounds(Thread& t, const Instr& in, u64 addr, engine::Op op, bool store);
    void misaligned(Thread& t, const Instr& in, Sp space, int size, bool store);
    void observe(Thread& t, const Instr& in, engine::Space sp, engine::Op op, int size, const BufferSlot* b, int var,
                 long long off, long long inner);
    void record(Thread& t, const Instr& in, engine::Space sp, engine::Op op, int size, int buffer, long long off);
    bool atomic(Group& g, Thread& t, const Instr& in);

    // -- builtins: printf (printf.cpp), assert, malloc / free (device_state.cpp)
    void do_printf(Group& g, Thread& t, const Instr& in);
    bool format_printf(Thread& t, const Instr& in, const std::string& fmt_text, u64 args, std::string& out,
                       int& converted);
    void append_printf_output(const std::string& out);
    bool read_string(Thread& t, const Instr& in, u64 addr, std::string& out);
    void do_assert_fail(Group& g, Thread& t, const Instr& in);
    void do_malloc(Group& g, Thread& t, const Instr& in);
    void do_free(Group& g, Thread& t, const Instr& in);
    bool heap_access_ok(Thread& t, const Instr& in, long long off, int size, engine::Op op, bool store);
    u64 call_param(Group& g, Thread& t, const Instr& in, size_t k) const;

    // -- rendezvous (rendezvous.cpp)
    bool resolve_warps();
    void resolve_stuck();
    bool try_complete_now(Group& g, const Instr& in, u32 active);
    void complete_warp_group(std::vector<Thread*>& lanes, const Instr& in);
    void diagnose_warp_stuck(Thread& t);
    void diagnose_exit_before_barrier(Thread& at_barrier, const Thread& exited);
    bool diagnose_divergent_barrier(Thread& at_barrier);
    void release_barrier(const Instr& in);
};

template <class F>
inline void BlockRunner::each_lane(u32 active, F f) const {
    // in the order the launch's exploration gives the lanes (memory, atomics)
    for (int k = 0; k < kWarpSize; ++k) {
        const int l = lane_order_[(size_t)k];
        if ((active >> l) & 1) f(l);
    }
}

}  // namespace ptx::detail
