// The recording mode (provenance.h): an observer of the interpreter on each worker.
#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>

#include "backends/cpu/ptx/block.h"
#include "backends/cpu/ptx/provenance.h"
#include "backends/cpu/ptx/provenance_recorder.h"

namespace ptx::detail {

namespace {

class Recorder final : public BlockObserver {
public:
    Recorder(LaunchState& L, Recording& rec, std::mutex& stores) : L_(L), rec_(rec), stores_mutex_(stores) {}

    void block_start(BlockRunner& r) override {
        tracing_ = rec_.trace_block && r.block_idx() == rec_.block;
        if (!tracing_) return;
        rec_.traced = true;
        rec_.threads.assign((size_t)L_.nthreads, {});
        for (const Thread& t : r.threads()) rec_.threads[(size_t)t.linear].idx = t.idx;
        order_ = 0;
    }

    bool wants_steps(BlockRunner&) override { return tracing_; }

    void step(BlockRunner&, Thread* const* lanes, u32 mask, u32 active, int fn, int pc) override {
        for (u32 m = mask; m; m &= m - 1) {
            const int l = std::countr_zero(m);
            rec_.threads[(size_t)lanes[l]->linear].steps.push_back({fn, pc, ((active >> l) & 1) != 0});
        }
    }

    void access(BlockRunner& r, const AccessEvent& e) override {
        if (e.op != engine::Op::load && e.space == engine::Space::global) note_store(r, e);
        if (!tracing_) return;
        ThreadRecord& tr = rec_.threads[(size_t)e.t.linear];
        AccessRecord a;
        a.step = std::max(0, (int)tr.steps.size() - 1);
        a.order = order_++;
        a.interval = e.t.interval;
        a.space = e.space;
        a.op = e.op;
        a.where = e.space == engine::Space::global ? e.buffer_index : e.var;
        a.offset = e.offset;
        a.inner = e.inner;
        a.bytes = e.size;
        if (e.op != engine::Op::store) {  // (the observer runs before the access: a load's bytes are there)
            const unsigned char* p = e.space == engine::Space::shared ? r.shared_memory() + e.offset
                                     : e.buffer                     ? e.buffer->data + e.offset
                                                                    : nullptr;
            if (p) std::memcpy(&a.loaded, p, (size_t)std::min(e.size, 8));
        }
        tr.accesses.push_back(a);
    }

private:
    LaunchState& L_;
    Recording& rec_;
    std::mutex& stores_mutex_;  // the watched cells and store sites, shared by the workers
    bool tracing_ = false;
    long long order_ = 0;

    void note_store(BlockRunner& r, const AccessEvent& e) {
        if (e.buffer_index < 0 || e.buffer_index >= (int)L_.buffers.size()) return;
        std::lock_guard lock(stores_mutex_);
        auto& sites = rec_.store_sites[(size_t)e.buffer_index];
        if (std::find(sites.begin(), sites.end(), e.in.site) == sites.end()) sites.push_back(e.in.site);
        for (size_t c = 0; c < rec_.cells.size(); ++c) {
            const WatchedCell& w = rec_.cells[c];
            if (w.buffer != e.buffer_index || e.offset >= w.offset + w.bytes || e.offset + e.size <= w.offset) continue;
            CellStore& s = rec_.stores[c];
            s.site = e.in.site;
            s.block = r.block_idx();
            s.thread = e.t.idx;
            ++s.stores;
        }
    }
};

class Observers final : public LaunchObservers {
public:
    Observers(LaunchState& L, std::unique_ptr<LaunchObservers> checks) : L_(L), checks_(std::move(checks)) {
        Recording& rec = *L.launch.recording;
        rec.stores.assign(rec.cells.size(), {});
        rec.store_sites.assign(L.buffers.size(), {});
        rec.threads.clear();
        rec.traced = false;
    }
    std::vector<std::unique_ptr<BlockObserver>> for_worker() override {
        std::vector<std::unique_ptr<BlockObserver>> v;
        if (checks_) v = checks_->for_worker();
        v.push_back(std::make_unique<Recorder>(L_, *L_.launch.recording, stores_mutex_));
        return v;
    }

private:
    LaunchState& L_;
    std::unique_ptr<LaunchObservers> checks_;
    std::mutex stores_mutex_;
};

}  // namespace

std::unique_ptr<LaunchObservers> make_recorder(LaunchState& L, std::unique_ptr<LaunchObservers> checks) {
    return std::make_unique<Observers>(L, std::move(checks));
}

}  // namespace ptx::detail
