// explain_slice (explain.h): the slice's links walked depth first, the path to the first wrong step
// kept, the rest dropped.
#include "checker/explain.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>

#include "checker/diagnostics.h"

namespace stencil::checker {

namespace {

std::string lines_text(const std::vector<int>& lines) {
    std::vector<int> v = lines;
    std::sort(v.begin(), v.end());
    std::string s;
    for (size_t i = 0; i < v.size();) {
        size_t j = i;
        while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
        s += (s.empty() ? "" : ", ") + (j > i ? fmt::format("{}-{}", v[i], v[j]) : std::to_string(v[i]));
        i = j + 1;
    }
    return (v.size() > 1 ? "lines " : "line ") + s;
}

// The role of the statement the effective stencil blames, as a finding lists it.
std::string stencil_role(Cause c) {
    switch (c) {
        case Cause::weight_pairing: return "a weight on the wrong neighbour";
        case Cause::index_axis: return "an index on the wrong axis";
        case Cause::index_offset: return "an index shifted";
        case Cause::neighbour_missing: return "a term reading the wrong neighbour";
        case Cause::not_a_sum: return "not a weight times a cell";
        default: return std::string(cause_name(c));
    }
}

struct Walker {
    const ReplayOutcome& r;
    const Evidence& ev;
    const ExplainContext& ctx;
    Int3 block{};
    ExplainedSlice out;

    std::vector<int> coords(long long e) const {
        const GridDims g = ctx.dims;
        return {int(e % g.nx), int((e / g.nx) % g.ny), int(e / ((long long)g.nx * g.ny))};
    }

    std::string global_cell(const SliceLinkOutcome& l) const {
        const long long e = l.elem_size > 0 ? l.offset / l.elem_size : l.offset;
        if (e < 0 || e >= ctx.dims.cells()) return fmt::format("{}[{}]", l.array, e);
        const auto c = coords(e);
        if (ctx.dims.nz == 1) return fmt::format("{}({},{})", l.array, c[0], c[1]);
        return fmt::format("{}({},{},{})", l.array, c[0], c[1], c[2]);
    }

    std::string cell(const SliceLinkOutcome& l) const {
        return l.space == MemorySpace::shared ? shared_cell_name(ctx.arrays, l.array, l.offset, l.elem_size)
                                              : global_cell(l);
    }

    std::string value(std::uint64_t bits) const {
        if (ctx.ex.precision == Precision::f64) {
            double d;
            std::memcpy(&d, &bits, 8);
            return fmt::format("{:.6g}", d);
        }
        const auto b = static_cast<std::uint32_t>(bits);
        float f;
        std::memcpy(&f, &b, 4);
        return fmt::format("{:.6g}", f);
    }

    // Is global cell `l` one the stencil reads for the bad output (the input's star of radius r
    // around it, or an exercise written as data: its points; any other array's same cell)?
    bool stencil_reads(const SliceLinkOutcome& l) const {
        if (!ev.first_bad || l.elem_size <= 0) return true;
        const long long e = l.offset / l.elem_size;
        if (e < 0 || e >= ctx.dims.cells()) return false;
        const auto c = coords(e);
        if (ctx.ex.data) {
            const std::array<int, 3> o{c[0] - ev.first_bad->x, c[1] - ev.first_bad->y,
                                       c[2] - ev.first_bad->z};
            bool input = false;
            for (const DataParam& p : ctx.ex.data->kernel.params) input = input || (p.role == ParamRole::input && p.name == l.array);
            if (!input) return o == std::array<int, 3>{0, 0, 0};
            const auto& points = ctx.ex.data->stencil.points;
            return std::find(points.begin(), points.end(), o) != points.end();
        }
        int d[3] = {std::abs(c[0] - ev.first_bad->x), std::abs(c[1] - ev.first_bad->y),
                    std::abs(c[2] - ev.first_bad->z)};
        // the derivative's pencils are periodic along x: a neighbour through the wrap is near
        if (ctx.ex.problem == Problem::derivative) d[0] = std::min(d[0], ctx.dims.nx - d[0]);
        const bool input = l.array == "in" || l.array == "E_prev" || l.array == "f";
        if (!input) return d[0] + d[1] + d[2] == 0;
        const int axes = (d[0] > 0) + (d[1] > 0) + (d[2] > 0);
        return axes <= 1 && d[0] <= ctx.ex.radius && d[1] <= ctx.ex.radius && d[2] <= ctx.ex.radius;
    }

    // A shared tile cell that is a copy of a global cell holds the cell at one offset from its tile
    // index (tile[ty][tx] = in(x0 + tx, y0 + ty)); among the copies this output reads, the ones at
    // another offset than most are loaded from the wrong place (a wrong halo or ghost index).
    std::vector<size_t> odd_copies;

    std::optional<std::array<long long, 3>> tile_coords(const SliceLinkOutcome& l) const {
        for (const SharedArray& a : ctx.arrays) {
            if (a.name != l.array || a.elem_bytes <= 0 || a.extents.empty() || a.extents.size() > 3) continue;
            long long e = l.offset / a.elem_bytes;
            std::array<long long, 3> c{0, 0, 0};
            for (size_t k = 0; k < a.extents.size(); ++k) {  // innermost (x) first
                const long long ext = a.extents[a.extents.size() - 1 - k];
                c[k] = e % ext;
                e /= ext;
            }
            return c;
        }
        return std::nullopt;
    }

    void find_odd_copies() {
        std::vector<std::pair<size_t, std::array<long long, 3>>> copies;
        for (size_t i = 0; i + 1 < r.slice.size(); ++i) {
            const SliceLinkOutcome& ld = r.slice[i];
            if (ld.kind != SliceLinkKind::loaded_shared || r.slice[i + 1].kind != SliceLinkKind::stored_by) continue;
            // the store's slice: exactly one global load and no arithmetic
            size_t k = i + 2, global = 0, loads = 0;
            bool arithmetic = false;
            for (; k < r.slice.size() && r.slice[k].depth > ld.depth; ++k) {
                arithmetic = arithmetic || r.slice[k].kind == SliceLinkKind::computed;
                if (r.slice[k].kind == SliceLinkKind::loaded_global || r.slice[k].kind == SliceLinkKind::loaded_shared) {
                    ++loads;
                    global = k;
                }
            }
            if (arithmetic || loads != 1 || r.slice[global].kind != SliceLinkKind::loaded_global) continue;
            const auto t = tile_coords(ld);
            const SliceLinkOutcome& g = r.slice[global];
            if (!t || g.elem_size <= 0) continue;
            const auto c = coords(g.offset / g.elem_size);
            copies.push_back({global, {c[0] - (*t)[0], c[1] - (*t)[1], c[2] - (*t)[2]}});
        }
        size_t best = 0;
        std::array<long long, 3> majority{};
        for (const auto& [i, d] : copies) {
            size_t n = 0;
            for (const auto& x : copies) n += x.second == d;
            if (n > best) best = n, majority = d;
        }
        if (best < 2 || best * 2 <= copies.size()) return;
        for (const auto& [i, d] : copies)
            if (d != majority) odd_copies.push_back(i);
    }

    bool odd(const SliceLinkOutcome& l) const {
        for (size_t i : odd_copies)
            if (&r.slice[i] == &l) return true;
        return false;
    }

    void step(std::string text, std::optional<SourceRef> at) { out.steps.push_back({std::move(text), std::move(at)}); }

    void cause(const SourceRef& at) { out.cause = at; }

    // The links of one depth from link i on (and the deeper ones they lead to); true when the
    // wrong step was found (the path to it is in out.steps).
    bool walk(size_t& i, int depth) {
        while (i < r.slice.size() && r.slice[i].depth >= depth) {
            const SliceLinkOutcome& l = r.slice[i];
            if (l.depth > depth) {
                ++i;
                continue;
            }
            switch (l.kind) {
                case SliceLinkKind::computed:
                    step(fmt::format("<- computed at {} by thread {}", lines_text(l.lines), index_text(l.thread)),
                         source_ref(l.at, "computed", block, l.thread));
                    ++i;
                    break;
                case SliceLinkKind::rounded:
                    if (ctx.ex.precision == Precision::f64) {
                        const SourceRef at = source_ref(l.at, "rounded to float", block, l.thread);
                        step(fmt::format("<- rounded to float at line {} ({}): the exercise is fp64, and a float "
                                         "keeps about 7 significant digits of the sum",
                                         l.at.line, l.at.instruction),
                             at);
                        cause(at);
                        out.cause_kind = Cause::precision_lost;
                        return true;
                    }
                    ++i;
                    break;
                case SliceLinkKind::loaded_global:
                    if (odd(l)) {
                        const SourceRef at = source_ref(l.at, "load from the wrong cell", block, l.thread);
                        step(fmt::format("<- {} loaded at line {}: the other tile cells this output reads hold the "
                                         "cell at another offset from their index, so this one is loaded from the "
                                         "wrong place (a wrong halo or ghost index?)",
                                         cell(l), l.at.line),
                             at);
                        cause(at);
                        out.cause_kind = Cause::halo_index;
                        return true;
                    }
                    if (!stencil_reads(l) && stencil_differs()) {
                        stencil_steps(l.at.file);
                        return true;
                    }
                    if (!stencil_reads(l)) {
                        const SourceRef at = source_ref(l.at, "load of a cell the stencil does not read", block, l.thread);
                        step(fmt::format("<- {} loaded at line {}{}: not a cell the stencil reads for {} (a wrong "
                                         "index?)",
                                         cell(l), l.at.line, l.loaded ? " (= " + value(*l.loaded) + ")" : "",
                                         out_cell()),
                             at);
                        cause(at);
                        out.cause_kind = Cause::neighbour_missing;
                        return true;
                    }
                    ++i;
                    break;
                case SliceLinkKind::loaded_shared: {
                    const size_t mark = out.steps.size();
                    step(fmt::format("<- {} read at line {} by thread {}{}", cell(l), l.at.line, index_text(l.thread),
                                     l.loaded ? " (= " + value(*l.loaded) + ")" : ""),
                         source_ref(l.at, "load", block, l.thread));
                    ++i;
                    if (i < r.slice.size() && r.slice[i].depth == depth && follow_store(i, depth, l)) return true;
                    out.steps.resize(mark);
                    break;
                }
                default: ++i; break;
            }
        }
        return false;
    }

    // After a shared load: who stored the cell (link i), and that store's own slice.
    bool follow_store(size_t& i, int depth, const SliceLinkOutcome& load) {
        const SliceLinkOutcome& w = r.slice[i];
        switch (w.kind) {
            case SliceLinkKind::never_stored: {
                ++i;
                out.unstored_shared_read = true;
                const SourceRef at = source_ref(load.at, "read a shared cell no thread stored", block, load.thread);
                step(fmt::format("<- never stored: no thread of block {} stored {} (its value is whatever shared "
                                 "memory held)", index_text(block), cell(load)),
                     at);
                cause(at);
                out.cause_kind = Cause::unstored_read;
                if (i < r.slice.size() && r.slice[i].kind == SliceLinkKind::skipped) {
                    const SliceLinkOutcome& s = r.slice[i++];
                    const SourceRef c = skipped_step(s);
                    cause(c);
                    out.cause_kind = Cause::halo_load_skipped;
                }
                return true;
            }
            case SliceLinkKind::stored_after: {
                ++i;
                const SourceRef at = source_ref(w.other_at, "store", block, w.other);
                step(fmt::format("<- stored only after the read: thread {} stores {} at line {}, and nothing makes "
                                 "the read wait for it (a missing __syncthreads()?)",
                                 index_text(*w.other), cell(load), w.other_at.line),
                     at);
                cause(at);
                out.cause_kind = Cause::barrier_missing;
                return true;
            }
            case SliceLinkKind::stored_by: {
                ++i;
                const SourceRef at = source_ref(w.other_at, "store", block, w.other);
                if (w.unordered) {
                    step(fmt::format("<- stored by thread {} at line {} in the same barrier interval: no "
                                     "__syncthreads() between that store and this read, so on a GPU the read may "
                                     "come first (a race)",
                                     index_text(*w.other), w.other_at.line),
                         at);
                    cause(at);
                    out.cause_kind = Cause::barrier_missing;
                    return true;
                }
                step(fmt::format("<- stored by thread {} at line {}", index_text(*w.other), w.other_at.line), at);
                return walk(i, depth + 1);
            }
            default: return false;
        }
    }

    SourceRef skipped_step(const SliceLinkOutcome& s) {
        if (s.at.line > 0) {
            const SourceRef at = source_ref(s.at, "condition", block, s.other);
            step(fmt::format("<- thread {}'s store at line {} did not run: the condition at line {} was false",
                             index_text(*s.other), s.other_at.line, s.at.line),
                 at);
            return at;
        }
        const SourceRef at = source_ref(s.other_at, "store that did not run", block, s.other);
        step(fmt::format("<- thread {} never reached its store at line {}", index_text(*s.other), s.other_at.line), at);
        return at;
    }

    bool stencil_differs() const { return ctx.stencil && ctx.stencil->cause; }

    // The effective stencil's words: the kernel's stencil, the exercise's, and the difference at
    // the line that holds it.
    void stencil_steps(const std::string& file) {
        const EffectiveStencil& s = *ctx.stencil;
        // the kernel's formula with each term's line, the exercise's under it
        std::string kernel = s.view.kernel.substr(0, s.view.kernel.find(" = ") + 3);
        for (size_t k = 0; k < s.view.terms.size(); ++k) {
            const StencilTermView& t = s.view.terms[k];
            const bool neg = k < s.view.kernel.size() && s.view.kernel.find(" - " + t.text) != std::string::npos;
            kernel += (k == 0 ? "" : neg ? " - " : " + ") + t.text + (t.line > 0 ? fmt::format(" [{}]", t.line) : "");
        }
        step(fmt::format("<- the kernel computed {}  ([line] of each term)\n         the exercise's stencil is {}", kernel,
                         s.view.exercise),
             std::nullopt);
        std::optional<SourceRef> at;
        if (!s.view.lines.empty()) {
            // (the index lines of an axis or a shift: the first; a term's line: the first wrong term's)
            int line = s.view.lines.front();
            if (*s.cause != Cause::index_axis && *s.cause != Cause::index_offset)
                for (const StencilTermView& t : s.view.terms)
                    if (t.wrong && t.line > 0) {
                        line = t.line;
                        break;
                    }
            at = source_ref(SourceAt{file, line, ""}, stencil_role(*s.cause), block);
            cause(*at);
        }
        step("<- " + s.summary, at);
        out.cause_kind = s.cause;
        out.stencil_cause = true;
    }

    std::string out_cell() const {
        if (!ev.first_bad) return "the output";
        const auto& b = *ev.first_bad;
        return ctx.dims.nz == 1 ? fmt::format("{}({},{})", ctx.output, b.x, b.y)
                                : fmt::format("{}({},{},{})", ctx.output, b.x, b.y, b.z);
    }

    void run(Verdict verdict) {
        if (r.traced_block) block = *r.traced_block;
        find_odd_copies();
        size_t i = 0;
        if (r.slice.empty()) return;
        const SliceLinkOutcome& head = r.slice[0];
        const std::string what = ev.first_bad ? fmt::format("{} = {:.6g} (expected {:.6g})", out_cell(),
                                                            ev.first_bad->got, ev.first_bad->expected)
                                              : cell(head);
        if (head.kind == SliceLinkKind::no_store) {
            step(fmt::format("{}: never stored; thread {} of block {} would have stored it", out_cell(),
                             index_text(head.thread), index_text(block)),
                 std::nullopt);
            if (r.slice.size() > 1 && r.slice[1].kind == SliceLinkKind::skipped) cause(skipped_step(r.slice[1]));
            return;
        }
        if (head.kind != SliceLinkKind::stored) return;
        const SourceRef store = source_ref(head.at, "store", block, head.thread);
        step(fmt::format("{}: thread {} of block {} stored it at line {}", what, index_text(head.thread), index_text(block),
                         head.at.line),
             store);
        i = 1;
        const bool must_not_write = verdict == Verdict::boundary_modified || verdict == Verdict::input_modified;
        if (i < r.slice.size() && r.slice[i].kind == SliceLinkKind::condition) {
            const SliceLinkOutcome& c = r.slice[i++];
            if (must_not_write) {
                const SourceRef at = source_ref(c.at, "condition", block, head.thread);
                step(fmt::format("<- the store ran because the condition at line {} let it: {} must keep its value "
                                 "(a boundary cell), so that condition is wrong for it",
                                 c.at.line, out_cell()),
                     at);
                cause(at);
                return;
            }
        }
        if (must_not_write) {
            cause(store);
            return;
        }
        if (walk(i, 0)) return;
        if (stencil_differs()) {
            stencil_steps(head.at.file);
            return;
        }
        // Nothing wrong by the rules: the arithmetic itself.
        for (const auto& s : out.steps)
            if (s.at && s.at->role == "computed") cause(*s.at);
        if (ctx.stencil) {
            step("<- the kernel computed " + ctx.stencil->view.kernel + ", the exercise's stencil: every weight "
                 "multiplies its own neighbour, so the numbers differ, not the stencil (a weight's value, an "
                 "operator, the precision?)",
                 out.cause);
            out.cause_kind = Cause::value_arithmetic;
            return;
        }
        step("<- every value it was computed from is a cell the stencil reads and every shared cell was stored "
             "before the read: the arithmetic of those lines is what differs (a weight, an operator, the precision?)",
             out.cause);
    }
};

}  // namespace

ExplainedSlice explain_slice(const ReplayOutcome& replay, Verdict verdict, const Evidence& ev,
                             const ExplainContext& ctx) {
    Walker w{replay, ev, ctx, {}, {}, {}};
    w.run(verdict);
    return std::move(w.out);
}

}  // namespace stencil::checker
