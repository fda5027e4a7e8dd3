// Reports and trace helpers: counts, per-block counts, warp-level requests (sectors, lines, banks).
#include "core/engine_trace.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace engine {

const char* to_string(Space s) { return s == Space::global ? "global" : "shared"; }
const char* to_string(Op o) { return o == Op::load ? "load" : o == Op::store ? "store" : "atomic"; }
const char* to_string(Schedule s) {
    switch (s) {
        case Schedule::in_order: return "in-order";
        case Schedule::reversed: return "reversed";
        case Schedule::random: return "random";
    }
    return "?";
}
const char* to_string(BlockOrder b) {
    switch (b) {
        case BlockOrder::in_order: return "blocks in order";
        case BlockOrder::reversed: return "blocks reversed";
        case BlockOrder::random: return "blocks random";
    }
    return "?";
}
const char* to_string(DiagKind k) {
    switch (k) {
        case DiagKind::race: return "race";
        case DiagKind::uninitialized_shared_read: return "uninitialized shared read";
        case DiagKind::divergent_barrier: return "divergent barrier";
        case DiagKind::exit_before_barrier: return "exit before barrier";
        case DiagKind::out_of_bounds: return "out of bounds";
        case DiagKind::kernel_exception: return "kernel exception";
        case DiagKind::input_write: return "input write";
        case DiagKind::timeout: return "timeout";
    }
    return "?";
}

void Counts::add(Space s, Op o, long long bytes) {
    if (s == Space::global) {
        if (o == Op::load) ++global_loads, global_load_bytes += bytes;
        else if (o == Op::store) ++global_stores, global_store_bytes += bytes;
        else ++global_atomics;
    } else {
        if (o == Op::load) ++shared_loads, shared_load_bytes += bytes;
        else if (o == Op::store) ++shared_stores, shared_store_bytes += bytes;
        else ++shared_atomics;
    }
}

Counts& Counts::operator+=(const Counts& o) {
    global_loads += o.global_loads;
    global_stores += o.global_stores;
    global_atomics += o.global_atomics;
    shared_loads += o.shared_loads;
    shared_stores += o.shared_stores;
    shared_atomics += o.shared_atomics;
    global_load_bytes += o.global_load_bytes;
    global_store_bytes += o.global_store_bytes;
    shared_load_bytes += o.shared_load_bytes;
    shared_store_bytes += o.shared_store_bytes;
    return *this;
}

const Diagnostic* ExecReport::first(DiagKind k) const {
    for (const auto& d : diagnostics)
        if (d.kind == k) return &d;
    return nullptr;
}

bool ExecReport::clean() const {
    return ok && total(DiagKind::race) == 0 && total(DiagKind::uninitialized_shared_read) == 0;
}

std::string ExecReport::summary() const {
    std::string s = cancelled ? "cancelled" : clean() ? "ok" : ok ? "completed with diagnostics" : "FAILED";
    for (int k = 0; k < kDiagKinds; ++k)
        if (totals[k] > 0)
            s += ", " + std::to_string(totals[k]) + " x " + to_string(static_cast<DiagKind>(k));
    s += "; " + std::to_string(threads_run) + " threads in " + std::to_string(blocks_run) + " blocks, " +
         std::to_string(seconds * 1e3) + " ms (" + to_string(schedule) + ")";
    if (const Diagnostic* d = diagnostics.empty() ? nullptr : &diagnostics.front()) {
        for (const auto& x : diagnostics)
            if (is_fatal(x.kind)) {
                d = &x;
                break;
            }
        s += "; first: " + d->message;
    }
    return s;
}

Idx3 ExecReport::block_coord(int b) const {
    return {b % grid.x, (b / grid.x) % grid.y, b / (grid.x * grid.y)};
}
Idx3 ExecReport::thread_coord(int t) const {
    return {t % block.x, (t / block.x) % block.y, t / (block.x * block.y)};
}

Counts count_accesses(std::span<const Access> trace) {
    Counts c;
    for (const auto& a : trace) c.add(a.space, a.op, a.size);
    return c;
}

std::vector<std::pair<int, Counts>> counts_per_block(std::span<const Access> trace) {
    std::map<int, Counts> m;
    for (const auto& a : trace) m[a.block].add(a.space, a.op, a.size);
    return {m.begin(), m.end()};
}

int WarpRequest::lane_count() const { return __builtin_popcount(active); }

namespace {
void add_lane(std::vector<LaneSet>& v, long long index, int lane) {
    for (auto& s : v)
        if (s.index == index) {
            s.lanes |= 1u << lane;
            return;
        }
    v.push_back({index, 1u << lane});
}
}  // namespace

std::vector<WarpRequest> warp_requests(std::span<const Access> trace, int block) {
    using Key = std::tuple<int, int, int, int, int, int, int, int>;
    std::map<Key, std::size_t> index;
    std::vector<WarpRequest> out;
    std::vector<std::vector<const Access*>> members;
    for (const auto& a : trace) {
        if (block >= 0 && a.block != block) continue;
        const Key k{a.block, a.warp(), a.interval, a.site, a.occurrence,
                    static_cast<int>(a.space), static_cast<int>(a.op), a.buffer};
        auto [it, fresh] = index.emplace(k, out.size());
        if (fresh) {
            WarpRequest r;
            r.block = a.block;
            r.warp = a.warp();
            r.interval = a.interval;
            r.site = a.site;
            r.occurrence = a.occurrence;
            r.space = a.space;
            r.op = a.op;
            r.buffer = a.buffer;
            r.size = a.size;
            out.push_back(std::move(r));
            members.emplace_back();
        }
        members[it->second].push_back(&a);
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        WarpRequest& r = out[i];
        // Bank conflicts, by the rule NVIDIA documents for 32 banks of 4-byte words (CUDA C++
        // Programming Guide, "Shared Memory", compute capability 5.x and later; Nsight Compute's
        // "shared memory wavefronts"): a request is served in passes ("phases") of at most 128
        // bytes, so accesses of 8 bytes go in two passes of 16 lanes (lanes 0-15, 16-31) and of 16
        // bytes in four of 8; accesses of 4 bytes or less in one pass of 32. Within a pass, lanes
        // reading the same 4-byte word share it (broadcast); distinct words in one bank are
        // served one after another. degree = max over passes and banks of those distinct words:
        // consecutive fp64 is conflict-free (each half-warp covers the 32 banks once).
        std::map<std::pair<int, int>, std::set<long long>> bank_words;  // (pass, bank) -> words
        for (const Access* a : members[i]) {
            const int lane = a->lane();
            r.active |= 1u << lane;
            const long long first = a->offset, last = a->offset + std::max<int>(a->size, 1) - 1;
            if (a->space == Space::global) {
                for (long long s = first / 32; s <= last / 32; ++s) add_lane(r.sectors, s, lane);
                for (long long l = first / 128; l <= last / 128; ++l) add_lane(r.lines, l, lane);
            } else {
                const int lanes_per_pass = a->size <= 4 ? 32 : std::max(1, 128 / a->size);
                const int pass = lane / lanes_per_pass;
                for (long long w = first / 4; w <= last / 4; ++w) bank_words[{pass, static_cast<int>(w % 32)}].insert(w);
            }
        }
        auto by_index = [](const LaneSet& a, const LaneSet& b) { return a.index < b.index; };
        std::sort(r.sectors.begin(), r.sectors.end(), by_index);
        std::sort(r.lines.begin(), r.lines.end(), by_index);
        for (const auto& [bank, words] : bank_words) r.bank_degree = std::max(r.bank_degree, (int)words.size());
    }
    // Stable: within (block, warp, interval) the order of first appearance, i.e. program order
    // of the warp's first lane.
    std::vector<std::size_t> perm(out.size());
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = i;
    std::stable_sort(perm.begin(), perm.end(), [&](std::size_t a, std::size_t b) {
        return std::tie(out[a].block, out[a].warp, out[a].interval) < std::tie(out[b].block, out[b].warp, out[b].interval);
    });
    std::vector<WarpRequest> sorted;
    sorted.reserve(out.size());
    for (auto i : perm) sorted.push_back(std::move(out[i]));
    return sorted;
}

}  // namespace engine
