#include "analysis/decomposition.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "core/error.h"

namespace stencil::analysis {

namespace {
constexpr int kMaxParts = 4096;  // per axis: far beyond any machine this runs on, small enough to be a typo
constexpr const char* kAxisName[3] = {"x", "y", "z"};
}  // namespace

std::string Decomposition::text() const { return fmt::format("{}x{}x{}", parts[0], parts[1], parts[2]); }

Decomposition parse_decomposition(std::string_view text, int axes) {
    const std::string form = axes == 3 ? "PXxPYxPZ, e.g. 2x1x1" : "PXxPY, e.g. 2x1";
    const auto bad = [&] {
        return UserError(fmt::format("--decompose must be {} with each part 1..{} (got '{}')", form, kMaxParts, text));
    };
    Decomposition d;
    std::string_view rest = text;
    for (int axis = 0; axis < axes; ++axis) {
        const std::size_t cut = axis + 1 < axes ? rest.find('x') : rest.size();
        if (cut == std::string_view::npos) throw bad();
        const std::string_view part = rest.substr(0, cut);
        int value = 0;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (part.empty() || ec != std::errc{} || end != part.data() + part.size() || value < 1 || value > kMaxParts)
            throw bad();
        d.parts[axis] = value;
        rest = axis + 1 < axes ? rest.substr(cut + 1) : std::string_view{};
    }
    return d;
}

CellRange split_range(int n, int parts, int index) {
    const int base = n / parts, longer = n % parts;
    const int lo = index * base + std::min(index, longer);
    return {lo, lo + base + (index < longer ? 1 : 0)};
}

GridDims SubBox::local_dims() const {
    std::array<int, 3> side{};
    for (int a = 0; a < 3; ++a) side[a] = owned[a].size() + halo[a][0] + halo[a][1];
    return {side[0], side[1], side[2]};
}

int SubBox::faces() const {
    int n = 0;
    for (const auto& sides : neighbour)
        for (int r : sides) n += r != kNoNeighbour;
    return n;
}

int rank_of(const Decomposition& d, std::array<int, 3> c) {
    return (c[2] * d.parts[1] + c[1]) * d.parts[0] + c[0];
}

SubBox sub_box(GridDims g, const Decomposition& d, int radius, int rank) {
    const std::array<int, 3> n{g.nx, g.ny, g.nz};
    SubBox b;
    b.rank = rank;
    b.coord = {rank % d.parts[0], (rank / d.parts[0]) % d.parts[1], rank / (d.parts[0] * d.parts[1])};
    for (int a = 0; a < 3; ++a) {
        b.owned[a] = split_range(n[a], d.parts[a], b.coord[a]);
        for (int side = 0; side < 2; ++side) {
            std::array<int, 3> c = b.coord;
            c[a] += side == 0 ? -1 : 1;
            const bool inside = c[a] >= 0 && c[a] < d.parts[a];
            b.neighbour[a][side] = inside ? rank_of(d, c) : kNoNeighbour;
            b.halo[a][side] = inside ? radius : 0;
        }
    }
    return b;
}

std::optional<std::string> decomposition_error(GridDims g, const Decomposition& d, int radius) {
    const std::array<int, 3> n{g.nx, g.ny, g.nz};
    for (int a = 0; a < 3; ++a)
        if (d.parts[a] > n[a])
            return fmt::format("--decompose {} cuts {} = {} cells into {} parts: at most one part per cell",
                               d.text(), kAxisName[a], n[a], d.parts[a]);
    // The thinnest sub-box along each axis is the last one (the remainder goes to the first).
    for (int a = 0; a < 3; ++a) {
        if (d.parts[a] == 1) continue;
        const int thinnest = split_range(n[a], d.parts[a], d.parts[a] - 1).size();
        if (thinnest < radius)
            return fmt::format("--decompose {}: a sub-box is {} cells thin along {}, thinner than the radius {} "
                               "(its neighbours' halos would need cells from beyond it)",
                               d.text(), thinnest, kAxisName[a], radius);
    }
    for (int rank = 0; rank < d.ranks(); ++rank) {
        const GridDims local = sub_box(g, d, radius, rank).local_dims();
        if (grid_error(local, radius))
            return fmt::format("--decompose {}: rank {}'s sub-box with its halos is {}x{}x{}, but every side must be "
                               "at least 2r + 1 = {} cells for the kernels",
                               d.text(), rank, local.nx, local.ny, local.nz, 2 * radius + 1);
    }
    return std::nullopt;
}

long long halo_values_sent(const SubBox& b, int radius) {
    const GridDims o = b.owned_dims();
    const std::array<long long, 3> face{(long long)o.ny * o.nz, (long long)o.nx * o.nz, (long long)o.nx * o.ny};
    long long values = 0;
    for (int a = 0; a < 3; ++a)
        for (int side = 0; side < 2; ++side)
            if (b.neighbour[a][side] != kNoNeighbour) values += radius * face[a];
    return values;
}

double DecompositionModel::predicted_seconds(double gbps, double latency_us) const {
    double worst = 0;
    for (const RankTraffic& t : ranks)
        worst = std::max(worst, t.messages * latency_us * 1e-6 + t.halo_bytes / (gbps * 1e9));
    return worst;
}

namespace {
template <class BoxOf>
DecompositionModel model_of(GridDims g, const Decomposition& d, int radius, Precision p, BoxOf box_of) {
    DecompositionModel m;
    m.grid = g;
    m.decomposition = d;
    m.radius = radius;
    m.precision = p;
    for (int rank = 0; rank < d.ranks(); ++rank) {
        const SubBox b = box_of(rank);
        RankTraffic t;
        t.rank = rank;
        t.owned = b.owned_dims();
        t.messages = b.faces();
        const long long values = halo_values_sent(b, radius);
        t.halo_bytes = values * bytes_of(p);
        t.halo_per_owned = static_cast<double>(values) / static_cast<double>(t.owned.cells());
        m.total_halo_bytes += t.halo_bytes;
        m.max_rank_halo_bytes = std::max(m.max_rank_halo_bytes, t.halo_bytes);
        m.max_rank_messages = std::max(m.max_rank_messages, t.messages);
        m.ranks.push_back(t);
    }
    return m;
}
}  // namespace

DecompositionModel decomposition_model(GridDims g, const Decomposition& d, int radius, Precision p) {
    return model_of(g, d, radius, p, [&](int rank) { return sub_box(g, d, radius, rank); });
}

GridDims grown_grid(GridDims sub, const Decomposition& d) {
    return {sub.nx * d.parts[0], sub.ny * d.parts[1], sub.nz * d.parts[2]};
}

namespace {
// Every split of `ranks` into px x py x pz, px ascending, then py; `axes` 2 keeps pz = 1. The one
// that `bytes` (nullopt: not allowed) finds cheapest, the first on a tie.
template <class Bytes>
std::optional<Decomposition> cheapest_split(int ranks, int axes, Bytes bytes) {
    std::optional<Decomposition> best;
    long long best_bytes = 0;
    for (int px = 1; px <= ranks; ++px) {
        if (ranks % px) continue;
        for (int py = 1; py <= ranks / px; ++py) {
            if ((ranks / px) % py) continue;
            const Decomposition d{{px, py, ranks / px / py}};
            if (axes == 2 && d.parts[2] != 1) continue;
            const std::optional<long long> b = bytes(d);
            if (b && (!best || *b < best_bytes)) best = d, best_bytes = *b;
        }
    }
    return best;
}
}  // namespace

std::optional<Decomposition> balanced_decomposition(GridDims g, int ranks, int radius, bool weak, bool one_axis) {
    return cheapest_split(ranks, 3, [&](const Decomposition& d) -> std::optional<long long> {
        if (one_axis && (d.parts[0] > 1) + (d.parts[1] > 1) + (d.parts[2] > 1) > 1) return std::nullopt;
        const GridDims grid = weak ? grown_grid(g, d) : g;
        if (decomposition_error(grid, d, radius)) return std::nullopt;
        return decomposition_model(grid, d, radius, Precision::f32).total_halo_bytes;
    });
}

std::optional<Decomposition> balanced_cardiac_decomposition(int n, int ranks) {
    return cheapest_split(ranks, 2, [&](const Decomposition& d) -> std::optional<long long> {
        if (cardiac_decomposition_error(n, d)) return std::nullopt;
        return cardiac_decomposition_model(n, d, Precision::f32).total_halo_bytes;
    });
}

SubBox cardiac_piece(int n, const Decomposition& d, int rank) {
    SubBox b = sub_box({n, n, 1}, Decomposition{{d.parts[0], d.parts[1], 1}}, 1, rank);
    for (int a = 0; a < 2; ++a) {
        b.owned[a].lo += 1;  // past the whole mesh's ghost column / row
        b.owned[a].hi += 1;
        b.halo[a] = {1, 1};  // a ghost ring on every side, exchanged or mirrored
    }
    return b;
}

Decomposition parse_cardiac_decomposition(std::string_view text) {
    const int axes = std::count(text.begin(), text.end(), 'x') == 1 ? 2 : 3;
    Decomposition d;
    try {
        d = parse_decomposition(text, axes);
    } catch (const UserError&) {
        throw UserError(fmt::format("--decompose must be PXxPY (or PXxPYx1), e.g. 2x2, for the 2D cardiac mesh "
                                    "(got '{}')", text));
    }
    if (d.parts[2] != 1)
        throw UserError(fmt::format("--decompose {}: the cardiac mesh is 2D, so PZ must be 1 (PXxPY)", text));
    return d;
}

std::optional<std::string> cardiac_decomposition_error(int n, const Decomposition& d) {
    if (d.parts[2] != 1) return fmt::format("--decompose {}: the cardiac mesh is 2D, so PZ must be 1", d.text());
    for (int a = 0; a < 2; ++a)
        if (d.parts[a] > n)
            return fmt::format("--decompose {}x{} cuts {} = {} interior cells into {} parts: every piece needs at "
                               "least one interior cell",
                               d.parts[0], d.parts[1], kAxisName[a], n, d.parts[a]);
    return std::nullopt;
}

DecompositionModel cardiac_decomposition_model(int n, const Decomposition& d, Precision p) {
    return model_of({n, n, 1}, d, 1, p, [&](int rank) { return cardiac_piece(n, d, rank); });
}

}  // namespace stencil::analysis
