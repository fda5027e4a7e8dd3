// The race detector (race_detector.h says what it reports and what orders accesses).
//
// Every thread has a clock: `epoch` stamps its accesses and grows at each fence or release;
// `warp` is a vector clock over the lanes of its warp (each lane's count of __syncwarp()s, joined
// among the lanes of each completed mask); `known` is what it has acquired: for threads, the
// bound below which their accesses are ordered before it, and for blocks, the barrier interval
// below which theirs are. A release publishes the releasing thread's bound (what came before
// its last fence, or before the release itself) and what it knew into the location; an acquire
// takes the location's knowledge (at once for .acquire, at the next fence or barrier otherwise).
//
// Shadows: shared memory per byte (the last writer, and the readers since), per worker and block;
// global memory per 4-byte word of each writable buffer, shared by the workers, in atomics: who
// (block, thread, interval, site) and their clock (epoch, warp count, strong).
#include "backends/cpu/ptx/race_detector.h"

#include <algorithm>
#include <bit>
#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

#include "backends/cpu/ptx/block.h"

namespace ptx::detail {

namespace {

// ---- clocks ------------------------------------------------------------------------------------
// Bounds by key (a thread's global index, or a block), sorted by key: a join is a merge, a look-up
// a binary search (a release sequence through an atomic counter gathers a bound from every block).
class Bounds {
public:
    bool empty() const { return v_.empty(); }
    void clear() { v_.clear(); }
    void raise(u64 key, u32 bound) {
        auto it = std::lower_bound(v_.begin(), v_.end(), key, [](const auto& e, u64 k) { return e.first < k; });
        if (it != v_.end() && it->first == key) it->second = std::max(it->second, bound);
        else v_.insert(it, {key, bound});
    }
    void join(const Bounds& o) {
        if (o.v_.empty()) return;
        if (v_.empty()) {
            v_ = o.v_;
            return;
        }
        std::vector<std::pair<u64, u32>> out;
        out.reserve(v_.size() + o.v_.size());
        size_t a = 0, b = 0;
        while (a < v_.size() || b < o.v_.size()) {
            if (b == o.v_.size() || (a < v_.size() && v_[a].first < o.v_[b].first)) out.push_back(v_[a++]);
            else if (a == v_.size() || o.v_[b].first < v_[a].first) out.push_back(o.v_[b++]);
            else {
                out.push_back({v_[a].first, std::max(v_[a].second, o.v_[b].second)});
                ++a, ++b;
            }
        }
        v_ = std::move(out);
    }
    u32 at(u64 key) const {
        auto it = std::lower_bound(v_.begin(), v_.end(), key, [](const auto& e, u64 k) { return e.first < k; });
        return it != v_.end() && it->first == key ? it->second : 0;
    }

private:
    std::vector<std::pair<u64, u32>> v_;
};

// What a thread (or a location) knows happened before: for threads, the epoch below which their
// accesses are ordered; for blocks, the barrier interval below which theirs are.
struct Knowledge {
    Bounds threads, blocks;
    bool empty() const { return threads.empty() && blocks.empty(); }
    void clear() {
        threads.clear();
        blocks.clear();
    }
    void join(const Knowledge& o) {
        threads.join(o.threads);
        blocks.join(o.blocks);
    }
    u32 thread_bound(u64 gid) const { return threads.at(gid); }
    u32 block_bound(u32 block) const { return blocks.at(block); }
};

struct Clock {
    u32 gen = 0;  // the block it was last reset for (reset lazily: see Detector::clock)
    u32 epoch = 1;
    u32 released = 0;  // what the next strong store publishes: accesses with epoch below it (0: none)
    std::array<u32, kWarpSize> warp{};
    Knowledge known, pending;
};

// ---- the shared shadow: per byte, the last writer and the readers since ----------------------
struct Rec {
    u32 gen = 0;               // the block it belongs to; another block's is no record
    std::int16_t thread = -1;  // -1 none, -2 several readers
    std::int16_t warp = -1;    // several readers: their warp, -1 when of several warps
    u32 lanes = 0;             // several readers of one warp: which lanes
    std::int32_t interval = -1;
    u32 epoch = 0;
    u32 wc = 0;  // the accessor's own __syncwarp() count (several: the largest)
    std::int32_t site = -1;
    bool strong = false;
    bool operator==(const Rec&) const = default;
};

// ---- the global shadow: one word per 4 bytes --------------------------------------------------
// who: block + 1 (22 bits) | thread (11) | interval (20) | site (11, saturating)
// clock: epoch (31 bits) | warp count (32) | strong (1)
constexpr u64 kManyBlocks = (u64(1) << 22) - 1;
constexpr u64 kManyThreads = (u64(1) << 11) - 1;
u64 pack(u64 block1, u64 thread, u64 interval, u64 site) {
    return (block1 << 42) | ((thread & 0x7ff) << 31) | ((interval & 0xfffff) << 11) | (site > 0x7fe ? 0x7ff : site);
}
u64 sh_block(u64 v) { return v >> 42; }
u64 sh_thread(u64 v) { return (v >> 31) & 0x7ff; }
u64 sh_interval(u64 v) { return (v >> 11) & 0xfffff; }
u64 sh_site(u64 v) { return v & 0x7ff; }
u64 pack_clock(u32 epoch, u32 wc, bool strong) { return (u64(epoch & 0x7fffffff) << 33) | (u64(wc) << 1) | u64(strong); }
u32 ck_epoch(u64 c) { return u32(c >> 33); }
u32 ck_wc(u64 c) { return u32(c >> 1); }
bool ck_strong(u64 c) { return c & 1; }

// A buffer's shadow has one record per 4 bytes (its elements are floats or doubles); the module's
// `__device__` variables one per byte, as a student's flags may be bytes side by side that
// different blocks own (`unsigned char done[B]`): a coarser record would see them conflict.
struct GlobalShadow {
    int shift;  // log2 of the bytes a record covers
    std::vector<std::atomic<u64>> writes, write_clocks, reads, read_clocks;
    GlobalShadow(size_t bytes, int shift)
        : shift(shift), writes(records(bytes, shift)), write_clocks(writes.size()), reads(writes.size()),
          read_clocks(writes.size()) {}
    static size_t records(size_t bytes, int shift) { return (bytes + (size_t(1) << shift) - 1) >> shift; }
};

// What the workers share: the global shadows (by Launch::buffers' index), the synchronising
// locations' knowledge.
struct Shared {
    std::vector<std::unique_ptr<GlobalShadow>> shadows;
    std::unique_ptr<GlobalShadow> module_shadow;  // the module's __device__ variables
    std::mutex sync_mutex;
    std::unordered_map<u64, Knowledge> sync;
    int stride = 1;
};

class Detector final : public BlockObserver {
public:
    Detector(LaunchState& L, Shared& s) : L_(L), s_(s) {}

    // The shadows and clocks are not cleared for each block (a block's worth of memset is most of a
    // small block's time): every record carries its block's generation, and an older one is empty.
    void block_start(BlockRunner& r) override {
        active_ = s_.stride <= 1 || r.block() % s_.stride == 0;
        if (!active_) return;
        ++gen_;
        block_known_.clear();
        if (clocks_.size() < (size_t)L_.nthreads) clocks_.resize((size_t)L_.nthreads);
        if (w_.size() < (size_t)L_.shared_total) {
            written_.resize((size_t)L_.shared_total, 0);
            w_.resize((size_t)L_.shared_total);
            r_.resize((size_t)L_.shared_total);
        }
    }

    bool wants_accesses(BlockRunner&) override { return active_; }

    void access(BlockRunner& r, const AccessEvent& e) override {
        if (!active_) return;
        Clock& c = clock(e.t.linear);
        const bool reads = e.op != engine::Op::store, writes = e.op != engine::Op::load;
        if (e.strong && reads) acquire(c, key(r, e), e.acquire);
        if (e.space == engine::Space::shared) shared_access(r, e, c);
        else global_access(r, e, c);
        if (e.strong && writes) release(r, e, c);
    }

    void fence(BlockRunner&, Thread& t, const Instr&) override {
        if (!active_) return;
        Clock& c = clock(t.linear);
        c.known.join(c.pending);
        c.pending.clear();
        c.released = ++c.epoch;
    }

    // A barrier orders the whole block and acts as a fence: what any thread acquired, every
    // thread now knows.
    void barrier_released(BlockRunner&) override {
        if (!active_) return;
        for (int t = 0; t < L_.nthreads; ++t) {
            Clock& c = clock(t);
            if (!c.pending.empty()) {
                c.known.join(c.pending);
                c.pending.clear();
            }
            if (!c.known.empty()) {  // now the whole block's
                block_known_.join(c.known);
                c.known.clear();
            }
            c.released = ++c.epoch;
        }
    }

    void warp_synced(BlockRunner&, const std::vector<Thread*>& lanes) override {
        if (!active_) return;
        std::array<u32, kWarpSize> joined{};
        Knowledge known;
        for (Thread* t : lanes) {
            Clock& c = clock(t->linear);
            ++c.warp[(size_t)t->lane];
            for (int l = 0; l < kWarpSize; ++l) joined[(size_t)l] = std::max(joined[(size_t)l], c.warp[(size_t)l]);
            c.known.join(c.pending);
            c.pending.clear();
            known.join(c.known);
        }
        for (Thread* t : lanes) {
            Clock& c = clock(t->linear);
            c.warp = joined;
            if (!known.empty()) c.known = known;
        }
    }

private:
    LaunchState& L_;
    Shared& s_;
    bool active_ = false;
    u32 gen_ = 0;
    Knowledge block_known_;  // what a barrier made every thread of the block know
    std::vector<Clock> clocks_;
    std::vector<u32> written_;  // the generation of the block whose thread stored the byte
    std::vector<Rec> w_, r_;

    Clock& clock(int thread) {
        Clock& c = clocks_[(size_t)thread];
        if (c.gen != gen_) {
            c.gen = gen_;
            c.epoch = 1;
            c.released = 0;
            c.warp.fill(0);
            c.known.clear();
            c.pending.clear();
        }
        return c;
    }

    u64 gid(int block, int thread) const { return u64(block) * u64(L_.nthreads) + u64(thread); }

    // A synchronising location: global (buffer, offset) or shared (block, offset).
    static u64 key(BlockRunner& r, const AccessEvent& e) {
        if (e.space == engine::Space::shared) return (u64(1) << 63) | (u64(r.block()) << 24) | u64(e.offset);
        return (u64(e.buffer_index) << 40) | u64(e.offset);
    }

    void acquire(Clock& c, u64 k, bool now) {
        std::lock_guard lock(s_.sync_mutex);
        auto it = s_.sync.find(k);
        if (it == s_.sync.end()) return;
        (now ? c.known : c.pending).join(it->second);
    }

    void release(BlockRunner& r, const AccessEvent& e, Clock& c) {
        const bool rmw = e.op == engine::Op::atomic;
        u32 bound = 0;
        if (e.release) bound = ++c.epoch;
        else bound = c.released;
        std::lock_guard lock(s_.sync_mutex);
        if (bound == 0) {  // a strong store that releases nothing ends the location's release sequence
            if (!rmw) s_.sync.erase(key(r, e));
            return;
        }
        Knowledge k = c.known;
        k.join(block_known_);
        k.threads.raise(gid(r.block(), e.t.linear), bound);
        k.blocks.raise(u32(r.block()), u32(e.t.interval));
        Knowledge& at = s_.sync[key(r, e)];
        if (rmw) at.join(k);
        else at = std::move(k);
    }

    // Is the recorded access E (of this block) ordered before the current access of thread t?
    u32 thread_bound(const Clock& c, u64 g) const { return std::max(c.known.thread_bound(g), block_known_.thread_bound(g)); }
    u32 block_bound(const Clock& c, u32 b) const { return std::max(c.known.block_bound(b), block_known_.block_bound(b)); }

    bool ordered(BlockRunner& r, const Rec& e, const Thread& t, const Clock& c) const {
        if (e.thread == t.linear) return true;
        if (e.interval < t.interval) return true;
        if (block_bound(c, u32(r.block())) > u32(e.interval)) return true;
        if (e.thread >= 0) {
            if (e.thread / kWarpSize == t.warp && c.warp[(size_t)(e.thread % kWarpSize)] > e.wc) return true;
            return thread_bound(c, gid(r.block(), e.thread)) > e.epoch;
        }
        if (e.warp == t.warp && e.lanes) {
            for (u32 m = e.lanes; m; m &= m - 1)
                if (c.warp[(size_t)std::countr_zero(m)] <= e.wc) return false;
            return true;
        }
        return false;
    }

    Rec me(const AccessEvent& e, const Clock& c) const {
        Rec m;
        m.thread = std::int16_t(e.t.linear);
        m.interval = e.t.interval;
        m.epoch = c.epoch;
        m.wc = c.warp[(size_t)e.t.lane];
        m.site = e.in.site;
        m.strong = e.strong;
        m.gen = gen_;
        return m;
    }

    // Whether bytes [first, end) have one history (the same records, stale ones alike): then what
    // an access does to the first byte it does to every one (a float stored by one thread).
    bool one_history(long long first, long long end) const {
        auto same = [&](const Rec& a, const Rec& b) { return (a.gen != gen_ && b.gen != gen_) || a == b; };
        const auto f = (size_t)first;
        for (size_t b = f + 1; b < (size_t)end; ++b)
            if (!same(w_[b], w_[f]) || !same(r_[b], r_[f]) || (written_[b] == gen_) != (written_[f] == gen_)) return false;
        return true;
    }

    void shared_access(BlockRunner& r, const AccessEvent& e, const Clock& c) {
        const Rec mine = me(e, c);
        bool reported = false;  // one diagnostic per access, however many bytes it spans
        // the per-access fast path: bytes with one history are decided once, at the first
        const bool uniform = e.size > 1 && one_history(e.offset, e.offset + e.size);
        const long long last = uniform ? e.offset + 1 : e.offset + e.size;
        for (long long b = e.offset; b < last; ++b) {
            Rec& w = w_[(size_t)b];
            Rec& rd = r_[(size_t)b];
            if (w.gen != gen_) w = Rec{};
            if (rd.gen != gen_) rd = Rec{};
            auto conflicts = [&](const Rec& o) {
                return o.thread != -1 && o.thread != e.t.linear && !(o.strong && e.strong) && !ordered(r, o, e.t, c);
            };
            if (e.op == engine::Op::load && written_[(size_t)b] != gen_ && !reported) {
                if (r.wants(DiagKind::uninitialized_shared_read)) report_uninitialized(r, e);
                reported = true;
            }
            if (!reported && conflicts(w)) {
                report_shared_race(r, e, w, engine::Op::store);
                reported = true;
            }
            if (e.op != engine::Op::load) {
                if (!reported && conflicts(rd)) {
                    report_shared_race(r, e, rd, engine::Op::load);
                    reported = true;
                }
                w = mine;
                written_[(size_t)b] = gen_;
                continue;
            }
            if (rd.thread == -1 || rd.thread == e.t.linear || ordered(r, rd, e.t, c)) {
                rd = mine;
            } else {  // several readers, none ordered after the others
                const int my_warp = e.t.warp;
                const int their_warp = rd.thread >= 0 ? rd.thread / kWarpSize : rd.warp;
                const u32 their_lanes = rd.thread >= 0 ? u32(1) << (rd.thread % kWarpSize) : rd.lanes;
                rd.warp = std::int16_t(their_warp == my_warp ? my_warp : -1);
                rd.lanes = their_warp == my_warp ? their_lanes | (u32(1) << e.t.lane) : 0;
                rd.thread = -2;
                rd.gen = gen_;
                rd.interval = std::max(rd.interval, mine.interval);
                rd.wc = std::max(rd.wc, mine.wc);
                rd.strong = rd.strong && e.strong;
            }
        }
        if (uniform)
            for (size_t b = (size_t)e.offset + 1; b < size_t(e.offset + e.size); ++b) {
                w_[b] = w_[(size_t)e.offset];
                r_[b] = r_[(size_t)e.offset];
                written_[b] = written_[(size_t)e.offset];
            }
    }

    void report_uninitialized(BlockRunner& r, const AccessEvent& e) {
        const int elem = std::max(1, bytes_of(e.in.type));
        const std::string name = r.shared_var_name(e.var, e.offset);
        engine::Diagnostic d;
        d.kind = DiagKind::uninitialized_shared_read;
        r.locate(d, e.t, &e.in);
        d.space = engine::Space::shared;
        d.array = name;
        d.offset = e.inner;
        d.elem_size = elem;
        d.op_a = e.op;
        d.message = fmt::format("{} loads shared {}[{}] at {}, which no thread of the block stored: its value is "
                                "undefined",
                                r.thread_text(e.t), name, e.inner / elem, r.where(&e.in));
        r.add_diag(std::move(d));
    }

    std::string site_text(BlockRunner& r, int site) const {
        if (site < 0 || site >= (int)L_.m.sites.size()) return "?";
        const MemSite& s = L_.m.sites[(size_t)site];
        return r.where(&L_.m.functions[(size_t)s.function].code[(size_t)s.instr]);
    }

    // The other access's statement (a race's thread_b), from its site.
    void locate_other(engine::Diagnostic& d, int site) const {
        if (site < 0 || site >= (int)L_.m.sites.size()) return;
        const MemSite& s = L_.m.sites[(size_t)site];
        const Instr& in = L_.m.functions[(size_t)s.function].code[(size_t)s.instr];
        const SourceLoc& l = L_.m.locs[(size_t)in.loc];
        if (l.file >= 0 && l.file < (int)L_.m.files.size()) d.file_b = L_.m.files[(size_t)l.file];
        d.line_b = l.line > 0 ? l.line : -1;
        if (s.function < (int)L_.m.opcode_text.size() && s.instr < (int)L_.m.opcode_text[(size_t)s.function].size())
            d.instruction_b = L_.m.opcode_text[(size_t)s.function][(size_t)s.instr];
    }

    void report_shared_race(BlockRunner& r, const AccessEvent& e, const Rec& other, engine::Op other_op) {
        if (!r.wants(DiagKind::race)) return;
        const int elem = std::max(1, bytes_of(e.in.type));
        const std::string name = r.shared_var_name(e.var, e.offset);
        // several readers: one of them other than this thread, when they are of one warp
        const u32 others = other.lanes & ~(other.warp == e.t.warp ? u32(1) << e.t.lane : 0u);
        const int other_thread =
            other.thread >= 0 ? other.thread : other.warp >= 0 && others ? other.warp * kWarpSize + std::countr_zero(others) : -1;
        engine::Diagnostic d;
        d.kind = DiagKind::race;
        r.locate(d, e.t, &e.in);
        d.op_a = e.op;
        d.op_b = other_op;
        d.block_b = r.block_idx();
        d.space = engine::Space::shared;
        d.array = name;
        d.offset = e.inner;
        d.elem_size = elem;
        std::string who = "other threads";
        if (other_thread >= 0) {
            d.thread_b = other_thread;
            d.thread_b_idx = r.threads()[(size_t)other_thread].idx;
            who = "thread " + idx_text(d.thread_b_idx);
        }
        d.site_b = site_text(r, other.site);
        locate_other(d, other.site);
        d.message = fmt::format("race on shared {}[{}]: thread {} {} it at {} and {} {} it at {} in the same barrier "
                                "interval ({}) of block {}, with nothing ordering the two (no __syncthreads() "
                                "between them, no __syncwarp() of both lanes, no fence and flag)",
                                name, e.inner / elem, idx_text(e.t.idx), op_word(e.op), r.where(&e.in), who,
                                op_word(other_op), d.site_b, e.t.interval, idx_text(r.block_idx()));
        r.add_diag(std::move(d));
    }

    // Is the recorded global access (who, clock) ordered before the current access of thread t?
    bool ordered_global(BlockRunner& r, u64 who, u64 clock, const Thread& t, const Clock& c) const {
        const u64 b1 = sh_block(who);
        if (b1 == kManyBlocks) return false;
        const u32 blk = u32(b1 - 1);
        const u64 th = sh_thread(who);
        const u32 iv = u32(sh_interval(who));
        if (blk == u32(r.block())) {
            if (th == u64(t.linear)) return true;
            if (iv < u32(t.interval)) return true;
            if (th != kManyThreads && int(th) / kWarpSize == t.warp && c.warp[(size_t)(th % kWarpSize)] > ck_wc(clock))
                return true;
        }
        if (block_bound(c, blk) > iv) return true;
        return th != kManyThreads && thread_bound(c, gid(int(blk), int(th))) > ck_epoch(clock);
    }

    void global_access(BlockRunner& r, const AccessEvent& e, const Clock& c) {
        GlobalShadow* shadow = e.buffer_index == kModuleGlobalsIndex ? s_.module_shadow.get()
                               : e.buffer_index >= 0 && e.buffer_index < (int)s_.shadows.size()
                                   ? s_.shadows[(size_t)e.buffer_index].get()
                                   : nullptr;
        if (!shadow) return;  // (the read-only input; the device heap is not shadowed)
        GlobalShadow& sh = *shadow;
        const u64 mine = pack(u64(r.block()) + 1, u64(e.t.linear), u64(e.t.interval), u64(e.in.site));
        const u64 my_clock = pack_clock(c.epoch, c.warp[(size_t)e.t.lane], e.strong);
        auto conflicts = [&](u64 who, u64 clock) {
            return who && !(ck_strong(clock) && e.strong) && !ordered_global(r, who, clock, e.t, c);
        };
        for (long long w = e.offset >> sh.shift; w <= (e.offset + e.size - 1) >> sh.shift; ++w) {
            auto& W = sh.writes[(size_t)w];
            auto& WC = sh.write_clocks[(size_t)w];
            auto& R = sh.reads[(size_t)w];
            auto& RC = sh.read_clocks[(size_t)w];
            u64 other = 0;
            engine::Op other_op = engine::Op::load;
            if (e.op != engine::Op::load) {
                const u64 old = W.exchange(mine);
                const u64 old_clock = WC.exchange(my_clock);
                if (conflicts(old, old_clock)) {
                    other = old, other_op = engine::Op::store;
                } else if (const u64 rd = R.load(), rdc = RC.load(); conflicts(rd, rdc)) {
                    other = rd;
                }
            }
            // (an atomic's read is coherence-ordered with the writes to its location: it is
            // recorded as the write it also is, not among the readers)
            if (e.op == engine::Op::load) {
                u64 rd = R.load();
                for (;;) {
                    const u64 rdc = RC.load();
                    u64 next;
                    if (!rd || ordered_global(r, rd, rdc, e.t, c)) next = mine;
                    else if (sh_block(rd) == u64(r.block()) + 1)
                        next = pack(sh_block(mine), kManyThreads, std::max(sh_interval(rd), sh_interval(mine)), sh_site(rd));
                    else next = pack(kManyBlocks, kManyThreads, 0, sh_site(rd));
                    if (next == rd || R.compare_exchange_weak(rd, next)) {
                        RC.store(next == mine ? my_clock : pack_clock(0, std::max(ck_wc(rdc), ck_wc(my_clock)),
                                                                      ck_strong(rdc) && e.strong));
                        break;
                    }
                }
                if (!other) {
                    const u64 wr = W.load(), wrc = WC.load();
                    if (e.op == engine::Op::load && conflicts(wr, wrc)) other = wr, other_op = engine::Op::store;
                }
            }
            if (!other) continue;
            if (r.wants(DiagKind::race)) report_global_race(r, e, other, other_op);
            break;
        }
    }

    void report_global_race(BlockRunner& r, const AccessEvent& e, u64 conflict, engine::Op other_op) {
        const int elem = std::max(1, bytes_of(e.in.type));
        engine::Diagnostic d;
        d.kind = DiagKind::race;
        r.locate(d, e.t, &e.in);
        d.op_a = e.op;
        d.op_b = other_op;
        d.space = engine::Space::global;
        d.array = e.buffer->name;
        d.offset = e.offset;
        d.elem_size = elem;
        if (e.buffer_index == kModuleGlobalsIndex)  // a __device__ variable, by its name
            for (const Variable& v : L_.m.variables)
                if (v.space == Sp::global && v.offset <= e.offset && e.offset < v.offset + v.bytes) {
                    d.array = v.display;
                    d.offset = e.offset - v.offset;
                }
        const BufferSlot b{nullptr, 0, 0, d.array, false, false};
        const long long offset_in_array = d.offset;
        const bool other_block_known = sh_block(conflict) != kManyBlocks;
        const int ob = other_block_known ? int(sh_block(conflict)) - 1 : -1;
        engine::Idx3 obi = r.block_idx();
        if (ob >= 0) {
            const auto& g = L_.launch.grid;
            obi = {ob % g.x, (ob / g.x) % g.y, ob / (g.x * g.y)};
        }
        d.block_b = obi;
        const bool same_block = ob == r.block();
        const u64 oth = sh_thread(conflict);
        const auto& bd = L_.launch.block;
        if (oth != kManyThreads) {
            d.thread_b = int(oth);
            d.thread_b_idx = {int(oth) % bd.x, (int(oth) / bd.x) % bd.y, int(oth) / (bd.x * bd.y)};
        }
        d.site_b = sh_site(conflict) < 0x7ff ? site_text(r, int(sh_site(conflict))) : "?";
        if (sh_site(conflict) < 0x7ff) locate_other(d, int(sh_site(conflict)));
        const std::string who = oth == kManyThreads ? "other threads" : "thread " + idx_text(d.thread_b_idx);
        if (same_block)
            d.message = fmt::format("race on global {}[{}]: thread {} {} it at {} and {} {} it at {} in the same barrier "
                                    "interval ({}) of block {}",
                                    b.name, offset_in_array / elem, idx_text(e.t.idx), op_word(e.op), r.where(&e.in), who,
                                    op_word(other_op), d.site_b, e.t.interval, idx_text(r.block_idx()));
        else
            d.message = fmt::format("race on global {}[{}] between blocks: thread {} of block {} {} it at {}, and {} of {} "
                                    "{} it at {}: blocks run in no fixed order, and no fence and flag orders the two",
                                    b.name, offset_in_array / elem, idx_text(e.t.idx), idx_text(r.block_idx()), op_word(e.op),
                                    r.where(&e.in), who, ob >= 0 ? "block " + idx_text(obi) : "other blocks",
                                    op_word(other_op), d.site_b);
        r.add_diag(std::move(d));
    }
};

class Checks final : public LaunchObservers {
public:
    explicit Checks(LaunchState& L) : L_(L) {
        s_.stride = std::max(1, L.launch.check_block_stride);
        if (s_.stride > 1) return;  // a sample of blocks: no shadow of global memory
        s_.shadows.resize(L.buffers.size());
        for (size_t i = 0; i < L.buffers.size(); ++i)
            if (!L.buffers[i].read_only && L.buffers[i].bytes > 0)
                s_.shadows[i] = std::make_unique<GlobalShadow>(L.buffers[i].bytes, 2);
        if (L.module_globals.bytes > 0) s_.module_shadow = std::make_unique<GlobalShadow>(L.module_globals.bytes, 0);
    }
    std::vector<std::unique_ptr<BlockObserver>> for_worker() override {
        std::vector<std::unique_ptr<BlockObserver>> v;
        v.push_back(std::make_unique<Detector>(L_, s_));
        return v;
    }

private:
    LaunchState& L_;
    Shared s_;
};

}  // namespace

std::unique_ptr<LaunchObservers> make_race_detector(LaunchState& L) { return std::make_unique<Checks>(L); }

}  // namespace ptx::detail
