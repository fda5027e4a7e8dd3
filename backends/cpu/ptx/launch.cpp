// run(): one grid, in steps. The entry and the limits a GPU holds the launch to (a launch it would
// refuse never starts); the launch's memory (buffers, the __device__ variables and heap of its
// DeviceState, __constant__ memory, parameters); the checks (observers); the block order; the
// workers, each running blocks one after another (a block: its threads and warps set up, its
// shared memory filled as the exploration says, its warps run round after round until every
// thread has exited, the barriers and warp collectives resolved between rounds); and the merged
// report with each site's source line.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <thread>

#include <fmt/format.h>

#include "backends/cpu/ptx/block.h"
#include "backends/cpu/ptx/device_state.h"
#include "backends/cpu/ptx/provenance_recorder.h"
#include "backends/cpu/ptx/race_detector.h"

namespace ptx {

namespace detail {

BlockRunner::BlockRunner(LaunchState& L, int worker) : L_(L), worker_(worker) {
    if (L.observers) {
        observers_ = L.observers->for_worker();  // (observing_: per block, run_block asks them)
    }
}
BlockRunner::~BlockRunner() = default;

void BlockRunner::start_thread(Thread& t, int linear) {
    const auto& b = L_.launch.block;
    t.linear = linear;
    t.lane = linear % kWarpSize;
    t.warp = linear / kWarpSize;
    t.idx = {linear % b.x, (linear / b.x) % b.y, linear / (b.x * b.y)};
    t.state = State::ready;
    t.frames.clear();
    const Function& f = *L_.entry;
    t.reg_top = f.slots;
    t.local.assign((size_t)f.local_bytes, 0xFF);
    t.local_top = f.local_bytes;
    t.params.resize(L_.entry_params.size());  // (entry_params holds at least param_bytes)
    std::memcpy(t.params.data(), L_.entry_params.data(), L_.entry_params.size());
    t.param_top = f.param_bytes;
    t.frames.push_back({L_.entry_index, 0, 0, 0, 0, -1, 0});
    t.stack_bytes = L_.frame_bytes.empty() ? 0 : std::max(0LL, L_.frame_bytes[(size_t)L_.entry_index]);
    t.wait = nullptr;
    t.interval = 0;
    t.executed = 0;
    t.clock_offset = 0;
    if (L_.launch.explore.clock_jitter) {
        u64 h = (L_.launch.explore.seed + 0x9E3779B97F4A7C15ull) ^ (u64(block_) << 32) ^ u64(linear);
        h = (h ^ (h >> 31)) * 0xbf58476d1ce4e5b9ull;
        t.clock_offset = (h ^ (h >> 29)) >> 20;
    }
    t.seq = 0;
    t.carry = 0;
    if (record_block_) t.occurrence.assign(L_.m.sites.size(), {-1, 0});
}

// Shared memory's first bytes: 0xFF (NaN as float or double), or random bytes from the seed.
void BlockRunner::start_block_memory() {
    const auto& ex = L_.launch.explore;
    if (ex.shared_init == Explore::SharedInit::random) {
        shared_.resize((size_t)L_.shared_total);
        std::mt19937_64 r(ex.seed ^ (u64(block_) * 0xD1B54A32D192ED03ull));
        for (size_t i = 0; i < shared_.size(); i += 8) {
            const u64 v = r();
            std::memcpy(shared_.data() + i, &v, std::min<size_t>(8, shared_.size() - i));
        }
    } else {
        shared_.assign((size_t)L_.shared_total, 0xFF);
    }
}

// The block's threads at their entries, and its warps over them (their lanes and masks).
int BlockRunner::start_threads_and_warps(int n) {
    threads_.resize((size_t)n);
    for (int i = 0; i < n; ++i) start_thread(threads_[(size_t)i], i);
    const int nwarps = (n + kWarpSize - 1) / kWarpSize;
    warps_.resize((size_t)nwarps);
    lane_ptrs_.assign((size_t)nwarps * kWarpSize, nullptr);
    for (int w = 0; w < nwarps; ++w) {
        Warp& wp = warps_[(size_t)w];
        wp.first = w * kWarpSize;
        wp.lanes = std::min(kWarpSize, n - wp.first);
        wp.all = wp.lanes == kWarpSize ? kAllLanes : (u32(1) << wp.lanes) - 1;
        // (registers keep what the warp's last block left: NVRTC's code writes a register before it
        // reads it, and clearing every row for every block would be much of a small block's time)
        wp.reserve_rows(std::max(1, L_.entry->slots));
        wp.last_key = 0;
        wp.streak = 0;
        wp.poll_at = wp.poll_read = 0;
        for (int l = 0; l < wp.lanes; ++l) lane_ptrs_[(size_t)(wp.first + l)] = &threads_[(size_t)(wp.first + l)];
    }
    return nwarps;
}

// The warps take turns in the schedule's order until every thread has exited or the block is
// abandoned; a round whose every warp only yielded at an unchanged poll makes the next run full
// quanta.
void BlockRunner::schedule_warps(int linear_block, int nwarps) {
    std::vector<int> order((size_t)nwarps);
    std::iota(order.begin(), order.end(), 0);
    const engine::Schedule sched = L_.opt.schedule;
    if (sched == engine::Schedule::reversed) std::reverse(order.begin(), order.end());
    for (int l = 0; l < kWarpSize; ++l)
        lane_order_[(size_t)l] = std::uint8_t(sched == engine::Schedule::reversed ? kWarpSize - 1 - l : l);
    // (seeding the generator is 312 steps a block: only a random schedule draws from it)
    if (sched == engine::Schedule::random) rng_.seed(L_.opt.seed * 0x9E3779B97F4A7C15ull + (u64)linear_block);
    for (;;) {
        if (sched == engine::Schedule::random) {
            std::shuffle(order.begin(), order.end(), rng_);
            std::shuffle(lane_order_.begin(), lane_order_.end(), rng_);
        }
        bool progress = false;  // a warp ran its turn without yielding at an unchanged poll
        for (int w : order) {
            long long quantum = kQuantum;
            poll_yielded_ = false;
            run_warp(warps_[(size_t)w], quantum);
            progress = progress || (quantum < kQuantum && !poll_yielded_);
            if (abort_) break;
        }
        polls_yield_ = progress;
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
    }
}

void BlockRunner::run_block(int linear_block) {
    const auto& g = L_.launch.grid;
    block_ = linear_block;
    block_idx_ = {linear_block % g.x, (linear_block / g.x) % g.y, linear_block / (g.x * g.y)};
    const auto totals_before = report.totals;
    abort_ = false;
    block_instructions_ = 0;
    drawn_ = 0;
    next_poll_ = 0;
    block_start_ = std::chrono::steady_clock::now();
    block_counts_ = {};
    record_block_ = L_.recording && (L_.opt.trace.records == engine::TraceMode::all ||
                                     (L_.opt.trace.records == engine::TraceMode::block && L_.opt.trace.block == block_idx_));
    const int n = L_.nthreads;
    const int nwarps = start_threads_and_warps(n);
    start_block_memory();
    stepping_ = false;
    observing_ = false;
    polls_yield_ = true;
    for (auto& o : observers_) {
        o->block_start(*this);
        stepping_ = o->wants_steps(*this) || stepping_;
        observing_ = o->wants_accesses(*this) || observing_;
    }

    schedule_warps(linear_block, nwarps);
    L_.instructions_drawn += block_instructions_ - drawn_;
    for (auto& t : threads_) report.instructions += t.executed;
    report.threads_run += n;
    ++report.blocks_run;
    log.push_back({linear_block, {}});
    for (int k = 0; k < engine::kDiagKinds; ++k) log.back().second[(size_t)k] = report.totals[(size_t)k] - totals_before[(size_t)k];
    if (L_.counting) {
        report.counts += block_counts_;
        if (L_.opt.trace.per_block_counts) report.block_counts[(size_t)linear_block] = block_counts_;
    }
}

namespace {

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
        if (r.cancelled()) return;
    }
}

// The launch's kernel, and the geometry every GPU accepts; an Error otherwise.
int find_entry(const Module& m, const Launch& launch) {
    auto it = m.function_index.find(launch.entry);
    if (it == m.function_index.end() || !m.functions[(size_t)it->second].is_entry || !m.functions[(size_t)it->second].defined)
        throw Error("the module has no kernel named " + launch.entry);
    const Function& entry = m.functions[(size_t)it->second];
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

template <class V>
auto find_named(const std::vector<std::pair<std::string, V>>& list, const std::string& name) -> const V* {
    for (const auto& [n, v] : list)
        if (n == name) return &v;
    return nullptr;
}

// Why a GPU would refuse this launch of `entry` (empty: it would not): static shared memory past
// 48 KiB, a block other than the kernel's .reqntid or past its .maxntid (__launch_bounds__), more
// registers than a block may have.
std::string launch_refusal(const Function& entry, const Launch& launch) {
    const auto& b = launch.block;
    const long long threads = (long long)b.x * b.y * b.z;
    const std::string name = demangled_variable_name(entry.name);
    if (entry.static_shared_bytes > 48 * 1024)
        return fmt::format("the kernel {} declares {} bytes of static shared memory: a block may have at most 49152 "
                           "(48 KiB)", name, entry.static_shared_bytes);
    if (entry.reqntid > 0 && threads != entry.reqntid)
        return fmt::format("the kernel {} requires blocks of exactly {} threads (.reqntid), and the launch's block "
                           "{}x{}x{} has {}: the GPU refuses the launch",
                           name, entry.reqntid, b.x, b.y, b.z, threads);
    if (entry.maxntid > 0 && threads > entry.maxntid)
        return fmt::format("the kernel {} is compiled for at most {} threads per block (__launch_bounds__, "
                           ".maxntid), and the launch's block {}x{}x{} has {}: the GPU refuses the launch",
                           name, entry.maxntid, b.x, b.y, b.z, threads);
    if (const int* regs = find_named(launch.limits.registers, entry.name); regs && *regs > 0) {
        const int granule = std::max(1, launch.limits.register_granule);
        const long long per_warp = ((long long)*regs * kWarpSize + granule - 1) / granule * granule;
        const long long warps = (threads + kWarpSize - 1) / kWarpSize;
        if (warps * per_warp > launch.limits.register_file)
            return fmt::format("the kernel {} uses {} registers per thread (ptxas for sm_90); a block of {} threads "
                               "is {} warps of {} registers each ({} in all), more than the {} registers a block may "
                               "use: the GPU refuses the launch (too many resources requested for launch)",
                               name, *regs, threads, warps, per_warp, warps * per_warp, launch.limits.register_file);
    }
    return {};
}

// Functions reachable from `entry` through a cycle of calls (recursion): then the GPU's stack is
// the driver's fixed per-thread limit, not what ptxas computed for the call tree.
bool recursion_reachable(const Module& m, int entry) {
    const int n = (int)m.functions.size();
    std::vector<int> state((size_t)n, 0);  // 0 new, 1 on the path, 2 done
    bool cycle = false;
    auto dfs = [&](auto&& self, int f) -> void {
        state[(size_t)f] = 1;
        for (int c : m.functions[(size_t)f].callees) {
            if (state[(size_t)c] == 1) cycle = true;
            else if (state[(size_t)c] == 0) self(self, c);
        }
        for (const Instr& in : m.functions[(size_t)f].code)
            if (in.op == Op::call && in.callee == kCalleeIndirect) cycle = true;  // unknown targets
        state[(size_t)f] = 2;
    };
    dfs(dfs, entry);
    return cycle;
}

// Whether `entry` or a function it may call (an indirect call may reach any) calls malloc or
// free: then every global access of the launch takes the device heap's lock.
bool heap_reachable(const Module& m, int entry) {
    std::vector<char> seen(m.functions.size(), 0);
    std::vector<int> stack{entry};
    while (!stack.empty()) {
        const int f = stack.back();
        stack.pop_back();
        if (seen[(size_t)f]) continue;
        seen[(size_t)f] = 1;
        for (const Instr& in : m.functions[(size_t)f].code)
            if (in.op == Op::call &&
                (in.callee == kCalleeMalloc || in.callee == kCalleeFree || in.callee == kCalleeIndirect))
                return true;
        for (int c : m.functions[(size_t)f].callees) stack.push_back(c);
    }
    return false;
}

// The launch's shared state before any block runs: the entry, shared memory's size and named
// variables, what is checked, counted and recorded, the stack's frames and the deadline.
void prepare_launch(LaunchState& L, int entry_index) {
    const Module& m = L.m;
    const Launch& launch = L.launch;
    const engine::ExecOptions& opt = L.opt;
    const Function& entry = m.functions[(size_t)entry_index];
    L.entry = &entry;
    L.entry_index = entry_index;
    L.uses_heap = heap_reachable(m, entry_index);
    L.nthreads = (int)((long long)launch.block.x * launch.block.y * launch.block.z);
    L.shared_total = entry.static_shared_bytes > 0 || launch.dynamic_shared_bytes > 0
                         ? (launch.dynamic_shared_bytes > 0 ? entry.dynamic_shared_offset + (long long)launch.dynamic_shared_bytes
                                                            : entry.static_shared_bytes)
                         : 0;
    L.recording = opt.trace.records != engine::TraceMode::off;
    L.counting = opt.trace.count || opt.trace.per_block_counts;
    L.deadline = opt.deadline_seconds < 0 ? (opt.check_shared ? engine::kDefaultCheckedDeadline : 0) : opt.deadline_seconds;
    L.instruction_pool = launch.block_instruction_budget *
                         ((long long)launch.grid.x * launch.grid.y * launch.grid.z);
    for (int v : entry.entry_shared_vars) {
        const Variable& var = m.variables[(size_t)v];
        if (var.offset + var.bytes <= L.shared_total) L.shared_vars.push_back({var.offset, v});
    }
    if (!launch.limits.frame_bytes.empty() && recursion_reachable(m, entry_index)) {
        L.frame_bytes.assign(m.functions.size(), 0);
        for (size_t f = 0; f < m.functions.size(); ++f)
            if (const long long* b = find_named(launch.limits.frame_bytes, m.functions[f].name)) L.frame_bytes[f] = *b;
    }
}

// The launch's memory: its buffers, the DeviceState (its own when the launch has none), __constant__
// memory with the launch's values, and the entry's parameters.
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
        L.buffers.push_back(std::move(s));
    }
    if (!launch.state) L.own_device = std::make_unique<DeviceState>(m);
    L.device = launch.state ? &launch.state->impl() : &L.own_device->impl();
    L.module_globals.data = L.device->globals.data();
    L.module_globals.bytes = L.device->globals.size();
    L.module_globals.id = -1;
    L.module_globals.name = "__device__ variables";
    L.const_mem = m.const_image;
    for (const auto& c : launch.constants) {
        auto vi = m.variable_index.find(c.symbol);
        if (vi == m.variable_index.end() || m.variables[(size_t)vi->second].space != Sp::constant)
            throw Error("the module has no __constant__ variable named " + c.symbol);
        const Variable& v = m.variables[(size_t)vi->second];
        if ((long long)c.bytes.size() > v.bytes)
            throw Error(fmt::format("{} bytes for the __constant__ {}, which has {}", c.bytes.size(), c.symbol, v.bytes));
        std::memcpy(L.const_mem.data() + v.offset, c.bytes.data(), c.bytes.size());
    }
    const Function& entry = *L.entry;
    if (!entry.params.empty()) L.entry_formal_bytes = entry.param_offsets.back() + entry.params.back().bytes;
    L.entry_params.assign((size_t)std::max(entry.param_bytes, 1), 0);
    for (size_t k = 0; k < entry.params.size(); ++k)
        std::memcpy(L.entry_params.data() + entry.param_offsets[k], &launch.params[k], (size_t)entry.params[k].bytes);
}

// The order the blocks are handed out in: in order, reversed, or shuffled by the seed.
std::vector<int> block_order(const engine::ExecOptions& opt, long long nblocks) {
    std::vector<int> order((size_t)nblocks);
    std::iota(order.begin(), order.end(), 0);
    if (opt.block_order == engine::BlockOrder::reversed) std::reverse(order.begin(), order.end());
    if (opt.block_order == engine::BlockOrder::random) {
        std::mt19937_64 r(opt.seed ^ 0xB10C5EEDull);
        std::shuffle(order.begin(), order.end(), r);
    }
    return order;
}

// The blocks spread over worker OS threads (one when tracing: the trace in program order, block
// by block; one when the kernel may use the device heap: each of its malloc, free and heap
// accesses takes the heap's lock, and two workers spent more time waiting on it in the kernel
// than the second one gave); each worker's runner keeps its own report.
std::vector<std::unique_ptr<BlockRunner>> run_blocks(LaunchState& L, const std::vector<int>& order) {
    const engine::ExecOptions& opt = L.opt;
    const long long nblocks = (long long)order.size();
    int workers = opt.workers > 0 ? opt.workers : (int)std::max(1u, std::thread::hardware_concurrency());
    workers = (int)std::min<long long>(workers, nblocks);
    if (opt.trace.records != engine::TraceMode::off || L.uses_heap) workers = 1;
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
void merge_reports(engine::ExecReport& rep, const std::vector<std::unique_ptr<BlockRunner>>& runners,
                   const std::vector<int>& order, const LaunchState& L) {
    const engine::ExecOptions& opt = L.opt;
    const auto& g = L.launch.grid;
    const size_t nblocks = order.size();
    rep.workers = (int)runners.size();
    if (opt.trace.per_block_counts) rep.block_counts.resize(nblocks);
    std::vector<size_t> pos_of(nblocks);
    for (size_t k = 0; k < order.size(); ++k) pos_of[(size_t)order[k]] = k;
    size_t cutoff = order.size();
    for (auto& r : runners)
        for (const auto& [blk, totals] : r->log)
            for (int k = 0; k < engine::kDiagKinds; ++k)
                if (opt.stop_on_error && totals[(size_t)k] && engine::is_fatal((DiagKind)k))
                    cutoff = std::min(cutoff, pos_of[(size_t)blk]);
    auto linear = [&](const engine::Idx3& i) { return ((long long)i.z * g.y + i.y) * g.x + i.x; };
    std::vector<engine::Diagnostic> all;
    for (auto& r : runners) {
        const auto& x = r->report;
        rep.ok = rep.ok && x.ok;
        for (const auto& [blk, totals] : r->log) {
            if (pos_of[(size_t)blk] > cutoff) continue;
            for (int k = 0; k < engine::kDiagKinds; ++k) rep.totals[(size_t)k] += totals[(size_t)k];
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
        rep.clock_reads += x.clock_reads;
        rep.approximate_results += x.approximate_results;
        rep.mallocs_refused += x.mallocs_refused;
    }
    // diagnostics in block order, at most max_diagnostics of each kind
    std::stable_sort(all.begin(), all.end(), [&](const auto& a, const auto& c) { return linear(a.block) < linear(c.block); });
    std::array<int, engine::kDiagKinds> kept{};
    for (auto& d : all)
        if (kept[(size_t)d.kind]++ < opt.max_diagnostics) rep.diagnostics.push_back(std::move(d));
    if (rep.cancelled) rep.ok = false;
    for (int k = 0; k < engine::kDiagKinds; ++k)
        if (rep.totals[(size_t)k] && engine::is_fatal((DiagKind)k)) rep.ok = false;
}

// Each memory site's code address and source position (file, line, PTX instruction).
void describe_sites(engine::ExecReport& rep, const Module& m) {
    rep.sites.resize(m.sites.size());
    rep.site_source.resize(m.sites.size());
    for (size_t s = 0; s < m.sites.size(); ++s) {
        const MemSite& ms = m.sites[s];
        const Instr& in = m.functions[(size_t)ms.function].code[(size_t)ms.instr];
        rep.sites[s] = (std::uintptr_t)ms.instr;
        const SourceLoc& l = m.locs[(size_t)in.loc];
        if (l.file >= 0 && l.file < (int)m.files.size()) rep.site_source[s].file = m.files[(size_t)l.file];
        rep.site_source[s].line = l.line;
        if (ms.function < (int)m.opcode_text.size() && ms.instr < (int)m.opcode_text[(size_t)ms.function].size())
            rep.site_source[s].instruction = m.opcode_text[(size_t)ms.function][(size_t)ms.instr];
    }
}

}  // namespace
}  // namespace detail

engine::ExecReport run(const Module& m, const Launch& launch, const engine::ExecOptions& opt) {
    using namespace detail;
    const auto t0 = std::chrono::steady_clock::now();
    const int entry_index = find_entry(m, launch);
    const Function& entry = m.functions[(size_t)entry_index];
    engine::ExecReport rep;
    rep.grid = launch.grid;
    rep.block = launch.block;
    rep.schedule = opt.schedule;
    rep.seed = opt.seed;
    if (const std::string why = launch_refusal(entry, launch); !why.empty()) {
        engine::Diagnostic d;
        d.kind = DiagKind::kernel_exception;
        d.message = why;
        rep.ok = false;
        rep.totals[(int)d.kind] = 1;
        rep.diagnostics.push_back(d);
        return rep;
    }
    LaunchState L(m, launch, opt);
    prepare_launch(L, entry_index);
    L.start = t0;
    load_memory(L);
    if (opt.check_shared) L.observers = make_race_detector(L);
    if (launch.recording) L.observers = make_recorder(L, std::move(L.observers));
    const auto& g = launch.grid;
    const std::vector<int> order = block_order(opt, (long long)g.x * g.y * g.z);
    const auto runners = run_blocks(L, order);
    merge_reports(rep, runners, order, L);
    describe_sites(rep, m);
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return rep;
}

}  // namespace ptx
