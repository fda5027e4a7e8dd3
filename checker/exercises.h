// The exercises the checker knows. An exercise is a version of the table (kernels/versions.h) at a
// radius and a precision, with a budget: everything else (tiles, launch geometry, OUT_TILE_DIM, the
// load count it is held to) follows from the version's row and the model, here and nowhere else.
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/versions.h"

namespace stencil::checker {

struct Exercise {
    const char* name;     // CLI spelling
    Problem problem;      // whose table `version` is a row of
    const char* version;  // that row's name: launch contract, timing reference, load count
    int radius;           // star3d: r (6r + 1 points, weights c0..c{6r}, boundary r cells wide);
                          // the others: their stencil's reach (cardiac2d 1, derivative 4)
    Precision precision;  // element type of the arrays, the weights and the scalars
    double budget;        // global loads per output allowed, as a multiple of the version's own
    const char* summary;

    bool is_star3d() const { return problem == Problem::star3d; }
    // The star3d row it is (kernels/versions.h); only for star3d exercises.
    KernelId kernel() const;
};

std::span<const Exercise> exercises();
const Exercise* find_exercise(std::string_view name);
std::string exercise_names();

struct Launch {
    unsigned grid[3] = {1, 1, 1};
    unsigned block[3] = {1, 1, 1};
};
int default_tile(const Exercise& ex);          // the version's default T
bool tile_has_halo(const Exercise& ex);        // blocks are tiles with an r-wide halo (not naive)
int out_tile_dim(const Exercise& ex, int T);  // T - 2r (the harness's OUT_TILE_DIM macro); naive: T
const char* element_type(const Exercise& ex);  // "float" or "double"
int weight_count(const Exercise& ex);          // 6r + 1: c0 .. c{6r}
// "c0..c6", "c0..c12": how people read the weights' names
std::string weight_names(const Exercise& ex);
Launch launch_for(const Exercise& ex, int n, int T);
// Why T cannot be used for this exercise; empty when it can.
std::string tile_problem(const Exercise& ex, int T);

// The large case of every star3d check, on both backends (checker/run_plan.h: one run on the CPU,
// a sample of its blocks checked): past 128 per side (an interior past index 128), where a
// size-dependent bug the small cases miss shows; a prime, so a multiple of no tile.
inline constexpr int kLargeStarN = 131;

// Grid sizes N (cubes N^3) the checker runs: smaller than a tile, odd, prime, not a multiple of
// OUT_TILE_DIM, and one perfect multiple (+2) for the load count. `large` adds GPU-only sizes.
std::vector<int> test_sizes(const Exercise& ex, int T, bool quick);
// Extra sizes drawn from the check's seed (which the submission cannot predict), added to the
// fixed ones so that a kernel cannot special-case the sizes it knows are tested: an odd prime
// and an even size (neither already tested) and one in 65..72 (past the fixed sizes, still quick
// on the CPU backend; naive only when `quick`). Deterministic for a seed: `--seed` reproduces them.
std::vector<int> random_sizes(const Exercise& ex, int T, std::uint64_t seed,
                              const std::vector<int>& fixed, bool quick = false);
// The size the loads per output are counted at, and the textbook kernel's count there.
int load_count_size(const Exercise& ex, int T);
double load_budget(const Exercise& ex, int n, int T);  // global loads per output

// The folder an exercise's files are in (exercises/<name>/ under the data folder of
// core/install_layout.h); empty when it cannot be found.
std::filesystem::path exercise_folder(const Exercise& ex);
// What identifies the exercise's content: the SHA-256 (hex) of every regular file under its folder
// (each file's path relative to the folder, then its bytes, in path order). A grade records it, and
// a grading seed derives from it, so that an exercise edited between two runs is not the same one.
std::string exercise_spec_hash(const Exercise& ex);

}  // namespace stencil::checker
