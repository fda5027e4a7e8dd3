// The cardiac2d and derivative exercises' cases and judge (field_exercises.h says what is
// judged). Sections: [values] poison, bits; [cardiac2d cases]; [derivative cases]; [sizes and
// files]; [judging one run]; [judge_field_runs].
#include "checker/field_exercises.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <future>
#include <random>

#include "checker/causes.h"
#include "checker/contract.h"
#include "checker/data_exercise.h"
#include "checker/diagnostics.h"
#include "checker/run_plan.h"
#include "core/cardiac2d.h"
#include "core/cardiac2d_check.h"
#include "core/derivative.h"
#include "core/error.h"
#include "core/parallel.h"
#include "kernels/cardiac2d/versions.h"
#include "kernels/derivative/versions.h"

namespace stencil::checker {

namespace {

// ---- [values] ---------------------------------------------------------------------------------
std::uint64_t bits_at(const Cells& c, size_t i) {
    if (c.precision == Precision::f64) {
        std::uint64_t b;
        std::memcpy(&b, &c.f64[i], 8);
        return b;
    }
    std::uint32_t b;
    std::memcpy(&b, &c.f32[i], 4);
    return b;
}
double value_at(const Cells& c, size_t i) { return c.precision == Precision::f64 ? c.f64[i] : double(c.f32[i]); }

// guard + values + guard in precision p; the guards hold values in [100, 200) (negated for
// written arrays), so that a store into them is seen and a load from them is not a plausible value.
Cells guarded(Precision p, const std::vector<double>& values, long long guard, bool written, std::mt19937_64& rng) {
    Cells c;
    c.precision = p;
    std::uniform_real_distribution<double> sentinel(100, 200);
    const size_t total = values.size() + 2 * size_t(guard);
    auto fill = [&](auto& v) {
        using real = typename std::decay_t<decltype(v)>::value_type;
        v.resize(total);
        for (long long i = 0; i < guard; ++i) {
            v[size_t(i)] = real(written ? -sentinel(rng) : sentinel(rng));
            v[total - 1 - size_t(i)] = real(written ? -sentinel(rng) : sentinel(rng));
        }
        for (size_t i = 0; i < values.size(); ++i) v[size_t(guard) + i] = real(values[i]);
    };
    if (p == Precision::f64) fill(c.f64);
    else fill(c.f32);
    return c;
}

void set_bits(Cells& c, size_t i, std::uint64_t bits) {
    if (c.precision == Precision::f64) {
        std::memcpy(&c.f64[i], &bits, 8);
    } else {
        const auto b = static_cast<std::uint32_t>(bits);
        std::memcpy(&c.f32[i], &b, 4);
    }
}

double round_to(double v, Precision p) { return p == Precision::f32 ? double(float(v)) : v; }

FieldBuffer input_buffer(const char* name, Precision p, const std::vector<double>& values, long long guard,
                         std::mt19937_64& rng) {
    return {name, true, guarded(p, values, guard, false, rng), {}, {}};
}

// ---- [cardiac2d cases] --------------------------------------------------------------------------
// One step from random E_prev and R in [0, 1) (every neighbour differs, so a wrong neighbour shows
// everywhere), the ghost ring filled as the lecture's solve() fills it before the step. E starts
// poisoned inside and random on its ghost ring, which no kernel writes; R is read and written.
FieldCase cardiac_case(const Exercise& ex, int n, std::uint64_t seed) {
    using namespace cardiac2d;
    const Precision p = ex.precision;
    std::mt19937_64 rng(seed);
    FieldCase c;
    c.n = n;
    c.dims = {n + 2, n + 2, 1};
    c.label = fmt::format("n={} ({}x{} with ghosts)", n, n + 2, n + 2);
    c.guard = std::max<long long>(4096, 2LL * (n + 2) + 64);
    c.poison = random_poison(p, rng);
    State in;
    in.n = n;
    std::uniform_real_distribution<double> unit(0, 1);
    in.E.resize(size_t(mesh_cells(n)));
    in.R.resize(in.E.size());
    for (auto& v : in.E) v = round_to(unit(rng), p);
    for (auto& v : in.R) v = round_to(unit(rng), p);
    fill_ghosts(n, in.E);
    const StepCoefficients k = step_coefficients(n, p);
    State out = in;
    reference_step(k, out);
    const StepBound bound = one_step_bound(k, in, p);

    std::vector<double> e0(in.E.size());
    for (auto& v : e0) v = -round_to(unit(rng), p);  // the ghost ring's values; inside: poison below
    c.buffers.push_back(input_buffer("E_prev", p, in.E, c.guard, rng));
    FieldBuffer E{"E", false, guarded(p, e0, c.guard, true, rng), out.E, bound.E};
    FieldBuffer R{"R", false, guarded(p, in.R, c.guard, true, rng), out.R, bound.R};
    for (int y = 0; y < n + 2; ++y)
        for (int x = 0; x < n + 2; ++x) {
            const size_t i = size_t(in.index(x, y));
            if (x == 0 || y == 0 || x == n + 1 || y == n + 1) {
                E.expected[i] = e0[i], E.bound[i] = -1;
                R.expected[i] = in.R[i], R.bound[i] = -1;
            } else {
                set_bits(E.cells, size_t(c.guard) + i, c.poison);
            }
        }
    c.buffers.push_back(std::move(E));
    c.buffers.push_back(std::move(R));
    c.args = {{ArgKind::buffer, 0, 0}, {ArgKind::buffer, 1, 0}, {ArgKind::buffer, 2, 0},
              {ArgKind::i32, 0, double(n)}, {ArgKind::real, 0, k.alpha}, {ArgKind::real, 0, k.dt}};
    const cardiac2d::Version& v = *cardiac2d::find_version(ex.version);
    const cardiac2d::Launch l = launch_geometry(v.id, n, p);
    c.launch.grid[0] = unsigned(l.grid.x), c.launch.grid[1] = unsigned(l.grid.y), c.launch.grid[2] = unsigned(l.grid.z);
    c.launch.block[0] = unsigned(l.block.x), c.launch.block[1] = unsigned(l.block.y), c.launch.block[2] = unsigned(l.block.z);
    c.outputs = (long long)n * n;
    // The lab's shared kernel (kernels/cardiac2d/shared.cuh): each cell's E_prev and R once, and
    // each tile's four ghost edges once (w + w + h + h loads for a w x h tile; not the corners).
    for (int y0 = 0; y0 < n; y0 += v.tile_y)
        for (int x0 = 0; x0 < n; x0 += v.tile_x) {
            const long long w = std::min(v.tile_x, n - x0), h = std::min(v.tile_y, n - y0);
            c.lab_loads += 2 * w * h + 2 * (w + h);
        }
    return c;
}

// ---- [derivative cases] -------------------------------------------------------------------------
// f random in [-1, 1) on an MX x my x mz periodic grid; df poisoned; every cell computed.
FieldCase derivative_case(const Exercise& ex, int my, int mz, std::uint64_t seed) {
    const Precision p = ex.precision;
    std::mt19937_64 rng(seed);
    FieldCase c;
    c.n = my;
    c.dims = {kDerivativeExerciseMX, my, mz};
    c.label = fmt::format("{}x{}x{}", c.dims.nx, my, mz);
    c.guard = std::max<long long>(4096, 2LL * c.dims.nx * my + 64);
    c.poison = random_poison(p, rng);
    // f in [-1, 1), each z-plane from a generator of its own, the planes made in parallel (the
    // timed case is 16.7 M cells).
    std::vector<double> f(size_t(c.dims.cells()));
    const std::uint64_t field_seed = rng();
    const long long plane = (long long)c.dims.nx * my;
    for_each_slab(mz, slab_count(mz, 1), [&](int, int z0, int z1) {
        std::uniform_real_distribution<double> value(-1, 1);
        for (int z = z0; z < z1; ++z) {
            std::mt19937_64 plane_rng(mix_seed(field_seed + std::uint64_t(z)));
            for (long long i = 0; i < plane; ++i) f[size_t(z * plane + i)] = round_to(value(plane_rng), p);
        }
    });
    const DerivativeExpected e = derivative_expected(f, c.dims, Axis::x, p);
    c.buffers.push_back(input_buffer("f", p, f, c.guard, rng));
    FieldBuffer df{"df", false, guarded(p, f, c.guard, true, rng), e.value, e.bound};
    for (long long i = 0; i < c.dims.cells(); ++i) set_bits(df.cells, size_t(c.guard + i), c.poison);
    c.buffers.push_back(std::move(df));
    c.args = {{ArgKind::buffer, 0, 0}, {ArgKind::buffer, 1, 0}, {ArgKind::i32, 0, double(c.dims.nx)},
              {ArgKind::i32, 0, double(my)}, {ArgKind::i32, 0, double(mz)}};
    const DerivativeVersion& v = *find_derivative_version(ex.version);
    const DerivativeLaunch l = derivative_launch(v.id, c.dims, p);
    c.launch.grid[0] = unsigned(l.grid.x), c.launch.grid[1] = unsigned(l.grid.y), c.launch.grid[2] = unsigned(l.grid.z);
    c.launch.block[0] = unsigned(l.block.x), c.launch.block[1] = unsigned(l.block.y), c.launch.block[2] = unsigned(l.block.z);
    c.outputs = c.dims.cells();
    c.lab_loads = c.dims.cells();  // pencils: every value of f once (the post's point)
    return c;
}

// ---- [data stencil cases] ----------------------------------------------------------------------
// A stencil written as data (checker/data_exercise.h): the input random in [-1, 1) on an n x n or
// n^3 grid, the output poisoned inside and holding the input on the fixed boundary (which the
// kernel must leave as it is), the fp64 reference and its bound cell by cell; the weights, when
// the spec passes them through a pointer, a read-only array of their own.
FieldCase data_case(const Exercise& ex, int tile, int n, const std::vector<double>& weights, std::uint64_t seed) {
    const Precision p = ex.precision;
    const DataExercise& d = *ex.data;
    std::mt19937_64 rng(seed);
    FieldCase c;
    c.n = n;
    c.dims = data_dims(ex, n);
    c.label = d.stencil.dims == 2 ? fmt::format("{}x{}", n, n) : fmt::format("{}^3", n);
    const long long plane = (long long)c.dims.nx * c.dims.ny;
    c.guard = std::max<long long>(4096, 2 * plane + 64);
    c.poison = random_poison(p, rng);
    std::vector<double> in(size_t(c.dims.cells()));
    std::uniform_real_distribution<double> value(-1, 1);
    for (auto& v : in) v = round_to(value(rng), p);
    const double gamma = data_gamma(ex);
    std::vector<double> expected(in.size()), bound(in.size());
    for (int z = 0; z < c.dims.nz; ++z)
        for (int y = 0; y < c.dims.ny; ++y)
            for (int x = 0; x < c.dims.nx; ++x) {
                const size_t i = size_t((z * (long long)c.dims.ny + y) * c.dims.nx + x);
                if (data_is_boundary(ex, c.dims, x, y, z)) {
                    expected[i] = in[i], bound[i] = -1;
                    continue;
                }
                double sum = 0, magnitude = 0;
                for (size_t k = 0; k < d.stencil.points.size(); ++k) {
                    const auto& o = d.stencil.points[k];
                    const double term = weights[k] * in[size_t(((z + o[2]) * (long long)c.dims.ny + y + o[1]) * c.dims.nx + x + o[0])];
                    sum += term, magnitude += std::abs(term);
                }
                expected[i] = sum, bound[i] = gamma * magnitude;
                c.outputs += 1;
            }
    c.buffers.push_back(input_buffer("in", p, in, c.guard, rng));
    FieldBuffer out{"out", false, guarded(p, in, c.guard, true, rng), expected, bound};
    for (size_t i = 0; i < in.size(); ++i)
        if (bound[i] >= 0) set_bits(out.cells, size_t(c.guard) + i, c.poison);
    c.buffers.push_back(std::move(out));
    const bool weights_buffer = !d.kernel.weights_in_constant;
    if (weights_buffer) c.buffers.push_back(input_buffer("weights", p, weights, c.guard, rng));
    for (const DataParam& prm : d.kernel.params) {
        const ArgKind integer = prm.is_unsigned ? ArgKind::u32 : ArgKind::i32;
        switch (prm.role) {
            case ParamRole::input: c.args.push_back({ArgKind::buffer, 0, 0}); break;
            case ParamRole::output: c.args.push_back({ArgKind::buffer, 1, 0}); break;
            case ParamRole::weights: c.args.push_back({ArgKind::buffer, 2, 0}); break;
            case ParamRole::nx:
            case ParamRole::n: c.args.push_back({integer, 0, double(c.dims.nx)}); break;
            case ParamRole::ny: c.args.push_back({integer, 0, double(c.dims.ny)}); break;
            case ParamRole::nz: c.args.push_back({integer, 0, double(c.dims.nz)}); break;
            case ParamRole::int_value: c.args.push_back({integer, 0, prm.value}); break;
            case ParamRole::real_value: c.args.push_back({ArgKind::real, 0, prm.value}); break;
        }
    }
    // The buffers are named by their parameters, as the runner's messages name them.
    for (const DataParam& prm : d.kernel.params) {
        if (prm.role == ParamRole::input) c.buffers[0].name = prm.name;
        if (prm.role == ParamRole::output) c.buffers[1].name = prm.name;
        if (prm.role == ParamRole::weights && weights_buffer) c.buffers[2].name = prm.name;
    }
    std::string error;
    c.launch = data_launch(ex, tile, c.dims, error);
    if (!error.empty()) throw UserError(error);
    return c;
}

}  // namespace

// ---- [sizes and files] --------------------------------------------------------------------------
// The large case of each problem (run_plan.h), on every backend: a 129 x 129 mesh (sizes past 128
// and not a multiple of the 16 x 16 tile), and the derivative's 64 x 256 x 64 grid.
constexpr int kLargeCardiacN = 129;
constexpr int kLargeDerivativeMy = 256, kLargeDerivativeMz = 64;

// A data exercise's cases: its visible sizes (the smallest two when `quick`), the sizes drawn from
// the hidden seed, and its large one (made from the hidden seed too, as the other problems' cases
// past the fixed sizes are). No timed case: there is no lab kernel to time against.
static std::vector<FieldCase> make_data_cases(const Exercise& ex, int tile, std::uint64_t seed, std::uint64_t hidden,
                                              bool quick, bool large, bool gpu) {
    const DataSizes& sz = ex.data->sizes;
    std::vector<int> sizes = sz.visible;
    if (quick && sizes.size() > 2) {
        sizes.resize(2);
        if (std::find(sizes.begin(), sizes.end(), sz.count) == sizes.end()) sizes.push_back(sz.count);
    }
    const size_t visible = sizes.size();
    const std::vector<int> drawn = quick ? std::vector<int>{} : data_drawn_sizes(ex, hidden);
    sizes.insert(sizes.end(), drawn.begin(), drawn.end());
    const int large_index = large && sz.large ? int(sizes.size()) : -1;
    if (large_index >= 0) sizes.push_back(sz.large);
    const std::vector<double> weights = data_weights(ex, seed);
    std::vector<std::future<FieldCase>> made;
    for (size_t i = 0; i < sizes.size(); ++i)
        made.push_back(std::async(std::launch::async, [&ex, &weights, tile, n = sizes[i],
                                                       cs = mix_seed((i < visible ? seed : hidden) + 1000 + i)] {
            return data_case(ex, tile, n, weights, cs);
        }));
    std::vector<FieldCase> cases;
    for (size_t i = 0; i < made.size(); ++i) {
        FieldCase c = made[i].get();
        c.large = int(i) == large_index;
        c.drawn = i >= visible && int(i) != large_index;
        const long long threads = (long long)c.launch.grid[0] * c.launch.grid[1] * c.launch.grid[2] *
                                  c.launch.block[0] * c.launch.block[1] * c.launch.block[2];
        CaseRuns plan = plan_runs(gpu, false, c.large, threads, mix_seed(seed + 7 + i));
        c.runs = std::move(plan.runs);
        c.check_block_stride = plan.check_block_stride;
        cases.push_back(std::move(c));
    }
    return cases;
}

std::vector<FieldCase> make_field_cases(const Exercise& ex, int tile, std::uint64_t seed, bool quick, bool large, bool gpu,
                                        bool timing, int& timing_index, std::optional<std::uint64_t> hidden_seed) {
    const std::uint64_t hidden = hidden_seed ? *hidden_seed : seed;
    timing_index = -1;
    if (ex.is_data()) return make_data_cases(ex, tile, seed, hidden, quick, large, gpu);
    std::mt19937_64 rng(mix_seed(hidden ^ 0xf1e1dull));  // draws the hidden sizes only
    // (a, b): cardiac2d n = a; derivative my = a, mz = b
    std::vector<std::pair<int, int>> sizes;
    std::vector<size_t> drawn;  // the indices of the sizes drawn from the seed
    if (ex.problem == Problem::cardiac2d) {
        // one cell; smaller than a tile; one tile; one more than a tile; two tiles and a bit
        sizes = quick ? std::vector<std::pair<int, int>>{{1, 0}, {17, 0}, {33, 0}}
                      : std::vector<std::pair<int, int>>{{1, 0}, {5, 0}, {16, 0}, {17, 0}, {33, 0}};
        if (!quick) {
            sizes.push_back({std::uniform_int_distribution<int>(18, 47)(rng), 0});
            sizes.push_back({std::uniform_int_distribution<int>(50, 72)(rng), 0});
            drawn = {sizes.size() - 2, sizes.size() - 1};
        }
        if (large) sizes.push_back({kLargeCardiacN, 0});  // the large case, on every backend
    } else {
        // my must be a multiple of sPencils (the launch's grid); mz anything
        sizes = quick ? std::vector<std::pair<int, int>>{{4, 1}, {8, 3}}
                      : std::vector<std::pair<int, int>>{{4, 1}, {8, 3}, {12, 5}, {64, 64}};
        if (!quick) {
            sizes.push_back({sPencils * std::uniform_int_distribution<int>(1, 10)(rng),
                             std::uniform_int_distribution<int>(1, 9)(rng)});
            drawn = {sizes.size() - 1};
        }
        if (large) sizes.push_back({kLargeDerivativeMy, kLargeDerivativeMz});  // the large case, on every backend
    }
    // the cases after the fixed sizes (drawn, large, timed) are made from the hidden seed
    const size_t fixed = drawn.empty() ? sizes.size() - (large ? 1 : 0) : drawn.front();
    const int large_index = large ? int(sizes.size()) - 1 : -1;
    timing_index = -1;
    if (gpu && timing) {
        timing_index = int(sizes.size());
        sizes.push_back(ex.problem == Problem::cardiac2d ? std::pair{2048, 0} : std::pair{512, 512});
    }
    std::vector<std::future<FieldCase>> made;
    for (size_t i = 0; i < sizes.size(); ++i)
        made.push_back(std::async(std::launch::async, [&ex, s = sizes[i],
                                                       cs = mix_seed((i < fixed ? seed : hidden) + 1000 + i)] {
            return ex.problem == Problem::cardiac2d ? cardiac_case(ex, s.first, cs) : derivative_case(ex, s.first, s.second, cs);
        }));
    std::vector<FieldCase> cases;
    for (size_t i = 0; i < made.size(); ++i) {
        FieldCase c = made[i].get();
        c.gpu_only = int(i) == timing_index;
        c.large = int(i) == large_index;
        c.drawn = std::find(drawn.begin(), drawn.end(), i) != drawn.end();
        const long long threads = (long long)c.launch.grid[0] * c.launch.grid[1] * c.launch.grid[2] *
                                  c.launch.block[0] * c.launch.block[1] * c.launch.block[2];
        CaseRuns plan = plan_runs(gpu, int(i) == timing_index, int(i) == large_index, threads, mix_seed(seed + 7 + i));
        c.runs = std::move(plan.runs);
        c.check_block_stride = plan.check_block_stride;
        cases.push_back(std::move(c));
    }
    return cases;
}

CaseSpec field_case_spec(const FieldCase& c, int index) {
    CaseSpec cs;
    cs.n = std::max({c.dims.nx, c.dims.ny, c.dims.nz});
    cs.guard = c.guard;
    for (const FieldBuffer& b : c.buffers)
        cs.buffers.push_back({b.name, fmt::format("case{}.{}", index, b.name), c.dims.cells(), b.read_only});
    cs.args = c.args;
    for (int a = 0; a < 3; ++a) cs.grid[a] = int(c.launch.grid[a]), cs.block[a] = int(c.launch.block[a]);
    cs.dynamic_shared_bytes = c.launch.dynamic_shared_bytes;
    cs.runs = c.runs;
    cs.check_block_stride = c.check_block_stride;
    return cs;
}

void write_field_case_files(const FieldCase& c, int index, const std::string& dir) {
    for (const FieldBuffer& b : c.buffers) {
        const std::string path = fmt::format("{}/case{}.{}", dir, index, b.name);
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f.write(static_cast<const char*>(b.cells.data()), static_cast<std::streamsize>(b.cells.bytes()));
        if (!f) throw UserError("cannot write " + path + " (is /tmp full?)");
    }
}

CellClass classify_field_cell(const Exercise& ex, GridDims dims, int x, int y, int z) {
    if (ex.is_data()) {
        if (data_is_boundary(ex, dims, x, y, z)) return CellClass::boundary;
        const int b = ex.data->stencil.boundary;
        GridDims inner{dims.nx - 2, dims.ny - 2, ex.data->stencil.dims == 3 ? dims.nz - 2 : dims.nz};
        return data_is_boundary(ex, inner, x - 1, y - 1, ex.data->stencil.dims == 3 ? z - 1 : z) && b > 0
                   ? CellClass::next_to_boundary
                   : CellClass::tile_interior;
    }
    if (ex.problem == Problem::derivative)
        return x < 4 || x >= dims.nx - 4 ? CellClass::halo : CellClass::tile_interior;
    const int n = dims.nx - 2;
    if (x == 0 || y == 0 || x == n + 1 || y == n + 1) return CellClass::boundary;
    if (x == 1 || y == 1 || x == n || y == n) return CellClass::next_to_boundary;
    const auto& v = *cardiac2d::find_version(ex.version);
    const int px = (x - 1) % v.tile_x, py = (y - 1) % v.tile_y;
    return px == 0 || py == 0 || px == v.tile_x - 1 || py == v.tile_y - 1 ? CellClass::halo : CellClass::tile_interior;
}

// ---- [judging one run] --------------------------------------------------------------------------
namespace {

bool read_buffer(const std::string& path, const Cells& like, Cells& out) {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f || static_cast<size_t>(f.tellg()) != like.bytes()) return false;
    out.precision = like.precision;
    (like.precision == Precision::f64 ? out.f64.resize(like.size()) : out.f32.resize(like.size()));
    f.seekg(0);
    f.read(static_cast<char*>(out.data()), static_cast<std::streamsize>(like.bytes()));
    return static_cast<bool>(f);
}

std::string where(GridDims g, long long i) {
    if (g.nz == 1) return fmt::format("(x={}, y={})", i % g.nx, i / g.nx);
    return fmt::format("(x={}, y={}, z={})", i % g.nx, (i / g.nx) % g.ny, i / ((long long)g.nx * g.ny));
}

BadCellEvidence bad_cell(const Exercise& ex, GridDims g, long long i, double expected, double got, double bound,
                         std::string what) {
    const int x = int(i % g.nx), y = int((i / g.nx) % g.ny), z = int(i / ((long long)g.nx * g.ny));
    return {x, y, z, expected, got, bound, classify_field_cell(ex, g, x, y, z), std::move(what)};
}

// A map of the rows around cell i of a written array: '.' right, '#' kept (ghost), 'B' ghost
// changed, 'U' unwritten, 'N' NaN/Inf, 'X' wrong, '*' the first bad cell.
std::string field_map(const std::vector<char>& marks, GridDims g, long long i) {
    const int w = 24;
    const int x0 = int(i % g.nx), y0 = int((i / g.nx) % g.ny), z0 = int(i / ((long long)g.nx * g.ny));
    const int xa = std::max(0, std::min(x0 - w / 2, g.nx - w)), xb = std::min(g.nx, xa + w);
    const int ya = std::max(0, std::min(y0 - w / 2, g.ny - w)), yb = std::min(g.ny, ya + w);
    std::string s = fmt::format("{}x {}..{} across, y {}..{} down; . right, # ghost kept, B ghost changed, "
                                "U unwritten, N NaN/Inf, X wrong, * first):\n",
                                g.nz > 1 ? fmt::format("slice z={} (", z0) : "(", xa, xb - 1, ya, yb - 1);
    for (int y = ya; y < yb; ++y) {
        s += fmt::format("y={:>3} ", y);
        for (int x = xa; x < xb; ++x) {
            const long long k = ((long long)z0 * g.ny + y) * g.nx + x;
            s += k == i ? '*' : marks[size_t(k)];
        }
        s += '\n';
    }
    return s;
}

// A guard zone or a read-only array changed.
bool guards_or_input_changed(const Exercise& ex, const FieldCase& c, const std::vector<Cells>& got, CaseVerdict& f) {
    const long long cells = c.dims.cells(), g = c.guard;
    for (size_t b = 0; b < c.buffers.size(); ++b) {
        const Cells& orig = c.buffers[b].cells;
        const std::string& name = c.buffers[b].name;
        long long changed = 0, first = -1;
        for (long long i = 0; i < (long long)orig.size(); ++i) {
            const bool inside = i >= g && i < g + cells;
            if (inside && !c.buffers[b].read_only) continue;
            if (bits_at(got[b], size_t(i)) == bits_at(orig, size_t(i))) continue;
            if (!inside) {
                const long long idx = i - g, away = idx < 0 ? -idx : idx - cells + 1;
                f.verdict = Verdict::out_of_bounds_write;
                f.ev.message = fmt::format("{}[{}] was written: that is {} {} {} the {} cells of {}[]", name, idx, away,
                                           away == 1 ? "cell" : "cells", idx < 0 ? "before" : "after", cells, name);
                return true;
            }
            if (changed++ == 0) first = i - g;
        }
        if (changed > 0) {
            f.verdict = Verdict::input_modified;
            f.ev.bad_cells = changed;
            const double was = value_at(orig, size_t(g + first)), now = value_at(got[b], size_t(g + first));
            f.ev.first_bad = bad_cell(ex, c.dims, first, was, now, 0, name + "[] changed");
            f.ev.message = fmt::format("{}[] was modified (the kernel only reads it): {} cells differ after the run, "
                                       "first at {}: was {:.17g}, now {:.17g}",
                                       name, changed, where(c.dims, first), was, now);
            return true;
        }
    }
    return false;
}

// Each written array against its reference, cell by cell.
void assess_written(const Exercise& ex, const FieldCase& c, const std::vector<Cells>& got, CaseVerdict& f) {
    const long long cells = c.dims.cells(), g = c.guard;
    const int digits = ex.precision == Precision::f64 ? 17 : 9;
    for (size_t b = 0; b < c.buffers.size(); ++b) {
        const FieldBuffer& fb = c.buffers[b];
        if (fb.read_only) continue;
        std::vector<char> marks(size_t(cells), '.');
        long long kept = 0, unwritten = 0, wrong = 0, first[3] = {-1, -1, -1};
        for (long long i = 0; i < cells; ++i) {
            const std::uint64_t bits = bits_at(got[b], size_t(g + i));
            const double v = value_at(got[b], size_t(g + i));
            int kind = -1;
            if (fb.bound[size_t(i)] < 0) {
                marks[size_t(i)] = '#';
                if (bits != bits_at(fb.cells, size_t(g + i))) kind = 0, marks[size_t(i)] = 'B';
            } else if (bits == c.poison && bits_at(fb.cells, size_t(g + i)) == c.poison) {
                kind = 1, marks[size_t(i)] = 'U';
            } else if (!std::isfinite(v)) {
                kind = 2, marks[size_t(i)] = 'N';
            } else if (std::fabs(v - fb.expected[size_t(i)]) > fb.bound[size_t(i)]) {
                kind = 2, marks[size_t(i)] = 'X';
            }
            if (kind < 0) continue;
            (kind == 0 ? kept : kind == 1 ? unwritten : wrong)++;
            if (first[kind] < 0) first[kind] = i;
        }
        const int kind = kept ? 0 : unwritten ? 1 : wrong ? 2 : -1;
        if (kind < 0) continue;
        const long long i = first[kind];
        const double v = value_at(got[b], size_t(g + i));
        const char* what = kind == 0   ? "a ghost cell was written (only the interior is the kernel's)"
                           : kind == 1 ? "never written (the poison is still there)"
                           : std::isfinite(v) ? "outside the rounding bound" : "NaN or Inf";
        f.verdict = kind == 0 ? Verdict::boundary_modified : kind == 1 ? Verdict::unwritten : Verdict::wrong_result;
        f.ev.bad_cells = kind == 0 ? kept : kind == 1 ? unwritten : wrong;
        f.ev.first_bad = bad_cell(ex, c.dims, i, fb.expected[size_t(i)], v, kind == 2 ? fb.bound[size_t(i)] : 0, what);
        f.ev.message = fmt::format(
            "{}[]: {} of {} cells {} ({} ghost changed, {} unwritten, {} wrong or NaN); first at {}, a {} cell: {}; "
            "expected {:.{}g}, got {:.{}g}", fb.name, f.ev.bad_cells, cells, to_string(f.verdict), kept, unwritten,
            wrong, where(c.dims, i), to_string(f.ev.first_bad->cell), what, fb.expected[size_t(i)], digits, v, digits);
        if (kind == 2 && std::isfinite(v))
            f.ev.message += fmt::format(" (|error| {:.3g} > bound {:.3g})", std::fabs(v - fb.expected[size_t(i)]),
                                        fb.bound[size_t(i)]);
        f.ev.slice_map = field_map(marks, c.dims, i);
        return;
    }
}

// The first written array in which two runs differ, bit for bit.
std::optional<std::string> runs_differ(const FieldCase& c, const std::vector<Cells>& a, const std::vector<Cells>& b,
                                       long long& cells_differing) {
    for (size_t k = 0; k < c.buffers.size(); ++k) {
        if (c.buffers[k].read_only) continue;
        long long diff = 0, first = -1;
        for (size_t i = 0; i < a[k].size(); ++i)
            if (bits_at(a[k], i) != bits_at(b[k], i) && diff++ == 0) first = (long long)i - c.guard;
        if (diff == 0) continue;
        cells_differing = diff;
        return fmt::format("{}[] {}", c.buffers[k].name,
                           first >= 0 && first < c.dims.cells() ? "first at " + where(c.dims, first) : "(in a guard zone)");
    }
    return std::nullopt;
}

struct FieldJudge {
    const Exercise& ex;
    int tile;
    const Result& result;
    const std::string& dir;
    const SharedArrays& arrays;
    Judgement& j;
    Findings findings{j};

    size_t judge(size_t ci, const FieldCase& c, size_t ri) {
        CaseLine line;
        std::vector<Cells> first;
        std::string first_label;
        bool failed_after_state = false;  // as in evaluate.cpp: that run's own verdict is the GPU's
        for (size_t r = 0; r < c.runs.size(); ++r, ++ri) {
            const std::string label = run_label(c.runs[r], r);
            Evidence base;
            base.n = c.n;
            base.tile = tile;
            base.run = label;
            if (ri >= result.runs.size()) {
                if (!(result.stopped && j.verdict == Verdict::timeout))
                    findings.consider(Verdict::crash, with_message(base, fmt::format("the runner stopped before {} {}", c.label, label)));
                line.note(Verdict::crash, "not run");
                break;
            }
            const RunOutcome& run = result.runs[ri];
            if (run.launch_error) {
                const std::string m = fmt::format("{} {}: {} (rerun with --sanitize for the line that faulted)", c.label,
                                                  label, *run.launch_error);
                findings.consider(Verdict::crash, with_message(base, m));
                line.note(Verdict::crash, m);
                ri += c.runs.size() - r;
                break;
            }
            if (engine_diagnostics(run, base, c, line)) continue;
            std::vector<Cells> got(c.buffers.size());
            bool missing = false;
            for (size_t b = 0; b < c.buffers.size(); ++b)
                missing = missing || !read_buffer(fmt::format("{}/case{}.run{}.{}", dir, ci, r, c.buffers[b].name),
                                                  c.buffers[b].cells, got[b]);
            if (missing) {
                findings.consider(Verdict::crash, with_message(base, fmt::format("the runner's output for {} is missing", c.label)));
                continue;
            }
            CaseVerdict f;
            f.ev = base;
            if (!guards_or_input_changed(ex, c, got, f)) assess_written(ex, c, got, f);
            if (f.verdict != Verdict::pass) {
                const std::string note = state_note(result, ri);
                failed_after_state = failed_after_state || !note.empty();
                f.ev.message = fmt::format("{} {}: {}{}", c.label, label, f.ev.message, note);
                line.note(f.verdict, f.ev.message);
                findings.consider(f.verdict, f.ev);
            }
            if (r == 0) {
                first = std::move(got);
                first_label = label;
            } else if (!first.empty() && !failed_after_state) {
                long long diff = 0;
                if (auto where = runs_differ(c, first, got, diff)) {
                    Evidence ev = base;
                    ev.bad_cells = diff;
                    ev.message = fmt::format("{}: the output differs between the {} and the {} ({} cells; {}). {}", c.label,
                                             first_label, label, diff, *where, why_runs_differ(result, ri - r, ri));
                    const Verdict v = runs_differ_verdict(result, ri - r, ri);
                    if (v == Verdict::wrong_result) ev.cause = std::string(cause_name(Cause::unstored_read));
                    line.note(v, ev.message);
                    findings.consider(v, std::move(ev));
                }
            }
        }
        std::string runs;
        for (size_t r = 0; r < c.runs.size(); ++r) runs += (r ? ", " : "") + run_label(c.runs[r], r);
        j.tests.push_back({fmt::format("{} ({})", c.label, runs), line.verdict == Verdict::pass, line.line, c.n});
        findings.end_case(c.n);
        return ri;
    }

    static Evidence with_message(Evidence ev, std::string m) {
        ev.message = std::move(m);
        return ev;
    }

    // The CPU engine's diagnostics of one run, cells named in this case's arrays.
    bool engine_diagnostics(const RunOutcome& run, const Evidence& base, const FieldCase& c, CaseLine& line) {
        DiagnosisContext ctx{.ex = ex, .tile = tile, .n = c.n, .arrays = arrays};
        ctx.dims = c.dims;
        for (const FieldBuffer& b : c.buffers) ctx.buffers.push_back(b.name);
        ctx.classify = [this, g = c.dims](int x, int y, int z) { return classify_field_cell(ex, g, x, y, z); };
        return take_engine_diagnostics(run, base, fmt::format("{} {}", c.label, base.run), ctx, findings, line);
    }
};

}  // namespace

// ---- [judge_field_runs] -------------------------------------------------------------------------
Judgement judge_field_runs(const Exercise& ex, int tile, const std::vector<FieldCase>& cases, const ResultFile& result,
                           const ChildResult& child, const std::string& dir, const SharedArrays& arrays) {
    if (auto j = judge_child(child, result)) return *j;
    Judgement j;
    FieldJudge judge{ex, tile, result.result, dir, arrays, j};
    size_t ri = 0;
    for (size_t c = 0; c < cases.size(); ++c)
        if (!cases[c].runs.empty()) ri = judge.judge(c, cases[c], ri);
    printf_warning(result.result, j.warnings);
    return j;
}

}  // namespace stencil::checker
