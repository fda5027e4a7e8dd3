// stored_sum (runner_terms.h): the stored register's definitions walked back through the traced
// thread's executed steps, each expanded into a polynomial over leaves (weights, global cells,
// opaque factors), a shared load replaced by the value its store wrote.
#include "checker/runner_terms.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "backends/cpu/ptx/ir.h"
#include "backends/cpu/ptx/slice.h"

namespace stencil::checker::runner {

namespace {

using ptx::Family;
using ptx::Instr;
using ptx::Op;
using ptx::Operand;
using ptx::Sp;
using ptx::Ty;

// A polynomial's factor other than a number: a weight, a global cell (as read at one line), or an
// opaque value.
struct Leaf {
    enum Kind { weight, cell, other } kind = other;
    std::string name;  // weight: the variable; other: its words
    TermCell cell_ref;
};

using Monomial = std::vector<int>;  // sorted leaf ids
// A product's coefficient and the line of the multiplication that formed it (a load's line when
// it is a leaf alone): a load the compiler shares between two terms is one load, but two products.
struct Coef {
    double c = 0;
    int line = 0;
};
using Poly = std::map<Monomial, Coef>;

// Past this many products the value is not a stencil's sum worth showing.
constexpr size_t kMaxProducts = 256;
// Shared copies followed back (a value stored, read, stored again: find-the-race's result in the tile).
constexpr int kMaxCopies = 4;

struct Tracer {
    const ptx::Module& m;
    const ptx::Recording& rec;
    const CaseSpec& cs;
    std::vector<Leaf> leaves;
    bool too_big = false;

    struct SharedStore {
        long long order;
        int thread, access;
    };
    std::vector<SharedStore> shared_stores;  // in the block's order

    // The context of a value: the line the output's thread read the copied cell at, and the copy's
    // lines so far (a cell leaf reached through shared memory keeps them).
    struct Via {
        int read_line = 0;
        std::string shared;
        long long shared_offset = -1;
        std::vector<int> copy_lines;
        std::vector<int> move_lines;  // register moves the value passed through (a queue's rotation)
    };

    Tracer(const ptx::Module& m_, const ptx::Recording& r, const CaseSpec& c) : m(m_), rec(r), cs(c) {
        for (size_t t = 0; t < rec.threads.size(); ++t)
            for (size_t a = 0; a < rec.threads[t].accesses.size(); ++a) {
                const ptx::AccessRecord& x = rec.threads[t].accesses[a];
                if (x.space == engine::Space::shared && x.op != engine::Op::load)
                    shared_stores.push_back({x.order, int(t), int(a)});
            }
        std::sort(shared_stores.begin(), shared_stores.end(), [](auto& a, auto& b) { return a.order < b.order; });
    }

    const Instr& instr(const ptx::StepRecord& s) const { return m.functions[(size_t)s.fn].code[(size_t)s.pc]; }

    int line_of(const ptx::StepRecord& s) const {
        const Instr& in = instr(s);
        return in.loc >= 0 && in.loc < (int)m.locs.size() ? m.locs[(size_t)in.loc].line : 0;
    }

    // The registers an instruction writes (its first operand, for the families that write one).
    std::vector<int> defs(int fn, const Instr& in) const {
        std::vector<int> out;
        switch (ptx::family_of(in.op)) {
            case Family::move: case Family::address: case Family::load: case Family::alu: case Family::atomic:
            case Family::warp: break;
            default: return out;
        }
        if (in.nops == 0) return out;
        const Operand& o = in.o[0];
        if (o.kind == Operand::kReg) out.push_back(o.reg);
        else if (o.kind == Operand::kPair) {
            out.push_back(o.reg);
            if (o.reg2 >= 0) out.push_back(o.reg2);
        } else if (o.kind == Operand::kVec) {
            const auto& f = m.functions[(size_t)fn];
            for (int k = 0; k < o.reg2; ++k) out.push_back(f.vec_regs[size_t(o.reg + k)]);
        }
        return out;
    }

    // The executed step before `before` (in the same function) that last wrote `reg`, and which of
    // its written registers it is; -1: none.
    std::pair<int, int> find_def(const ptx::ThreadRecord& tr, int fn, int reg, int before) const {
        for (int s = before - 1; s >= 0; --s) {
            const ptx::StepRecord& st = tr.steps[(size_t)s];
            if (!st.executed || st.fn != fn) continue;
            const auto d = defs(st.fn, instr(st));
            if (auto it = std::find(d.begin(), d.end(), reg); it != d.end()) return {s, int(it - d.begin())};
        }
        return {-1, 0};
    }

    int access_at_step(const ptx::ThreadRecord& tr, int step) const {
        auto it = std::lower_bound(tr.accesses.begin(), tr.accesses.end(), step,
                                   [](const ptx::AccessRecord& a, int s) { return a.step < s; });
        return it != tr.accesses.end() && it->step == step ? int(it - tr.accesses.begin()) : -1;
    }

    // ---- polynomials ----
    int leaf(Leaf l) {
        for (size_t i = 0; i < leaves.size(); ++i) {
            const Leaf& x = leaves[i];
            if (x.kind == l.kind && x.name == l.name && x.cell_ref == l.cell_ref) return int(i);
        }
        leaves.push_back(std::move(l));
        return int(leaves.size() - 1);
    }
    Poly of_leaf(int id, int line) { return Poly{{Monomial{id}, Coef{1.0, line}}}; }
    Poly constant(double v) { return v == 0 ? Poly{} : Poly{{Monomial{}, Coef{v, 0}}}; }
    Poly opaque(const std::string& words, int line = 0) { return of_leaf(leaf({Leaf::other, words, {}}), line); }

    void add_into(Poly& a, const Poly& b, double sign) {
        for (const auto& [mono, c] : b) {
            Coef& x = a[mono];
            x.c += sign * c.c;
            if (x.line == 0) x.line = c.line;
            if (x.c == 0) a.erase(mono);
        }
        too_big = too_big || a.size() > kMaxProducts;
    }
    // (line: the multiplication's; a product with a constant keeps the other factor's line)
    Poly times(const Poly& a, const Poly& b, int line) {
        Poly out;
        if (a.size() * b.size() > kMaxProducts) {
            too_big = true;
            return out;
        }
        for (const auto& [ma, ca] : a)
            for (const auto& [mb, cb] : b) {
                Monomial mono = ma;
                mono.insert(mono.end(), mb.begin(), mb.end());
                std::sort(mono.begin(), mono.end());
                Coef& x = out[mono];
                x.c += ca.c * cb.c;
                if (x.line == 0) x.line = ma.empty() ? cb.line : mb.empty() ? ca.line : line;
                if (x.c == 0) out.erase(mono);
            }
        return out;
    }

    double immediate(const Operand& o, Ty type) const {
        const auto bits = static_cast<std::uint64_t>(o.imm);
        if (type == Ty::f32 && bits <= 0xFFFFFFFFull) {  // a 0f literal: the float's bits
            const auto b = static_cast<std::uint32_t>(bits);
            float f;
            std::memcpy(&f, &b, 4);
            return f;
        }
        double d;
        std::memcpy(&d, &bits, 8);
        return d;
    }

    // ---- the walk ----
    Poly operand(int t, const Operand& o, Ty type, int before, const Via& via, int copies) {
        if (o.kind == Operand::kImm) return constant(immediate(o, type));
        if (o.kind != Operand::kReg) return opaque("a special register");
        return reg_value(t, o.reg, before, via, copies);
    }

    Poly reg_value(int t, int reg, int before, const Via& via, int copies) {
        const ptx::ThreadRecord& tr = rec.threads[(size_t)t];
        const auto [d, component] = find_def(tr, tr.steps[(size_t)before].fn, reg, before);
        if (d < 0) return opaque("a register no executed statement set");
        return step_value(t, d, component, via, copies);
    }

    // The const variable an ld.const of `elem` bytes reads: "c3" (its declared name), or "c[3]" for
    // an element of a __constant__ array at a fixed index (a loop the compiler unrolled).
    std::string const_name(const Operand& a, int elem) const {
        if (a.kind != Operand::kMem || a.reg >= 0) return {};
        const long long at = a.imm;
        for (const ptx::Variable& v : m.variables)
            if (v.space == Sp::constant && at >= v.offset && at < v.offset + std::max(1LL, v.bytes)) {
                const std::string name = v.display.empty() ? v.name : v.display;
                if (elem <= 0 || v.bytes <= elem) return name;
                return fmt::format("{}[{}]", name, (at - v.offset) / elem);
            }
        return {};
    }

    // The lines that computed a load's address (its base register's definitions, transitively).
    std::vector<int> address_lines(int t, int step) const {
        const ptx::ThreadRecord& tr = rec.threads[(size_t)t];
        const Instr& in = instr(tr.steps[(size_t)step]);
        std::vector<int> lines;
        if (in.nops < 2 || in.o[1].kind != Operand::kMem || in.o[1].reg < 0) return lines;
        std::vector<std::pair<int, int>> work{{in.o[1].reg, step}};
        std::vector<int> seen;
        while (!work.empty() && seen.size() < 256) {
            const auto [reg, before] = work.back();
            work.pop_back();
            const int d = find_def(tr, tr.steps[(size_t)step].fn, reg, before).first;
            if (d < 0 || std::find(seen.begin(), seen.end(), d) != seen.end()) continue;
            seen.push_back(d);
            const ptx::StepRecord& st = tr.steps[(size_t)d];
            const Instr& di = instr(st);
            if (ptx::family_of(di.op) == Family::load) continue;  // a kernel argument (N, the pointer)
            if (const int l = line_of(st); l > 0 && std::find(lines.begin(), lines.end(), l) == lines.end())
                lines.push_back(l);
            for (int k = 1; k < di.nops; ++k)
                if (di.o[k].kind == Operand::kReg) work.push_back({di.o[k].reg, d});
        }
        std::sort(lines.begin(), lines.end());
        return lines;
    }

    Poly load_value(int t, int d, int component, const Via& via, int copies) {
        const ptx::ThreadRecord& tr = rec.threads[(size_t)t];
        const ptx::StepRecord& st = tr.steps[(size_t)d];
        const Instr& in = instr(st);
        const int line = line_of(st);
        if (in.space == Sp::constant) {
            const std::string name = in.nops > 1 ? const_name(in.o[1], ptx::bytes_of(in.type)) : std::string{};
            return name.empty() ? opaque(fmt::format("a __constant__ read at line {}", line))
                                : of_leaf(leaf({Leaf::weight, name, {}}), line);
        }
        if (in.space == Sp::param) return opaque(fmt::format("a kernel argument read at line {}", line));
        const int a = access_at_step(tr, d);
        if (a < 0) return opaque(fmt::format("a load at line {}", line));
        const ptx::AccessRecord& acc = tr.accesses[(size_t)a];
        const int elem = std::max(1, in.vec > 1 ? ptx::bytes_of(in.type) : acc.bytes);
        const long long offset = acc.offset + (long long)component * elem;
        if (acc.space == engine::Space::global) {
            TermCell c;
            c.array = acc.where >= 0 && acc.where < (int)cs.buffers.size() ? cs.buffers[(size_t)acc.where].name : "global";
            c.element = offset / elem;
            c.line = via.read_line > 0 ? via.read_line : line;
            c.copy_lines = via.copy_lines;
            if (via.read_line > 0) c.copy_lines.push_back(line);
            for (int l : via.move_lines)
                if (l != c.line) c.move_lines.push_back(l);
            c.index_lines = address_lines(t, d);
            c.shared = via.shared;
            c.shared_offset = via.shared_offset;
            return of_leaf(leaf({Leaf::cell, {}, c}), c.line);
        }
        // shared: the store the block made to this cell before the read, and the value it stored
        const long long inner = acc.inner + (long long)component * elem;
        const long long off = acc.offset + (long long)component * elem;
        const SharedStore* before = nullptr;
        for (const SharedStore& s : shared_stores) {
            const ptx::AccessRecord& x = rec.threads[(size_t)s.thread].accesses[(size_t)s.access];
            if (s.order < acc.order && x.offset < off + elem && off < x.offset + x.bytes) before = &s;
        }
        const std::string var = ptx::shared_name(m, acc.where);
        if (!before)
            return opaque(fmt::format("a cell of {} no thread stored (read at line {})", var, line));
        if (copies >= kMaxCopies) return opaque(fmt::format("a cell of {} read at line {}", var, line));
        const ptx::ThreadRecord& by = rec.threads[(size_t)before->thread];
        const ptx::AccessRecord& x = by.accesses[(size_t)before->access];
        const ptx::StepRecord& sst = by.steps[(size_t)x.step];
        const Instr& si = instr(sst);
        if (x.offset != off || x.bytes < elem || si.nops < 2) return opaque(fmt::format("a cell of {} read at line {}", var, line));
        Via next = via;
        if (next.read_line == 0) {
            next.read_line = line;
            next.shared = var;
            next.shared_offset = inner;
        }
        next.copy_lines.push_back(line_of(sst));
        // the stored register: the store's value operand (a vector store: the component at x's offset)
        const Operand& v = si.o[1];
        if (v.kind == Operand::kReg) return reg_value(before->thread, v.reg, x.step, next, copies + 1);
        if (v.kind == Operand::kImm) return constant(immediate(v, si.type));
        if (v.kind == Operand::kVec) {
            const int k = int((off - x.offset) / std::max(1, ptx::bytes_of(si.type)));
            const auto& f = m.functions[(size_t)sst.fn];
            if (k < v.reg2) return reg_value(before->thread, f.vec_regs[size_t(v.reg + k)], x.step, next, copies + 1);
        }
        return opaque(fmt::format("a cell of {} read at line {}", var, line));
    }

    Poly step_value(int t, int d, int component, const Via& via, int copies) {
        const ptx::ThreadRecord& tr = rec.threads[(size_t)t];
        const ptx::StepRecord& st = tr.steps[(size_t)d];
        const Instr& in = instr(st);
        const int line = line_of(st);
        const Family fam = ptx::family_of(in.op);
        if (fam == Family::load) return load_value(t, d, component, via, copies);
        if (in.op == Op::mov && in.nops > 1) {
            Via moved = via;
            if (line > 0 && std::find(moved.move_lines.begin(), moved.move_lines.end(), line) == moved.move_lines.end())
                moved.move_lines.push_back(line);
            return operand(t, in.o[1], in.type, d, moved, copies);
        }
        if (fam != Family::alu || !ptx::is_float(in.type))
            return opaque(fmt::format("the result of {} at line {}", ptx::name_of(in.op), line));
        switch (in.op) {
            case Op::add:
            case Op::sub: {
                Poly a = operand(t, in.o[1], in.type, d, via, copies);
                add_into(a, operand(t, in.o[2], in.type, d, via, copies), in.op == Op::add ? 1 : -1);
                return a;
            }
            case Op::mul:
                return times(operand(t, in.o[1], in.type, d, via, copies), operand(t, in.o[2], in.type, d, via, copies), line);
            case Op::fma:
            case Op::mad: {
                Poly a = times(operand(t, in.o[1], in.type, d, via, copies), operand(t, in.o[2], in.type, d, via, copies), line);
                add_into(a, operand(t, in.o[3], in.type, d, via, copies), 1);
                return a;
            }
            case Op::neg: {
                Poly a;
                add_into(a, operand(t, in.o[1], in.type, d, via, copies), -1);
                return a;
            }
            case Op::cvt:
                if (ptx::is_float(in.type2)) return operand(t, in.o[1], in.type2, d, via, copies);
                return opaque(fmt::format("an integer converted to a real at line {}", line));
            default: return opaque(fmt::format("the result of {} at line {}", ptx::name_of(in.op), line));
        }
    }

    std::vector<SumTermOutcome> products(const Poly& p) const {
        std::vector<SumTermOutcome> out;
        for (const auto& [mono, c] : p) {
            SumTermOutcome t;
            t.factor = c.c;
            t.line = c.line;
            for (int id : mono) {
                const Leaf& l = leaves[(size_t)id];
                if (l.kind == Leaf::weight) t.weights.push_back(l.name);
                else if (l.kind == Leaf::cell) t.cells.push_back(l.cell_ref);
                else t.others.push_back(l.name);
            }
            out.push_back(std::move(t));
        }
        return out;
    }
};

}  // namespace

int last_store_access(const ptx::Recording& rec, int thread, int buffer, long long offset, int bytes) {
    if (thread < 0 || thread >= (int)rec.threads.size()) return -1;
    const ptx::ThreadRecord& tr = rec.threads[(size_t)thread];
    int last = -1;
    for (int a = 0; a < (int)tr.accesses.size(); ++a) {
        const ptx::AccessRecord& x = tr.accesses[(size_t)a];
        if (x.space == engine::Space::global && x.op != engine::Op::load && x.where == buffer &&
            (offset < 0 || (x.offset < offset + bytes && offset < x.offset + x.bytes)))
            last = a;
    }
    return last;
}

StoredSum stored_sum(const ptx::Module& m, const ptx::Recording& rec, int thread, int access, long long offset,
                     const CaseSpec& cs) {
    StoredSum out;
    if (thread < 0 || thread >= (int)rec.threads.size() || access < 0) {
        out.note = "the traced thread made no store to explain";
        return out;
    }
    Tracer tr(m, rec, cs);
    const ptx::ThreadRecord& th = rec.threads[(size_t)thread];
    const ptx::AccessRecord& acc = th.accesses[(size_t)access];
    const Instr& in = tr.instr(th.steps[(size_t)acc.step]);
    if (in.nops < 2) return out;
    Poly p;
    const Operand& v = in.o[1];
    if (v.kind == Operand::kReg) p = tr.reg_value(thread, v.reg, acc.step, {}, 0);
    else if (v.kind == Operand::kImm) p = tr.constant(tr.immediate(v, in.type));
    else if (v.kind == Operand::kVec) {
        const int k = int(std::max(0LL, offset - acc.offset) / std::max(1, ptx::bytes_of(in.type)));
        if (k >= v.reg2) return out;
        p = tr.reg_value(thread, m.functions[(size_t)th.steps[(size_t)acc.step].fn].vec_regs[size_t(v.reg + k)], acc.step, {}, 0);
    }
    if (tr.too_big) {
        out.note = fmt::format("more than {} products", kMaxProducts);
        return out;
    }
    out.terms = tr.products(p);
    return out;
}

}  // namespace stencil::checker::runner
