#include "checker/exercises.h"

#include "analysis/model.h"
#include "checker/data_exercise.h"
#include "checker/exercise_spec.h"
#include "core/error.h"
#include "core/install_layout.h"
#include "core/sha256.h"
#include "kernels/cardiac2d/versions.h"
#include "kernels/derivative/versions.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>

namespace stencil::checker {

namespace fs = std::filesystem;

namespace {

// The built-ins, in the order courses meet them (a folder not listed here comes after them, by name).
constexpr const char* kCourseOrder[] = {"naive", "tiled", "coarsened", "register-tiled", "find-the-race",
                                        "tiled-r2", "register-tiled-f64", "cardiac-shared", "x-derivative"};

std::vector<Exercise> read_builtins() {
    const fs::path dir = data_dir(STENCIL_LAB_SOURCE_TREE);
    std::vector<Exercise> all;
    if (dir.empty()) return all;
    std::vector<fs::path> folders;
    for (const auto& e : fs::directory_iterator(dir / "exercises"))
        if (e.is_directory() && fs::is_regular_file(e.path() / kExerciseSpecFile)) folders.push_back(e.path());
    const auto rank = [](const fs::path& p) {
        const auto* it = std::find(std::begin(kCourseOrder), std::end(kCourseOrder), p.filename().string());
        return std::pair{int(it - std::begin(kCourseOrder)), p.filename().string()};
    };
    std::sort(folders.begin(), folders.end(), [&](const fs::path& a, const fs::path& b) { return rank(a) < rank(b); });
    for (const fs::path& f : folders) {
        Exercise ex = read_exercise_folder(f, "exercises/" + f.filename().string());
        ex.id = ex.name;
        ex.builtin = true;
        all.push_back(std::move(ex));
    }
    return all;
}

const std::vector<Exercise>& builtins() {
    static const std::vector<Exercise> all = read_builtins();
    return all;
}

// Folders given by path, read once each (their Exercise lives as long as the process: results and
// findings point at it).
std::mutex folders_mutex;
std::map<std::string, std::unique_ptr<Exercise>> folders_read;

const Exercise* folder_exercise(const std::string& path) {
    auto& m = folders_mutex;
    auto& read = folders_read;
    std::lock_guard lock(m);
    auto& slot = read[path];
    if (!slot) {
        std::string display = path;
        while (display.size() > 1 && display.back() == '/') display.pop_back();
        auto ex = std::make_unique<Exercise>(read_exercise_folder(path, display));
        ex->id = path;
        slot = std::move(ex);
    }
    return slot.get();
}

}  // namespace

std::span<const Exercise> exercises() { return builtins(); }

std::vector<const Exercise*> known_exercises() {
    std::vector<const Exercise*> out;
    for (const Exercise& e : builtins()) out.push_back(&e);
    std::lock_guard lock(folders_mutex);
    for (const auto& [path, ex] : folders_read) out.push_back(ex.get());
    return out;
}

KernelId Exercise::kernel() const {
    const KernelVersion* v = is_star3d() ? find_version(version) : nullptr;
    if (!v) throw std::logic_error("exercise " + name + " is not a star3d version");
    return v->id;
}

const Exercise* find_exercise(std::string_view name_or_folder) {
    const std::string s(name_or_folder);
    if (s.empty()) return nullptr;
    const bool path_like = s.find('/') != std::string::npos || s == "." || s == "..";
    if (!path_like) {
        for (const auto& e : builtins())
            if (s == e.name) return &e;
        if (s == "register_tiled") return find_exercise("register-tiled");
        if (!fs::is_regular_file(fs::path(s) / kExerciseSpecFile)) return nullptr;
    }
    if (!fs::is_directory(s)) throw UserError(fmt::format("--exercise {}: no such folder", s));
    return folder_exercise(s);
}

std::string exercise_names() {
    std::string s;
    for (const auto& e : builtins()) s += (s.empty() ? "" : ", ") + e.name;
    return s + (s.empty() ? "" : ", ") + "or an exercise folder";
}

int default_tile(const Exercise& ex) {
    if (ex.default_tile > 0) return ex.default_tile;
    switch (ex.problem) {
        case Problem::star3d: return version(ex.kernel()).default_tile;
        case Problem::cardiac2d: return cardiac2d::find_version(ex.version)->tile_x;
        case Problem::derivative: return find_derivative_version(ex.version)->tile_across;
    }
    return 0;
}

bool tile_has_halo(const Exercise& ex) { return version(ex.kernel()).halo_in_tile; }

int out_tile_dim(const Exercise& ex, int T) { return out_tile(ex.kernel(), T, ex.radius); }

const char* element_type(const Exercise& ex) { return ex.precision == Precision::f64 ? "double" : "float"; }

int weight_count(const Exercise& ex) {
    return ex.is_data() ? int(ex.data->stencil.points.size()) : coefficient_count(ex.radius);
}

std::string weight_names(const Exercise& ex) { return "c0..c" + std::to_string(weight_count(ex) - 1); }

Launch launch_for(const Exercise& ex, int n, int T) {
    const LaunchGeometry g = launch_geometry(ex.kernel(), T, ex.radius, ex.precision, {n, n, n});
    Launch l;
    l.grid[0] = unsigned(g.grid.x), l.grid[1] = unsigned(g.grid.y), l.grid[2] = unsigned(g.grid.z);
    l.block[0] = unsigned(g.block.x), l.block[1] = unsigned(g.block.y), l.block[2] = unsigned(g.block.z);
    return l;
}

// A student's kernel is compiled at run time with its own IN_TILE_DIM, so any T the hardware
// rules allow is fine: tile_fits, not the lab's built tiles.
std::string tile_problem(const Exercise& ex, int T) {
    if (ex.is_data()) return data_tile_problem(ex, T);
    if (!ex.is_star3d())
        return T == default_tile(ex) ? std::string()
                                     : fmt::format("--tile: the {} exercise's block is fixed by the lab's table "
                                                   "(the {} version of {}); leave --tile out", ex.name,
                                                   ex.version, to_string(ex.problem));
    if (tile_fits(ex.kernel(), T, ex.radius, bytes_of(ex.precision))) return {};
    if (T >= 1 && T <= 1024) {
        if (auto why = tile_error(ex.kernel(), T, ex.radius, ex.precision)) return "--tile: " + *why;
    }
    return fmt::format("--tile {} for {} cannot run: T must be at least {} and {} threads at most 1024",
                       T, ex.name, tile_has_halo(ex) ? 2 * ex.radius + 1 : 1,
                       threads_formula(ex.kernel()));
}

std::vector<int> test_sizes(const Exercise& ex, int T, bool quick) {
    const int out = out_tile_dim(ex, T);
    const int s = 2 * ex.radius + 1;  // the smallest grid: one interior cell
    std::vector<int> n;
    if (!tile_has_halo(ex)) {  // naive
        n = {s, s + 2, T + 1, 13, 2 * T + 1, 31};
        if (quick) n = {s, T + 1, 13};
    } else {
        // smaller than a tile, one tile, not a multiple of OUT_TILE_DIM, primes
        n = {s, s + 2, std::max(s, out - 1), out + 3, 2 * out + 1, 2 * out + 5, 37};
        // (2 * out + 1 is left out here: the load-count size 2 * out + 2 below also ends in a
        // partial tile and costs the same)
        if (T >= 16) n = {s, s + 2, 13, T - 1, T + 1};
        if (quick) n = {s, out + 3, 2 * out + 1};
    }
    n.push_back(load_count_size(ex, T));
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
    // The CPU backend is an emulator: keep the largest cube modest.
    const int smallest = s;
    n.erase(std::remove_if(n.begin(), n.end(), [&](int v) { return v < smallest || v > 70; }), n.end());
    return n;
}

std::vector<int> random_sizes(const Exercise& ex, int, std::uint64_t seed, const std::vector<int>& fixed,
                              bool quick) {
    std::mt19937_64 rng(seed ^ 0x5eed512e5ull);
    std::vector<int> picked;
    auto taken = [&](int n) {
        return std::find(fixed.begin(), fixed.end(), n) != fixed.end() ||
               std::find(picked.begin(), picked.end(), n) != picked.end();
    };
    auto prime = [](int n) {
        for (int d = 2; d * d <= n; ++d)
            if (n % d == 0) return false;
        return n > 1;
    };
    // Draw from [lo, hi] until a size that fits `want` and is not yet tested comes up.
    auto draw = [&](int lo, int hi, auto want) {
        std::uniform_int_distribution<int> d(lo, hi);
        for (int tries = 0; tries < 256; ++tries) {
            const int n = d(rng);
            if (want(n) && !taken(n)) return picked.push_back(n);
        }
    };
    draw(7, 47, prime);                            // an odd prime
    draw(6, 46, [](int n) { return n % 2 == 0; });  // an even size
    // Above 64 (a kernel that hard-codes a size or a block count up to 64 fails it), drawn from
    // 65..72: at N = 80 the radius-2 tiled kernel alone cost 3.5 s per checked schedule. The quick
    // mode (the checker's own tests) keeps it for naive only.
    if (!quick || !tile_has_halo(ex)) draw(65, 72, [](int) { return true; });
    return picked;
}

int load_count_size(const Exercise& ex, int T) {
    if (!tile_has_halo(ex)) return 2 * T + 2 * ex.radius;
    const int out = out_tile_dim(ex, T);
    return (T >= 16 ? 2 : 3) * out + 2 * ex.radius;  // every tile full: the textbook's formula
}

double load_budget(const Exercise& ex, int n, int T) {
    const int r = ex.radius;
    const double outputs = double(n - 2 * r) * (n - 2 * r) * (n - 2 * r);
    if (outputs <= 0) return 0;
    // The model's exact whole-grid count for the version: the textbook's kernels load each
    // in-grid cell of a T-wide window per block and axis once (naive: 6r + 1 per output).
    const auto t = analysis::exact_grid_traffic(ex.kernel(), T, r, ex.precision, {n, n, n});
    if (ex.budget.loads_per_output) return *ex.budget.loads_per_output;
    return ex.budget.factor * double(t.load_values) / outputs;
}

std::filesystem::path exercise_folder(const Exercise& ex) { return ex.folder; }

std::string exercise_label(std::string_view name_or_folder) {
    const Exercise* ex = nullptr;
    try {
        ex = find_exercise(name_or_folder);
    } catch (const UserError&) {
        // a folder that no longer reads: its name as given
    }
    return ex ? ex->name : std::string(name_or_folder);
}

std::string exercise_spec_hash(const Exercise& ex) {
    namespace fs = std::filesystem;
    const fs::path folder = exercise_folder(ex);
    std::vector<fs::path> files;
    if (!folder.empty())
        for (const auto& e : fs::recursive_directory_iterator(folder))
            if (e.is_regular_file()) files.push_back(fs::relative(e.path(), folder));
    std::sort(files.begin(), files.end());
    Sha256 h;
    h.update(std::string_view(ex.name));
    for (const fs::path& f : files) {
        std::ifstream in(folder / f, std::ios::binary);
        std::stringstream bytes;
        bytes << in.rdbuf();
        const std::string name = f.generic_string(), body = bytes.str();
        h.update(fmt::format("\n{} {}\n", name, body.size()));
        h.update(body);
    }
    return h.hex_digest();
}

}  // namespace stencil::checker
