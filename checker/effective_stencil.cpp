// effective_stencil (effective_stencil.h): the traced products placed at their offsets from the
// output cell, then compared with the exercise's stencil from the most specific difference to the
// most general: the same stencil around another cell, the same stencil with axes permuted (a tile
// transposed, or weights paired by the wrong axis), then weight by weight and cell by cell.
#include "checker/effective_stencil.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "checker/data_exercise.h"
#include "checker/exercises.h"
#include "kernels/stencil_shape.h"

namespace stencil::checker {

namespace {

using Offset = std::array<int, 3>;
using Perm = std::array<int, 3>;  // axis a of the expected offset goes to axis perm[a]

constexpr const char* kAxis[3] = {"x", "y", "z"};

Offset minus(const Offset& a, const Offset& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Offset permuted(const Offset& o, const Perm& p) {
    Offset r{};
    for (int a = 0; a < 3; ++a) r[(size_t)p[(size_t)a]] = o[(size_t)a];
    return r;
}

std::string coord(const char* axis, int d) {
    if (d == 0) return axis;
    return fmt::format("{}{}{}", axis, d > 0 ? "+" : "-", std::abs(d));
}

std::string lines_words(std::vector<int> lines) {
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    lines.erase(std::remove(lines.begin(), lines.end(), 0), lines.end());
    if (lines.empty()) return "";
    std::string s;
    for (size_t i = 0; i < lines.size(); ++i)
        s += (i == 0 ? "" : i + 1 == lines.size() ? " and " : ", ") + std::to_string(lines[i]);
    return (lines.size() > 1 ? "lines " : "line ") + s;
}

// One product of the traced sum, placed.
struct Placed {
    const SumTermOutcome* t = nullptr;
    bool linear = false;           // one weight times one input cell, nothing else
    std::string weight;
    std::optional<Offset> offset;  // the cell's offset from the output (inside the grid)
    int line = 0;
    std::string text;
};

// A permutation's words: "x and z are swapped", "x, y and z are rotated".
std::string perm_words(const Perm& p) {
    std::vector<int> moved;
    for (int a = 0; a < 3; ++a)
        if (p[(size_t)a] != a) moved.push_back(a);
    if (moved.size() == 2) return fmt::format("your {} and {} are swapped", kAxis[moved[0]], kAxis[moved[1]]);
    return "your x, y and z are rotated";
}

struct Comparer {
    const ReplayOutcome& r;
    const StencilInput& in;
    bool three_d;
    std::vector<Placed> placed;
    std::map<std::string, Offset> expected;  // weight -> offset
    std::string centre_weight;
    EffectiveStencil out;

    Comparer(const ReplayOutcome& r_, const StencilInput& i) : r(r_), in(i), three_d(i.dims.nz > 1) {
        for (const StencilTap& p : in.shape) {
            expected[p.weight] = p.offset;
            if (p.offset == Offset{0, 0, 0}) centre_weight = p.weight;
        }
    }

    std::string cell_text(const TermCell& c) const {
        const GridDims g = in.dims;
        if (c.element < 0 || c.element >= g.cells()) return fmt::format("{}[{}]", c.array, c.element);
        const Offset abs{int(c.element % g.nx), int((c.element / g.nx) % g.ny), int(c.element / ((long long)g.nx * g.ny))};
        return offset_cell(c.array, minus(abs, in.out), three_d);
    }

    std::optional<Offset> offset_of(const TermCell& c) const {
        const GridDims g = in.dims;
        if (c.array != in.input || c.element < 0 || c.element >= g.cells()) return std::nullopt;
        const Offset abs{int(c.element % g.nx), int((c.element / g.nx) % g.ny), int(c.element / ((long long)g.nx * g.ny))};
        return minus(abs, in.out);
    }

    // "c3 in(x, y, z-1)", "2 c1 in(x-1, y, z)", "in(x, y, z) in(x+1, y, z)".
    std::string term_text(const SumTermOutcome& t) const {
        std::vector<std::string> parts;
        const double f = std::abs(t.factor);
        if (std::abs(f - 1) > 1e-12) parts.push_back(fmt::format("{:g}", f));
        for (const std::string& w : t.weights) parts.push_back(w);
        for (const TermCell& c : t.cells) parts.push_back(cell_text(c));
        for (const std::string& o : t.others) parts.push_back("[" + o + "]");
        std::string s;
        for (const std::string& p : parts) s += (s.empty() ? "" : " ") + p;
        return s.empty() ? "0" : s;
    }

    int weight_rank(const std::string& w) const {
        for (size_t i = 0; i < in.shape.size(); ++i)
            if (in.shape[i].weight == w) return int(i);
        return int(in.shape.size());
    }

    bool shared_load(const TermCell& c) const {
        int uses = 0;
        for (const SumTermOutcome& t : r.terms)
            for (const TermCell& x : t.cells) uses += x.element == c.element && x.line == c.line && x.array == c.array;
        return uses > 1;
    }

    void place() {
        for (const SumTermOutcome& t : r.terms) {
            Placed p;
            p.t = &t;
            p.text = term_text(t);
            // A term's line: where its cell was read, unless the compiler shared that one load
            // between terms (in[c + 1] written twice): then where this term multiplied it in.
            p.line = !t.cells.empty() ? t.cells[0].line : t.line;
            if (!t.cells.empty() && t.line > 0 && shared_load(t.cells[0])) p.line = t.line;
            if (t.weights.size() == 1 && t.cells.size() == 1 && t.others.empty()) {
                p.weight = t.weights[0];
                p.offset = offset_of(t.cells[0]);
                p.linear = p.offset.has_value() && std::abs(t.factor - 1) < 1e-12;
            }
            placed.push_back(std::move(p));
        }
        std::stable_sort(placed.begin(), placed.end(), [&](const Placed& a, const Placed& b) {
            const int ra = weight_rank(a.weight), rb = weight_rank(b.weight);
            return ra != rb ? ra < rb : a.line < b.line;
        });
    }

    std::string formula_head() const {
        return three_d ? fmt::format("{}(x, y, z) = ", in.output) : fmt::format("{}(x, y) = ", in.output);
    }

    void write_formulas() {
        std::string k = formula_head();
        for (size_t i = 0; i < placed.size(); ++i) {
            const bool neg = placed[i].t->factor < 0;
            k += i == 0 ? (neg ? "-" : "") : (neg ? " - " : " + ");
            k += placed[i].text;
            out.view.terms.push_back({placed[i].text, placed[i].line, false});
        }
        if (placed.empty()) k += "0";
        out.view.kernel = k;
        std::string e = formula_head();
        for (size_t i = 0; i < in.shape.size(); ++i)
            e += (i ? " + " : "") + in.shape[i].weight + " " + offset_cell(in.input, in.shape[i].offset, three_d);
        out.view.exercise = e;
    }

    void mark_wrong(size_t i) { out.view.terms[i].wrong = true; }

    void differ(std::string words) { out.view.differences.push_back(std::move(words)); }

    void lines(const std::vector<int>& l) {
        for (int x : l)
            if (x > 0 && std::find(out.view.lines.begin(), out.view.lines.end(), x) == out.view.lines.end())
                out.view.lines.push_back(x);
        std::sort(out.view.lines.begin(), out.view.lines.end());
    }

    std::vector<int> index_lines_of_all() const {
        std::vector<int> v;
        for (const Placed& p : placed)
            for (const TermCell& c : p.t->cells) v.insert(v.end(), c.index_lines.begin(), c.index_lines.end());
        return v;
    }

    // The tile coordinates (x first) of the shared cell a term's output thread read.
    std::optional<Offset> tile_of(const TermCell& c) const {
        if (c.shared.empty() || c.shared_offset < 0) return std::nullopt;
        for (const SharedArray& a : in.arrays) {
            if (a.name != c.shared || a.elem_bytes <= 0 || a.extents.empty() || a.extents.size() > 3) continue;
            long long e = c.shared_offset / a.elem_bytes;
            Offset t{0, 0, 0};
            for (size_t k = 0; k < a.extents.size(); ++k) {
                const long long ext = a.extents[a.extents.size() - 1 - k];
                t[k] = int(e % ext);
                e /= ext;
            }
            return t;
        }
        return std::nullopt;
    }

    // Do the linear terms put every weight at perm(its offset) + shift, each weight once?
    bool matches(const Perm& p, const Offset& shift) const {
        std::map<std::string, int> seen;
        for (const Placed& x : placed) {
            if (!x.linear) return false;
            auto it = expected.find(x.weight);
            if (it == expected.end() || ++seen[x.weight] > 1) return false;
            if (minus(*x.offset, shift) != permuted(it->second, p)) return false;
        }
        return seen.size() == expected.size();
    }

    void compare() {
        for (size_t i = 0; i < placed.size(); ++i)
            if (!placed[i].linear) {
                mark_wrong(i);
                differ(fmt::format("{}{} is not a weight times a cell of {}", placed[i].text,
                                   placed[i].line > 0 ? fmt::format(" (line {})", placed[i].line) : "", in.input));
                if (placed[i].line > 0) lines({placed[i].line});
            }
        if (!out.view.differences.empty()) {
            // A factor read from a shared cell no thread stored is that read's mistake (a skipped
            // load), not arithmetic that is no stencil.
            for (const Placed& x : placed)
                if (!x.linear && x.text.find("no thread stored") != std::string::npos) {
                    out.cause = Cause::unstored_read;
                    out.summary = fmt::format("{}{} reads shared memory no thread stored: a tile cell never loaded",
                                              x.text, x.line > 0 ? fmt::format(" (line {})", x.line) : "");
                    return;
                }
            out.cause = Cause::not_a_sum;
            out.summary = "the output is not a sum of weights times cells of " + in.input + ": " +
                          out.view.differences.front();
            return;
        }
        // The centre weight's cell: the cell the terms sit around.
        Offset shift{0, 0, 0};
        for (const Placed& x : placed)
            if (x.weight == centre_weight) shift = *x.offset;
        static constexpr Perm kPerms[] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {2, 1, 0}, {1, 2, 0}, {2, 0, 1}};
        for (const Perm& p : kPerms) {
            const bool identity = p == Perm{0, 1, 2};
            if (!matches(p, shift)) continue;
            if (identity && shift == Offset{0, 0, 0}) {
                out.summary = "the kernel's sum is the exercise's stencil: every weight multiplies its own neighbour";
                return;
            }
            if (shift != Offset{0, 0, 0}) return around_other_cell(p, shift);
            return axes_permuted(p);
        }
        cell_by_cell();
    }

    // Every term sits around another cell than the output's.
    void around_other_cell(const Perm& p, const Offset& shift) {
        const Offset c{in.out[0] + shift[0], in.out[1] + shift[1], in.out[2] + shift[2]};
        std::optional<Perm> swap;
        static constexpr Perm kSwaps[] = {{0, 2, 1}, {1, 0, 2}, {2, 1, 0}, {1, 2, 0}, {2, 0, 1}};
        for (const Perm& q : kSwaps)
            if (permuted(in.out, q) == c) swap = q;
        const std::string around = offset_cell(in.input, shift, three_d);
        for (size_t i = 0; i < placed.size(); ++i) mark_wrong(i);
        lines(index_lines_of_all());
        const std::string where = lines_words(out.view.lines);
        if (swap) {
            // out(x, y, z) reads around in(z, y, x): name the swapped coordinates as the student sees them
            std::array<std::string, 3> names{"x", "y", "z"};
            Offset idx{0, 1, 2};
            const Offset to = permuted(idx, *swap);
            for (int a = 0; a < 3; ++a) names[(size_t)to[(size_t)a]] = kAxis[a];
            const std::string reads = three_d ? fmt::format("({}, {}, {})", names[0], names[1], names[2])
                                              : fmt::format("({}, {})", names[0], names[1]);
            out.cause = Cause::index_axis;
            differ(fmt::format("{}: the output at {} reads around {}{}", perm_words(*swap),
                               three_d ? "(x, y, z)" : "(x, y)", reads,
                               where.empty() ? "" : "; the indices are computed at " + where));
        } else {
            out.cause = Cause::index_offset;
            differ(fmt::format("every term is shifted: the output at {} reads around {} instead of {}{}",
                               three_d ? "(x, y, z)" : "(x, y)", around,
                               offset_cell(in.input, {0, 0, 0}, three_d),
                               where.empty() ? "" : "; the indices are computed at " + where));
        }
        // (the loads' indices swapped move the neighbours with the centre: no second remark)
        if (p != Perm{0, 1, 2} && !(swap && p == *swap)) differ("and around that cell, " + perm_words(p).substr(5));
        out.summary = out.view.differences.front();
    }

    // The terms are the stencil's with axes permuted: a tile whose axes hold other axes of the grid
    // (the index lines), or weights paired with the neighbours of another axis (the terms' lines).
    void axes_permuted(const Perm& p) {
        // Where the output's thread read its cells from a tile: the tile offsets against the grid's.
        std::optional<Offset> centre_tile;
        for (const Placed& x : placed)
            if (x.weight == centre_weight) centre_tile = tile_of(x.t->cells[0]);
        bool tile_by_weight = centre_tile.has_value(), tile_by_grid = centre_tile.has_value();
        for (const Placed& x : placed) {
            const auto t = tile_of(x.t->cells[0]);
            if (!t || !centre_tile) {
                tile_by_weight = tile_by_grid = false;
                continue;
            }
            const Offset d = minus(*t, *centre_tile);
            tile_by_weight = tile_by_weight && d == expected.at(x.weight);
            tile_by_grid = tile_by_grid && d == *x.offset;
        }
        if (tile_by_weight && !tile_by_grid) {
            // each weight reads the right tile neighbour, but the tile holds the grid transposed
            std::vector<int> copy;
            for (const Placed& x : placed) {
                const TermCell& c = x.t->cells[0];
                copy.insert(copy.end(), c.index_lines.begin(), c.index_lines.end());
            }
            lines(copy);
            for (size_t i = 0; i < placed.size(); ++i)
                if (*placed[i].offset != expected.at(placed[i].weight)) mark_wrong(i);
            std::vector<int> moved;
            for (int a = 0; a < 3; ++a)
                if (p[(size_t)a] != a) moved.push_back(a);
            const std::string tile = centre_tile ? placed.front().t->cells[0].shared : "the tile";
            out.cause = Cause::index_axis;
            differ(fmt::format("{}: {}'s {} axis holds the grid's {} (its cells are loaded with the axes of "
                               "the indices exchanged{})",
                               perm_words(p), tile, kAxis[moved[0]], kAxis[p[(size_t)moved[0]]],
                               out.view.lines.empty() ? "" : ", at " + lines_words(out.view.lines)));
            out.summary = out.view.differences.front();
            return;
        }
        cell_by_cell();
    }

    // Weight by weight: which multiplies another cell than the stencil gives it; cell by cell:
    // which is never read, read twice, or not the stencil's.
    void cell_by_cell() {
        std::map<Offset, std::vector<size_t>> reads;  // offset -> the terms that read it
        std::map<std::string, std::vector<size_t>> by_weight;
        for (size_t i = 0; i < placed.size(); ++i) {
            reads[*placed[i].offset].push_back(i);
            by_weight[placed[i].weight].push_back(i);
        }
        std::vector<int> wrong_lines;
        bool pairing_only = true;
        for (size_t i = 0; i < placed.size(); ++i) {
            const Placed& x = placed[i];
            auto it = expected.find(x.weight);
            if (it == expected.end()) {
                mark_wrong(i);
                pairing_only = false;
                wrong_lines.push_back(x.line);
                differ(fmt::format("{} at line {} is not a weight of this stencil", x.weight, x.line));
                continue;
            }
            if (*x.offset == it->second) continue;
            mark_wrong(i);
            wrong_lines.push_back(x.line);
            // A value that reached the term through register moves (a queue shifted plane by plane)
            // may hold the wrong cell because of a move: those lines are the mistake's candidates.
            // A value loaded by another statement and carried in a register (a queue shifted plane by
            // plane) may hold the wrong cell because of how it was carried: name where it came from.
            const TermCell& cell = x.t->cells[0];
            std::string carried;
            if (!cell.move_lines.empty()) {
                carried = fmt::format(" (its value moved through {})", lines_words(cell.move_lines));
                wrong_lines.insert(wrong_lines.end(), cell.move_lines.begin(), cell.move_lines.end());
            } else if (cell.line > 0 && cell.line != x.line && cell.shared.empty()) {
                carried = fmt::format(" (a value line {} loaded, carried in a register)", cell.line);
            }
            differ(fmt::format("{} multiplies {} at line {}{}; the stencil gives {} to {}", x.weight,
                               offset_cell(in.input, *x.offset, three_d), x.line, carried, x.weight,
                               offset_cell(in.input, it->second, three_d)));
        }
        for (const StencilTap& p : in.shape) {
            if (!by_weight.count(p.weight)) {
                pairing_only = false;
                differ(fmt::format("{} multiplies nothing: its term {} {} is missing", p.weight, p.weight,
                                   offset_cell(in.input, p.offset, three_d)));
            } else if (by_weight[p.weight].size() > 1) {
                pairing_only = false;
            }
            const auto r = reads.find(p.offset);
            if (r == reads.end()) {
                pairing_only = false;
                differ(fmt::format("{} is never read", offset_cell(in.input, p.offset, three_d)));
            }
        }
        for (const auto& [off, who] : reads) {
            if (who.size() < 2) continue;
            pairing_only = false;
            std::vector<int> l;
            for (size_t i : who) l.push_back(placed[i].line);
            differ(fmt::format("{} is read {} ({})", offset_cell(in.input, off, three_d),
                               who.size() == 2 ? std::string("twice") : std::to_string(who.size()) + " times",
                               lines_words(l)));
        }
        if (wrong_lines.empty())  // a term missing: its neighbours' lines
            for (size_t i = 0; i < placed.size(); ++i)
                if (reads[*placed[i].offset].size() > 1) wrong_lines.push_back(placed[i].line);
        lines(wrong_lines);
        out.cause = pairing_only ? Cause::weight_pairing : Cause::neighbour_missing;
        // the summary: the read-twice / never-read facts first when a neighbour is missing
        std::string s;
        if (!pairing_only) {
            for (const std::string& d : out.view.differences)
                if (d.find("never read") != std::string::npos || d.find(" is read ") != std::string::npos)
                    s += (s.empty() ? "" : "; ") + d;
        }
        for (const std::string& d : out.view.differences)
            if (d.find(" multiplies ") != std::string::npos && d.find("nothing") == std::string::npos)
                s += (s.empty() ? "" : "; ") + d;
        out.summary = s.empty() && !out.view.differences.empty() ? out.view.differences.front() : s;
    }
};

}  // namespace

StencilShape star_stencil(int radius) {
    StencilShape s(coefficient_count(radius));
    s[0] = {{0, 0, 0}, "c0"};
    for (int d = 1; d <= radius; ++d) {
        const Offset offs[6] = {{-d, 0, 0}, {d, 0, 0}, {0, -d, 0}, {0, d, 0}, {0, 0, -d}, {0, 0, d}};
        for (int dir = 0; dir < 6; ++dir) {
            const int k = coefficient_index(d, Direction(dir));
            s[(size_t)k] = {offs[dir], fmt::format("c{}", k)};
        }
    }
    return s;
}

StencilShape exercise_stencil(const Exercise& ex) {
    if (ex.is_star3d()) return star_stencil(ex.radius);
    if (!ex.is_data() || !ex.data->kernel.weights_in_constant) return {};
    StencilShape s;
    const auto& points = ex.data->stencil.points;
    for (size_t k = 0; k < points.size(); ++k)
        s.push_back({points[k], ex.data->kernel.weights_as_array ? fmt::format("c[{}]", k) : data_weight_name(k)});
    return s;
}

std::string offset_cell(const std::string& array, const std::array<int, 3>& o, bool three_d) {
    if (!three_d) return fmt::format("{}({}, {})", array, coord("x", o[0]), coord("y", o[1]));
    return fmt::format("{}({}, {}, {})", array, coord("x", o[0]), coord("y", o[1]), coord("z", o[2]));
}

std::optional<EffectiveStencil> effective_stencil(const ReplayOutcome& r, const StencilInput& in) {
    if (r.terms.empty()) return std::nullopt;
    Comparer c(r, in);
    c.place();
    c.write_formulas();
    c.compare();
    return std::move(c.out);
}

}  // namespace stencil::checker
