// Executes a decoded PTX module (ir.h) with CUDA's execution model: see engine.h.
//
// A block's threads are interpreted one at a time. Each has its own program counter, registers,
// local memory and call stack, and runs until it reaches a block barrier, a warp rendezvous
// (shfl/vote/match/bar.warp/activemask/redux), its exit, or the end of its quantum; then the next
// thread of the schedule runs. When every live thread waits, the rendezvous are resolved:
// complete warp groups first, then the block barrier (all live threads at one barrier), else
// the block is stuck and the reason (divergent barrier, exit before a barrier, a warp group
// that cannot complete) is a diagnostic. Blocks are spread over worker OS threads.
//
// Sections: the launch's shared state (LaunchState: buffers, shadows, printf sink); one worker
// (BlockRunner: threads, memory access per space and its checks, shared and global shadows);
// printf; the interpreter loop (run_thread: the hot forms inline, then one handler per family of
// instructions: data movement and memory, calls and control, block and warp rendezvous, the
// ALU); rendezvous (warp groups by operation, the block barrier, a stuck block's diagnostics);
// run_block, the workers, and run() in steps (the entry, the launch's memory, the block order,
// the workers, the merged report, the sites).
#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "backends/cpu/ptx/alu.h"
#include "backends/cpu/ptx/ir.h"

namespace ptx {

namespace {

using u64 = std::uint64_t;
using u32 = std::uint32_t;
using simt::DiagKind;

constexpr long long kQuantum = 1 << 16;           // instructions before a thread yields
constexpr long long kLocalLimit = 512 * 1024;      // bytes of local memory (frames) per thread
constexpr int kMaxFrames = 4096;                   // call depth
constexpr long long kCheckEvery = 1 << 16;         // deadline / cancel polling, in instructions

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
    simt::Idx3 idx;
    State state = State::ready;
    std::vector<Frame> frames;
    std::vector<u64> regs;
    std::vector<unsigned char> local, params;
    long long local_top = 0;
    int param_top = 0;
    int reg_top = 0;
    // waiting at a rendezvous
    const Instr* wait = nullptr;
    int wait_fn = 0, wait_pc = 0;
    u32 wait_mask = 0;
    u64 wait_value = 0;
    int interval = 0;
    int warp_epoch = 0;
    long long executed = 0;
    int seq = 0;
    u32 carry = 0;
    std::vector<std::pair<int, int>> occurrence;  // per site: (interval, count) when recording
};

// Per-byte shadow of shared memory (checks on): who stored, who loaded, in which interval.
struct SharedShadow {
    std::vector<std::uint8_t> written;  // a thread of the block stored this byte
    struct Cell {
        std::int16_t writer = -1, reader = -1;  // reader -2: several
        std::int32_t w_interval = -1, r_interval = -1;
        std::int32_t w_epoch = 0, r_epoch = 0;  // the accessor's warp-sync count
        std::int32_t w_site = -1, r_site = -1;
    };
    std::vector<Cell> cells;
};

// Global shadow (checks on), one 64-bit word per 4 bytes of a writable buffer:
// block + 1 (22 bits) | thread (11 bits) | interval (20 bits) | site (11 bits, saturating)
struct GlobalShadow {
    std::vector<std::atomic<u64>> writes, reads;
};
constexpr u64 kManyBlocks = (u64(1) << 22) - 1;
constexpr u64 kManyThreads = (u64(1) << 11) - 1;
u64 pack(u64 block1, u64 thread, u64 interval, u64 site) {
    return (block1 << 42) | ((thread & 0x7ff) << 31) | ((interval & 0xfffff) << 11) | (site > 0x7fe ? 0x7ff : site);
}
u64 sh_block(u64 v) { return v >> 42; }
u64 sh_thread(u64 v) { return (v >> 31) & 0x7ff; }
u64 sh_interval(u64 v) { return (v >> 11) & 0xfffff; }
u64 sh_site(u64 v) { return v & 0x7ff; }

struct BufferSlot {
    unsigned char* data = nullptr;
    std::size_t bytes = 0;
    int id = 0;
    std::string name;
    bool read_only = false;
    GlobalShadow* shadow = nullptr;
};

struct LaunchState {
    LaunchState(const Module& m_, const Launch& l, const simt::ExecOptions& o) : m(m_), launch(l), opt(o) {}
    const Module& m;
    const Launch& launch;
    const simt::ExecOptions& opt;
    const Function* entry = nullptr;
    int entry_index = 0;
    std::vector<BufferSlot> buffers;
    BufferSlot module_globals;
    std::vector<unsigned char> globals_mem, const_mem, entry_params;
    std::vector<std::unique_ptr<GlobalShadow>> shadows;
    long long shared_total = 0;
    int nthreads = 0;
    bool checks = false, counting = false, recording = false;
    std::atomic<bool> stop{false};
    std::mutex printf_mutex;
    // Set once the sink is full (or there is none): later printfs only count their conversions,
    // so a kernel that prints in every thread costs no formatting past the cap.
    std::atomic<bool> printf_full{false};
    std::chrono::steady_clock::time_point start;
    double deadline = 0;
    std::vector<std::pair<long long, int>> shared_vars;  // (offset, variable) sorted, of this entry
};

const char* op_word(simt::Op o) { return o == simt::Op::store ? "stores" : o == simt::Op::atomic ? "atomically updates" : "loads"; }

std::string idx_text(simt::Idx3 i) { return fmt::format("({}, {}, {})", i.x, i.y, i.z); }

// What an instruction's handler tells the interpreter loop to do next.
enum class Next : std::uint8_t {
    advance,  // the next instruction of this frame
    jumped,   // the handler set the program counter (a branch)
    stop,     // the thread stops running for now: it waits, yields, exited or faulted
    call,     // the handler pushed a callee's frame: interpret it
    ret,      // leave the current frame
};

// The thread being interpreted, its current frame, the frame's function and registers: what
// every handler reads.
struct Exec {
    Thread& t;
    Frame& fr;
    const Function& f;
    u64* R;
};

// One checked shared-memory access: the variable it falls in, its first byte, the offset inside
// the variable, the element size and the operation.
struct SharedAccess {
    int var;
    long long off, inner;
    int elem;
    simt::Op op;
};

// Another thread's access recorded in a global shadow word conflicts with mine: it is of another
// block, or of another thread of my block in the same barrier interval.
bool conflicts(u64 other, u64 me) {
    return other && (sh_block(other) != sh_block(me) ||
                     (sh_interval(other) == sh_interval(me) && sh_thread(other) != sh_thread(me)));
}

// ---- one worker: runs blocks one after another ---------------------------------------------
class BlockRunner {
public:
    BlockRunner(LaunchState& L, int worker) : L_(L), worker_(worker) {}

    simt::ExecReport report;
    // (linear block, its diagnostic totals), in the order this worker ran them
    std::vector<std::pair<int, std::array<long long, simt::kDiagKinds>>> log;

    void run_block(int linear_block);

private:
    LaunchState& L_;
    int worker_;
    std::vector<Thread> threads_;
    std::vector<unsigned char> shared_;
    SharedShadow shadow_;
    int block_ = 0;
    simt::Idx3 block_idx_;
    bool abort_ = false;
    bool record_block_ = false;
    long long block_instructions_ = 0;
    long long next_poll_ = 0;
    std::chrono::steady_clock::time_point block_start_;
    std::mt19937_64 rng_;
    simt::Counts block_counts_;

    // -- diagnostics
    void add_diag(simt::Diagnostic d) {
        ++report.totals[static_cast<int>(d.kind)];
        if (kept_[static_cast<int>(d.kind)]++ < L_.opt.max_diagnostics) report.diagnostics.push_back(std::move(d));
    }
    // Past the cap of its kind a diagnostic is only counted: a kernel that reads unwritten shared
    // memory in every block must not pay for a message each time. Returns whether to build one.
    bool wants(DiagKind k) {
        if (kept_[static_cast<int>(k)] < L_.opt.max_diagnostics) return true;
        ++report.totals[static_cast<int>(k)];
        return false;
    }
    std::array<int, simt::kDiagKinds> kept_{};
    void locate(simt::Diagnostic& d, const Thread& t, const Instr* in) {
        d.block = block_idx_;
        d.thread_a = t.linear;
        d.thread_a_idx = t.idx;
        d.interval = t.interval;
        if (in) {
            const Function& f = L_.m.functions[t.frames.empty() ? L_.entry_index : t.frames.back().fn];
            const SourceLoc& l = L_.m.locs[in->loc];
            if (l.file >= 0 && l.file < (int)L_.m.files.size()) d.file = L_.m.files[l.file];
            d.line = l.line > 0 ? l.line : -1;
            d.instruction = instr_text(f, *in);
        }
    }
    std::string where(const Thread& t, const Instr* in) const {
        if (!in) return "its end";
        const SourceLoc& l = L_.m.locs[in->loc];
        if (l.file >= 0 && l.file < (int)L_.m.files.size() && l.line > 0)
            return fmt::format("{}:{}", short_file(L_.m.files[l.file]), l.line);
        (void)t;
        return fmt::format("PTX line {}", in->ptx_line);
    }
    static std::string short_file(const std::string& f) {
        const auto p = f.find_last_of('/');
        return p == std::string::npos ? f : f.substr(p + 1);
    }
    std::string instr_text(const Function& f, const Instr& in) const {
        const auto fi = &f - L_.m.functions.data();
        const auto pi = &in - f.code.data();
        if (fi >= 0 && fi < (long)L_.m.opcode_text.size() && pi >= 0 && pi < (long)L_.m.opcode_text[fi].size())
            return L_.m.opcode_text[fi][pi];
        return "?";
    }
    const Instr* current(const Thread& t) const {
        if (t.frames.empty()) return nullptr;
        const Frame& fr = t.frames.back();
        const auto& code = L_.m.functions[fr.fn].code;
        return fr.pc < (int)code.size() ? &code[fr.pc] : nullptr;
    }
    void fatal(DiagKind kind, const Thread& t, const Instr* in, std::string message) {
        simt::Diagnostic d;
        d.kind = kind;
        d.space = simt::Space::global;  // faults outside shared memory (shared ones build their own)
        locate(d, t, in);
        d.message = std::move(message);
        add_diag(std::move(d));
        fail_block();
    }
    std::string thread_text(const Thread& t) const {
        return fmt::format("thread {} of block {}", idx_text(t.idx), idx_text(block_idx_));
    }

    // -- names of memory
    // The shared variable holding byte `off` (-1: none, or dynamic shared memory) and the offset
    // inside it; its name as the source declared it.
    std::pair<int, long long> shared_var(long long off) const {
        for (const auto& [o, v] : L_.shared_vars)
            if (o <= off && off < o + std::max<long long>(1, L_.m.variables[v].bytes)) return {v, off - o};
        if (off >= (long long)L_.entry->dynamic_shared_offset && L_.launch.dynamic_shared_bytes > 0)
            return {-1, off - L_.entry->dynamic_shared_offset};
        return {-1, off};
    }
    std::string shared_var_name(int var, long long off) const {
        if (var >= 0) return L_.m.variables[var].display;
        return off >= (long long)L_.entry->dynamic_shared_offset && L_.launch.dynamic_shared_bytes > 0 ? "extern shared"
                                                                                                     : "shared";
    }

    // -- setup
    void start_thread(Thread& t, int linear);
    bool resolve_warps();
    void resolve_stuck();
    void complete_warp_group(std::vector<Thread*>& lanes, const Instr& in);
    // A fault ends the block (and, with stop_on_error, the launch).
    void fail_block() {
        abort_ = true;
        report.ok = false;
        if (L_.opt.stop_on_error) L_.stop = true;
    }

    // -- the interpreter: the loop, and one handler per family of instructions (each says what
    // the loop does next)
    void run_thread(Thread& t);
    bool poll_limits(Thread& t, const Instr& in);
    [[gnu::always_inline]] u64 operand(const Exec& x, const Operand& o) const;
    [[gnu::always_inline]] Next execute(Exec& x, const Instr& in);
    [[gnu::always_inline]] Next exec_mov(Exec& x, const Instr& in);
    [[gnu::always_inline]] Next exec_cvta(Exec& x, const Instr& in);
    [[gnu::always_inline]] Next exec_load(Exec& x, const Instr& in);
    [[gnu::always_inline]] Next exec_store(Exec& x, const Instr& in);
    Next exec_call(Exec& x, const Instr& in);
    Next exec_assert_fail(Exec& x, const Instr& in);
    Next push_frame(Exec& x, const Instr& in);
    Next wait_at_barrier(Exec& x, const Instr& in);
    Next wait_at_warp(Exec& x, const Instr& in);
    [[gnu::always_inline]] Next exec_alu(Exec& x, const Instr& in);
    bool leave_frame(Thread& t);

    // -- rendezvous diagnostics and the barrier's release
    void diagnose_warp_stuck(Thread& t);
    void diagnose_exit_before_barrier(Thread& at_barrier, const Thread& exited);
    bool diagnose_divergent_barrier(Thread& at_barrier);
    void release_barrier(const Instr& in);

    // -- memory
    template <bool kStore>
    bool access(Thread& t, const Instr& in, Sp space, u64 addr, int size, void* data, bool atomic_op = false);
    [[gnu::always_inline]] bool resolve_generic(Thread& t, const Instr& in, Sp& space, u64& addr, int size, bool store);
    [[gnu::always_inline]] bool global_pointer(Thread& t, const Instr& in, u64 addr, int size, simt::Op op, bool store, unsigned char*& p);
    [[gnu::always_inline]] bool shared_pointer(Thread& t, const Instr& in, u64 addr, int size, simt::Op op, bool store, unsigned char*& p);
    [[gnu::always_inline]] bool local_pointer(Thread& t, const Instr& in, u64 addr, int size, simt::Op op, bool store, unsigned char*& p);
    void buffer_fault(Thread& t, const Instr& in, const BufferSlot& b, long long off, simt::Op op, DiagKind kind,
                      std::string message);
    void shared_out_of_bounds(Thread& t, const Instr& in, long long a, simt::Op op, bool store);
    void on_shared(Thread& t, const Instr& in, long long off, int size, simt::Op op);
    void shadow_shared_load(Thread& t, const Instr& in, const SharedAccess& a, long long b, bool& reported);
    void shadow_shared_store(Thread& t, const Instr& in, const SharedAccess& a, long long b, bool& reported);
    void report_uninitialized_read(Thread& t, const Instr& in, const SharedAccess& a);
    void report_shared_race(Thread& t, const Instr& in, const SharedAccess& a, int other, int other_site,
                            simt::Op other_op);
    void on_global(Thread& t, const Instr& in, const BufferSlot& b, long long off, int size, simt::Op op);
    void report_global_race(Thread& t, const Instr& in, const BufferSlot& b, long long off, simt::Op op,
                            simt::Op other_op, u64 conflict);
    void record(Thread& t, const Instr& in, simt::Space sp, simt::Op op, int size, int buffer, long long off);
    bool atomic(Thread& t, const Instr& in, u64* R);
    void do_printf(Thread& t, const Instr& in, u64* R);
    bool format_printf(Thread& t, const Instr& in, const std::string& fmt_text, u64 args, std::string& out,
                       int& converted);
    void append_printf_output(const std::string& out);
    bool read_string(Thread& t, const Instr& in, u64 addr, std::string& out);

    u64 special(const Thread& t, Special s) const;
    friend void run_worker(LaunchState&, BlockRunner&, const std::vector<int>&, std::atomic<size_t>&);
};

u64 BlockRunner::special(const Thread& t, Special s) const {
    const auto& g = L_.launch.grid;
    const auto& b = L_.launch.block;
    const u32 lane = u32(t.linear % 32);
    switch (s) {
        case Special::tid_x: return u32(t.idx.x);
        case Special::tid_y: return u32(t.idx.y);
        case Special::tid_z: return u32(t.idx.z);
        case Special::ntid_x: return u32(b.x);
        case Special::ntid_y: return u32(b.y);
        case Special::ntid_z: return u32(b.z);
        case Special::ctaid_x: return u32(block_idx_.x);
        case Special::ctaid_y: return u32(block_idx_.y);
        case Special::ctaid_z: return u32(block_idx_.z);
        case Special::nctaid_x: return u32(g.x);
        case Special::nctaid_y: return u32(g.y);
        case Special::nctaid_z: return u32(g.z);
        case Special::laneid: return lane;
        case Special::warpid: return u32(t.linear / 32);
        case Special::nwarpid: return 64;
        case Special::smid: return u32(worker_);
        case Special::nsmid: return u32(std::max(1, report.workers));
        case Special::gridid: return 1;
        case Special::lanemask_eq: return u32(1) << lane;
        case Special::lanemask_lt: return (u32(1) << lane) - 1;
        case Special::lanemask_le: return u32((u64(2) << lane) - 1);
        case Special::lanemask_gt: return ~u32((u64(2) << lane) - 1);
        case Special::lanemask_ge: return ~((u32(1) << lane) - 1);
        // Virtual clocks: the thread's own executed instructions, monotone and reproducible.
        case Special::clock: return u32(t.executed);
        case Special::clock64: return u64(t.executed);
        case Special::globaltimer: return u64(t.executed);
        case Special::globaltimer_lo: return u32(t.executed);
        case Special::globaltimer_hi: return u32(u64(t.executed) >> 32);
        case Special::dynamic_smem_size: return u32(L_.launch.dynamic_shared_bytes);
        case Special::total_smem_size: return u32(L_.shared_total);
    }
    return 0;
}

void BlockRunner::start_thread(Thread& t, int linear) {
    const auto& b = L_.launch.block;
    t.linear = linear;
    t.idx = {linear % b.x, (linear / b.x) % b.y, linear / (b.x * b.y)};
    t.state = State::ready;
    t.frames.clear();
    const Function& f = *L_.entry;
    t.regs.assign((size_t)std::max(1, f.slots), 0);
    t.reg_top = f.slots;
    t.local.assign((size_t)f.local_bytes, 0xFF);
    t.local_top = f.local_bytes;
    t.params.assign((size_t)std::max(f.param_bytes, 1), 0);
    std::memcpy(t.params.data(), L_.entry_params.data(), L_.entry_params.size());
    t.param_top = f.param_bytes;
    t.frames.push_back({L_.entry_index, 0, 0, 0, 0, -1, 0});
    t.wait = nullptr;
    t.interval = 0;
    t.warp_epoch = 0;
    t.executed = 0;
    t.seq = 0;
    t.carry = 0;
    if (record_block_) t.occurrence.assign(L_.m.sites.size(), {-1, 0});
}

void BlockRunner::record(Thread& t, const Instr& in, simt::Space sp, simt::Op op, int size, int buffer, long long off) {
    if (L_.counting) block_counts_.add(sp, op, size);
    if (record_block_) {
        auto& oc = t.occurrence[in.site];
        if (oc.first != t.interval) oc = {t.interval, 0};
        if (report.trace.size() >= L_.opt.trace.max_records) {
            report.trace_truncated = true;
        } else {
            simt::Access a;
            a.block = block_;
            a.thread = t.linear;
            a.interval = t.interval;
            a.site = in.site;
            a.occurrence = oc.second;
            a.seq = t.seq;
            a.space = sp;
            a.op = op;
            a.size = (std::uint8_t)std::min(size, 255);
            a.buffer = buffer;
            a.offset = off;
            report.trace.push_back(a);
        }
        ++oc.second;
    }
    ++t.seq;
}

void BlockRunner::on_shared(Thread& t, const Instr& in, long long off, int size, simt::Op op) {
    const auto [var, inner] = shared_var(off);
    record(t, in, simt::Space::shared, op, size, var, inner);
    if (!L_.checks || op == simt::Op::atomic) return;
    const SharedAccess a{var, off, inner, std::max(1, bytes_of(in.type)), op};
    bool reported = false;  // one diagnostic per access, however many bytes it spans
    for (long long b = off; b < off + size; ++b) {
        if (op == simt::Op::load) shadow_shared_load(t, in, a, b, reported);
        else shadow_shared_store(t, in, a, b, reported);
    }
}

// Lanes of one warp that both passed a __syncwarp() since the other access are ordered.
bool synced_in_warp(const Thread& t, int other, int other_epoch) {
    return other / 32 == t.linear / 32 && t.warp_epoch > other_epoch;
}

// A load of shared byte b: was it stored, and by another thread of this interval without a
// barrier between? Then the byte's reader is this thread (or several).
void BlockRunner::shadow_shared_load(Thread& t, const Instr& in, const SharedAccess& a, long long b, bool& reported) {
    auto& c = shadow_.cells[(size_t)b];
    if (!shadow_.written[(size_t)b] && !reported && !wants(DiagKind::uninitialized_shared_read)) {
        reported = true;
    } else if (!shadow_.written[(size_t)b] && !reported) {
        report_uninitialized_read(t, in, a);
        reported = true;
    }
    if (!reported && c.w_interval == t.interval && c.writer >= 0 && c.writer != t.linear &&
        !synced_in_warp(t, c.writer, c.w_epoch)) {
        report_shared_race(t, in, a, c.writer, c.w_site, simt::Op::store);
        reported = true;
    }
    if (c.r_interval != t.interval) {
        c.reader = (std::int16_t)t.linear;
        c.r_interval = t.interval;
        c.r_epoch = t.warp_epoch;
        c.r_site = in.site;
    } else if (c.reader != t.linear) {
        c.reader = -2;
        c.r_epoch = std::min(c.r_epoch, t.warp_epoch);
    }
}

// A store to shared byte b: did another thread of this interval store or load it without a
// barrier between? Then the byte's writer is this thread.
void BlockRunner::shadow_shared_store(Thread& t, const Instr& in, const SharedAccess& a, long long b, bool& reported) {
    auto& c = shadow_.cells[(size_t)b];
    if (!reported && c.w_interval == t.interval && c.writer >= 0 && c.writer != t.linear &&
        !synced_in_warp(t, c.writer, c.w_epoch)) {
        report_shared_race(t, in, a, c.writer, c.w_site, simt::Op::store);
        reported = true;
    }
    if (!reported && c.r_interval == t.interval && c.reader != t.linear &&
        (c.reader == -2 || !synced_in_warp(t, c.reader, c.r_epoch))) {
        report_shared_race(t, in, a, c.reader >= 0 ? c.reader : t.linear, c.r_site, simt::Op::load);
        reported = true;
    }
    c.writer = (std::int16_t)t.linear;
    c.w_interval = t.interval;
    c.w_epoch = t.warp_epoch;
    c.w_site = in.site;
    shadow_.written[(size_t)b] = 1;
}

void BlockRunner::report_uninitialized_read(Thread& t, const Instr& in, const SharedAccess& a) {
    const std::string name = shared_var_name(a.var, a.off);
    simt::Diagnostic d;
    d.kind = DiagKind::uninitialized_shared_read;
    locate(d, t, &in);
    d.space = simt::Space::shared;
    d.array = name;
    d.offset = a.inner;
    d.elem_size = a.elem;
    d.op_a = a.op;
    d.message = fmt::format("{} loads shared {}[{}] at {}, which no thread of the block stored: "
                            "its value is undefined",
                            thread_text(t), name, a.inner / a.elem, where(t, &in));
    add_diag(std::move(d));
}

void BlockRunner::report_shared_race(Thread& t, const Instr& in, const SharedAccess& a, int other, int other_site,
                                     simt::Op other_op) {
    if (!wants(DiagKind::race)) return;
    const std::string name = shared_var_name(a.var, a.off);
    simt::Diagnostic d;
    d.kind = DiagKind::race;
    locate(d, t, &in);
    d.op_a = a.op;
    d.op_b = other_op;
    d.thread_b = other;
    d.thread_b_idx = threads_[other].idx;
    d.block_b = block_idx_;
    d.space = simt::Space::shared;
    d.array = name;
    d.offset = a.inner;
    d.elem_size = a.elem;
    std::string other_at = "?";
    if (other_site >= 0) {
        const MemSite& s = L_.m.sites[other_site];
        other_at = where(t, &L_.m.functions[s.function].code[s.instr]);
    }
    d.message = fmt::format("race on shared {}[{}]: thread {} {} it at {} and thread {} {} it at {} in the same "
                            "barrier interval ({}) of block {}, with no __syncthreads() between",
                            name, a.inner / a.elem, idx_text(t.idx), op_word(a.op), where(t, &in),
                            idx_text(threads_[other].idx), op_word(other_op), other_at, t.interval,
                            idx_text(block_idx_));
    add_diag(std::move(d));
}

// A store to a global shadow word: mine now; the conflicting earlier store or load, if any.
u64 shadow_global_store(std::atomic<u64>& W, std::atomic<u64>& R, u64 me, simt::Op& other_op) {
    const u64 old = W.exchange(me);
    if (conflicts(old, me)) {
        other_op = simt::Op::store;
        return old;
    }
    const u64 r = R.load();
    if (conflicts(r, me)) {
        other_op = simt::Op::load;
        return r;
    }
    return 0;
}

// A load of a global shadow word: the readers' record merged (one thread, several threads of a
// block, or several blocks); the conflicting earlier store, if any.
u64 shadow_global_load(std::atomic<u64>& W, std::atomic<u64>& R, u64 me, simt::Op& other_op) {
    u64 r = R.load();
    for (;;) {
        u64 next;
        if (!r || (sh_block(r) == sh_block(me) && sh_interval(r) != sh_interval(me))) next = me;
        else if (sh_block(r) == sh_block(me) && sh_thread(r) == sh_thread(me)) next = r;
        else if (sh_block(r) == sh_block(me)) next = pack(sh_block(me), kManyThreads, sh_interval(me), sh_site(r));
        else next = pack(kManyBlocks, kManyThreads, 0, sh_site(r));
        if (next == r || R.compare_exchange_weak(r, next)) break;
    }
    const u64 old = W.load();
    if (conflicts(old, me)) {
        other_op = simt::Op::store;
        return old;
    }
    return 0;
}

void BlockRunner::on_global(Thread& t, const Instr& in, const BufferSlot& b, long long off, int size, simt::Op op) {
    record(t, in, simt::Space::global, op, size, b.id, off);
    if (!L_.checks || !b.shadow || op == simt::Op::atomic) return;
    const u64 me = pack(u64(block_) + 1, u64(t.linear), u64(t.interval), u64(in.site));
    for (long long w = off / 4; w <= (off + size - 1) / 4; ++w) {
        auto& W = b.shadow->writes[(size_t)w];
        auto& R = b.shadow->reads[(size_t)w];
        simt::Op other_op = simt::Op::load;
        const u64 conflict =
            op == simt::Op::store ? shadow_global_store(W, R, me, other_op) : shadow_global_load(W, R, me, other_op);
        if (!conflict) continue;
        if (wants(DiagKind::race)) report_global_race(t, in, b, off, op, other_op, conflict);
        break;
    }
}

// The race between this access and the one recorded in `conflict`: in this block's interval,
// or with another block (blocks run in no fixed order).
void BlockRunner::report_global_race(Thread& t, const Instr& in, const BufferSlot& b, long long off, simt::Op op,
                                     simt::Op other_op, u64 conflict) {
    const int elem = std::max(1, bytes_of(in.type));
    simt::Diagnostic d;
    d.kind = DiagKind::race;
    locate(d, t, &in);
    d.op_a = op;
    d.op_b = other_op;
    d.space = simt::Space::global;
    d.array = b.name;
    d.offset = off;
    d.elem_size = elem;
    const bool other_block_known = sh_block(conflict) != kManyBlocks;
    const int ob = other_block_known ? int(sh_block(conflict)) - 1 : -1;
    simt::Idx3 obi = block_idx_;
    if (ob >= 0) {
        const auto& g = L_.launch.grid;
        obi = {ob % g.x, (ob / g.x) % g.y, ob / (g.x * g.y)};
    }
    d.block_b = obi;
    const bool same_block = ob == block_;
    const u64 oth = sh_thread(conflict);
    const auto& bd = L_.launch.block;
    if (oth != kManyThreads) {
        d.thread_b = int(oth);
        d.thread_b_idx = {int(oth) % bd.x, (int(oth) / bd.x) % bd.y, int(oth) / (bd.x * bd.y)};
    }
    std::string other_at = "?";
    if (sh_site(conflict) < 0x7ff && sh_site(conflict) < L_.m.sites.size()) {
        const MemSite& s = L_.m.sites[sh_site(conflict)];
        other_at = where(t, &L_.m.functions[s.function].code[s.instr]);
    }
    const std::string who = oth == kManyThreads ? "other threads" : "thread " + idx_text(d.thread_b_idx);
    if (same_block)
        d.message = fmt::format("race on global {}[{}]: thread {} {} it at {} and {} {} it at {} in the same barrier "
                                "interval ({}) of block {}",
                                b.name, off / elem, idx_text(t.idx), op_word(op), where(t, &in), who,
                                op_word(other_op), other_at, t.interval, idx_text(block_idx_));
    else
        d.message = fmt::format("race on global {}[{}] between blocks: thread {} of block {} {} it at {}, and {} of {} "
                                "{} it at {}: blocks run in no fixed order",
                                b.name, off / elem, idx_text(t.idx), idx_text(block_idx_), op_word(op), where(t, &in),
                                who, ob >= 0 ? "block " + idx_text(obi) : "other blocks", op_word(other_op), other_at);
    add_diag(std::move(d));
}

// A generic address into its space (the top byte) and the offset inside it; false: in none.
[[gnu::always_inline]] inline bool BlockRunner::resolve_generic(Thread& t, const Instr& in, Sp& space, u64& addr,
                                                                int size, bool store) {
    switch (addr >> kSpaceShift) {
        case 0: space = Sp::global; return true;
        case 1: space = Sp::shared; addr &= kWindowMask; return true;
        case 2: space = Sp::local; addr &= kWindowMask; return true;
        case 3: space = Sp::constant; addr &= kWindowMask; return true;
        case 4: space = Sp::param; addr &= kWindowMask; return true;
        default:
            fatal(DiagKind::out_of_bounds, t, &in,
                  fmt::format("{} {} {} bytes at address {:#x}, which is in no allocation, at {}", thread_text(t),
                              store ? "stores" : "loads", size, addr, where(t, &in)));
            return false;
    }
}

// A fault on a buffer: the diagnostic names the buffer and the element; the block stops.
void BlockRunner::buffer_fault(Thread& t, const Instr& in, const BufferSlot& b, long long off, simt::Op op,
                               DiagKind kind, std::string message) {
    simt::Diagnostic d;
    d.kind = kind;
    locate(d, t, &in);
    d.space = simt::Space::global;
    d.array = b.name;
    d.offset = off;
    d.elem_size = std::max(1, bytes_of(in.type));
    d.op_a = op;
    d.message = std::move(message);
    add_diag(std::move(d));
    fail_block();
}

// A global address to host memory, checked against its buffer's true bounds.
[[gnu::always_inline]] inline bool BlockRunner::global_pointer(Thread& t, const Instr& in, u64 addr, int size,
                                                               simt::Op op, bool store, unsigned char*& p) {
    // The buffer whose base is nearest: an address just below a buffer (in[-1]) is a negative
    // index of that buffer, not one past the end of the buffer below it.
    u64 slot = (addr + (u64(1) << 39)) >> 40;
    if (slot - 1 != u64(kModuleGlobalsIndex) && (slot == 0 || slot - 1 >= L_.buffers.size())) slot = addr >> 40;
    const u64 index = slot - 1;
    const BufferSlot* b = nullptr;
    if (index == u64(kModuleGlobalsIndex)) b = &L_.module_globals;
    else if (slot != 0 && index < L_.buffers.size()) b = &L_.buffers[index];
    if (!b) {
        fatal(DiagKind::out_of_bounds, t, &in,
              fmt::format("{} {} {} bytes at address {:#x}, which is in no allocation (a pointer not derived "
                          "from the kernel's arguments?), at {}",
                          thread_text(t), store ? "stores" : "loads", size, addr, where(t, &in)));
        return false;
    }
    const long long off = (long long)(addr - buffer_address(int(index)));
    const int elem = std::max(1, bytes_of(in.type));
    if (off < 0 || off + size > (long long)b->bytes) {
        buffer_fault(t, in, *b, off, op, DiagKind::out_of_bounds,
                     fmt::format("out-of-bounds {}: {} {} {}[{}] at {}, but {} has {} elements",
                                 store ? "store" : "load", thread_text(t), store ? "stores" : "loads", b->name,
                                 off >= 0 ? off / elem : -((-off + elem - 1) / elem), where(t, &in), b->name,
                                 (long long)b->bytes / elem));
        return false;
    }
    if (store && b->read_only) {
        buffer_fault(t, in, *b, off, op, DiagKind::input_write,
                     fmt::format("{} stores to the read-only input {}[{}] at {}", thread_text(t), b->name, off / elem,
                                 where(t, &in)));
        return false;
    }
    p = b->data + off;
    if (L_.counting || record_block_ || L_.checks) on_global(t, in, *b, off, size, op);
    return true;
}

// A shared address outside the block's shared memory, named after the nearest array of the
// kernel (shared memory has no bounds of its own on a GPU: the index is outside the block's, so
// outside every array's). The block stops.
void BlockRunner::shared_out_of_bounds(Thread& t, const Instr& in, long long a, simt::Op op, bool store) {
    simt::Diagnostic d;
    d.kind = DiagKind::out_of_bounds;
    locate(d, t, &in);
    d.space = simt::Space::shared;
    d.elem_size = std::max(1, bytes_of(in.type));
    d.op_a = op;
    long long base = 0, bytes = L_.shared_total;
    d.array = "shared";
    long long best = -1;
    for (const auto& [o, v] : L_.shared_vars) {
        const long long n = std::max<long long>(1, L_.m.variables[v].bytes);
        const long long dist = a < o ? o - a : a >= o + n ? a - (o + n) : 0;
        if (best < 0 || dist < best) best = dist, base = o, bytes = n, d.array = L_.m.variables[v].display;
    }
    if (L_.launch.dynamic_shared_bytes > 0 && (best < 0 || a >= (long long)L_.entry->dynamic_shared_offset)) {
        base = (long long)L_.entry->dynamic_shared_offset;
        bytes = (long long)L_.launch.dynamic_shared_bytes;
        d.array = "extern shared";
    }
    d.offset = a - base;
    const long long e = d.offset >= 0 ? d.offset / d.elem_size : -((-d.offset + d.elem_size - 1) / d.elem_size);
    const long long n = bytes / d.elem_size;
    d.message = fmt::format("out-of-bounds shared {}: {} {} {}[{}] at {}, but {} has {} elements ({}the "
                            "block has {} bytes of shared memory)",
                            store ? "store" : "load", thread_text(t), store ? "stores" : "loads", d.array, e,
                            where(t, &in), d.array, n, n > 0 ? fmt::format("valid 0..{}; ", n - 1) : "",
                            L_.shared_total);
    add_diag(std::move(d));
    fail_block();
}

[[gnu::always_inline]] inline bool BlockRunner::shared_pointer(Thread& t, const Instr& in, u64 addr, int size,
                                                               simt::Op op, bool store, unsigned char*& p) {
    // A shared address is 32 bits wide: [%r1+-4] with %r1 = 0 is byte -4, before the block's memory.
    long long a = (long long)addr;
    if ((addr >> 32) == 0 || (addr >> 31) == 0x1FFFFFFFFull) a = (std::int32_t)u32(addr);
    if (a < 0 || a + size > L_.shared_total) {
        shared_out_of_bounds(t, in, a, op, store);
        return false;
    }
    p = shared_.data() + a;
    if (L_.counting || record_block_ || L_.checks) on_shared(t, in, a, size, op);
    return true;
}

[[gnu::always_inline]] inline bool BlockRunner::local_pointer(Thread& t, const Instr& in, u64 addr, int size,
                                                              simt::Op op, bool store, unsigned char*& p) {
    if (addr < t.local.size() && t.local.size() - addr >= (u64)size) {  // (a negative index wraps)
        p = t.local.data() + addr;
        return true;
    }
    simt::Diagnostic d;
    d.kind = DiagKind::out_of_bounds;
    locate(d, t, &in);
    d.array = "local";  // the thread's local memory: its frames' arrays, one after another
    d.offset = (addr >> 55) == 1 ? (long long)addr - (1LL << 56) : (long long)addr;  // generic: 56 bits
    d.elem_size = std::max(1, bytes_of(in.type));
    d.op_a = op;
    const long long e = d.offset >= 0 ? d.offset / d.elem_size : -((-d.offset + d.elem_size - 1) / d.elem_size);
    d.message = fmt::format("out-of-bounds local-memory {}: {} {} local[{}] at {} (byte {}, but the thread has "
                            "{} bytes of local memory: an index past a local array?)",
                            store ? "store" : "load", thread_text(t), store ? "stores" : "loads", e, where(t, &in),
                            d.offset, t.local.size());
    add_diag(std::move(d));
    fail_block();
    return false;
}

template <bool kStore>
bool BlockRunner::access(Thread& t, const Instr& in, Sp space, u64 addr, int size, void* data, bool atomic_op) {
    const simt::Op op = atomic_op ? simt::Op::atomic : kStore ? simt::Op::store : simt::Op::load;
    if (space == Sp::generic && !resolve_generic(t, in, space, addr, size, kStore)) return false;
    if (size > 1 && (addr % (u64)std::min(size, 16)) != 0 && space != Sp::param) {
        fatal(DiagKind::kernel_exception, t, &in,
              fmt::format("misaligned address: {} {} {} bytes at an address that is not a multiple of {} ({}), at {}",
                          thread_text(t), kStore ? "stores" : "loads", size, std::min(size, 16),
                          space == Sp::shared ? "shared" : space == Sp::global ? "global" : "local", where(t, &in)));
        return false;
    }
    unsigned char* p = nullptr;
    switch (space) {
        case Sp::global:
            if (!global_pointer(t, in, addr, size, op, kStore, p)) return false;
            break;
        case Sp::shared:
            if (!shared_pointer(t, in, addr, size, op, kStore, p)) return false;
            break;
        case Sp::local:
            if (!local_pointer(t, in, addr, size, op, kStore, p)) return false;
            break;
        case Sp::constant:
            if (kStore || addr >= L_.const_mem.size() || L_.const_mem.size() - addr < (u64)size) {
                fatal(DiagKind::out_of_bounds, t, &in,
                      fmt::format("{} {} constant memory at byte {} (the module has {} bytes), at {}", thread_text(t),
                                  kStore ? "stores to" : "loads past", addr, L_.const_mem.size(), where(t, &in)));
                return false;
            }
            p = L_.const_mem.data() + addr;
            break;
        case Sp::param:
            if (addr >= t.params.size() || t.params.size() - addr < (u64)size) {
                fatal(DiagKind::out_of_bounds, t, &in, fmt::format("param-space access out of range at {}", where(t, &in)));
                return false;
            }
            p = t.params.data() + addr;
            break;
        default: return false;
    }
    if (atomic_op) {
        *static_cast<unsigned char**>(data) = p;
        return true;
    }
    if (kStore) std::memcpy(p, data, (size_t)size);
    else std::memcpy(data, p, (size_t)size);
    return true;
}

// atom / red: read-modify-write through std::atomic_ref (blocks on other workers may hit the
// same global word).
bool BlockRunner::atomic(Thread& t, const Instr& in, u64* R) {
    const bool is_red = in.op == Op::red;
    const Operand& mem = is_red ? in.o[0] : in.o[1];
    const u64 addr = (mem.reg >= 0 ? R[mem.reg] : 0) + (u64)mem.imm + (mem.frame_rel ? t.frames.back().local_base : 0);
    const int size = std::max(4, bytes_of(in.type));
    unsigned char* p = nullptr;
    if (!access<true>(t, in, in.space, addr, size, &p, true)) return false;
    auto val = [&](const Operand& o) -> u64 {
        return o.kind == Operand::kReg ? R[o.reg] : o.kind == Operand::kImm ? (u64)o.imm : 0;
    };
    const u64 b = val(is_red ? in.o[1] : in.o[2]);
    const u64 c = (!is_red && in.nops > 3) ? val(in.o[3]) : 0;
    const Ty ty = in.type;
    auto apply = [&](u64 old) -> u64 {
        switch (in.sub) {
            case Sub::add:
                if (ty == Ty::f32) return std::bit_cast<u32>(std::bit_cast<float>(u32(old)) + std::bit_cast<float>(u32(b)));
                if (ty == Ty::f64) return std::bit_cast<u64>(std::bit_cast<double>(old) + std::bit_cast<double>(b));
                return old + b;
            case Sub::min: case Sub::max: {
                const bool mx = in.sub == Sub::max;
                if (ty == Ty::f32) {
                    const float x = std::bit_cast<float>(u32(old)), y = std::bit_cast<float>(u32(b));
                    return std::bit_cast<u32>(mx ? std::fmax(x, y) : std::fmin(x, y));
                }
                if (is_signed(ty)) {
                    const std::int64_t x = size == 4 ? std::int32_t(old) : std::int64_t(old);
                    const std::int64_t y = size == 4 ? std::int32_t(b) : std::int64_t(b);
                    return u64(mx ? std::max(x, y) : std::min(x, y));
                }
                const u64 x = size == 4 ? u32(old) : old, y = size == 4 ? u32(b) : b;
                return mx ? std::max(x, y) : std::min(x, y);
            }
            case Sub::inc: return (u32(old) >= u32(b)) ? 0 : u32(old) + 1;
            case Sub::dec: return (u32(old) == 0 || u32(old) > u32(b)) ? u32(b) : u32(old) - 1;
            case Sub::and_: return old & b;
            case Sub::or_: return old | b;
            case Sub::xor_: return old ^ b;
            case Sub::exch: return b;
            case Sub::cas: return (size == 4 ? u32(old) == u32(b) : old == b) ? c : old;
            default: return old;
        }
    };
    u64 old;
    if (size == 4) {
        std::atomic_ref<u32> a(*reinterpret_cast<u32*>(p));
        u32 o = a.load();
        while (!a.compare_exchange_weak(o, u32(apply(o)))) {
        }
        old = o;
    } else {
        std::atomic_ref<u64> a(*reinterpret_cast<u64*>(p));
        u64 o = a.load();
        while (!a.compare_exchange_weak(o, apply(o))) {
        }
        old = o;
    }
    if (!is_red && in.o[0].kind == Operand::kReg) R[in.o[0].reg] = truncate_to(ty == Ty::f32 || ty == Ty::b32 ? Ty::u32 : ty == Ty::f64 || ty == Ty::b64 ? Ty::u64 : ty, old);
    return true;
}

// ---- printf (vprintf(format, args)): the format's conversions read the packed argument buffer
bool BlockRunner::read_string(Thread& t, const Instr& in, u64 addr, std::string& out) {
    for (int i = 0; i < 4096; ++i) {
        char c;
        if (!access<false>(t, in, Sp::generic, addr + (u64)i, 1, &c)) return false;
        if (!c) return true;
        out.push_back(c);
    }
    return true;
}

// The conversions a format reads (%% reads none): what device printf returns when nothing is
// formatted.
int count_conversions(const std::string& fmt_text) {
    int converted = 0;
    for (size_t i = 0; i + 1 < fmt_text.size(); ++i)
        if (fmt_text[i] == '%') {
            if (fmt_text[i + 1] == '%') ++i;
            else ++converted;
        }
    return converted;
}

void BlockRunner::do_printf(Thread& t, const Instr& in, u64* R) {
    (void)R;
    const Function& f = L_.m.functions[t.frames.back().fn];
    const CallList& cl = f.call_lists[in.call_args];
    const int pbase = t.frames.back().param_base;
    auto param_u64 = [&](int k) {
        u64 v = 0;
        std::memcpy(&v, t.params.data() + pbase + cl.args[k].first, (size_t)std::min(8, cl.args[k].second));
        return v;
    };
    if (cl.args.size() < 2) return;
    std::string fmt_text;
    if (!read_string(t, in, param_u64(0), fmt_text)) return;
    std::string out;
    int converted = 0;  // device printf returns the number of arguments it read
    if (!L_.launch.printf_output || L_.printf_full.load(std::memory_order_relaxed)) {
        converted = count_conversions(fmt_text);
        fmt_text.clear();  // nothing to format: only the return value is written below
    }
    if (!format_printf(t, in, fmt_text, param_u64(1), out, converted)) return;
    if (cl.retval_offset >= 0) {
        const std::int32_t n = converted;
        std::memcpy(t.params.data() + pbase + cl.retval_offset, &n, (size_t)std::min(4, cl.retval_bytes));
    }
    if (L_.launch.printf_output) append_printf_output(out);
}

// The format's text with each conversion filled from the packed argument buffer at `args` (each
// argument aligned to its size). False: a read faulted (the diagnostic is made).
bool BlockRunner::format_printf(Thread& t, const Instr& in, const std::string& fmt_text, u64 args, std::string& out,
                                int& converted) {
    for (size_t i = 0; i < fmt_text.size(); ++i) {
        if (fmt_text[i] != '%') {
            out.push_back(fmt_text[i]);
            continue;
        }
        if (i + 1 < fmt_text.size() && fmt_text[i + 1] == '%') {
            out.push_back('%');
            ++i;
            continue;
        }
        size_t j = i + 1;
        while (j < fmt_text.size() && std::strchr("-+ #0123456789.*", fmt_text[j])) ++j;
        std::string len;
        while (j < fmt_text.size() && std::strchr("hlLzjt", fmt_text[j])) len.push_back(fmt_text[j++]);
        if (j >= fmt_text.size()) break;
        const char conv = fmt_text[j];
        std::string spec = fmt_text.substr(i, j - i - len.size());
        const bool wide = len.find('l') != std::string::npos || len == "z" || len == "j" || len == "t" || conv == 'p' ||
                          conv == 's' || std::strchr("eEfFgGaA", conv);
        const int bytes = wide ? 8 : 4;
        args = (args + (u64)bytes - 1) / (u64)bytes * (u64)bytes;
        u64 v = 0;
        if (!access<false>(t, in, Sp::generic, args, bytes, &v)) return false;
        args += (u64)bytes;
        ++converted;
        char buf[512];
        if (std::strchr("eEfFgGaA", conv)) {
            std::snprintf(buf, sizeof buf, (spec + conv).c_str(), std::bit_cast<double>(v));
        } else if (conv == 's') {
            std::string s;
            if (!read_string(t, in, v, s)) return false;
            std::snprintf(buf, sizeof buf, (spec + 's').c_str(), s.c_str());
        } else if (conv == 'p') {
            std::snprintf(buf, sizeof buf, "%#llx", (unsigned long long)v);
        } else if (conv == 'c') {
            std::snprintf(buf, sizeof buf, (spec + 'c').c_str(), int(v & 0xff));
        } else if (std::strchr("di", conv)) {
            std::snprintf(buf, sizeof buf, (spec + "lld").c_str(), wide ? (long long)v : (long long)std::int32_t(v));
        } else if (std::strchr("uxXo", conv)) {
            std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), wide ? (unsigned long long)v : (unsigned long long)u32(v));
        } else {
            std::snprintf(buf, sizeof buf, "%s", (spec + len + conv).c_str());
        }
        out += buf;
        i = j;
    }
    return true;
}

// Into the launch's printf sink, up to its cap (then a line says the output was cut).
void BlockRunner::append_printf_output(const std::string& out) {
    std::lock_guard lock(L_.printf_mutex);
    std::string& sink = *L_.launch.printf_output;
    const std::string kCut = "[printf output truncated]\n";
    if (sink.size() >= L_.launch.printf_cap) return L_.printf_full.store(true);
    if (sink.size() + out.size() > L_.launch.printf_cap) {
        sink += out.substr(0, L_.launch.printf_cap - sink.size());
        sink += kCut;
        L_.printf_full.store(true);
        return;
    }
    sink += out;
}

// ---- the interpreter loop --------------------------------------------------------------------
// The hot forms, inline (fast_form in parse.cpp guarantees register or immediate sources).
[[gnu::always_inline]] inline void exec_fast(const Instr& in, u64* R) {
    auto sv = [&](int k) -> u64 {
        const Operand& o = in.o[k];
        return o.kind == Operand::kReg ? R[o.reg] : (u64)o.imm;
    };
    u64& d = R[in.o[0].reg];
    auto f32of = [](u64 v) { return std::bit_cast<float>(u32(v)); };
    auto f64of = [](u64 v) { return std::bit_cast<double>(v); };
    auto out32 = [](float x) -> u64 { return std::isnan(x) ? 0x7fffffffu : std::bit_cast<u32>(x); };
    // f32 NaNs are the GPU's canonical one; f64 NaNs are the host's (alu.cpp, out64)
    auto out64 = [](double x) -> u64 { return std::bit_cast<u64>(x); };
    switch (in.fast) {
        case kAdd32: d = u32(sv(1) + sv(2)); break;
        case kAdd64: d = sv(1) + sv(2); break;
        case kSub32: d = u32(sv(1) - sv(2)); break;
        case kMulLo32: d = u32(sv(1) * sv(2)); break;
        case kMadLo32: d = u32(sv(1) * sv(2) + sv(3)); break;
        case kMulWideS32: d = u64(std::int64_t(std::int32_t(sv(1))) * std::int64_t(std::int32_t(sv(2)))); break;
        case kMulWideU32: d = u64(u32(sv(1))) * u64(u32(sv(2))); break;
        case kShl32: { const u64 n = u32(sv(2)); d = n >= 32 ? 0 : u32(sv(1) << n); break; }
        case kShl64: { const u64 n = u32(sv(2)); d = n >= 64 ? 0 : sv(1) << n; break; }
        case kAnd32: d = u32(sv(1) & sv(2)); break;
        case kOr32: d = u32(sv(1) | sv(2)); break;
        case kSetpEq32: d = u32(sv(1)) == u32(sv(2)); break;
        case kSetpNe32: d = u32(sv(1)) != u32(sv(2)); break;
        case kSetpLtS32: d = std::int32_t(sv(1)) < std::int32_t(sv(2)); break;
        case kSetpLeS32: d = std::int32_t(sv(1)) <= std::int32_t(sv(2)); break;
        case kSetpGtS32: d = std::int32_t(sv(1)) > std::int32_t(sv(2)); break;
        case kSetpGeS32: d = std::int32_t(sv(1)) >= std::int32_t(sv(2)); break;
        case kSetpLtU32: d = u32(sv(1)) < u32(sv(2)); break;
        case kSetpLeU32: d = u32(sv(1)) <= u32(sv(2)); break;
        case kSetpGtU32: d = u32(sv(1)) > u32(sv(2)); break;
        case kSetpGeU32: d = u32(sv(1)) >= u32(sv(2)); break;
        case kAndPred: d = (sv(1) & sv(2)) & 1; break;
        case kOrPred: d = (sv(1) | sv(2)) & 1; break;
        case kNotPred: d = (~sv(1)) & 1; break;
        case kSelp: d = (sv(3) & 1) ? sv(1) : sv(2); break;
        case kCvtS64S32: d = u64(std::int64_t(std::int32_t(sv(1)))); break;
        case kCvtU32U64: d = u32(sv(1)); break;
        case kFmaF32: d = out32(std::fmaf(f32of(sv(1)), f32of(sv(2)), f32of(sv(3)))); break;
        case kFmaF64: d = out64(std::fma(f64of(sv(1)), f64of(sv(2)), f64of(sv(3)))); break;
        case kMulF32: d = out32(f32of(sv(1)) * f32of(sv(2))); break;
        case kMulF64: d = out64(f64of(sv(1)) * f64of(sv(2))); break;
        case kAddF32: d = out32(f32of(sv(1)) + f32of(sv(2))); break;
        case kAddF64: d = out64(f64of(sv(1)) + f64of(sv(2))); break;
        default: break;
    }
}

// A memory operand's address: [reg + imm], frame-relative for this frame's locals and params.
[[gnu::always_inline]] inline u64 address(const Exec& x, const Operand& o, Sp space) {
    u64 a = (o.reg >= 0 ? x.R[o.reg] : 0) + (u64)o.imm;
    if (o.frame_rel) a += space == Sp::local ? (u64)x.fr.local_base : (u64)x.fr.param_base;
    return a;
}

// The loop runs the thread's instructions until a handler stops it or its quantum ends; the hot
// forms (Instr::fast) run inline, every other instruction through its family's handler below.
void BlockRunner::run_thread(Thread& t) {
    long long quantum = kQuantum;
    const Module& m = L_.m;
    for (;;) {  // one pass per frame: a call or a return moves to another
        Frame& fr = t.frames.back();
        const Function& f = m.functions[fr.fn];
        const Instr* code = f.code.data();
        Exec x{t, fr, f, t.regs.data() + fr.reg_base};
        u64* R = x.R;
        const int ncode = (int)f.code.size();
        Next next;
        for (;;) {
            if (fr.pc >= ncode) {
                next = Next::ret;  // falling off the end of a function is a return
                break;
            }
            const Instr& in = code[fr.pc];
            if (in.guard >= 0 && bool(R[in.guard] & 1) == in.guard_neg) {
                ++fr.pc;
                continue;
            }
            if (--quantum <= 0) return;  // resume at this instruction after the others ran
            ++t.executed;
            ++block_instructions_;
            if (block_instructions_ >= next_poll_ && !poll_limits(t, in)) return;
            if (in.fast) {
                exec_fast(in, R);
                ++fr.pc;
                continue;
            }
            next = execute(x, in);
            if (next == Next::advance) ++fr.pc;
            else if (next != Next::jumped) break;
        }
        if (next == Next::stop) return;
        if (next == Next::ret && !leave_frame(t)) return;
        // Next::call: the callee's frame is on top
    }
}

// Every kCheckEvery instructions: the block's instruction budget, the deadline and the cancel
// flag. False: the thread stops (and with it the block).
bool BlockRunner::poll_limits(Thread& t, const Instr& in) {
    next_poll_ = block_instructions_ + kCheckEvery;
    const long long budget = L_.launch.block_instruction_budget;
    if (budget > 0 && block_instructions_ > budget) {
        fatal(DiagKind::timeout, t, &in,
              fmt::format("block {} executed more than {} instructions without finishing (an endless "
                          "loop?); thread {} was at {}",
                          idx_text(block_idx_), budget, idx_text(t.idx), where(t, &in)));
        return false;
    }
    if (L_.deadline > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - block_start_).count() > L_.deadline) {
        fatal(DiagKind::timeout, t, &in,
              fmt::format("block {} ran longer than {:g} s without finishing (an endless loop?); "
                          "thread {} was at {}",
                          idx_text(block_idx_), L_.deadline, idx_text(t.idx), where(t, &in)));
        return false;
    }
    if (L_.opt.cancel && L_.opt.cancel->load()) {
        abort_ = true;
        report.cancelled = true;
        return false;
    }
    return true;
}

// An operand's value: a register (a negated predicate flipped), an immediate, a special
// register, or a symbol's address (frame-relative ones in this frame).
[[gnu::always_inline]] inline u64 BlockRunner::operand(const Exec& x, const Operand& o) const {
    switch (o.kind) {
        case Operand::kReg: return o.negate ? (x.R[o.reg] ^ 1) : x.R[o.reg];
        case Operand::kImm: return (u64)o.imm;
        case Operand::kSpecial: return special(x.t, (Special)o.reg);
        case Operand::kSymAddr:
            if (o.frame_rel) return (u64)o.imm + (o.space == Sp::local ? (u64)x.fr.local_base : (u64)x.fr.param_base);
            return (u64)o.imm;
        default: return 0;
    }
}

// Every instruction that is not a hot form, by family: data movement and memory, control flow,
// block and warp rendezvous, and the ALU's arithmetic.
[[gnu::always_inline]] inline Next BlockRunner::execute(Exec& x, const Instr& in) {
    switch (in.op) {
        case Op::mov: return exec_mov(x, in);
        case Op::cvta: case Op::cvta_to: return exec_cvta(x, in);
        case Op::ld: case Op::ldu: return exec_load(x, in);
        case Op::st: return exec_store(x, in);
        case Op::prefetch: case Op::membar: return Next::advance;
        case Op::nanosleep:
            ++x.fr.pc;
            return Next::stop;  // yield: another thread of the block runs
        case Op::atom: case Op::red: return atomic(x.t, in, x.R) ? Next::advance : Next::stop;
        case Op::bra:
            x.fr.pc = (int)in.o[0].imm;
            return Next::jumped;
        case Op::call: return exec_call(x, in);
        case Op::ret: return Next::ret;
        case Op::exit:
            x.t.state = State::exited;
            return Next::stop;
        case Op::trap: case Op::brkpt:
            fatal(DiagKind::kernel_exception, x.t, &in,
                  fmt::format("{} executed {} at {} (a store through a null pointer, which the compiler turns "
                              "into a trap, or an assert that failed?)", thread_text(x.t),
                              in.op == Op::trap ? "trap" : "brkpt", where(x.t, &in)));
            return Next::stop;
        case Op::bar: case Op::bar_red: return wait_at_barrier(x, in);
        case Op::bar_warp: case Op::shfl: case Op::vote: case Op::match: case Op::activemask:
        case Op::redux: return wait_at_warp(x, in);
        default: return exec_alu(x, in);
    }
}

// mov: a value, or a vector of registers unpacked from / packed into one wide value.
[[gnu::always_inline]] inline Next BlockRunner::exec_mov(Exec& x, const Instr& in) {
    const Operand& d = in.o[0];
    const Operand& s = in.o[1];
    u64* R = x.R;
    if (d.kind == Operand::kVec) {  // unpack: mov.b64 {%r1, %r2}, %rd1
        const u64 v = operand(x, s);
        const int n = d.reg2, w = bytes_of(in.type) * 8 / n;
        for (int k = 0; k < n; ++k) {
            const int r = x.f.vec_regs[d.reg + k];
            if (r >= 0) R[r] = (v >> (k * w)) & (w >= 64 ? ~u64(0) : (u64(1) << w) - 1);
        }
    } else if (s.kind == Operand::kVec) {  // pack
        const int n = s.reg2, w = bytes_of(in.type) * 8 / n;
        u64 v = 0;
        for (int k = 0; k < n; ++k) {
            const int r = x.f.vec_regs[s.reg + k];
            const u64 part = r >= 0 ? R[r] : 0;
            v |= (part & (w >= 64 ? ~u64(0) : (u64(1) << w) - 1)) << (k * w);
        }
        R[d.reg] = v;
    } else {
        R[d.reg] = in.type == Ty::pred ? (operand(x, s) & 1) : truncate_to(in.type == Ty::f32 ? Ty::b32 : in.type, operand(x, s));
    }
    return Next::advance;
}

// cvta: a space's address to a generic one (its window); cvta.to: back.
[[gnu::always_inline]] inline Next BlockRunner::exec_cvta(Exec& x, const Instr& in) {
    u64 v = operand(x, in.o[1]);
    if (in.op == Op::cvta_to) {
        if (in.space != Sp::global) v &= kWindowMask;
    } else {
        switch (in.space) {
            case Sp::shared: v = kSharedWindow + v; break;
            case Sp::local: v = kLocalWindow + v; break;
            case Sp::constant: v = kConstWindow + v; break;
            case Sp::param: v = kParamWindow + v; break;
            default: break;
        }
    }
    x.R[in.o[0].reg] = in.type == Ty::u32 ? u32(v) : v;
    return Next::advance;
}

// ld / ldu: one value or a vector, signed types sign-extended.
[[gnu::always_inline]] inline Next BlockRunner::exec_load(Exec& x, const Instr& in) {
    const u64 a = address(x, in.o[1], in.space);
    const int eb = bytes_of(in.type);
    const int n = in.vec;
    unsigned char buf[64];
    if (!access<false>(x.t, in, in.space, a, eb * n, buf)) return Next::stop;
    auto elem = [&](int k) {
        u64 v = 0;
        std::memcpy(&v, buf + k * eb, (size_t)std::min(eb, 8));
        return is_signed(in.type) ? truncate_to(in.type, v) : v;
    };
    if (in.o[0].kind == Operand::kVec) {
        for (int k = 0; k < in.o[0].reg2; ++k) {
            const int r = x.f.vec_regs[in.o[0].reg + k];
            if (r >= 0) x.R[r] = elem(k);
        }
    } else {
        x.R[in.o[0].reg] = elem(0);
    }
    return Next::advance;
}

// st: one value or a vector.
[[gnu::always_inline]] inline Next BlockRunner::exec_store(Exec& x, const Instr& in) {
    const u64 a = address(x, in.o[0], in.space);
    const int eb = bytes_of(in.type);
    const int n = in.vec;
    unsigned char buf[64];
    const Operand& s = in.o[1];
    if (s.kind == Operand::kVec) {
        for (int k = 0; k < s.reg2; ++k) {
            const int r = x.f.vec_regs[s.reg + k];
            const u64 v = r >= 0 ? x.R[r] : 0;
            std::memcpy(buf + k * eb, &v, (size_t)std::min(eb, 8));
        }
    } else {
        const u64 v = operand(x, s);
        std::memcpy(buf, &v, (size_t)std::min(eb, 8));
    }
    if (!access<true>(x.t, in, in.space, a, eb * n, buf)) return Next::stop;
    return Next::advance;
}

// call: vprintf and __assertfail are the host's; any other callee gets a frame.
Next BlockRunner::exec_call(Exec& x, const Instr& in) {
    if (in.callee == -2) {
        do_printf(x.t, in, x.R);
        return abort_ ? Next::stop : Next::advance;
    }
    if (in.callee == -3) return exec_assert_fail(x, in);
    return push_frame(x, in);
}

// A failed assert(): __assertfail(message, file, line, ...) ends the block with the expression.
Next BlockRunner::exec_assert_fail(Exec& x, const Instr& in) {
    Thread& t = x.t;
    const CallList& acl = x.f.call_lists[in.call_args];
    u64 text = 0;
    if (!acl.args.empty())
        std::memcpy(&text, t.params.data() + x.fr.param_base + acl.args[0].first, (size_t)std::min(8, acl.args[0].second));
    std::string expr;
    if (text && !read_string(t, in, text, expr)) return Next::stop;
    fatal(DiagKind::kernel_exception, t, &in,
          fmt::format("{}: assertion `{}` failed at {}", thread_text(t), expr, where(t, &in)));
    return Next::stop;
}

// The callee's frame: registers, local memory and parameters above the caller's, the arguments
// copied in, and where the caller wants the return value. The caller resumes after the call.
Next BlockRunner::push_frame(Exec& x, const Instr& in) {
    Thread& t = x.t;
    Frame& fr = x.fr;
    const Function& g = L_.m.functions[in.callee];
    if ((int)t.frames.size() >= kMaxFrames || t.local_top + g.local_bytes + 16 > kLocalLimit) {
        fatal(DiagKind::kernel_exception, t, &in,
              fmt::format("stack overflow: {} called {} {} deep (recursion without an end?) at {}",
                          thread_text(t), demangled_variable_name(g.name), t.frames.size(), where(t, &in)));
        return Next::stop;
    }
    const CallList& cl = x.f.call_lists[in.call_args];
    Frame nf;
    nf.fn = in.callee;
    nf.pc = 0;
    nf.reg_base = t.reg_top;
    nf.local_base = (t.local_top + 15) / 16 * 16;
    nf.param_base = (t.param_top + 7) / 8 * 8;
    nf.ret_offset = cl.retval_offset >= 0 ? fr.param_base + cl.retval_offset : -1;
    nf.ret_bytes = cl.retval_bytes;
    t.reg_top += g.slots;
    if ((int)t.regs.size() < t.reg_top) t.regs.resize((size_t)t.reg_top * 2, 0);
    t.local_top = nf.local_base + g.local_bytes;
    if ((long long)t.local.size() < t.local_top) t.local.resize((size_t)t.local_top, 0xFF);
    t.param_top = nf.param_base + g.param_bytes;
    if ((int)t.params.size() < t.param_top) t.params.resize((size_t)t.param_top, 0);
    for (size_t k = 0; k < cl.args.size() && k < g.param_offsets.size(); ++k)
        std::memcpy(t.params.data() + nf.param_base + g.param_offsets[k],
                    t.params.data() + fr.param_base + cl.args[k].first,
                    (size_t)std::min(cl.args[k].second, g.params[k].bytes));
    ++fr.pc;
    t.frames.push_back(nf);  // (fr is not used after this: the vector may have moved)
    return Next::call;
}

// bar.sync / bar.red: the thread waits at the block barrier (resolve_stuck releases it).
Next BlockRunner::wait_at_barrier(Exec& x, const Instr& in) {
    Thread& t = x.t;
    if (in.nops >= 1 && in.o[0].kind == Operand::kImm && in.o[0].imm != 0) {
        fatal(DiagKind::kernel_exception, t, &in,
              fmt::format("named barrier {} at {}: only barrier 0 (__syncthreads) is supported",
                          in.o[0].imm, where(t, &in)));
        return Next::stop;
    }
    const int count_op = in.op == Op::bar ? 1 : -1;
    if (count_op >= 0 && in.nops > 1) {
        const u64 cnt = operand(x, in.o[1]);
        if (cnt != (u64)L_.nthreads) {
            fatal(DiagKind::kernel_exception, t, &in,
                  fmt::format("a barrier for {} threads at {}: only whole-block barriers are supported",
                              cnt, where(t, &in)));
            return Next::stop;
        }
    }
    t.state = State::barrier;
    t.wait = &in;
    t.wait_fn = x.fr.fn;
    t.wait_pc = x.fr.pc;
    t.wait_value = in.op == Op::bar_red ? operand(x, in.o[in.nops - 1]) & 1 : 0;
    return Next::stop;
}

// A warp rendezvous (bar.warp, shfl, vote, match, redux, activemask): the thread waits with its
// member mask and the value it contributes (resolve_warps completes the group).
Next BlockRunner::wait_at_warp(Exec& x, const Instr& in) {
    Thread& t = x.t;
    t.state = State::warp;
    t.wait = &in;
    t.wait_fn = x.fr.fn;
    t.wait_pc = x.fr.pc;
    u64 mask = ~u64(0);
    switch (in.op) {
        case Op::bar_warp: mask = operand(x, in.o[0]); break;
        case Op::shfl: mask = operand(x, in.o[4]); t.wait_value = operand(x, in.o[1]); break;
        case Op::vote: mask = operand(x, in.o[2]); t.wait_value = operand(x, in.o[1]) & 1; break;
        case Op::match: mask = operand(x, in.o[2]); t.wait_value = operand(x, in.o[1]); break;
        case Op::redux: mask = operand(x, in.o[2]); t.wait_value = operand(x, in.o[1]); break;
        default: break;
    }
    t.wait_mask = u32(mask);
    return Next::stop;
}

// The arithmetic (alu.cpp): up to 5 sources, one destination or a pair (setp's two predicates).
[[gnu::always_inline]] inline Next BlockRunner::exec_alu(Exec& x, const Instr& in) {
    u64 src[5];
    const int ns = in.nops - 1;
    for (int k = 0; k < ns && k < 5; ++k) src[k] = operand(x, in.o[k + 1]);
    AluResult r;
    if (!alu(in, src, ns, r, x.t.carry)) {
        fatal(DiagKind::kernel_exception, x.t, &in,
              fmt::format("the PTX instruction '{}' at {} is not supported by the CPU engine",
                          instr_text(x.f, in), where(x.t, &in)));
        return Next::stop;
    }
    const Operand& d = in.o[0];
    if (d.kind == Operand::kPair) {
        x.R[d.reg] = r.d;
        x.R[d.reg2] = r.d2;
    } else if (d.kind == Operand::kReg) {
        x.R[d.reg] = r.d;
    }
    return Next::advance;
}

// ret (or the end of a function): the return value to the caller, the frame popped. False: that
// was the kernel's own frame, and the thread has exited.
bool BlockRunner::leave_frame(Thread& t) {
    const Frame done = t.frames.back();
    const Function& g = L_.m.functions[done.fn];
    t.frames.pop_back();
    if (t.frames.empty()) {
        t.state = State::exited;
        return false;
    }
    if (done.ret_offset >= 0 && g.retval_offset >= 0)
        std::memcpy(t.params.data() + done.ret_offset, t.params.data() + done.param_base + g.retval_offset,
                    (size_t)std::min(done.ret_bytes, g.retval_bytes));
    t.reg_top = done.reg_base;
    t.local_top = done.local_base;
    t.param_top = done.param_base;
    return true;
}

// ---- rendezvous ------------------------------------------------------------------------------
int lane_of(const Thread* t) { return t->linear % 32; }
u64* regs_of(Thread* t) { return t->regs.data() + t->frames.back().reg_base; }

// vote.all / .any / .uni / .ballot over the group's predicates.
void warp_vote(const std::vector<Thread*>& lanes, const Instr& in, u32 mask) {
    u32 ballot = 0;
    for (Thread* t : lanes)
        if (t->wait_value & 1) ballot |= u32(1) << lane_of(t);
    for (Thread* t : lanes) {
        u64* R = regs_of(t);
        u64 r = 0;
        switch (in.sub) {
            case Sub::all: r = ballot == mask; break;
            case Sub::any: r = ballot != 0; break;
            case Sub::uni: r = ballot == 0 || ballot == mask; break;
            case Sub::ballot: r = ballot; break;
            default: break;
        }
        R[in.o[0].reg] = r;
    }
}

// match.any: the lanes with my value; match.all: the mask when every lane has the same value.
void warp_match(const std::vector<Thread*>& lanes, const Instr& in, u32 mask) {
    for (Thread* t : lanes) {
        u32 same = 0;
        for (Thread* o : lanes)
            if (truncate_to(in.type == Ty::b64 ? Ty::u64 : Ty::u32, o->wait_value) ==
                truncate_to(in.type == Ty::b64 ? Ty::u64 : Ty::u32, t->wait_value))
                same |= u32(1) << lane_of(o);
        u64* R = regs_of(t);
        const Operand& d = in.o[0];
        if (in.sub == Sub::any) {
            R[d.reg] = same;
        } else {
            const bool all = same == mask;
            R[d.reg] = all ? mask : 0;
            if (d.kind == Operand::kPair) R[d.reg2] = all;
        }
    }
}

// redux.sync: the group's 32-bit values reduced, in lane order, into every lane.
void warp_redux(const std::vector<Thread*>& lanes, const Instr& in) {
    u64 acc = 0;
    bool first = true;
    for (Thread* t : lanes) {
        const u64 v = u32(t->wait_value);
        if (first) acc = v, first = false;
        else switch (in.sub) {
                case Sub::add: acc = u32(acc + v); break;
                case Sub::and_: acc &= v; break;
                case Sub::or_: acc |= v; break;
                case Sub::xor_: acc ^= v; break;
                case Sub::min: acc = is_signed(in.type) ? u32(std::min(std::int32_t(acc), std::int32_t(v))) : std::min(acc, v); break;
                case Sub::max: acc = is_signed(in.type) ? u32(std::max(std::int32_t(acc), std::int32_t(v))) : std::max(acc, v); break;
                default: break;
            }
    }
    for (Thread* t : lanes) regs_of(t)[in.o[0].reg] = acc;
}

// shfl.sync up / down / bfly / idx within the segment that c's mask and clamp describe.
void warp_shfl(const std::vector<Thread*>& lanes, const Instr& in, Thread* const* by_lane) {
    for (Thread* t : lanes) {
        u64* R = regs_of(t);
        const int lane = lane_of(t);
        // b and c are per-lane values (registers or immediates)
        auto v = [&](const Operand& o) -> u64 {
            return o.kind == Operand::kReg ? R[o.reg] : o.kind == Operand::kImm ? (u64)o.imm : 0;
        };
        const u32 bval = u32(v(in.o[2])) & 31, cval = u32(v(in.o[3]));
        const u32 segmask = (cval >> 8) & 31, clamp = cval & 31;
        const u32 max_lane = (u32(lane) & segmask) | (clamp & ~segmask);
        const u32 min_lane = u32(lane) & segmask;
        int j = lane;
        bool pval = false;
        switch (in.sub) {
            case Sub::up: j = lane - int(bval); pval = j >= int(max_lane); break;
            case Sub::down: j = lane + int(bval); pval = j <= int(max_lane); break;
            case Sub::bfly: j = lane ^ int(bval); pval = j <= int(max_lane); break;
            case Sub::idx: j = int(min_lane | (bval & ~segmask)); pval = j <= int(max_lane); break;
            default: break;
        }
        if (!pval) j = lane;
        u64 got = t->wait_value;
        if (pval && by_lane[j]) got = by_lane[j]->wait_value;
        // a source lane outside the member mask: PTX leaves the value undefined; give the
        // lane its own value (as when pval is false) rather than another's.
        const Operand& d = in.o[0];
        R[d.reg] = u32(got);
        if (d.kind == Operand::kPair) R[d.reg2] = pval ? 1 : 0;
    }
}

// Completes the warp group `lanes` (all waiting at `in`, with the same member mask).
void BlockRunner::complete_warp_group(std::vector<Thread*>& lanes, const Instr& in) {
    Thread* by_lane[32] = {};
    u32 mask = 0;
    for (Thread* t : lanes) {
        by_lane[lane_of(t)] = t;
        mask |= u32(1) << lane_of(t);
    }
    switch (in.op) {
        case Op::bar_warp:
            for (Thread* t : lanes) ++t->warp_epoch;
            break;
        case Op::activemask:
            for (Thread* t : lanes) regs_of(t)[in.o[0].reg] = mask;
            break;
        case Op::vote: warp_vote(lanes, in, mask); break;
        case Op::match: warp_match(lanes, in, mask); break;
        case Op::redux: warp_redux(lanes, in); break;
        case Op::shfl: warp_shfl(lanes, in, by_lane); break;
        default: break;
    }
    for (Thread* t : lanes) {
        t->state = State::ready;
        t->wait = nullptr;
        ++t->frames.back().pc;
    }
}

// Completes every warp group that can complete. Returns whether any did.
bool BlockRunner::resolve_warps() {
    bool progress = false;
    const int n = (int)threads_.size();
    for (int w0 = 0; w0 < n; w0 += 32) {
        const int w1 = std::min(n, w0 + 32);
        bool any_ready = false;
        for (int i = w0; i < w1; ++i) any_ready |= threads_[i].state == State::ready;
        for (int i = w0; i < w1; ++i) {
            Thread& t = threads_[i];
            if (t.state != State::warp) continue;
            const Instr& in = *t.wait;
            const int lane = i - w0;
            if (in.op == Op::activemask) {
                if (any_ready) continue;
                std::vector<Thread*> group;
                for (int k = w0; k < w1; ++k)
                    if (threads_[k].state == State::warp && threads_[k].wait == t.wait) group.push_back(&threads_[k]);
                complete_warp_group(group, in);
                progress = true;
                continue;
            }
            const u32 mask = t.wait_mask;
            if (!((mask >> lane) & 1)) {
                fatal(DiagKind::kernel_exception, t, &in,
                      fmt::format("{}: the member mask {:#010x} of {} at {} does not include the lane itself ({})",
                                  thread_text(t), mask, instr_text(L_.m.functions[t.wait_fn], in), where(t, &in), lane));
                return false;
            }
            std::vector<Thread*> group;
            bool complete = true;
            for (int k = 0; k < 32 && complete; ++k) {
                if (!((mask >> k) & 1)) continue;
                const int q = w0 + k;
                if (q >= w1 || threads_[q].state == State::exited) {
                    fatal(DiagKind::kernel_exception, t, &in,
                          fmt::format("{}: {} at {} names lane {} in its member mask {:#010x}, but that lane {}",
                                      thread_text(t), instr_text(L_.m.functions[t.wait_fn], in), where(t, &in), k, mask,
                                      q >= w1 ? "does not exist (the block has fewer threads)" : "has exited"));
                    return false;
                }
                Thread& o = threads_[q];
                if (o.state != State::warp) {
                    complete = false;
                    break;
                }
                if (o.wait_mask != mask || o.wait->op != in.op ||
                    (in.op != Op::bar_warp && o.wait != t.wait && !(o.wait->op == in.op && o.wait->sub == in.sub &&
                                                                    L_.m.locs[o.wait->loc].line == L_.m.locs[in.loc].line))) {
                    complete = false;
                    break;
                }
                group.push_back(&o);
            }
            if (!complete) continue;
            complete_warp_group(group, in);
            progress = true;
        }
    }
    return progress;
}

// Nothing can run: every live thread waits. Release the block barrier or diagnose.
void BlockRunner::resolve_stuck() {
    Thread* at_barrier = nullptr;
    Thread* exited = nullptr;
    Thread* at_warp = nullptr;
    for (auto& t : threads_) {
        if (t.state == State::barrier && !at_barrier) at_barrier = &t;
        if (t.state == State::exited && !exited) exited = &t;
        if (t.state == State::warp && !at_warp) at_warp = &t;
    }
    if (at_warp) return diagnose_warp_stuck(*at_warp);
    if (!at_barrier) return;  // all exited
    if (exited) return diagnose_exit_before_barrier(*at_barrier, *exited);
    if (diagnose_divergent_barrier(*at_barrier)) return;
    release_barrier(*at_barrier->wait);
}

// A warp rendezvous that cannot complete: the first lane of its member mask that does not wait
// with it (thread_b, site_b) is named.
void BlockRunner::diagnose_warp_stuck(Thread& t) {
    const Instr& in = *t.wait;
    Thread* other = nullptr;
    for (int k = 0, w0 = t.linear / 32 * 32; k < 32 && !other; ++k) {
        if (!((t.wait_mask >> k) & 1) || w0 + k >= (int)threads_.size()) continue;
        Thread& o = threads_[(size_t)(w0 + k)];
        if (o.state != State::warp || o.wait_mask != t.wait_mask || o.wait->op != in.op) other = &o;
    }
    simt::Diagnostic d;
    d.kind = DiagKind::divergent_barrier;
    locate(d, t, &in);
    d.site_a = where(t, &in);
    std::string why = "for lanes that never get there";
    if (other) {
        d.thread_b = other->linear;
        d.thread_b_idx = other->idx;
        if (other->wait) {
            d.site_b = where(*other, other->wait);
            why = fmt::format("for thread {}, which waits at {} at {}", idx_text(other->idx),
                              instr_text(L_.m.functions[other->wait_fn], *other->wait), d.site_b);
        }
    }
    d.message = fmt::format("{} waits at {} at {} (member mask {:#010x}) {}", thread_text(t),
                            instr_text(L_.m.functions[t.wait_fn], in), d.site_a, t.wait_mask, why);
    add_diag(std::move(d));
    fail_block();
}

void BlockRunner::diagnose_exit_before_barrier(Thread& at_barrier, const Thread& exited) {
    simt::Diagnostic d;
    d.kind = DiagKind::exit_before_barrier;
    locate(d, at_barrier, at_barrier.wait);
    d.thread_b = exited.linear;
    d.thread_b_idx = exited.idx;
    d.site_a = where(at_barrier, at_barrier.wait);
    d.message = fmt::format("thread {} of block {} waits at the __syncthreads() at {}, but thread {} has already "
                            "returned: every thread of a block must reach each barrier",
                            idx_text(at_barrier.idx), idx_text(block_idx_), d.site_a, idx_text(exited.idx));
    add_diag(std::move(d));
    fail_block();
}

// All live threads at barriers: the same one (by source position, as the compiler may copy one
// __syncthreads() into several paths)? If not, the first that differs is diagnosed (true).
bool BlockRunner::diagnose_divergent_barrier(Thread& at_barrier) {
    auto key = [&](const Thread& t) {
        const SourceLoc& l = L_.m.locs[t.wait->loc];
        return std::tuple(l.file, l.line, t.wait->op, l.line > 0 ? 0 : t.wait->ptx_line);
    };
    for (auto& t : threads_) {
        if (t.state != State::barrier || key(t) == key(at_barrier)) continue;
        simt::Diagnostic d;
        d.kind = DiagKind::divergent_barrier;
        locate(d, at_barrier, at_barrier.wait);
        d.thread_b = t.linear;
        d.thread_b_idx = t.idx;
        d.site_a = where(at_barrier, at_barrier.wait);
        d.site_b = where(t, t.wait);
        d.message = fmt::format("divergent __syncthreads(): thread {} of block {} waits at the barrier at {} while "
                                "thread {} waits at the one at {}",
                                idx_text(at_barrier.idx), idx_text(block_idx_), d.site_a, idx_text(t.idx), d.site_b);
        add_diag(std::move(d));
        fail_block();
        return true;
    }
    return false;
}

// Release: bar.red reductions, then every thread into the next interval.
void BlockRunner::release_barrier(const Instr& in) {
    if (in.op == Op::bar_red) {
        u64 popc = 0, all = 1, any = 0;
        for (auto& t : threads_) {
            popc += t.wait_value & 1;
            all &= t.wait_value & 1;
            any |= t.wait_value & 1;
        }
        for (auto& t : threads_) {
            u64* R = t.regs.data() + t.frames.back().reg_base;
            const u64 r = in.sub == Sub::popc ? popc : in.sub == Sub::and_ ? all : any;
            R[t.wait->o[0].reg] = r;
        }
    }
    for (auto& t : threads_) {
        t.state = State::ready;
        t.wait = nullptr;
        ++t.frames.back().pc;
        ++t.interval;
    }
}

void BlockRunner::run_block(int linear_block) {
    const auto& g = L_.launch.grid;
    block_ = linear_block;
    block_idx_ = {linear_block % g.x, (linear_block / g.x) % g.y, linear_block / (g.x * g.y)};
    const auto totals_before = report.totals;
    abort_ = false;
    block_instructions_ = 0;
    next_poll_ = 0;
    block_start_ = std::chrono::steady_clock::now();
    block_counts_ = {};
    record_block_ = L_.recording && (L_.opt.trace.records == simt::TraceMode::all ||
                                     (L_.opt.trace.records == simt::TraceMode::block && L_.opt.trace.block == block_idx_));
    const int n = L_.nthreads;
    threads_.resize((size_t)n);
    for (int i = 0; i < n; ++i) start_thread(threads_[i], i);
    shared_.assign((size_t)L_.shared_total, 0xFF);
    if (L_.checks) {
        shadow_.written.assign((size_t)L_.shared_total, 0);
        shadow_.cells.assign((size_t)L_.shared_total, SharedShadow::Cell{});
    }
    std::vector<int> order((size_t)n);
    std::iota(order.begin(), order.end(), 0);
    if (L_.opt.schedule == simt::Schedule::reversed) std::reverse(order.begin(), order.end());
    rng_.seed(L_.opt.seed * 0x9E3779B97F4A7C15ull + (u64)linear_block);
    for (;;) {
        if (L_.opt.schedule == simt::Schedule::random) std::shuffle(order.begin(), order.end(), rng_);
        bool ran = false;
        for (int i : order) {
            Thread& t = threads_[(size_t)i];
            while (t.state == State::ready && !abort_) {
                run_thread(t);
                ran = true;
                if (t.state == State::ready) break;  // quantum: let the others run
            }
            if (abort_) break;
        }
        if (abort_) break;
        if (resolve_warps()) continue;
        if (abort_) break;
        bool any_live = false, any_ready = false;
        for (auto& t : threads_) {
            any_live |= t.state != State::exited;
            any_ready |= t.state == State::ready;
        }
        if (!any_live) break;
        if (any_ready) continue;
        resolve_stuck();
        if (abort_) break;
        (void)ran;
    }
    long long ran_threads = 0;
    for (auto& t : threads_) {
        report.instructions += t.executed;
        ran_threads += 1;
    }
    report.threads_run += ran_threads;
    ++report.blocks_run;
    log.push_back({linear_block, {}});
    for (int k = 0; k < simt::kDiagKinds; ++k) log.back().second[k] = report.totals[k] - totals_before[k];
    if (L_.counting) {
        report.counts += block_counts_;
        if (L_.opt.trace.per_block_counts) report.block_counts[(size_t)linear_block] = block_counts_;
    }
}

void run_worker(LaunchState& L, BlockRunner& r, const std::vector<int>& order, std::atomic<size_t>& next) {
    for (;;) {
        if (L.stop.load()) return;
        if (L.opt.cancel && L.opt.cancel->load()) {
            r.report.cancelled = true;
            return;
        }
        const size_t k = next.fetch_add(1);
        if (k >= order.size()) return;
        r.run_block(order[k]);
        if (r.report.cancelled) return;
    }
}

// The launch's kernel, and the geometry a GPU would accept; an Error otherwise.
int find_entry(const Module& m, const Launch& launch) {
    auto it = m.function_index.find(launch.entry);
    if (it == m.function_index.end() || !m.functions[it->second].is_entry || !m.functions[it->second].defined)
        throw Error("the module has no kernel named " + launch.entry);
    const Function& entry = m.functions[it->second];
    if (launch.params.size() != entry.params.size())
        throw Error(fmt::format("{} takes {} parameters, the launch gives {}", launch.entry, entry.params.size(),
                                launch.params.size()));
    const auto& b = launch.block;
    const auto& g = launch.grid;
    const long long nthreads = (long long)b.x * b.y * b.z;
    if (b.x < 1 || b.y < 1 || b.z < 1 || nthreads > 1024 || b.z > 64)
        throw Error(fmt::format("a block of {}x{}x{} threads: a GPU launches at most 1024 threads per block (z at most 64)",
                                b.x, b.y, b.z));
    if (g.x < 1 || g.y < 1 || g.z < 1 || g.y > 65535 || g.z > 65535)
        throw Error(fmt::format("a grid of {}x{}x{} blocks: a GPU launches at most 65535 blocks along y and z", g.x, g.y, g.z));
    return it->second;
}

// The launch's shared state before any block runs: the entry, shared memory's size and named
// variables, what is checked, counted and recorded, and the deadline.
void prepare_launch(LaunchState& L, int entry_index) {
    const Module& m = L.m;
    const Launch& launch = L.launch;
    const simt::ExecOptions& opt = L.opt;
    const Function& entry = m.functions[entry_index];
    L.entry = &entry;
    L.entry_index = entry_index;
    L.nthreads = (int)((long long)launch.block.x * launch.block.y * launch.block.z);
    L.shared_total = entry.static_shared_bytes > 0 || launch.dynamic_shared_bytes > 0
                         ? (launch.dynamic_shared_bytes > 0 ? entry.dynamic_shared_offset + (long long)launch.dynamic_shared_bytes
                                                            : entry.static_shared_bytes)
                         : 0;
    L.checks = opt.check_shared;
    L.recording = opt.trace.records != simt::TraceMode::off;
    L.counting = opt.trace.count || opt.trace.per_block_counts;
    L.deadline = opt.deadline_seconds < 0 ? (opt.check_shared ? simt::kDefaultCheckedDeadline : 0) : opt.deadline_seconds;
    // the entry's shared variables (for names), from its layout (other entries' share offsets)
    for (int v : entry.entry_shared_vars) {
        const Variable& var = m.variables[(size_t)v];
        if (var.offset + var.bytes <= L.shared_total) L.shared_vars.push_back({var.offset, v});
    }
}

// The launch's memory: its buffers (a shadow for each writable one when checking), the module's
// __device__ variables, __constant__ memory with the launch's values, and the entry's parameters.
void load_memory(LaunchState& L) {
    const Module& m = L.m;
    const Launch& launch = L.launch;
    for (const auto& buf : launch.buffers) {
        BufferSlot s;
        s.data = static_cast<unsigned char*>(buf.data);
        s.bytes = buf.bytes;
        s.id = buf.id;
        s.name = buf.name;
        s.read_only = buf.read_only;
        if (L.checks && !buf.read_only && buf.bytes > 0) {
            auto sh = std::make_unique<GlobalShadow>();
            const size_t words = (buf.bytes + 3) / 4;
            sh->writes = std::vector<std::atomic<u64>>(words);
            sh->reads = std::vector<std::atomic<u64>>(words);
            s.shadow = sh.get();
            L.shadows.push_back(std::move(sh));
        }
        L.buffers.push_back(std::move(s));
    }
    L.globals_mem = m.global_image;
    L.module_globals.data = L.globals_mem.data();
    L.module_globals.bytes = L.globals_mem.size();
    L.module_globals.id = -1;
    L.module_globals.name = "__device__ variables";
    L.const_mem = m.const_image;
    for (const auto& c : launch.constants) {
        auto vi = m.variable_index.find(c.symbol);
        if (vi == m.variable_index.end() || m.variables[vi->second].space != Sp::constant)
            throw Error("the module has no __constant__ variable named " + c.symbol);
        const Variable& v = m.variables[vi->second];
        if ((long long)c.bytes.size() > v.bytes)
            throw Error(fmt::format("{} bytes for the __constant__ {}, which has {}", c.bytes.size(), c.symbol, v.bytes));
        std::memcpy(L.const_mem.data() + v.offset, c.bytes.data(), c.bytes.size());
    }
    const Function& entry = *L.entry;
    L.entry_params.assign((size_t)std::max(entry.param_bytes, 1), 0);
    for (size_t k = 0; k < entry.params.size(); ++k)
        std::memcpy(L.entry_params.data() + entry.param_offsets[k], &launch.params[k], (size_t)entry.params[k].bytes);
}

// The order the blocks are handed out in: in order, reversed, or shuffled by the seed.
std::vector<int> block_order(const simt::ExecOptions& opt, long long nblocks) {
    std::vector<int> order((size_t)nblocks);
    std::iota(order.begin(), order.end(), 0);
    if (opt.block_order == simt::BlockOrder::reversed) std::reverse(order.begin(), order.end());
    if (opt.block_order == simt::BlockOrder::random) {
        std::mt19937_64 r(opt.seed ^ 0xB10C5EEDull);
        std::shuffle(order.begin(), order.end(), r);
    }
    return order;
}

// The blocks spread over worker OS threads (one when tracing: the trace in program order, block
// by block); each worker's runner keeps its own report.
std::vector<std::unique_ptr<BlockRunner>> run_blocks(LaunchState& L, const std::vector<int>& order) {
    const simt::ExecOptions& opt = L.opt;
    const long long nblocks = (long long)order.size();
    int workers = opt.workers > 0 ? opt.workers : (int)std::max(1u, std::thread::hardware_concurrency());
    workers = (int)std::min<long long>(workers, nblocks);
    if (opt.trace.records != simt::TraceMode::off) workers = 1;  // the trace in program order, block by block
    std::vector<std::unique_ptr<BlockRunner>> runners;
    for (int w = 0; w < workers; ++w) {
        runners.push_back(std::make_unique<BlockRunner>(L, w));
        runners.back()->report.workers = workers;
        if (opt.trace.per_block_counts) runners.back()->report.block_counts.resize((size_t)nblocks);
    }
    std::atomic<size_t> next{0};
    if (workers == 1) {
        run_worker(L, *runners[0], order, next);
    } else {
        std::vector<std::thread> pool;
        for (int w = 0; w < workers; ++w) pool.emplace_back([&, w] { run_worker(L, *runners[(size_t)w], order, next); });
        for (auto& th : pool) th.join();
    }
    return runners;
}

// The workers' reports into one. With stop_on_error, the blocks after the first failing one in
// queue order ran or not depending on the workers' timing: nothing of theirs is reported
// (totals, diagnostics, blocks and threads run), so the report is the same whatever the timing.
void merge_reports(simt::ExecReport& rep, const std::vector<std::unique_ptr<BlockRunner>>& runners,
                   const std::vector<int>& order, const LaunchState& L) {
    const simt::ExecOptions& opt = L.opt;
    const auto& g = L.launch.grid;
    const size_t nblocks = order.size();
    rep.workers = (int)runners.size();
    if (opt.trace.per_block_counts) rep.block_counts.resize(nblocks);
    std::vector<size_t> pos_of(nblocks);
    for (size_t k = 0; k < order.size(); ++k) pos_of[(size_t)order[k]] = k;
    size_t cutoff = order.size();
    for (auto& r : runners)
        for (const auto& [blk, totals] : r->log)
            for (int k = 0; k < simt::kDiagKinds; ++k)
                if (opt.stop_on_error && totals[k] && simt::is_fatal((DiagKind)k)) cutoff = std::min(cutoff, pos_of[(size_t)blk]);
    auto linear = [&](const simt::Idx3& i) { return ((long long)i.z * g.y + i.y) * g.x + i.x; };
    std::vector<simt::Diagnostic> all;
    for (auto& r : runners) {
        const auto& x = r->report;
        rep.ok = rep.ok && x.ok;
        for (const auto& [blk, totals] : r->log) {
            if (pos_of[(size_t)blk] > cutoff) continue;
            for (int k = 0; k < simt::kDiagKinds; ++k) rep.totals[k] += totals[k];
            ++rep.blocks_run;
            rep.threads_run += L.nthreads;
        }
        for (const auto& d : x.diagnostics)
            if (pos_of[(size_t)linear(d.block)] <= cutoff) all.push_back(d);
        rep.counts += x.counts;
        if (opt.trace.per_block_counts)
            for (size_t k = 0; k < x.block_counts.size(); ++k) rep.block_counts[k] += x.block_counts[k];
        rep.trace.insert(rep.trace.end(), x.trace.begin(), x.trace.end());
        rep.trace_truncated = rep.trace_truncated || x.trace_truncated;
        rep.cancelled = rep.cancelled || x.cancelled;
        rep.instructions += x.instructions;
    }
    // diagnostics in block order, at most max_diagnostics of each kind
    std::stable_sort(all.begin(), all.end(), [&](const auto& a, const auto& c) { return linear(a.block) < linear(c.block); });
    std::array<int, simt::kDiagKinds> kept{};
    for (auto& d : all)
        if (kept[(int)d.kind]++ < opt.max_diagnostics) rep.diagnostics.push_back(std::move(d));
    if (rep.cancelled) rep.ok = false;
    for (int k = 0; k < simt::kDiagKinds; ++k)
        if (rep.totals[k] && simt::is_fatal((DiagKind)k)) rep.ok = false;
}

// Each memory site's code address and source position (file, line, PTX instruction).
void describe_sites(simt::ExecReport& rep, const Module& m) {
    rep.sites.resize(m.sites.size());
    rep.site_source.resize(m.sites.size());
    for (size_t s = 0; s < m.sites.size(); ++s) {
        const MemSite& ms = m.sites[s];
        const Instr& in = m.functions[ms.function].code[ms.instr];
        rep.sites[s] = (std::uintptr_t)ms.instr;
        const SourceLoc& l = m.locs[in.loc];
        if (l.file >= 0 && l.file < (int)m.files.size()) rep.site_source[s].file = m.files[l.file];
        rep.site_source[s].line = l.line;
        if (ms.function < (int)m.opcode_text.size() && ms.instr < (int)m.opcode_text[ms.function].size())
            rep.site_source[s].instruction = m.opcode_text[ms.function][ms.instr];
    }
}

}  // namespace

simt::ExecReport run(const Module& m, const Launch& launch, const simt::ExecOptions& opt) {
    const auto t0 = std::chrono::steady_clock::now();
    const int entry_index = find_entry(m, launch);
    const Function& entry = m.functions[entry_index];
    LaunchState L(m, launch, opt);
    prepare_launch(L, entry_index);
    L.start = t0;
    load_memory(L);

    simt::ExecReport rep;
    rep.grid = launch.grid;
    rep.block = launch.block;
    rep.schedule = opt.schedule;
    rep.seed = opt.seed;
    if (entry.static_shared_bytes > 48 * 1024) {
        simt::Diagnostic d;
        d.kind = DiagKind::kernel_exception;
        d.message = fmt::format("the kernel {} declares {} bytes of static shared memory: a block may have at most "
                                "49152 (48 KiB)",
                                demangled_variable_name(entry.name), entry.static_shared_bytes);
        rep.ok = false;
        rep.totals[(int)d.kind] = 1;
        rep.diagnostics.push_back(d);
        return rep;
    }
    const auto& g = launch.grid;
    const std::vector<int> order = block_order(opt, (long long)g.x * g.y * g.z);
    const auto runners = run_blocks(L, order);
    merge_reports(rep, runners, order, L);
    describe_sites(rep, m);
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return rep;
}

}  // namespace ptx
