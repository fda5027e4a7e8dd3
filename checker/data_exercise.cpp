#include "checker/data_exercise.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "core/error.h"
#include "checker/protocol.h"
#include "core/parallel.h"

namespace stencil::checker {

namespace {

const DataExercise& data_of(const Exercise& ex) {
    if (!ex.data) throw std::logic_error("exercise " + ex.name + " is not a stencil written as data");
    return *ex.data;
}

double round_to_precision(double v, Precision p) { return p == Precision::f32 ? double(float(v)) : v; }

// Every name an expression may use, at tile T and (for the launch) a grid.
struct Names {
    const Exercise& ex;
    int tile;
    GridDims dims{1, 1, 1};
    std::vector<std::pair<std::string, long long>> macros;
    long long operator()(const std::string& s) const {
        const DataStencil& st = data_of(ex).stencil;
        if (s == "T") return tile;
        if (s == "r") return st.radius;
        if (s == "b") return st.boundary;
        if (s == "nx" || s == "N") return dims.nx;
        if (s == "ny") return dims.ny;
        if (s == "nz") return dims.nz;
        for (const auto& [name, v] : macros)
            if (name == s) return v;
        return 0;  // the spec reader let no other name through
    }
};

}  // namespace

std::vector<double> data_weights(const Exercise& ex, std::uint64_t seed) {
    const DataStencil& st = data_of(ex).stencil;
    std::vector<double> w;
    if (!st.weights.empty()) {
        for (double v : st.weights) w.push_back(round_to_precision(v, ex.precision));
        return w;
    }
    // Magnitudes in [0.25, 1) with a random sign, redrawn until no two are within 1e-3 of each other:
    // a weight on the wrong neighbour changes an output by far more than the rounding bound.
    std::mt19937_64 rng(mix_seed(seed ^ 0x3e1647a5ull));
    std::uniform_real_distribution<double> mag(0.25, 1.0);
    while (w.size() < st.points.size()) {
        const double v = round_to_precision((rng() & 1 ? -1 : 1) * mag(rng), ex.precision);
        const bool close = std::any_of(w.begin(), w.end(), [&](double o) { return std::abs(std::abs(o) - std::abs(v)) < 1e-3; });
        if (!close) w.push_back(v);
    }
    return w;
}

std::string data_weight_name(size_t k) { return fmt::format("c{}", k); }

std::vector<std::pair<std::string, long long>> data_macros(const Exercise& ex, int tile) {
    Names names{ex, tile, {1, 1, 1}, {}};
    std::vector<std::pair<std::string, long long>> out;
    for (const DataMacro& m : data_of(ex).kernel.macros) {
        std::string error;
        const auto v = m.value.eval(names, error);
        if (!v) throw UserError(fmt::format("{}: macro {} = \"{}\" at T = {}: {}", ex.spec_file, m.name, m.value.text(), tile, error));
        out.push_back({m.name, *v});
    }
    return out;
}

Launch data_launch(const Exercise& ex, int tile, GridDims dims, std::string& error) {
    Names names{ex, tile, dims, data_macros(ex, tile)};
    const DataKernel& k = data_of(ex).kernel;
    Launch l;
    const char* axis = "xyz";
    const long long grid_max[3] = {std::numeric_limits<int>::max(), 65535, 65535};
    long long threads = 1;
    for (int a = 0; a < 3; ++a) {
        std::string why;
        const auto b = k.block[size_t(a)].eval(names, why);
        const auto g = k.grid[size_t(a)].eval(names, why);
        if (!b || !g) {
            error = fmt::format("{}: the launch at T = {} and {}x{}x{}: {}", ex.spec_file, tile, dims.nx, dims.ny, dims.nz, why);
            return l;
        }
        if (*b < 1 || *b > 1024 || *g < 1 || *g > grid_max[a]) {
            error = fmt::format("{}: at T = {} and a {}x{}x{} grid, block.{} = \"{}\" is {} and grid.{} = \"{}\" is {}: "
                                "each must be at least 1 (block at most 1024, grid within the GPU's limit)",
                                ex.spec_file, tile, dims.nx, dims.ny, dims.nz, axis[a], k.block[size_t(a)].text(), *b,
                                axis[a], k.grid[size_t(a)].text(), *g);
            return l;
        }
        threads *= *b;
        l.block[a] = unsigned(*b), l.grid[a] = unsigned(*g);
    }
    if (threads > 1024) {
        error = fmt::format("{}: at T = {} a block has {} threads ({} x {} x {}); a GPU allows 1024", ex.spec_file, tile,
                            threads, l.block[0], l.block[1], l.block[2]);
        return l;
    }
    if (k.shared) {
        std::string why;
        const auto values = k.shared->eval(names, why);
        const long long value_bytes = bytes_of(ex.precision);
        if (!values) {
            error = fmt::format("{}: shared = \"{}\" at T = {}: {}", ex.spec_file, k.shared->text(), tile, why);
        } else if (*values < 0 || *values * value_bytes > kMaxSharedBytesPerBlock) {
            error = fmt::format("{}: at T = {} shared = \"{}\" is {} values ({} bytes); a block may have 0 to {} bytes "
                                "({} KiB) of shared memory", ex.spec_file, tile, k.shared->text(), *values,
                                *values * value_bytes, kMaxSharedBytesPerBlock, kMaxSharedBytesPerBlock / 1024);
        } else {
            l.dynamic_shared_bytes = *values * value_bytes;
        }
    }
    return l;
}

GridDims data_dims(const Exercise& ex, int n) { return data_of(ex).stencil.dims == 2 ? GridDims{n, n, 1} : GridDims{n, n, n}; }

std::string data_tile_problem(const Exercise& ex, int tile) {
    const DataKernel& k = data_of(ex).kernel;
    if (tile < k.tile_min || tile > k.tile_max)
        return fmt::format("--tile {}: the {} exercise takes T from {} to {} ({})", tile, ex.name, k.tile_min, k.tile_max,
                           ex.spec_file);
    std::string error;
    data_launch(ex, tile, data_dims(ex, data_of(ex).sizes.count), error);
    return error.empty() ? std::string() : "--tile " + std::to_string(tile) + ": " + error;
}

std::vector<int> data_drawn_sizes(const Exercise& ex, std::uint64_t seed) {
    const DataSizes& s = data_of(ex).sizes;
    std::mt19937_64 rng(mix_seed(seed ^ 0x5eed512e5ull));
    std::uniform_int_distribution<int> d(s.hidden_min, s.hidden_max);
    std::vector<int> out;
    for (int tries = 0; tries < 4096 && int(out.size()) < s.hidden_count; ++tries) {
        const int n = d(rng);
        if (std::find(s.visible.begin(), s.visible.end(), n) == s.visible.end() &&
            std::find(out.begin(), out.end(), n) == out.end())
            out.push_back(n);
    }
    return out;
}

double data_gamma(const Exercise& ex) {
    const double m = double(data_of(ex).stencil.points.size());
    const auto gamma = [m](double u) { return m * u / (1 - m * u); };
    const double u = ex.precision == Precision::f32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
    return gamma(u) + gamma(std::ldexp(1.0, -53));
}

bool data_is_boundary(const Exercise& ex, GridDims d, int x, int y, int z) {
    const int b = data_of(ex).stencil.boundary;
    const auto edge = [b](int v, int n) { return v < b || v >= n - b; };
    return edge(x, d.nx) || edge(y, d.ny) || (data_of(ex).stencil.dims == 3 && edge(z, d.nz));
}

std::string data_stencil_formula(const Exercise& ex) {
    const DataStencil& st = data_of(ex).stencil;
    const auto coord = [](const char* axis, int o) {
        return o == 0 ? std::string(axis) : fmt::format("{}{}{}", axis, o < 0 ? "-" : "+", std::abs(o));
    };
    std::string s = st.dims == 2 ? "out(x,y) =" : "out(x,y,z) =";
    for (size_t k = 0; k < st.points.size(); ++k) {
        const auto& p = st.points[k];
        s += fmt::format("{} {} in({},{}{})", k ? " +" : "", data_weight_name(k), coord("x", p[0]), coord("y", p[1]),
                         st.dims == 3 ? "," + coord("z", p[2]) : "");
    }
    return s;
}

analysis::GeneralStencilModel data_stencil_model(const Exercise& ex) {
    return analysis::general_stencil_model(int(data_of(ex).stencil.points.size()), int(bytes_of(ex.precision)));
}

}  // namespace stencil::checker
