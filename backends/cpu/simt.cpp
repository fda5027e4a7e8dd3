// The SIMT executor: blocks on worker OS threads, the threads of a block as Boost.Context fibers,
// barriers, schedules, shared-memory poisoning and checks, access counting and tracing.
//
// ---- How a block runs ------------------------------------------------------------------------
// A worker takes the next block index from an atomic counter and creates one fiber per thread
// (stacks come from a per-worker cache of pooled, guard-paged stacks: no mmap per block). Then,
// interval by interval, it resumes every live fiber once, in the schedule's order; a fiber runs
// until it calls __syncthreads() (it records the call site and yields) or returns. When every
// fiber has either returned or waits:
//   all returned                          -> the block is done
//   some wait, some returned              -> exit_before_barrier (fatal)
//   they wait at different call sites     -> divergent_barrier (fatal)
//   all wait at one site                  -> the next interval begins
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
#include "backends/cpu/simt.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
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
        const std::size_t total = size + page_size();
        void* base = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED) throw std::bad_alloc();
        ::mprotect(base, page_size(), PROT_NONE);  // a stack overflow faults instead of corrupting
        return static_cast<char*>(base) + page_size();
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
        s.size = size;
        s.sp = static_cast<char*>(bottom) + size;
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

}  // namespace

// ---- the launch and its workers ----------------------------------------------------------------
enum class FibState : std::uint8_t { ready, at_barrier, done, faulted };

struct Fib {
    ctx::fiber f;
    uint3 idx{};
    int linear = 0;
    FibState state = FibState::ready;
    const char* file = nullptr;
    int line = 0;
    std::uintptr_t stack_lo = 0, stack_hi = 0;
    DiagKind fault_kind = DiagKind::kernel_exception;
    std::string fault;
    int seq = 0;
    std::vector<std::pair<int, int>> occ;  // by site: (interval, count)
};

struct LaunchState {
    dim3 grid, block;
    ExecOptions opt;
    KernelBody body;
    long long nblocks = 0;
    int nthreads = 0;
    int record_block = -1;  // linear block recorded (TraceMode::block)
    std::atomic<long long> next_block{0};
    std::atomic<bool> stop{false};
    std::atomic<std::size_t> records{0};
    std::atomic<bool> truncated{false};
    std::vector<Counts> block_counts;
    std::mutex sites_mutex;
    std::unordered_map<std::uintptr_t, int> site_ids;
    std::vector<std::uintptr_t> sites;

    int site_id(std::uintptr_t ra) {
        std::lock_guard lock(sites_mutex);
        auto [it, fresh] = site_ids.emplace(ra, static_cast<int>(sites.size()));
        if (fresh) sites.push_back(ra);
        return it->second;
    }
};

struct Worker {
    LaunchState* L = nullptr;
    StackCache stacks;
    ctx::fiber sched;
    std::vector<Fib> fibs;
    std::vector<int> live, order;
    int cur = 0;
    int interval = 0;
    std::uint64_t interval_tag = 0;
    long long block_linear = 0;
    Counts counts, block_cnt;
    std::vector<Access> trace;
    std::unordered_map<std::uintptr_t, int> site_cache;
    std::array<std::vector<std::pair<long long, Diagnostic>>, kDiagKinds> kept;
    std::array<long long, kDiagKinds> totals{};
    long long blocks_run = 0, threads_run = 0;
    bool fatal_in_block = false;

    Idx3 block_coord() const {
        return {(int)tls.block_idx.x, (int)tls.block_idx.y, (int)tls.block_idx.z};
    }
    Idx3 thread_coord(int t) const {
        const int bx = (int)L->block.x, by = (int)L->block.y;
        return {t % bx, (t / bx) % by, t / (bx * by)};
    }
    void diagnose(Diagnostic d) {
        const int k = static_cast<int>(d.kind);
        ++totals[k];
        if (is_fatal(d.kind)) fatal_in_block = true;
        if ((int)kept[k].size() < L->opt.max_diagnostics) kept[k].emplace_back(block_linear, std::move(d));
    }
    int site_id(std::uintptr_t ra) {
        auto it = site_cache.find(ra);
        if (it != site_cache.end()) return it->second;
        const int id = L->site_id(ra);
        site_cache.emplace(ra, id);
        return id;
    }
    void run_block(long long linear);
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
const char* op_word(Op o) { return o == Op::load ? "load" : o == Op::store ? "store" : "atomic"; }

std::uint64_t splitmix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void record(Worker& w, Space s, Op op, std::size_t size, int buffer, long long offset, std::uintptr_t ra) {
    LaunchState& L = *w.L;
    if (L.records.fetch_add(1, std::memory_order_relaxed) >= L.opt.trace.max_records) {
        L.truncated.store(true, std::memory_order_relaxed);
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

void check_shared(Worker& w, RangeImpl& r, std::uintptr_t p, Op op) {
    const std::size_t cell = r.shift ? (p - r.base) >> r.shift : (p - r.base) / r.elem;
    CellShadow& s = r.shadow[cell];
    const int t = w.cur;  // fibs are indexed by linear thread
    if (s.interval_tag != w.interval_tag) {
        s.interval_tag = w.interval_tag;
        s.writer = s.reader1 = s.reader2 = -1;
    }
    auto race = [&](int other, Op other_op) {
        Diagnostic d;
        d.kind = DiagKind::race;
        d.block = w.block_coord();
        d.interval = w.interval;
        d.thread_a = t;
        d.thread_b = other;
        d.thread_a_idx = w.thread_coord(t);
        d.thread_b_idx = w.thread_coord(other);
        d.op_a = op;
        d.op_b = other_op;
        d.array = r.id;
        d.offset = static_cast<long long>(cell * r.elem);
        d.elem_size = static_cast<int>(r.elem);
        d.message = "shared-memory race in block " + idx_str(d.block) + ", barrier interval " +
                    std::to_string(d.interval) + ": " + thread_str(w, t) + " " + op_word(op) +
                    " and " + thread_str(w, other) + " " + op_word(other_op) + " of shared array #" +
                    std::to_string(r.id) + " element " + std::to_string(cell) + " (byte " +
                    std::to_string(d.offset) + ") with no __syncthreads() between them";
        w.diagnose(std::move(d));
    };
    if (op != Op::store && s.write_tag < tls.block_tag) {
        Diagnostic d;
        d.kind = DiagKind::uninitialized_shared_read;
        d.block = w.block_coord();
        d.interval = w.interval;
        d.thread_a = t;
        d.thread_a_idx = w.thread_coord(t);
        d.op_a = op;
        d.array = r.id;
        d.offset = static_cast<long long>(cell * r.elem);
        d.elem_size = static_cast<int>(r.elem);
        d.message = "uninitialized shared read in block " + idx_str(d.block) + ", barrier interval " +
                    std::to_string(d.interval) + ": " + thread_str(w, t) + " loads shared array #" +
                    std::to_string(r.id) + " element " + std::to_string(cell) + " (byte " +
                    std::to_string(d.offset) + "), which no thread of the block has stored";
        w.diagnose(std::move(d));
    }
    if (op == Op::load) {
        if (s.writer >= 0 && s.writer != t) race(s.writer, s.writer_op);
        if (s.reader1 < 0) s.reader1 = static_cast<std::int16_t>(t);
        else if (s.reader1 != t && s.reader2 < 0) s.reader2 = static_cast<std::int16_t>(t);
    } else if (op == Op::atomic) {  // atomics do not conflict with each other
        if (s.writer >= 0 && s.writer != t && s.writer_op != Op::atomic) race(s.writer, s.writer_op);
        else if (s.reader1 >= 0 && s.reader1 != t) race(s.reader1, Op::load);
        else if (s.reader2 >= 0 && s.reader2 != t) race(s.reader2, Op::load);
        if (s.writer < 0 || s.writer_op == Op::atomic) {
            s.writer = static_cast<std::int16_t>(t);
            s.writer_op = Op::atomic;
        }
        s.write_tag = w.interval_tag;
    } else {
        if (s.writer >= 0 && s.writer != t) race(s.writer, s.writer_op);
        else if (s.reader1 >= 0 && s.reader1 != t) race(s.reader1, Op::load);
        else if (s.reader2 >= 0 && s.reader2 != t) race(s.reader2, Op::load);
        s.writer = static_cast<std::int16_t>(t);
        s.writer_op = op;
        s.write_tag = w.interval_tag;
    }
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

void shared_slow(const void* p, std::size_t size, Op op) {
    Worker* w = tls.worker;
    if (!w) return;
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    RangeImpl* r = static_cast<RangeImpl*>(tls.range);
    if (r == &g_no_range || a - r->base >= r->bytes) {
        r = find_range(a);
        if (!r) return;  // an unregistered cell (a copy on the stack): a plain value
        tls.range = r;
    }
    if (r->block_tag != tls.block_tag) {
        r->poison();
        r->block_tag = tls.block_tag;
    }
    const unsigned flags = tls.flags;
    if (flags & kCheckShared) check_shared(*w, *r, a, op);
    if (flags & kCount) w->block_cnt.add(Space::shared, op, static_cast<long long>(size));
    if (flags & kRecord)
        record(*w, Space::shared, op, size, r->id, static_cast<long long>(a - r->base),
               reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
}

void global_slow(int buffer, long long byte_offset, std::size_t size, Op op) {
    Worker* w = tls.worker;
    if (!w) return;
    const unsigned flags = tls.flags;
    if (flags & kCount) w->block_cnt.add(Space::global, op, static_cast<long long>(size));
    if (flags & kRecord)
        record(*w, Space::global, op, size, buffer, byte_offset,
               reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
}

void global_out_of_bounds(const char* name, int buffer, long long index, long long count, Op op) {
    static thread_local char msg[256];
    std::snprintf(msg, sizeof msg, "out-of-bounds %s of global buffer #%d '%s' at index %lld (valid 0..%lld)",
                  op_word(op), buffer, name ? name : "?", index, count - 1);
    throw KernelFault{DiagKind::out_of_bounds, msg};
}

void syncthreads(const char* file, int line) {
    Worker* w = tls.worker;
    if (!w) return;
    Fib& f = w->fibs[w->cur];
    f.state = FibState::at_barrier;
    f.file = file;
    f.line = line;
    w->sched = std::move(w->sched).resume();
}

// ---- one block ---------------------------------------------------------------------------------
void Worker::run_block(long long linear) {
    LaunchState& Ls = *L;
    const ExecOptions& opt = Ls.opt;
    block_linear = linear;
    const long long gx = Ls.grid.x, gy = Ls.grid.y;
    tls.block_idx = {static_cast<unsigned>(linear % gx), static_cast<unsigned>((linear / gx) % gy),
                     static_cast<unsigned>(linear / (gx * gy))};
    tls.block_tag = ++t_tag_counter;
    unsigned flags = 0;
    if (opt.trace.count || opt.trace.per_block_counts) flags |= kCount;
    if (opt.check_shared) flags |= kCheckShared;
    if (opt.trace.records == TraceMode::all || (opt.trace.records == TraceMode::block && linear == Ls.record_block))
        flags |= kRecord;
    tls.flags = flags;
    block_cnt = Counts{};
    fatal_in_block = false;

    const int n = Ls.nthreads;
    const unsigned bx = Ls.block.x, by = Ls.block.y;
    fibs.resize(n);
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
            Fib& me = fibs[t];
            try {
                L->body.call(L->body.ctx);
                me.state = FibState::done;
            } catch (const ctx::detail::forced_unwind&) {
                throw;
            } catch (const KernelFault& e) {
                me.state = FibState::faulted;
                me.fault_kind = e.kind;
                me.fault = e.what;
            } catch (const std::exception& e) {
                me.state = FibState::faulted;
                me.fault_kind = DiagKind::kernel_exception;
                me.fault = std::string("exception thrown by kernel code: ") + e.what();
            } catch (...) {
                me.state = FibState::faulted;
                me.fault_kind = DiagKind::kernel_exception;
                me.fault = "unknown exception thrown by kernel code";
            }
            return std::move(sched);
        });
        f.stack_hi = reinterpret_cast<std::uintptr_t>(stacks.last.sp);
        f.stack_lo = f.stack_hi - stacks.last.size;
    }

    live.resize(n);
    std::iota(live.begin(), live.end(), 0);
    bool any_exited = false;
    int first_exited = -1;
    for (interval = 0;; ++interval) {
        interval_tag = ++t_tag_counter;
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
        for (int t : order) {
            Fib& f = fibs[t];
            cur = t;
            tls.thread_idx = f.idx;
            f.state = FibState::ready;
            f.f = std::move(f.f).resume();
            if (f.state == FibState::done || f.state == FibState::faulted) ++threads_run;
            if (f.state == FibState::faulted) {
                Diagnostic d;
                d.kind = f.fault_kind;
                d.block = block_coord();
                d.interval = interval;
                d.thread_a = t;
                d.thread_a_idx = thread_coord(t);
                d.message = f.fault + " (block " + idx_str(d.block) + ", " + thread_str(*this, t) +
                            ", barrier interval " + std::to_string(interval) + ")";
                diagnose(std::move(d));
                faulted = true;
                break;
            }
            if (fatal_in_block) {  // a fatal diagnostic raised by an access check
                faulted = true;
                break;
            }
        }
        if (faulted) break;

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
            const Fib& wf = fibs[waiting.front()];
            Diagnostic d;
            d.kind = DiagKind::exit_before_barrier;
            d.block = block_coord();
            d.interval = interval;
            d.thread_a = waiting.front();
            d.thread_a_idx = thread_coord(d.thread_a);
            d.thread_b = first_exited;
            d.thread_b_idx = thread_coord(first_exited);
            d.site_a = site_str(wf.file, wf.line);
            const long long exited = n - (long long)waiting.size();
            d.message = "barrier misuse in block " + idx_str(d.block) + ", barrier interval " +
                        std::to_string(interval) + ": " + std::to_string(waiting.size()) +
                        " threads wait at __syncthreads() at " + d.site_a + " (first: " +
                        thread_str(*this, d.thread_a) + ") but " + std::to_string(exited) +
                        " threads already returned (first: " + thread_str(*this, first_exited) +
                        "); they would never arrive";
            diagnose(std::move(d));
            break;
        }
        const Fib& w0 = fibs[waiting.front()];
        int other = -1;
        long long at_first = 0;
        for (int t : waiting) {
            const Fib& f = fibs[t];
            if (f.line == w0.line && (f.file == w0.file || std::strcmp(f.file, w0.file) == 0)) ++at_first;
            else if (other < 0) other = t;
        }
        if (other >= 0) {
            const Fib& wo = fibs[other];
            Diagnostic d;
            d.kind = DiagKind::divergent_barrier;
            d.block = block_coord();
            d.interval = interval;
            d.thread_a = waiting.front();
            d.thread_a_idx = thread_coord(d.thread_a);
            d.thread_b = other;
            d.thread_b_idx = thread_coord(other);
            d.site_a = site_str(w0.file, w0.line);
            d.site_b = site_str(wo.file, wo.line);
            d.message = "divergent __syncthreads() in block " + idx_str(d.block) + ", barrier interval " +
                        std::to_string(interval) + ": " + std::to_string(at_first) + " threads wait at " +
                        d.site_a + " (first: " + thread_str(*this, d.thread_a) + ") and " +
                        std::to_string(waiting.size() - at_first) + " at another barrier " + d.site_b +
                        " (first: " + thread_str(*this, other) + ")";
            diagnose(std::move(d));
            break;
        }
        live.swap(waiting);
    }
    // Finished fibers are empty already; destroying suspended ones unwinds their stacks.
    for (int t = 0; t < n; ++t) fibs[t].f = ctx::fiber{};
    ++blocks_run;
    if (flags & kCount) {
        counts += block_cnt;
        if (opt.trace.per_block_counts) Ls.block_counts[linear] = block_cnt;
    }
    if (fatal_in_block && opt.stop_on_error) Ls.stop.store(true, std::memory_order_relaxed);
}

void Worker::run() {
    const Tls saved = tls;
    tls = Tls{};
    tls.worker = this;
    tls.block_dim = L->block;
    tls.grid_dim = L->grid;
    for (;;) {
        if (L->stop.load(std::memory_order_relaxed)) break;
        const long long b = L->next_block.fetch_add(1, std::memory_order_relaxed);
        if (b >= L->nblocks) break;
        run_block(b);
    }
    tls = saved;
}

}  // namespace simt::detail

namespace simt {

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
    const long long nt = (long long)block.x * block.y * block.z;
    if (nt <= 0 || nt > 1024 || L.nblocks <= 0) {
        Diagnostic d;
        d.kind = DiagKind::kernel_exception;
        d.message = "invalid launch: " + std::to_string(nt) + " threads per block (1..1024) and " +
                    std::to_string(L.nblocks) + " blocks";
        rep.ok = false;
        rep.totals[static_cast<int>(d.kind)] = 1;
        rep.diagnostics.push_back(std::move(d));
        return rep;
    }
    L.nthreads = static_cast<int>(nt);
    if (opt.trace.records == TraceMode::block) {
        const Idx3 b = opt.trace.block;
        if (b.x >= 0 && b.y >= 0 && b.z >= 0 && b.x < (int)grid.x && b.y < (int)grid.y && b.z < (int)grid.z)
            L.record_block = static_cast<int>(((long long)b.z * grid.y + b.y) * grid.x + b.x);
    }
    if (opt.trace.per_block_counts) L.block_counts.assign(static_cast<std::size_t>(L.nblocks), Counts{});

    int nw = opt.workers > 0 ? opt.workers : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    nw = static_cast<int>(std::min<long long>(nw, L.nblocks));
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 0; i < nw; ++i) {
        auto w = std::make_unique<Worker>();
        w->L = &L;
        w->stacks.size = (std::max<std::size_t>(opt.stack_bytes, 16384) + page_size() - 1) / page_size() * page_size();
        workers.push_back(std::move(w));
    }
    {
        std::vector<std::thread> threads;
        for (int i = 1; i < nw; ++i) threads.emplace_back([&, i] { workers[i]->run(); });
        workers[0]->run();
        for (auto& t : threads) t.join();
    }

    // Merge: per kind, each worker kept its first diagnostics in its own block order, so the
    // first ones over all blocks are among them; sort by block and keep the first few.
    for (int k = 0; k < kDiagKinds; ++k) {
        std::vector<std::pair<long long, Diagnostic>> all;
        for (auto& w : workers) {
            rep.totals[k] += w->totals[k];
            for (auto& d : w->kept[k]) all.push_back(std::move(d));
        }
        std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t i = 0; i < all.size() && (int)i < opt.max_diagnostics; ++i)
            rep.diagnostics.push_back(std::move(all[i].second));
    }
    for (int k = 0; k < kDiagKinds; ++k)
        if (is_fatal(static_cast<DiagKind>(k)) && rep.totals[k] > 0) rep.ok = false;
    std::vector<std::vector<Access>*> traces;
    for (auto& w : workers) {
        rep.counts += w->counts;
        rep.blocks_run += w->blocks_run;
        rep.threads_run += w->threads_run;
        if (!w->trace.empty()) traces.push_back(&w->trace);
    }
    if (traces.size() == 1) {
        rep.trace = std::move(*traces[0]);
    } else {
        for (auto* t : traces) rep.trace.insert(rep.trace.end(), t->begin(), t->end());
        std::stable_sort(rep.trace.begin(), rep.trace.end(),
                         [](const Access& a, const Access& b) { return a.block < b.block; });
    }
    rep.trace_truncated = L.truncated.load();
    rep.sites = std::move(L.sites);
    rep.block_counts = std::move(L.block_counts);
    rep.workers = nw;
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return rep;
}

}  // namespace simt
