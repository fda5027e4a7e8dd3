// stencil-check-runner, CPU half: the replay of one failing run (protocol.h's ReplaySpec). The run
// again on a recording launch (backends/cpu/ptx/provenance.h): who stored each watched cell; with
// `explain`, once more with the block of the first cell's writer traced (or of the thread that
// should have written it: a neighbour's writer moved by the step between the cells), and the
// backward slice of that store (backends/cpu/ptx/slice.h) in the wire's terms.
#include "checker/runner_replay.h"

#include "backends/cpu/ptx/slice.h"
#include "checker/runner_terms.h"

namespace stencil::checker::runner {

namespace {

SourceAt source_at(const ptx::SourcePoint& p) { return {p.file, p.line, p.instruction}; }

SliceLinkKind kind_of(ptx::LinkKind k) {
    switch (k) {
        case ptx::LinkKind::stored: return SliceLinkKind::stored;
        case ptx::LinkKind::condition: return SliceLinkKind::condition;
        case ptx::LinkKind::computed: return SliceLinkKind::computed;
        case ptx::LinkKind::rounded: return SliceLinkKind::rounded;
        case ptx::LinkKind::loaded_global: return SliceLinkKind::loaded_global;
        case ptx::LinkKind::loaded_shared: return SliceLinkKind::loaded_shared;
        case ptx::LinkKind::stored_by: return SliceLinkKind::stored_by;
        case ptx::LinkKind::stored_after: return SliceLinkKind::stored_after;
        case ptx::LinkKind::never_stored: return SliceLinkKind::never_stored;
        case ptx::LinkKind::skipped: return SliceLinkKind::skipped;
        case ptx::LinkKind::no_store: return SliceLinkKind::no_store;
    }
    return SliceLinkKind::stored;
}

SliceLinkOutcome wire_link(const ptx::Module& m, const ptx::SliceLink& l, const CaseSpec& cs) {
    SliceLinkOutcome o;
    o.kind = kind_of(l.kind);
    o.depth = l.depth;
    o.at = source_at(l.at);
    o.thread = to_int3(l.thread);
    o.space = l.space == engine::Space::shared ? MemorySpace::shared : MemorySpace::global;
    if (l.space == engine::Space::shared) {
        o.array = ptx::shared_name(m, l.where);
        o.offset = l.inner;
    } else {
        o.array = l.where >= 0 && l.where < (int)cs.buffers.size() ? cs.buffers[(size_t)l.where].name : "global";
        o.offset = l.offset;
    }
    o.elem_size = l.bytes;
    o.loaded = l.loaded;
    if (l.other) o.other = to_int3(*l.other);
    o.other_at = source_at(l.other_at);
    o.lines = l.lines;
    o.unordered = l.unordered;
    return o;
}

bool inside(engine::Idx3 t, const Int3& block) {
    return t.x >= 0 && t.y >= 0 && t.z >= 0 && t.x < block[0] && t.y < block[1] && t.z < block[2];
}

}  // namespace

Int3 to_int3(engine::Idx3 i) { return {int(i.x), int(i.y), int(i.z)}; }

ReplayOutcome replay_run(const ReplaySpec& spec, const CaseSpec& cs, int elem_bytes, const ptx::Module& m,
                         const std::function<void(ptx::Recording&)>& run) {
    ReplayOutcome out;
    ptx::Recording rec;
    for (const CellRef& c : spec.cells) rec.cells.push_back({c.buffer, c.element * elem_bytes, elem_bytes});
    // The block the parent names is traced at once: most often it is the writer's, and one run does.
    if (spec.explain && spec.block) {
        rec.trace_block = true;
        rec.block = {(*spec.block)[0], (*spec.block)[1], (*spec.block)[2]};
    }
    run(rec);
    for (const ptx::CellStore& s : rec.stores) {
        CellWriter w;
        w.stored = s.site >= 0;
        if (w.stored) w.at = source_at(ptx::site_point(m, s.site));
        w.block = to_int3(s.block);
        w.thread = to_int3(s.thread);
        w.stores = s.stores;
        out.writers.push_back(w);
    }
    if (spec.cells.empty()) return out;
    const int buffer = spec.cells[0].buffer;
    // (no store into the buffer ran at all: the kernel's stores to global memory, as written)
    std::vector<int> sites = buffer >= 0 && buffer < (int)rec.store_sites.size() ? rec.store_sites[(size_t)buffer]
                                                                                 : std::vector<int>{};
    if (sites.empty()) sites = ptx::global_store_sites(m);
    for (int site : sites) out.buffer_stores.push_back(source_at(ptx::site_point(m, site)));
    if (!spec.explain) return out;

    // The thread to slice: the first cell's writer, or the thread a neighbour's writer says should be.
    ptx::SliceTarget target;
    target.buffer = buffer;
    target.offset = spec.cells[0].element * elem_bytes;
    target.bytes = elem_bytes;
    std::optional<engine::Idx3> block;
    if (spec.cells[0].element >= 0 && rec.stores[0].site >= 0) {
        block = rec.stores[0].block;
        target.thread = rec.stores[0].thread;
    } else {
        for (size_t c = 1; c < rec.stores.size() && !block; ++c) {
            const ptx::CellStore& s = rec.stores[c];
            if (s.site < 0) continue;
            const Int3& step = spec.cells[c].step;
            const engine::Idx3 t{s.thread.x + step[0], s.thread.y + step[1], s.thread.z + step[2]};
            if (!inside(t, cs.block)) continue;
            block = s.block;
            target.thread = t;
            target.store_site = s.site;
        }
    }
    if (!block && spec.block && spec.thread) {  // the thread the parent names (a race's reader, a cell's owner)
        block = engine::Idx3{(*spec.block)[0], (*spec.block)[1], (*spec.block)[2]};
        target.thread = {(*spec.thread)[0], (*spec.thread)[1], (*spec.thread)[2]};
        if (spec.cells[0].element < 0) target.offset = -1;
        if (!sites.empty()) target.store_site = sites[0];
    }
    if (!block) return out;
    if (!(rec.traced && rec.block == *block)) {
        rec.trace_block = true;
        rec.block = *block;
        run(rec);
    }
    out.traced_block = to_int3(*block);
    for (const ptx::SliceLink& l : ptx::backward_slice(m, rec, target)) out.slice.push_back(wire_link(m, l, cs));
    // The stored value as a sum of products (the effective stencil), when the thread stored it.
    int thread = -1;
    for (size_t i = 0; i < rec.threads.size(); ++i)
        if (rec.threads[i].idx == target.thread) thread = int(i);
    const int access = last_store_access(rec, thread, target.buffer, target.offset, target.bytes);
    if (access >= 0) {
        StoredSum sum = stored_sum(m, rec, thread, access, target.offset, cs);
        out.terms = std::move(sum.terms);
        out.terms_note = std::move(sum.note);
    } else {
        out.terms_note = "the thread stored nothing there";
    }
    return out;
}

}  // namespace stencil::checker::runner
