// The backward slice (slice.h) over a traced block's steps and accesses.
#include "backends/cpu/ptx/slice.h"

#include <algorithm>

#include "backends/cpu/ptx/ir.h"

namespace ptx {

const char* to_string(LinkKind k) {
    switch (k) {
        case LinkKind::stored: return "stored";
        case LinkKind::condition: return "condition";
        case LinkKind::computed: return "computed";
        case LinkKind::rounded: return "rounded";
        case LinkKind::loaded_global: return "loaded_global";
        case LinkKind::loaded_shared: return "loaded_shared";
        case LinkKind::stored_by: return "stored_by";
        case LinkKind::stored_after: return "stored_after";
        case LinkKind::never_stored: return "never_stored";
        case LinkKind::skipped: return "skipped";
        case LinkKind::no_store: return "no_store";
    }
    return "?";
}

std::string shared_name(const Module& m, int var) {
    if (var >= 0 && var < (int)m.variables.size()) return m.variables[(size_t)var].display;
    return "shared";
}

namespace {

SourcePoint point_of(const Module& m, int fn, int pc) {
    SourcePoint p;
    const Instr& in = m.functions[(size_t)fn].code[(size_t)pc];
    if (in.loc >= 0 && in.loc < (int)m.locs.size()) {
        const SourceLoc& l = m.locs[(size_t)in.loc];
        if (l.file >= 0 && l.file < (int)m.files.size()) p.file = m.files[(size_t)l.file];
        p.line = l.line;
    }
    if (fn < (int)m.opcode_text.size() && pc < (int)m.opcode_text[(size_t)fn].size())
        p.instruction = m.opcode_text[(size_t)fn][(size_t)pc];
    return p;
}

void regs_of(const Function& f, const Operand& o, std::vector<int>& out) {
    switch (o.kind) {
        case Operand::kReg: out.push_back(o.reg); break;
        case Operand::kPair:
            out.push_back(o.reg);
            if (o.reg2 >= 0) out.push_back(o.reg2);
            break;
        case Operand::kVec:
            for (int k = 0; k < o.reg2; ++k)
                if (const int r = f.vec_regs[size_t(o.reg + k)]; r >= 0) out.push_back(r);
            break;
        default: break;
    }
}

// The registers an instruction writes.
std::vector<int> defs(const Function& f, const Instr& in) {
    std::vector<int> out;
    switch (family_of(in.op)) {
        case Family::move: case Family::address: case Family::load: case Family::alu: case Family::atomic:
        case Family::warp:
            if (in.nops > 0) regs_of(f, in.o[0], out);
            break;
        default: break;
    }
    return out;
}

// The registers whose values an instruction's result (or a store's value) is made of; an address is
// not followed.
std::vector<int> uses(const Function& f, const Instr& in) {
    std::vector<int> out;
    switch (family_of(in.op)) {
        case Family::store: regs_of(f, in.o[1], out); break;
        case Family::move: case Family::alu:
            for (int k = 1; k < in.nops; ++k) regs_of(f, in.o[k], out);
            break;
        default: break;
    }
    return out;
}

bool narrowing(const Instr& in) {
    return in.op == Op::cvt && is_float(in.type) && is_float(in.type2) && bytes_of(in.type) < bytes_of(in.type2);
}

bool guarded_jump(const Instr& in) {
    return in.guard >= 0 && (in.op == Op::bra || family_of(in.op) == Family::exit || family_of(in.op) == Family::ret);
}

struct Slicer {
    const Module& m;
    const Recording& rec;
    int max_depth = 2;
    std::vector<SliceLink> out;

    struct SharedStore {
        long long order;
        int thread, access;
    };
    std::vector<SharedStore> shared_stores;  // in the block's order

    Slicer(const Module& m_, const Recording& r, int depth) : m(m_), rec(r), max_depth(depth) {
        for (size_t t = 0; t < rec.threads.size(); ++t)
            for (size_t a = 0; a < rec.threads[t].accesses.size(); ++a) {
                const AccessRecord& x = rec.threads[t].accesses[a];
                if (x.space == engine::Space::shared && x.op != engine::Op::load)
                    shared_stores.push_back({x.order, int(t), int(a)});
            }
        std::sort(shared_stores.begin(), shared_stores.end(), [](auto& a, auto& b) { return a.order < b.order; });
    }

    const Instr& instr(const StepRecord& s) const { return m.functions[(size_t)s.fn].code[(size_t)s.pc]; }
    const Function& fn(const StepRecord& s) const { return m.functions[(size_t)s.fn]; }
    SourcePoint point(const StepRecord& s) const { return point_of(m, s.fn, s.pc); }

    // A link at thread `tr`'s access `acc`: its statement and the memory it touched.
    SliceLink access_link(LinkKind kind, int depth, const ThreadRecord& tr, const AccessRecord& acc) const {
        SliceLink l;
        l.kind = kind;
        l.depth = depth;
        l.at = point(tr.steps[(size_t)acc.step]);
        l.thread = tr.idx;
        l.space = acc.space;
        l.where = acc.where;
        l.offset = acc.offset;
        l.inner = acc.inner;
        l.bytes = acc.bytes;
        return l;
    }

    int thread_index(engine::Idx3 t) const {
        for (size_t i = 0; i < rec.threads.size(); ++i)
            if (rec.threads[i].idx == t) return int(i);
        return -1;
    }

    // The executed step before `before` (in the same function) that last wrote `reg`; -1: none.
    int find_def(const ThreadRecord& tr, int fnum, int reg, int before) const {
        for (int s = before - 1; s >= 0; --s) {
            const StepRecord& st = tr.steps[(size_t)s];
            if (!st.executed || st.fn != fnum) continue;
            const auto d = defs(fn(st), instr(st));
            if (std::find(d.begin(), d.end(), reg) != d.end()) return s;
        }
        return -1;
    }

    // The condition that decided whether step `s` ran: its own guard's, or the last guarded branch's
    // before it.
    std::optional<SourcePoint> condition(const ThreadRecord& tr, int s) const {
        const StepRecord& st = tr.steps[(size_t)s];
        const Instr& in = instr(st);
        int guard_step = in.guard >= 0 ? s : -1;
        for (int k = s - 1; guard_step < 0 && k >= 0; --k) {
            const StepRecord& b = tr.steps[(size_t)k];
            if (b.fn == st.fn && guarded_jump(instr(b))) guard_step = k;
        }
        if (guard_step < 0) return std::nullopt;
        const StepRecord& g = tr.steps[(size_t)guard_step];
        const int d = find_def(tr, g.fn, instr(g).guard, guard_step);
        return d >= 0 ? point(tr.steps[(size_t)d]) : point(g);
    }

    int access_at_step(const ThreadRecord& tr, int step) const {
        auto it = std::lower_bound(tr.accesses.begin(), tr.accesses.end(), step,
                                   [](const AccessRecord& a, int s) { return a.step < s; });
        return it != tr.accesses.end() && it->step == step ? int(it - tr.accesses.begin()) : -1;
    }

    // The slice of thread t's store (its access a): the store and its condition (head), then what
    // its value was computed from.
    void slice_store(int t, int a, int depth, bool head) {
        const ThreadRecord& tr = rec.threads[(size_t)t];
        const AccessRecord& acc = tr.accesses[(size_t)a];
        const StepRecord& st = tr.steps[(size_t)acc.step];
        if (head) {
            out.push_back(access_link(LinkKind::stored, depth, tr, acc));
            if (auto c = condition(tr, acc.step)) {
                SliceLink k;
                k.kind = LinkKind::condition;
                k.depth = depth;
                k.at = *c;
                k.thread = tr.idx;
                out.push_back(k);
            }
        }
        slice_value(t, acc.step, uses(fn(st), instr(st)), depth);
    }

    void slice_value(int t, int from_step, const std::vector<int>& regs, int depth) {
        const ThreadRecord& tr = rec.threads[(size_t)t];
        const int fnum = tr.steps[(size_t)from_step].fn;
        std::vector<std::pair<int, int>> work;  // (register, before step)
        for (int r : regs) work.push_back({r, from_step});
        std::vector<int> seen, computed, loads, rounded;
        while (!work.empty()) {
            const auto [reg, before] = work.back();
            work.pop_back();
            const int d = find_def(tr, fnum, reg, before);
            if (d < 0 || std::find(seen.begin(), seen.end(), d) != seen.end()) continue;
            seen.push_back(d);
            const StepRecord& st = tr.steps[(size_t)d];
            const Instr& in = instr(st);
            if (family_of(in.op) == Family::load) {
                if (access_at_step(tr, d) >= 0) loads.push_back(d);
                continue;
            }
            if (narrowing(in)) rounded.push_back(d);
            computed.push_back(d);
            for (int r : uses(fn(st), in)) work.push_back({r, d});
        }
        std::sort(computed.begin(), computed.end());
        std::sort(loads.begin(), loads.end());
        std::sort(rounded.begin(), rounded.end());
        SliceLink c;
        c.kind = LinkKind::computed;
        c.depth = depth;
        c.thread = tr.idx;
        // (the lines of the store's own file: a helper inlined from another file is one of its lines)
        const std::string file = point(tr.steps[(size_t)from_step]).file;
        for (int s : computed) {
            const SourcePoint p = point(tr.steps[(size_t)s]);
            if (p.line > 0 && p.file == file && std::find(c.lines.begin(), c.lines.end(), p.line) == c.lines.end())
                c.lines.push_back(p.line);
        }
        if (!c.lines.empty()) {
            c.at = point(tr.steps[(size_t)computed.back()]);
            out.push_back(c);
        }
        for (int s : rounded) {
            SliceLink l;
            l.kind = LinkKind::rounded;
            l.depth = depth;
            l.at = point(tr.steps[(size_t)s]);
            l.thread = tr.idx;
            out.push_back(l);
        }
        for (int s : loads) follow_load(t, access_at_step(tr, s), depth);
    }

    void follow_load(int t, int a, int depth) {
        const ThreadRecord& tr = rec.threads[(size_t)t];
        const AccessRecord& acc = tr.accesses[(size_t)a];
        SliceLink l = access_link(acc.space == engine::Space::shared ? LinkKind::loaded_shared : LinkKind::loaded_global,
                                  depth, tr, acc);
        l.loaded = acc.loaded;
        out.push_back(l);
        if (acc.space != engine::Space::shared) return;
        auto overlaps = [&](const SharedStore& s) {
            const AccessRecord& x = rec.threads[(size_t)s.thread].accesses[(size_t)s.access];
            return x.offset < acc.offset + acc.bytes && acc.offset < x.offset + x.bytes;
        };
        const SharedStore* before = nullptr;
        const SharedStore* after = nullptr;
        for (const SharedStore& s : shared_stores) {
            if (!overlaps(s)) continue;
            if (s.order < acc.order) before = &s;
            else if (!after) after = &s;
        }
        SliceLink w;
        w.depth = depth;
        w.thread = tr.idx;
        w.space = engine::Space::shared;
        w.where = acc.where;
        w.inner = acc.inner;
        w.bytes = acc.bytes;
        if (const SharedStore* s = before ? before : after) {
            const ThreadRecord& by = rec.threads[(size_t)s->thread];
            const AccessRecord& x = by.accesses[(size_t)s->access];
            w.kind = before ? LinkKind::stored_by : LinkKind::stored_after;
            w.unordered = before && s->thread != t && x.interval == acc.interval;
            w.other = by.idx;
            w.other_at = point(by.steps[(size_t)x.step]);
            out.push_back(w);
            if (before && depth < max_depth) slice_store(s->thread, s->access, depth + 1, false);
            return;
        }
        w.kind = LinkKind::never_stored;
        out.push_back(w);
        if (const auto [thread, site] = who_would_store(acc); thread >= 0) skipped(thread, site, depth + 1);
    }

    // The thread that would have stored the shared cell `acc` read, from the stores to its variable:
    // when every store at one site has (thread - element) constant, the thread of the cell's element.
    std::pair<int, int> who_would_store(const AccessRecord& acc) const {
        const long long elem = std::max(1, acc.bytes);
        const SharedStore* nearest = nullptr;
        long long best = 0;
        for (const SharedStore& s : shared_stores) {
            const AccessRecord& x = rec.threads[(size_t)s.thread].accesses[(size_t)s.access];
            if (x.where != acc.where || x.bytes != acc.bytes) continue;
            const long long d = std::llabs(x.inner - acc.inner);
            if (!nearest || d < best) nearest = &s, best = d;
        }
        if (!nearest) return {-1, -1};
        const ThreadRecord& nt = rec.threads[(size_t)nearest->thread];
        const StepRecord& ns = nt.steps[(size_t)nt.accesses[(size_t)nearest->access].step];
        const int site = instr(ns).site;
        long long k = 0;
        bool first = true;
        for (const SharedStore& s : shared_stores) {
            const ThreadRecord& tr = rec.threads[(size_t)s.thread];
            const AccessRecord& x = tr.accesses[(size_t)s.access];
            if (instr(tr.steps[(size_t)x.step]).site != site) continue;
            const long long kk = s.thread - x.inner / elem;
            if (!first && kk != k) return {-1, -1};
            k = kk;
            first = false;
        }
        const long long t = acc.inner / elem + k;
        return t >= 0 && t < (long long)rec.threads.size() ? std::pair{int(t), site} : std::pair{-1, -1};
    }

    // Thread t did not run the store at `site`: the guard that was false there, or the last guarded
    // branch (or return) it took before reaching it.
    void skipped(int t, int site, int depth) {
        if (site < 0 || site >= (int)m.sites.size()) return;
        const MemSite& ms = m.sites[(size_t)site];
        const ThreadRecord& tr = rec.threads[(size_t)t];
        SliceLink l;
        l.kind = LinkKind::skipped;
        l.depth = depth;
        l.thread = tr.idx;
        l.other = tr.idx;
        l.other_at = point_of(m, ms.function, ms.instr);
        int reached = -1;
        for (int s = 0; s < (int)tr.steps.size(); ++s)
            if (tr.steps[(size_t)s].fn == ms.function && tr.steps[(size_t)s].pc == ms.instr && !tr.steps[(size_t)s].executed)
                reached = s;
        if (reached >= 0) {
            const StepRecord& st = tr.steps[(size_t)reached];
            const int d = find_def(tr, st.fn, instr(st).guard, reached);
            l.at = d >= 0 ? point(tr.steps[(size_t)d]) : point(st);
        } else {
            for (int s = (int)tr.steps.size() - 1; s >= 0; --s) {
                const StepRecord& st = tr.steps[(size_t)s];
                if (st.fn != ms.function || st.pc >= ms.instr || !guarded_jump(instr(st))) continue;
                const int d = find_def(tr, st.fn, instr(st).guard, s);
                l.at = d >= 0 ? point(tr.steps[(size_t)d]) : point(st);
                break;
            }
        }
        out.push_back(l);
    }
};

}  // namespace

SourcePoint site_point(const Module& m, int site) {
    if (site < 0 || site >= (int)m.sites.size()) return {};
    return point_of(m, m.sites[(size_t)site].function, m.sites[(size_t)site].instr);
}

std::vector<int> global_store_sites(const Module& m) {
    std::vector<int> v;
    for (int s = 0; s < (int)m.sites.size(); ++s) {
        const Instr& in = m.functions[(size_t)m.sites[(size_t)s].function].code[(size_t)m.sites[(size_t)s].instr];
        if (family_of(in.op) == Family::store && (in.space == Sp::global || in.space == Sp::generic)) v.push_back(s);
    }
    return v;
}

std::vector<SliceLink> backward_slice(const Module& m, const Recording& rec, const SliceTarget& target) {
    Slicer s(m, rec, target.max_depth);
    const int t = s.thread_index(target.thread);
    if (!rec.traced || t < 0) return {};
    const ThreadRecord& tr = rec.threads[(size_t)t];
    int last = -1;
    for (int a = 0; a < (int)tr.accesses.size(); ++a) {
        const AccessRecord& x = tr.accesses[(size_t)a];
        if (x.space == engine::Space::global && x.op != engine::Op::load && x.where == target.buffer &&
            (target.offset < 0 || (x.offset < target.offset + target.bytes && target.offset < x.offset + x.bytes)))
            last = a;
    }
    if (last >= 0) {
        s.slice_store(t, last, 0, true);
    } else {
        SliceLink l;
        l.kind = LinkKind::no_store;
        l.thread = tr.idx;
        l.where = target.buffer;
        l.offset = target.offset;
        l.bytes = target.bytes;
        s.out.push_back(l);
        s.skipped(t, target.store_site, 0);
    }
    return std::move(s.out);
}

}  // namespace ptx
