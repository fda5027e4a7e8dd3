// The SIMT executor: blocks on worker OS threads, the threads of a block as Boost.Context fibers,
// barriers, schedules, shared-memory poisoning and checks, access counting and tracing.
//
// ---- How a block runs ------------------------------------------------------------------------
// A worker takes the next queue position from an atomic counter (the block at that position in
// ExecOptions::block_order) and creates one fiber per thread
// (stacks come from a per-worker cache of pooled, guard-paged stacks: no mmap per block). Then,
// interval by interval, it resumes every live fiber once, in the schedule's order; a fiber runs
// until it calls __syncthreads() (it records the call site and yields) or returns. When every
// fiber has either returned or waits:
//   all returned                          -> the block is done
//   some wait, some returned              -> exit_before_barrier (fatal)
//   they wait at different call sites     -> divergent_barrier (fatal)
//   all wait at one site                  -> the next interval begins
// A site is the source position of __syncthreads(): file, line and macro expansion (__COUNTER__), so
// two barriers on one line are two sites. Not the call's code address: an optimising compiler may
// duplicate one call into several branches (tail duplication), which must stay one barrier. So a
// helper that calls __syncthreads() is one site wherever it is called from (the GPU's bar.sync
// counts arrivals, so that runs there too).
// __syncwarp() parks a lane until every live lane of its warp in the mask arrived (then those lanes
// go on, in the schedule's order, and the warp's epoch advances: accesses of one warp separated by
// a __syncwarp() are ordered for the race checks).
// A fatal diagnostic abandons the block: destroying a suspended fiber unwinds its stack
// (boost's forced_unwind), so nothing hangs and no destructor is skipped.
//
// ---- Shared memory ---------------------------------------------------------------------------
// A `__shared__ Shared<T> a[...]` is thread_local: its element constructors (once per OS thread)
// register runs of consecutive cells as a SharedRange with a shadow cell per element. Each block
// run gets a fresh tag; the first access of the block to a range poisons it (NaN) and so, lazily,
// resets its shadow. The shadow holds, per cell, the interval it was last touched in, its writer
// and up to two readers in that interval, and the block that last stored it: that is enough to
// report every conflicting pair exactly once per detection, independently of the schedule.
// An address in no array but near one (a shared index out of bounds) throws before the access.
//
// ---- Global memory (checks on) ---------------------------------------------------------------
// Each traced buffer (keyed by its base pointer) gets a shadow of three 64-bit marks per element:
// the last writer and two readers, each (block, thread, barrier interval). Blocks of a launch run
// concurrently on several workers, so marks are seq_cst atomics and every access publishes its own
// mark before it looks at the others': of two conflicting accesses, the later one sees the
// earlier one's mark, whatever the timing. A conflict is a race when the two threads are in
// different blocks (never ordered within a launch) or in one block and one barrier interval.
//
// ---- Determinism -----------------------------------------------------------------------------
// Workers take blocks in queue order. When a fatal diagnostic stops the launch, every block before
// the first failing one (in queue order) was handed out and runs to its end; totals, kept
// diagnostics, blocks_run and the trace count only blocks up to that one, so they do not depend
// on timing. Each worker caps its own trace; the merge keeps the first max_records in queue order
// and numbers sites by code address.
//
// Sections: how a block runs; shared memory; global memory (checks on); determinism (the design,
// in the comment below), then: stacks; shared ranges; the launch and its workers; global shadow
// marks; fiber stack overflow; out-of-line pieces of simt.h; one block.
#include "backends/cpu/simt.h"

#include <cstring>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/context/fiber.hpp>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace simt::detail {

namespace ctx = boost::context;

// ---- stacks ------------------------------------------------------------------------------------
namespace {

std::size_t page_size() {
    static const std::size_t p = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return p;
}
// PROT_NONE below every fiber stack. Larger than a page: a frame that skips a page without
// probing (code built without -fstack-clash-protection) still faults here, not in a neighbour.
constexpr std::size_t kGuardBytes = 64 * 1024;
// Above each stack: up to this much more, so that the stack tops of a block's fibers start at
// different offsets ("colouring"). Stacks of one size are mapped back to back; without this their
// tops would be a multiple of 64 KiB apart and every context switch would hit the same L1/L2 cache
// sets (measured: plain launches 1.5-2x slower with 256 KiB stacks).
constexpr std::size_t kColorSpan = 64 * 1024;
std::size_t stack_color(const void* bottom) {
    const auto k = reinterpret_cast<std::uintptr_t>(bottom) >> 12;
    return static_cast<std::size_t>((k * 0x9E3779B1u) >> 7) % (kColorSpan / 64) * 64;
}

// Process-wide free lists of stacks by size; workers borrow in bulk and give back at the end.
struct GlobalStackPool {
    std::mutex m;
    std::map<std::size_t, std::vector<void*>> free;  // size -> stack bottoms (guard page below)

    void* take(std::size_t size) {
        {
            std::lock_guard lock(m);
            auto& v = free[size];
            if (!v.empty()) {
                void* p = v.back();
                v.pop_back();
                return p;
            }
        }
        const std::size_t total = size + kGuardBytes + kColorSpan;
        void* base = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED) throw std::bad_alloc();
        ::mprotect(base, kGuardBytes, PROT_NONE);  // a stack overflow faults instead of corrupting
        return static_cast<char*>(base) + kGuardBytes;
    }
    void give(std::size_t size, std::vector<void*>& stacks) {
        std::lock_guard lock(m);
        auto& v = free[size];
        v.insert(v.end(), stacks.begin(), stacks.end());
        stacks.clear();
    }
};
GlobalStackPool& stack_pool() {
    static GlobalStackPool* p = new GlobalStackPool;  // never destroyed: workers may outlive main
    return *p;
}

struct StackCache {
    std::size_t size = 0;
    std::vector<void*> free;
    ctx::stack_context last{};

    ctx::stack_context get() {
        void* bottom;
        if (!free.empty()) {
            bottom = free.back();
            free.pop_back();
        } else {
            bottom = stack_pool().take(size);
        }
        ctx::stack_context s;
        s.size = size + stack_color(bottom);
        s.sp = static_cast<char*>(bottom) + s.size;
        last = s;
        return s;
    }
    void put(const ctx::stack_context& s) { free.push_back(static_cast<char*>(s.sp) - s.size); }
    ~StackCache() { stack_pool().give(size, free); }
};

struct PooledStack {
    StackCache* cache;
    ctx::stack_context allocate() { return cache->get(); }
    void deallocate(ctx::stack_context& s) noexcept { cache->put(s); }
};

// ---- shared ranges -----------------------------------------------------------------------------
struct CellShadow {
    std::uint64_t interval_tag = 0;  // interval the thread fields belong to
    std::uint64_t write_tag = 0;     // interval tag of the last store (>= block tag: this block)
    std::int16_t writer = -1, reader1 = -1, reader2 = -1;
    std::uint16_t writer_ep = 0, reader1_ep = 0, reader2_ep = 0;  // warp epochs (__syncwarp)
    Op writer_op = Op::store;
};

struct RangeImpl : SharedRange {
    int id = 0;
    std::size_t elem = 0;
    unsigned shift = 0;  // log2(elem) when elem is a power of two, else 0 (then divide)
    Poison kind = Poison::bytes;
    std::vector<CellShadow> shadow;

    void poison() {
        char* p = reinterpret_cast<char*>(base);
        const std::size_t n = bytes / elem;
        switch (kind) {
            case Poison::f32:
                std::fill_n(reinterpret_cast<float*>(p), n, std::numeric_limits<float>::quiet_NaN());
                break;
            case Poison::f64:
                std::fill_n(reinterpret_cast<double*>(p), n, std::numeric_limits<double>::quiet_NaN());
                break;
            case Poison::bytes: std::memset(p, 0xCD, bytes); break;
        }
    }
};

thread_local char t_anchor;  // static TLS: (cell address - anchor) is the same on every thread
thread_local std::vector<std::unique_ptr<RangeImpl>> t_ranges;
thread_local std::uint64_t t_tag_counter = 0;

std::mutex g_array_ids_mutex;
std::map<std::ptrdiff_t, int>& array_ids() {
    static auto* m = new std::map<std::ptrdiff_t, int>;
    return *m;
}
int array_id_for(const void* p) {
    const std::ptrdiff_t key = static_cast<const char*>(p) - &t_anchor;
    std::lock_guard lock(g_array_ids_mutex);
    auto& m = array_ids();
    auto it = m.find(key);
    if (it != m.end()) return it->second;
    const int id = static_cast<int>(m.size());
    m.emplace(key, id);
    return id;
}

// Names and extents of the __shared__ arrays of this OS thread (SharedName). By address, per
// thread: a dlopen()ed submission's thread_locals live in dynamic TLS, at no fixed offset from the
// runtime's own (t_anchor), so a shared key would name the wrong cell on another worker.
struct NamedArray {
    std::uintptr_t base = 0;
    std::size_t bytes = 0, elem = 0;
    std::string name;
    std::vector<int> extents;
};
thread_local std::vector<NamedArray> t_named;

// "tile[2][2][3]" for the shared cell at p, or "" when p lies in no array named on this thread.
std::string named_cell(std::uintptr_t p) {
    for (const NamedArray& a : t_named) {
        if (p < a.base || p >= a.base + a.bytes) continue;
        long long flat = static_cast<long long>((p - a.base) / a.elem);
        std::string index;
        for (int d = static_cast<int>(a.extents.size()) - 1; d >= 0; --d) {  // last index fastest
            index = "[" + std::to_string(flat % a.extents[d]) + "]" + index;
            flat /= a.extents[d];
        }
        return a.name + index;
    }
    return {};
}

}  // namespace

void name_shared_array(const void* first, std::size_t bytes, std::size_t elem, const char* name,
                       const int* extents, int rank) {
    const auto base = reinterpret_cast<std::uintptr_t>(first);
    for (const NamedArray& a : t_named)
        if (a.base == base) return;
    t_named.push_back({base, bytes, elem, name, std::vector<int>(extents, extents + rank)});
}

// ---- the launch and its workers ----------------------------------------------------------------
enum class FibState : std::uint8_t { ready, at_barrier, at_warp, done, faulted };

struct Fib {
    ctx::fiber f;
    uint3 idx{};
    int linear = 0;
    FibState state = FibState::ready;
    const char* file = nullptr;  // the __syncthreads() it waits at: file:line for messages,
    int line = 0;                // (file, line, macro expansion) to compare sites
    int expansion = 0;
    unsigned warp_mask = 0;  // the __syncwarp() it waits at
    std::uintptr_t stack_lo = 0, stack_hi = 0;
    DiagKind fault_kind = DiagKind::kernel_exception;
    std::string fault;
    Space fault_space = Space::global;
    std::string fault_array;
    long long fault_offset = -1;
    int fault_elem = 0;
    int seq = 0;
    std::vector<std::pair<int, int>> occ;  // by site: (interval, count)

    bool same_site(const Fib& o) const {
        return expansion == o.expansion && line == o.line &&
               (file == o.file || (file && o.file && std::strcmp(file, o.file) == 0));
    }
};

// ---- global shadow marks -----------------------------------------------------------------------
// A mark: bits 0..9 thread, bit 10 atomic, bits 11..31 barrier interval (saturating), 32..63 block+1.
// 0 = nobody.
constexpr std::uint64_t kAtomicMark = 1ull << 10;
constexpr std::uint64_t kMaxMarkInterval = (1ull << 21) - 1;
std::uint64_t make_mark(long long block, int thread, int interval, bool atomic) {
    const std::uint64_t iv = std::min<std::uint64_t>(static_cast<std::uint64_t>(interval), kMaxMarkInterval);
    return (static_cast<std::uint64_t>(block + 1) << 32) | (iv << 11) | (atomic ? kAtomicMark : 0) |
           static_cast<std::uint64_t>(thread);
}
long long mark_block(std::uint64_t m) { return static_cast<long long>(m >> 32) - 1; }
int mark_thread(std::uint64_t m) { return static_cast<int>(m & 1023); }
int mark_interval(std::uint64_t m) { return static_cast<int>((m >> 11) & kMaxMarkInterval); }
bool same_thread(std::uint64_t a, std::uint64_t b) { return (a >> 32) == (b >> 32) && (a & 1023) == (b & 1023); }
// `other` (an earlier access) and `me` conflict unless one thread made both, or a barrier of their
// block separates them.
bool unordered(std::uint64_t other, std::uint64_t me) {
    if (other == 0 || same_thread(other, me)) return false;
    return (other >> 32) != (me >> 32) || mark_interval(other) == mark_interval(me);
}

struct GlobalShadow {
    const char* name = "buffer";
    long long count = 0;
    std::uint64_t* words = nullptr;  // 3 per element: writer, first reader, latest other reader
    ~GlobalShadow() { std::free(words); }
};

struct LaunchState {
    dim3 grid, block;
    ExecOptions opt;
    KernelBody body;
    long long nblocks = 0;
    int nthreads = 0;
    int record_block = -1;  // linear block recorded (TraceMode::block)
    double deadline = 0;    // seconds per block, 0 = none
    bool check_global = false;
    std::vector<long long> perm, inverse;  // BlockOrder::random: position -> block, block -> position
    std::atomic<long long> next_block{0};
    std::atomic<bool> stop{false};
    std::atomic<bool> cancelled{false};  // ExecOptions::cancel was seen
    bool cancel_requested() {
        if (!opt.cancel || !opt.cancel->load(std::memory_order_relaxed)) return false;
        cancelled.store(true, std::memory_order_relaxed);
        stop.store(true, std::memory_order_relaxed);
        return true;
    }
    std::vector<Counts> block_counts;
    std::mutex sites_mutex;
    std::unordered_map<std::uintptr_t, int> site_ids;
    std::vector<std::uintptr_t> sites;
    std::mutex shadows_mutex;
    std::unordered_map<const void*, std::unique_ptr<GlobalShadow>> shadows;

    long long block_at(long long pos) const {
        switch (opt.block_order) {
            case BlockOrder::in_order: break;
            case BlockOrder::reversed: return nblocks - 1 - pos;
            case BlockOrder::random: return perm[pos];
        }
        return pos;
    }
    long long pos_of(long long block) const {
        switch (opt.block_order) {
            case BlockOrder::in_order: break;
            case BlockOrder::reversed: return nblocks - 1 - block;
            case BlockOrder::random: return inverse[block];
        }
        return block;
    }
    int site_id(std::uintptr_t ra) {
        std::lock_guard lock(sites_mutex);
        auto [it, fresh] = site_ids.emplace(ra, static_cast<int>(sites.size()));
        if (fresh) sites.push_back(ra);
        return it->second;
    }
    // The shadow of the buffer at `data` (zeroed pages come from calloc lazily).
    GlobalShadow* shadow(const void* data, long long count, const char* name) {
        std::lock_guard lock(shadows_mutex);
        auto& g = shadows[data];
        if (!g) {
            g = std::make_unique<GlobalShadow>();
            g->name = name;
            g->count = count;
            g->words = static_cast<std::uint64_t*>(std::calloc(static_cast<std::size_t>(count) * 3, sizeof(std::uint64_t)));
            if (!g->words) throw std::bad_alloc();
        }
        return g.get();
    }
};

struct BlockLog {
    long long pos = 0;       // queue position
    long long threads = 0;   // threads that ran to their end or to a fault
    std::array<long long, kDiagKinds> totals{};
    bool any_diag = false;
};

struct Worker {
    LaunchState* L = nullptr;
    StackCache stacks;
    ctx::fiber sched;
    std::vector<Fib> fibs;
    std::vector<int> live, order;
    std::vector<std::uint16_t> warp_epoch;  // by warp: __syncwarp() releases in this interval
    int cur = 0;
    int interval = 0;
    std::uint64_t interval_tag = 0;
    long long block_linear = 0, block_pos = 0;
    Counts counts, block_cnt;
    std::vector<Access> trace;
    bool trace_capped = false;
    std::unordered_map<std::uintptr_t, int> site_cache;
    std::array<std::vector<std::pair<long long, Diagnostic>>, kDiagKinds> kept;  // (queue position, d)
    std::vector<BlockLog> log;
    BlockLog cur_log;
    long long first_fatal_pos = -1;
    bool fatal_in_block = false;
    unsigned ticks = 0;
    std::chrono::steady_clock::time_point block_deadline{};
    std::array<std::pair<const void*, GlobalShadow*>, 4> shadow_cache{};
    std::vector<char> altstack;

    Idx3 block_coord() const {
        return {(int)tls.block_idx.x, (int)tls.block_idx.y, (int)tls.block_idx.z};
    }
    Idx3 block_coord(long long linear) const {
        const long long gx = L->grid.x, gy = L->grid.y;
        return {(int)(linear % gx), (int)((linear / gx) % gy), (int)(linear / (gx * gy))};
    }
    Idx3 thread_coord(int t) const {
        const int bx = (int)L->block.x, by = (int)L->block.y;
        return {t % bx, (t / bx) % by, t / (bx * by)};
    }
    void diagnose(Diagnostic d) {
        const int k = static_cast<int>(d.kind);
        ++cur_log.totals[k];
        cur_log.any_diag = true;
        if (is_fatal(d.kind)) fatal_in_block = true;
        if ((int)kept[k].size() < L->opt.max_diagnostics) kept[k].emplace_back(block_pos, std::move(d));
    }
    int site_id(std::uintptr_t ra) {
        auto it = site_cache.find(ra);
        if (it != site_cache.end()) return it->second;
        const int id = L->site_id(ra);
        site_cache.emplace(ra, id);
        return id;
    }
    GlobalShadow* shadow(const void* data, long long count, const char* name) {
        for (auto& [p, g] : shadow_cache)
            if (p == data) return g;
        std::rotate(shadow_cache.rbegin(), shadow_cache.rbegin() + 1, shadow_cache.rend());
        shadow_cache[0] = {data, L->shadow(data, count, name)};
        return shadow_cache[0].second;
    }
    void tick();
    bool resume(int t);
    int release_warps();
    void run_block(long long linear, long long pos);
    unsigned begin_block(long long linear, long long pos);
    void start_fibers();
    void run_kernel_body(Fib& me);
    bool run_interval(long long linear);
    void diagnose_exit_before_barrier(const std::vector<int>& waiting, int first_exited);
    bool diagnose_divergent_barrier(const std::vector<int>& waiting);
    void end_block(long long linear, long long pos, unsigned flags);
    void run();
};

namespace {

std::string idx_str(Idx3 i) { return "(" + std::to_string(i.x) + "," + std::to_string(i.y) + "," + std::to_string(i.z) + ")"; }
std::string thread_str(const Worker& w, int t) { return "thread " + std::to_string(t) + " " + idx_str(w.thread_coord(t)); }
std::string site_str(const char* file, int line) {
    std::string f = file ? file : "?";
    if (auto p = f.rfind('/'); p != std::string::npos) f = f.substr(p + 1);
    return f + ":" + std::to_string(line);
}
std::string array_name(int id) { return "#" + std::to_string(id); }

std::uint64_t splitmix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void record(Worker& w, Space s, Op op, std::size_t size, int buffer, long long offset, std::uintptr_t ra) {
    // Each worker caps its own trace: its blocks come in increasing queue position, so the merge
    // still has the first max_records of the launch in queue order (see the header comment).
    if (w.trace.size() >= w.L->opt.trace.max_records) {
        w.trace_capped = true;
        return;
    }
    Fib& f = w.fibs[w.cur];
    const int site = w.site_id(ra);
    if ((int)f.occ.size() <= site) f.occ.resize(site + 1, {-1, 0});
    auto& [iv, count] = f.occ[site];
    if (iv != w.interval) iv = w.interval, count = 0;
    Access a;
    a.block = static_cast<int>(w.block_linear);
    a.thread = f.linear;
    a.interval = w.interval;
    a.site = site;
    a.occurrence = count++;
    a.seq = f.seq++;
    a.space = s;
    a.op = op;
    a.size = static_cast<std::uint8_t>(size);
    a.buffer = buffer;
    a.offset = offset;
    w.trace.push_back(a);
}

RangeImpl* find_range(std::uintptr_t p) {
    for (auto& r : t_ranges)
        if (p - r->base < r->bytes) return r.get();
    return nullptr;
}

// The shared array an address outside every array was meant for: the nearest one, if within
// kNearShared bytes (farther, it is no index of ours: a plain value). Arrays this block already
// used come first: the arrays of every kernel that ran on this OS thread are registered, and an
// address alone cannot tell which one an index belongs to (the message may name a neighbour when
// the kernel had not touched its own array yet).
constexpr std::uintptr_t kNearShared = 1 << 20;
RangeImpl* nearest_range(std::uintptr_t p) {
    for (const bool this_block : {true, false}) {
        RangeImpl* best = nullptr;
        std::uintptr_t best_d = kNearShared;
        for (auto& r : t_ranges) {
            if (this_block && r->block_tag != tls.block_tag) continue;
            const std::uintptr_t end = r->base + r->bytes;
            const std::uintptr_t d = p >= end ? p - end : r->base - p;
            if (d < best_d) best = r.get(), best_d = d;
        }
        if (best) return best;
    }
    return nullptr;
}

[[noreturn]] void shared_out_of_bounds(const RangeImpl& r, std::uintptr_t p, Op op) {
    const long long delta = static_cast<long long>(p) - static_cast<long long>(r.base);
    const long long elem = static_cast<long long>(r.elem);
    const long long index = delta >= 0 ? delta / elem : -((-delta + elem - 1) / elem);
    static thread_local char msg[256];
    static thread_local char name[32];
    std::snprintf(name, sizeof name, "#%d", r.id);
    std::snprintf(msg, sizeof msg, "out-of-bounds %s of shared array %s at index %lld (valid 0..%lld)",
                  to_string(op), name, index, static_cast<long long>(r.bytes / r.elem) - 1);
    throw KernelFault{DiagKind::out_of_bounds, msg, Space::shared, name, index * elem, static_cast<int>(elem)};
}

// "tile[2][2][3]" (the array's own name and indices), or without a SharedName
// "shared array #0 element 146 (byte 584)".
std::string shared_cell_text(const RangeImpl& r, std::size_t cell) {
    const std::string named = named_cell(r.base + cell * r.elem);
    if (!named.empty()) return named;
    return "shared array " + array_name(r.id) + " element " + std::to_string(cell) + " (byte " +
           std::to_string(cell * r.elem) + ")";
}

void check_shared(Worker& w, RangeImpl& r, std::uintptr_t p, Op op) {
    const std::size_t cell = r.shift ? (p - r.base) >> r.shift : (p - r.base) / r.elem;
    CellShadow& s = r.shadow[cell];
    const int t = w.cur;  // fibs are indexed by linear thread
    const std::uint16_t ep = w.warp_epoch[t / 32];
    if (s.interval_tag != w.interval_tag) {
        s.interval_tag = w.interval_tag;
        s.writer = s.reader1 = s.reader2 = -1;
    }
    // A __syncwarp() both lanes of one warp passed since `other`'s access orders the two.
    auto conflict = [&](int other, std::uint16_t other_ep) {
        return other >= 0 && other != t && !(other / 32 == t / 32 && other_ep != ep);
    };
    auto race = [&](int other, Op other_op) {
        Diagnostic d;
        d.kind = DiagKind::race;
        d.block = d.block_b = w.block_coord();
        d.interval = w.interval;
        d.thread_a = t;
        d.thread_b = other;
        d.thread_a_idx = w.thread_coord(t);
        d.thread_b_idx = w.thread_coord(other);
        d.op_a = op;
        d.op_b = other_op;
        d.space = Space::shared;
        d.array = array_name(r.id);
        d.offset = static_cast<long long>(cell * r.elem);
        d.elem_size = static_cast<int>(r.elem);
        d.message = "shared-memory race in block " + idx_str(d.block) + ", barrier interval " +
                    std::to_string(d.interval) + ": " + thread_str(w, t) + " " + to_string(op) +
                    " and " + thread_str(w, other) + " " + to_string(other_op) + " of " +
                    shared_cell_text(r, cell) + " with no __syncthreads() between them";
        w.diagnose(std::move(d));
    };
    if (op != Op::store && s.write_tag < tls.block_tag) {
        Diagnostic d;
        d.kind = DiagKind::uninitialized_shared_read;
        d.block = d.block_b = w.block_coord();
        d.interval = w.interval;
        d.thread_a = t;
        d.thread_a_idx = w.thread_coord(t);
        d.op_a = op;
        d.space = Space::shared;
        d.array = array_name(r.id);
        d.offset = static_cast<long long>(cell * r.elem);
        d.elem_size = static_cast<int>(r.elem);
        d.message = "uninitialized shared read in block " + idx_str(d.block) + ", barrier interval " +
                    std::to_string(d.interval) + ": " + thread_str(w, t) + " loads " +
                    shared_cell_text(r, cell) + ", which no thread of the block has stored";
        w.diagnose(std::move(d));
    }
    const auto me = static_cast<std::int16_t>(t);
    if (op == Op::load) {
        if (conflict(s.writer, s.writer_ep)) race(s.writer, s.writer_op);
        if (s.reader1 < 0 || s.reader1 == t) s.reader1 = me, s.reader1_ep = ep;
        else if (s.reader2 < 0 || s.reader2 == t) s.reader2 = me, s.reader2_ep = ep;
    } else if (op == Op::atomic) {  // atomics do not conflict with each other
        if (conflict(s.writer, s.writer_ep) && s.writer_op != Op::atomic) race(s.writer, s.writer_op);
        else if (conflict(s.reader1, s.reader1_ep)) race(s.reader1, Op::load);
        else if (conflict(s.reader2, s.reader2_ep)) race(s.reader2, Op::load);
        if (s.writer < 0 || s.writer_op == Op::atomic || !conflict(s.writer, s.writer_ep)) {
            s.writer = me;
            s.writer_ep = ep;
            s.writer_op = Op::atomic;
        }
        s.write_tag = w.interval_tag;
    } else {
        if (conflict(s.writer, s.writer_ep)) race(s.writer, s.writer_op);
        else if (conflict(s.reader1, s.reader1_ep)) race(s.reader1, Op::load);
        else if (conflict(s.reader2, s.reader2_ep)) race(s.reader2, Op::load);
        s.writer = me;
        s.writer_ep = ep;
        s.writer_op = op;
        s.write_tag = w.interval_tag;
    }
}

void global_race(Worker& w, const GlobalShadow& g, long long index, std::size_t size, Op op,
                 std::uint64_t other, Op other_op) {
    const long long ob = mark_block(other);
    Diagnostic d;
    d.kind = DiagKind::race;
    d.space = Space::global;
    d.block = w.block_coord();
    d.block_b = w.block_coord(ob);
    d.interval = w.interval;
    d.thread_a = w.cur;
    d.thread_b = mark_thread(other);
    d.thread_a_idx = w.thread_coord(d.thread_a);
    d.thread_b_idx = w.thread_coord(d.thread_b);
    d.op_a = op;
    d.op_b = other_op;
    d.array = g.name;
    d.offset = index * static_cast<long long>(size);
    d.elem_size = static_cast<int>(size);
    const bool same_block = ob == w.block_linear;
    d.message = "global-memory race on '" + d.array + "' element " + std::to_string(index) + " in block " +
                idx_str(d.block) + ", barrier interval " + std::to_string(d.interval) + ": " +
                thread_str(w, d.thread_a) + " " + to_string(op) + " and " + thread_str(w, d.thread_b) + " " +
                (same_block ? std::string()
                            : "of block " + idx_str(d.block_b) + " (its interval " +
                                  std::to_string(mark_interval(other)) + ") ") +
                to_string(other_op) +
                (same_block ? " with no __syncthreads() between them"
                            : ": blocks of one launch are not ordered, whatever the block order");
    w.diagnose(std::move(d));
}

// The global race check (checks on). Publishes this access's mark first, then looks at the others'.
// Loads through a read-only pointer leave no reader mark: no store can follow through it (that is
// input_write), and they are most of a stencil's accesses. A store through another pointer to the
// same buffer (an in-place update) is still caught when it comes first (read after write).
void check_global(Worker& w, GlobalShadow& g, long long index, std::size_t size, Op op, bool read_only) {
    if (index >= g.count) return;  // a wider view of the same base than the first one seen
    std::uint64_t* cell = g.words + 3 * index;
    std::atomic_ref<std::uint64_t> writer(cell[0]), reader1(cell[1]), reader2(cell[2]);
    const std::uint64_t me = make_mark(w.block_linear, w.cur, w.interval, op == Op::atomic);
    if (op == Op::load && read_only) {
        const std::uint64_t wr = writer.load();
        if (unordered(wr, me)) global_race(w, g, index, size, op, wr, (wr & kAtomicMark) ? Op::atomic : Op::store);
        return;
    }
    if (op == Op::load) {
        const std::uint64_t r1 = reader1.load();
        if (r1 == 0 || same_thread(r1, me)) {
            if (r1 != me) reader1.store(me);
        } else if (reader2.load() != me) {
            reader2.store(me);
        }
        const std::uint64_t wr = writer.load();
        if (unordered(wr, me)) global_race(w, g, index, size, op, wr, (wr & kAtomicMark) ? Op::atomic : Op::store);
        return;
    }
    const std::uint64_t wr = writer.exchange(me);
    const bool both_atomic = op == Op::atomic && (wr & kAtomicMark);
    if (unordered(wr, me) && !both_atomic) {
        global_race(w, g, index, size, op, wr, (wr & kAtomicMark) ? Op::atomic : Op::store);
        return;
    }
    for (const std::uint64_t r : {reader1.load(), reader2.load()})
        if (unordered(r, me)) {
            global_race(w, g, index, size, op, r, Op::load);
            return;
        }
}

// ---- fiber stack overflow: one line, then exit ---------------------------------------------------
std::mutex g_signal_mutex;
struct sigaction g_previous_segv {};

// Async-signal-safe: appends `v` in decimal.
char* put_int(char* p, long long v) {
    char tmp[24];
    int n = 0;
    const bool neg = v < 0;
    unsigned long long u = neg ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
    do tmp[n++] = static_cast<char>('0' + u % 10), u /= 10;
    while (u);
    if (neg) *p++ = '-';
    while (n) *p++ = tmp[--n];
    return p;
}
char* put_str(char* p, const char* s) {
    while (*s) *p++ = *s++;
    return p;
}

void on_fault(int sig, siginfo_t* si, void* uc) {
    const Worker* w = tls.worker;
    const auto a = reinterpret_cast<std::uintptr_t>(si->si_addr);
    if (w && w->cur >= 0 && static_cast<std::size_t>(w->cur) < w->fibs.size()) {
        const Fib& f = w->fibs[w->cur];
        if (a < f.stack_lo && a + kGuardBytes >= f.stack_lo) {
            char buf[512];
            char* p = put_str(buf, "stencil-lab: a thread of block (");
            p = put_int(p, tls.block_idx.x), *p++ = ',';
            p = put_int(p, tls.block_idx.y), *p++ = ',';
            p = put_int(p, tls.block_idx.z);
            p = put_str(p, ") overflowed its ");
            p = put_int(p, static_cast<long long>(w->stacks.size / 1024));
            p = put_str(p, " KiB stack on the CPU backend: large local arrays live on each emulated "
                           "thread's stack; make them smaller or __shared__, or raise ExecOptions::stack_bytes\n");
            [[maybe_unused]] auto n = ::write(2, buf, static_cast<std::size_t>(p - buf));
            ::_exit(kStackOverflowExit);
        }
    }
    // Not a fiber's guard: whoever handled SIGSEGV before us, or the default action.
    const struct sigaction prev = g_previous_segv;
    if ((prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction) return prev.sa_sigaction(sig, si, uc);
    if (!(prev.sa_flags & SA_SIGINFO) && prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN)
        return prev.sa_handler(sig);
    ::signal(sig, SIG_DFL);  // the faulting instruction runs again and ends the process as before
}

// (Re)installs on_fault when someone (a test framework) replaced it since; theirs is chained.
void install_overflow_handler() {
    std::lock_guard lock(g_signal_mutex);
    struct sigaction now {};
    ::sigaction(SIGSEGV, nullptr, &now);
    if ((now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_fault) return;
    struct sigaction sa {};
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGSEGV, &sa, &g_previous_segv);
}

}  // namespace

// ---- out-of-line pieces of simt.h ---------------------------------------------------------------
void register_shared_cell(void* p, std::size_t size, Poison kind) {
    Worker* w = tls.worker;
    if (!w) return;  // not inside a launch: a plain value
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    const Fib& f = w->fibs[w->cur];
    if (a >= f.stack_lo && a < f.stack_hi) return;  // a local Shared<T>: not shared memory
    if (!t_ranges.empty()) {
        RangeImpl& last = *t_ranges.back();
        // The next element of the array being constructed (never merged into a range this
        // block already uses: that would re-poison live data).
        if (last.base + last.bytes == a && last.elem == size && last.kind == kind &&
            last.block_tag != tls.block_tag) {
            last.bytes += size;
            last.shadow.emplace_back();
            last.block_tag = 0;  // poisoned (and its shadow reset) on the next access
            return;
        }
    }
    auto r = std::make_unique<RangeImpl>();
    r->base = a;
    r->bytes = size;
    r->elem = size;
    r->shift = (size & (size - 1)) == 0 ? static_cast<unsigned>(__builtin_ctzll(size)) : 0;
    r->kind = kind;
    r->id = array_id_for(p);
    r->shadow.resize(1);
    t_ranges.push_back(std::move(r));
}

// Every few thousand slow-path accesses: has the block run past its deadline?
void Worker::tick() {
    if ((++ticks & 4095u) != 0) return;
    // Cancelled: the fault ends the block; resume() reports nothing for it.
    if (L->cancel_requested()) throw KernelFault{DiagKind::timeout, "cancelled"};
    if (std::chrono::steady_clock::now() < block_deadline) return;
    static thread_local char msg[320];
    std::snprintf(msg, sizeof msg,
                  "the block did not finish within %g s: an endless loop, or a spin-wait on another thread "
                  "(threads of a block only switch at __syncthreads on the CPU backend)",
                  L->deadline);
    throw KernelFault{DiagKind::timeout, msg};
}

void shared_slow(const void* p, std::size_t size, Op op) {
    Worker* w = tls.worker;
    if (!w) return;
    const unsigned flags = tls.flags;
    if (flags & kDeadline) w->tick();
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    RangeImpl* r = static_cast<RangeImpl*>(tls.range);
    if (r == &g_no_range || a - r->base >= r->bytes) {
        r = find_range(a);
        if (!r) {
            const Fib& f = w->fibs[w->cur];
            if (a >= f.stack_lo && a < f.stack_hi) return;  // a copy on the thread's stack: a plain value
            if (RangeImpl* near = nearest_range(a)) shared_out_of_bounds(*near, a, op);
            return;  // far from every shared array: not an index of ours
        }
        tls.range = r;
    }
    if (r->block_tag != tls.block_tag) {
        r->poison();
        r->block_tag = tls.block_tag;
    }
    if (flags & kCheckShared) check_shared(*w, *r, a, op);
    if (flags & kCount) w->block_cnt.add(Space::shared, op, static_cast<long long>(size));
    if (flags & kRecord)
        record(*w, Space::shared, op, size, r->id, static_cast<long long>(a - r->base),
               reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
}

void global_slow(const void* data, long long count, int buffer, const char* name, bool read_only,
                 long long index, std::size_t size, Op op) {
    Worker* w = tls.worker;
    if (!w) return;
    const unsigned flags = tls.flags;
    if (read_only && op != Op::load) {
        static thread_local char msg[256];
        std::snprintf(msg, sizeof msg, "%s of read-only global buffer #%d '%s' at index %lld: the kernel writes its input",
                      to_string(op), buffer, name ? name : "?", index);
        throw KernelFault{DiagKind::input_write, msg, Space::global, name, index * static_cast<long long>(size),
                          static_cast<int>(size)};
    }
    if (flags & kDeadline) w->tick();
    if ((flags & kCheckShared) && w->L->check_global) check_global(*w, *w->shadow(data, count, name), index, size, op, read_only);
    if (flags & kCount) w->block_cnt.add(Space::global, op, static_cast<long long>(size));
    if (flags & kRecord)
        record(*w, Space::global, op, size, buffer, index * static_cast<long long>(size),
               reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
}

void global_out_of_bounds(const char* name, int buffer, long long index, long long count, std::size_t size, Op op) {
    static thread_local char msg[256];
    std::snprintf(msg, sizeof msg, "out-of-bounds %s of global buffer #%d '%s' at index %lld (valid 0..%lld)",
                  to_string(op), buffer, name ? name : "?", index, count - 1);
    throw KernelFault{DiagKind::out_of_bounds, msg, Space::global, name, index * static_cast<long long>(size),
                      static_cast<int>(size)};
}

// Not inlined: its return address (kept for messages and traces) is the call instruction.
__attribute__((noinline)) void syncthreads(const char* file, int line, int expansion) {
    Worker* w = tls.worker;
    if (!w) return;
    Fib& f = w->fibs[w->cur];
    f.state = FibState::at_barrier;
    f.file = file;
    f.line = line;
    f.expansion = expansion;
    w->sched = std::move(w->sched).resume();
}

void syncwarp(unsigned mask) {
    Worker* w = tls.worker;
    if (!w) return;
    Fib& f = w->fibs[w->cur];
    f.state = FibState::at_warp;
    f.warp_mask = mask;
    w->sched = std::move(w->sched).resume();
}

// ---- one block ---------------------------------------------------------------------------------
// Resumes thread t until its next barrier, its end or its fault. True: the block must stop.
bool Worker::resume(int t) {
    Fib& f = fibs[t];
    cur = t;
    tls.thread_idx = f.idx;
    f.state = FibState::ready;
    f.f = std::move(f.f).resume();
    if (f.state == FibState::done || f.state == FibState::faulted) ++cur_log.threads;
    if (f.state == FibState::faulted && L->cancelled.load(std::memory_order_relaxed)) return true;
    if (f.state == FibState::faulted) {
        Diagnostic d;
        d.kind = f.fault_kind;
        d.block = d.block_b = block_coord();
        d.interval = interval;
        d.thread_a = t;
        d.thread_a_idx = thread_coord(t);
        d.space = f.fault_space;
        d.array = f.fault_array;
        d.offset = f.fault_offset;
        d.elem_size = f.fault_elem;
        d.message = f.fault + " (block " + idx_str(d.block) + ", " + thread_str(*this, t) +
                    ", barrier interval " + std::to_string(interval) + ")";
        diagnose(std::move(d));
        return true;
    }
    return fatal_in_block;  // a fatal diagnostic raised by an access check
}

// After a pass over the block: lets through every warp whose live lanes (in the waiters' masks)
// all wait at __syncwarp(). 0: nobody waits there; 1: some went on; 2: the block must stop (a
// lane faulted, or the waiters can never be released).
int Worker::release_warps() {
    const int n = L->nthreads;
    bool any = false, progress = false;
    for (int wp = 0; wp * 32 < n; ++wp) {
        unsigned waiting = 0, mask = 0;
        for (int t = wp * 32; t < std::min(n, wp * 32 + 32); ++t)
            if (fibs[t].state == FibState::at_warp) waiting |= 1u << (t % 32), mask |= fibs[t].warp_mask;
        if (!waiting) continue;
        any = true;
        unsigned must = 0;  // lanes named in a mask that have not returned
        for (int t = wp * 32; t < std::min(n, wp * 32 + 32); ++t)
            if ((mask >> (t % 32) & 1u) && fibs[t].state != FibState::done && fibs[t].state != FibState::faulted)
                must |= 1u << (t % 32);
        if (must & ~waiting) continue;
        ++warp_epoch[wp];
        progress = true;
        for (int t : order)
            if (t / 32 == wp && fibs[t].state == FibState::at_warp && resume(t)) return 2;
    }
    if (!any) return 0;
    if (progress) return 1;
    // Stuck: some lane waits at __syncwarp() for a lane of its warp that waits at __syncthreads().
    int a = -1, b = -1;
    for (int t : order)
        if (fibs[t].state == FibState::at_warp) {
            a = t;
            break;
        }
    for (int t = a / 32 * 32; t < std::min(n, a / 32 * 32 + 32); ++t)
        if (fibs[t].state == FibState::at_barrier) {
            b = t;
            break;
        }
    Diagnostic d;
    d.kind = DiagKind::divergent_barrier;
    d.block = d.block_b = block_coord();
    d.interval = interval;
    d.thread_a = a;
    d.thread_a_idx = thread_coord(a);
    d.thread_b = b;
    if (b >= 0) d.thread_b_idx = thread_coord(b), d.site_b = site_str(fibs[b].file, fibs[b].line);
    d.site_a = "__syncwarp()";
    d.message = "divergent __syncwarp() in block " + idx_str(d.block) + ", barrier interval " + std::to_string(interval) +
                ": " + thread_str(*this, a) + " waits at __syncwarp() but " +
                (b >= 0 ? thread_str(*this, b) + " of its warp waits at __syncthreads() at " + d.site_b
                        : std::string("a lane of its mask never arrives"));
    diagnose(std::move(d));
    return 2;
}

void Worker::run_block(long long linear, long long pos) {
    const unsigned flags = begin_block(linear, pos);
    start_fibers();
    live.resize(L->nthreads);
    std::iota(live.begin(), live.end(), 0);
    bool any_exited = false;
    int first_exited = -1;
    for (interval = 0;; ++interval) {
        if (!run_interval(linear)) break;
        // Everyone has returned or waits at a barrier.
        std::vector<int> waiting;
        for (int t : live) {
            if (fibs[t].state == FibState::at_barrier) waiting.push_back(t);
            else if (!any_exited || t < first_exited) {
                first_exited = t;
                any_exited = true;
            }
        }
        if (waiting.empty()) break;  // the block is done
        if (any_exited) {
            diagnose_exit_before_barrier(waiting, first_exited);
            break;
        }
        if (diagnose_divergent_barrier(waiting)) break;
        live.swap(waiting);
    }
    end_block(linear, pos, flags);
}

// The block's coordinates, its tag, and what this block checks, counts, records and times
// (the flags tls carries to the kernel's memory hooks). Returns the flags.
unsigned Worker::begin_block(long long linear, long long pos) {
    LaunchState& Ls = *L;
    const ExecOptions& opt = Ls.opt;
    block_linear = linear;
    block_pos = pos;
    cur_log = BlockLog{};
    cur_log.pos = pos;
    const long long gx = Ls.grid.x, gy = Ls.grid.y;
    tls.block_idx = {static_cast<unsigned>(linear % gx), static_cast<unsigned>((linear / gx) % gy),
                     static_cast<unsigned>(linear / (gx * gy))};
    tls.block_tag = ++t_tag_counter;
    unsigned flags = 0;
    if (opt.trace.count || opt.trace.per_block_counts) flags |= kCount;
    if (opt.check_shared) flags |= kCheckShared;
    if (opt.trace.records == TraceMode::all || (opt.trace.records == TraceMode::block && linear == Ls.record_block))
        flags |= kRecord;
    if (Ls.deadline > 0) {
        flags |= kDeadline;
        block_deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                                std::chrono::duration<double>(Ls.deadline));
    } else if (opt.cancel && flags != 0) {
        // Already on the slow path (traced or checked): let tick() look at the cancel flag too.
        flags |= kDeadline;
        block_deadline = std::chrono::steady_clock::time_point::max();
    }
    tls.flags = flags;
    block_cnt = Counts{};
    fatal_in_block = false;
    return flags;
}

// One fiber per thread of the block, each on a pooled stack, ready to run the kernel's body.
void Worker::start_fibers() {
    const int n = L->nthreads;
    const unsigned bx = L->block.x, by = L->block.y;
    fibs.resize(n);
    warp_epoch.assign((n + 31) / 32, 0);
    for (int t = 0; t < n; ++t) {
        Fib& f = fibs[t];
        f.idx = {t % bx, (t / bx) % by, t / (bx * by)};
        f.linear = t;
        f.state = FibState::ready;
        f.seq = 0;
        f.occ.clear();
        f.fault.clear();
        f.f = ctx::fiber(std::allocator_arg, PooledStack{&stacks}, [this, t](ctx::fiber&& s) -> ctx::fiber {
            sched = std::move(s);
            run_kernel_body(fibs[t]);
            return std::move(sched);
        });
        f.stack_hi = reinterpret_cast<std::uintptr_t>(stacks.last.sp);
        f.stack_lo = f.stack_hi - stacks.last.size;
    }
}

// Inside a fiber: the kernel's body, and how it ended (returned, or the fault it raised).
void Worker::run_kernel_body(Fib& me) {
    try {
        L->body.call(L->body.ctx);
        me.state = FibState::done;
    } catch (const ctx::detail::forced_unwind&) {
        throw;
    } catch (const KernelFault& e) {
        me.state = FibState::faulted;
        me.fault_kind = e.kind;
        me.fault = e.what;
        me.fault_space = e.space;
        me.fault_array = e.array ? e.array : "";
        me.fault_offset = e.offset;
        me.fault_elem = e.elem_size;
    } catch (const std::exception& e) {
        me.state = FibState::faulted;
        me.fault_kind = DiagKind::kernel_exception;
        me.fault = std::string("exception thrown by kernel code: ") + e.what();
    } catch (...) {
        me.state = FibState::faulted;
        me.fault_kind = DiagKind::kernel_exception;
        me.fault = "unknown exception thrown by kernel code";
    }
}

// One barrier interval: the live threads resumed in the schedule's order, then the warps'
// __syncwarp()s released. False: a thread faulted or a warp diverged (the block ends).
bool Worker::run_interval(long long linear) {
    const ExecOptions& opt = L->opt;
    interval_tag = ++t_tag_counter;
    std::fill(warp_epoch.begin(), warp_epoch.end(), 0);
    order = live;
    if (opt.schedule == Schedule::reversed) {
        std::reverse(order.begin(), order.end());
    } else if (opt.schedule == Schedule::random) {
        std::uint64_t s = splitmix(opt.seed ^ splitmix(static_cast<std::uint64_t>(linear) * 0x100000001b3ull + interval));
        for (std::size_t i = order.size(); i > 1; --i) {
            s = splitmix(s);
            std::swap(order[i - 1], order[s % i]);
        }
    }
    bool faulted = false;
    for (int t : order)
        if (resume(t)) {
            faulted = true;
            break;
        }
    for (int r = faulted ? 0 : 1; r == 1;) {
        r = release_warps();
        faulted = r == 2;
    }
    return !faulted;
}

// Threads wait at a barrier that threads which already returned will never reach.
void Worker::diagnose_exit_before_barrier(const std::vector<int>& waiting, int first_exited) {
    const Fib& wf = fibs[waiting.front()];
    Diagnostic d;
    d.kind = DiagKind::exit_before_barrier;
    d.block = d.block_b = block_coord();
    d.interval = interval;
    d.thread_a = waiting.front();
    d.thread_a_idx = thread_coord(d.thread_a);
    d.thread_b = first_exited;
    d.thread_b_idx = thread_coord(first_exited);
    d.site_a = site_str(wf.file, wf.line);
    const long long exited = L->nthreads - (long long)waiting.size();
    d.message = "barrier misuse in block " + idx_str(d.block) + ", barrier interval " +
                std::to_string(interval) + ": " + std::to_string(waiting.size()) +
                " threads wait at __syncthreads() at " + d.site_a + " (first: " +
                thread_str(*this, d.thread_a) + ") but " + std::to_string(exited) +
                " threads already returned (first: " + thread_str(*this, first_exited) +
                "); they would never arrive";
    diagnose(std::move(d));
}

// The waiting threads are at more than one barrier: diagnosed (true), or all at one (false).
bool Worker::diagnose_divergent_barrier(const std::vector<int>& waiting) {
    const Fib& w0 = fibs[waiting.front()];
    int other = -1;
    long long at_first = 0;
    for (int t : waiting) {
        if (fibs[t].same_site(w0)) ++at_first;
        else if (other < 0) other = t;
    }
    if (other < 0) return false;
    const Fib& wo = fibs[other];
    Diagnostic d;
    d.kind = DiagKind::divergent_barrier;
    d.block = d.block_b = block_coord();
    d.interval = interval;
    d.thread_a = waiting.front();
    d.thread_a_idx = thread_coord(d.thread_a);
    d.thread_b = other;
    d.thread_b_idx = thread_coord(other);
    d.site_a = site_str(w0.file, w0.line);
    d.site_b = site_str(wo.file, wo.line);
    const bool one_line = d.site_a == d.site_b;
    d.message = "divergent __syncthreads() in block " + idx_str(d.block) + ", barrier interval " +
                std::to_string(interval) + ": " + std::to_string(at_first) + " threads wait at " +
                d.site_a + " (first: " + thread_str(*this, d.thread_a) + ") and " +
                std::to_string(waiting.size() - at_first) + " at another barrier " + d.site_b +
                (one_line ? " (another __syncthreads() call on the same line, or the same helper "
                            "called from another place)"
                          : "") +
                " (first: " + thread_str(*this, other) + ")";
    diagnose(std::move(d));
    return true;
}

// The block's fibers destroyed, its log and counts kept, and a fatal diagnostic noted.
void Worker::end_block(long long linear, long long pos, unsigned flags) {
    const ExecOptions& opt = L->opt;
    // Finished fibers are empty already; destroying suspended ones unwinds their stacks.
    for (int t = 0; t < L->nthreads; ++t) fibs[t].f = ctx::fiber{};
    log.push_back(cur_log);
    if (flags & kCount) {
        counts += block_cnt;
        if (opt.trace.per_block_counts) L->block_counts[linear] = block_cnt;
    }
    if (fatal_in_block) {
        if (first_fatal_pos < 0 || pos < first_fatal_pos) first_fatal_pos = pos;
        if (opt.stop_on_error) L->stop.store(true, std::memory_order_relaxed);
    }
}

void Worker::run() {
    const Tls saved = tls;
    tls = Tls{};
    tls.worker = this;
    tls.block_dim = L->block;
    tls.grid_dim = L->grid;
    // An alternate signal stack, so that a fiber stack overflow can be reported (on_fault).
    stack_t old_alt{};
    ::sigaltstack(nullptr, &old_alt);
    const bool own_alt = (old_alt.ss_flags & SS_DISABLE) != 0;
    if (own_alt) {
        altstack.resize(64 * 1024);
        stack_t ss{};
        ss.ss_sp = altstack.data();
        ss.ss_size = altstack.size();
        ::sigaltstack(&ss, nullptr);
    }
    for (;;) {
        if (L->stop.load(std::memory_order_relaxed) || L->cancel_requested()) break;
        const long long pos = L->next_block.fetch_add(1, std::memory_order_relaxed);
        if (pos >= L->nblocks) break;
        run_block(L->block_at(pos), pos);
    }
    if (own_alt) {
        stack_t off{};
        off.ss_flags = SS_DISABLE;
        ::sigaltstack(&off, nullptr);
    }
    tls = saved;
}

}  // namespace simt::detail

namespace simt {

namespace {

// Geometry CUDA rejects, in the CUDA backend's words.
std::string invalid_launch(dim3 grid, dim3 block) {
    const long long nt = (long long)block.x * block.y * block.z;
    if (nt <= 0 || nt > 1024 || block.z > 64)
        return "invalid launch: " + std::to_string(nt) + " threads per block (" + std::to_string(block.x) + "x" +
               std::to_string(block.y) + "x" + std::to_string(block.z) + "), but a block may have 1..1024 threads and at most 64 along z";
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
        return "invalid launch: a grid of " + std::to_string(grid.x) + "x" + std::to_string(grid.y) + "x" +
               std::to_string(grid.z) + " blocks, but a launch may have 1..2147483647 blocks along x and 1..65535 along y and z";
    return {};
}

// The launch's shared state before any block runs: the per-block deadline, whether globals are
// checked, the random block order (and its inverse), the traced block and the per-block counts.
void prepare_launch(detail::LaunchState& L, const ExecOptions& opt) {
    using namespace detail;
    const dim3 grid = L.grid, block = L.block;
    L.nthreads = static_cast<int>((long long)block.x * block.y * block.z);
    L.deadline = opt.deadline_seconds > 0 ? opt.deadline_seconds
                 : opt.deadline_seconds < 0 && opt.check_shared ? kDefaultCheckedDeadline
                                                                : 0.0;
    L.check_global = opt.check_shared && L.nblocks < (1ll << 32) - 1;
    if (opt.block_order == BlockOrder::random) {
        L.perm.resize(static_cast<std::size_t>(L.nblocks));
        std::iota(L.perm.begin(), L.perm.end(), 0LL);
        std::uint64_t s = splitmix(opt.seed ^ 0x5bd1e995ull);
        for (std::size_t i = L.perm.size(); i > 1; --i) {
            s = splitmix(s);
            std::swap(L.perm[i - 1], L.perm[s % i]);
        }
        L.inverse.resize(L.perm.size());
        for (std::size_t i = 0; i < L.perm.size(); ++i) L.inverse[L.perm[i]] = static_cast<long long>(i);
    }
    if (opt.trace.records == TraceMode::block) {
        const Idx3 b = opt.trace.block;
        if (b.x >= 0 && b.y >= 0 && b.z >= 0 && b.x < (int)grid.x && b.y < (int)grid.y && b.z < (int)grid.z)
            L.record_block = static_cast<int>(((long long)b.z * grid.y + b.y) * grid.x + b.x);
    }
    if (opt.trace.per_block_counts) L.block_counts.assign(static_cast<std::size_t>(L.nblocks), Counts{});
}

// The blocks spread over worker OS threads (this thread is the first), each with its stacks.
std::vector<std::unique_ptr<detail::Worker>> run_workers(detail::LaunchState& L, const ExecOptions& opt) {
    using namespace detail;
    int nw = opt.workers > 0 ? opt.workers : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    nw = static_cast<int>(std::min<long long>(nw, L.nblocks));
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 0; i < nw; ++i) {
        auto w = std::make_unique<Worker>();
        w->L = &L;
        w->stacks.size = (std::max<std::size_t>(opt.stack_bytes, 16384) + page_size() - 1) / page_size() * page_size();
        workers.push_back(std::move(w));
    }
    std::vector<std::thread> threads;
    for (int i = 1; i < nw; ++i) threads.emplace_back([&, i] { workers[i]->run(); });
    workers[0]->run();
    for (auto& t : threads) t.join();
    return workers;
}

// Blocks run, totals and diagnostics of the workers into the report. Blocks after the first
// failing one (queue order) ran or not depending on timing: with stop_on_error, nothing of theirs
// is reported (see the header comment). Returns that cut-off position.
long long merge_blocks(ExecReport& rep, const std::vector<std::unique_ptr<detail::Worker>>& workers,
                       const ExecOptions& opt) {
    using namespace detail;
    long long cutoff = std::numeric_limits<long long>::max();
    if (opt.stop_on_error)
        for (auto& w : workers)
            if (w->first_fatal_pos >= 0) cutoff = std::min(cutoff, w->first_fatal_pos);
    for (auto& w : workers)
        for (const BlockLog& b : w->log) {
            if (b.pos > cutoff) continue;
            ++rep.blocks_run;
            rep.threads_run += b.threads;
            if (b.any_diag)
                for (int k = 0; k < kDiagKinds; ++k) rep.totals[k] += b.totals[k];
        }
    // Per kind, each worker kept its first diagnostics in its own (increasing) queue order, so
    // the first ones of the launch are among them.
    for (int k = 0; k < kDiagKinds; ++k) {
        std::vector<std::pair<long long, Diagnostic>> all;
        for (auto& w : workers)
            for (auto& d : w->kept[k])
                if (d.first <= cutoff) all.push_back(std::move(d));
        std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t i = 0; i < all.size() && (int)i < opt.max_diagnostics; ++i)
            rep.diagnostics.push_back(std::move(all[i].second));
    }
    for (int k = 0; k < kDiagKinds; ++k)
        if (is_fatal(static_cast<DiagKind>(k)) && rep.totals[k] > 0) rep.ok = false;
    return cutoff;
}

// The trace: queue order, cut at the failing block and at max_records, sites by code address.
void merge_trace(ExecReport& rep, const std::vector<std::unique_ptr<detail::Worker>>& workers,
                 const detail::LaunchState& L, const ExecOptions& opt, long long cutoff) {
    using namespace detail;
    bool capped = false;
    for (auto& w : workers) {
        rep.counts += w->counts;
        capped = capped || w->trace_capped;
        for (const Access& a : w->trace)
            if (L.pos_of(a.block) <= cutoff) rep.trace.push_back(a);
    }
    if (workers.size() > 1 || opt.block_order != BlockOrder::in_order)
        std::stable_sort(rep.trace.begin(), rep.trace.end(),
                         [&](const Access& a, const Access& b) { return L.pos_of(a.block) < L.pos_of(b.block); });
    if (rep.trace.size() > opt.trace.max_records) rep.trace.resize(opt.trace.max_records), capped = true;
    rep.trace_truncated = capped;
    if (rep.trace.empty()) return;
    std::vector<int> used;
    for (const Access& a : rep.trace)
        if (used.empty() || used.back() != a.site) used.push_back(a.site);
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    std::sort(used.begin(), used.end(), [&](int a, int b) { return L.sites[a] < L.sites[b]; });
    std::vector<int> renum(L.sites.size(), -1);
    for (std::size_t i = 0; i < used.size(); ++i) {
        renum[used[i]] = static_cast<int>(i);
        rep.sites.push_back(L.sites[used[i]]);
    }
    for (Access& a : rep.trace) a.site = renum[a.site];
}

}  // namespace

ExecReport launch_body(dim3 grid, dim3 block, const ExecOptions& opt, KernelBody body) {
    using namespace detail;
    const auto t0 = std::chrono::steady_clock::now();
    ExecReport rep;
    rep.grid = {(int)grid.x, (int)grid.y, (int)grid.z};
    rep.block = {(int)block.x, (int)block.y, (int)block.z};
    rep.schedule = opt.schedule;
    rep.seed = opt.seed;

    LaunchState L;
    L.grid = grid;
    L.block = block;
    L.opt = opt;
    L.body = body;
    L.nblocks = (long long)grid.x * grid.y * grid.z;
    if (std::string why = invalid_launch(grid, block); !why.empty()) {
        Diagnostic d;
        d.kind = DiagKind::kernel_exception;
        d.message = why;
        rep.ok = false;
        rep.totals[static_cast<int>(d.kind)] = 1;
        rep.diagnostics.push_back(std::move(d));
        return rep;
    }
    prepare_launch(L, opt);
    install_overflow_handler();
    const auto workers = run_workers(L, opt);
    const long long cutoff = merge_blocks(rep, workers, opt);
    if (L.cancelled.load()) rep.cancelled = true, rep.ok = false;
    merge_trace(rep, workers, L, opt, cutoff);
    rep.block_counts = std::move(L.block_counts);
    rep.workers = (int)workers.size();
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return rep;
}

}  // namespace simt
