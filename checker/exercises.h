// The exercises the checker knows. An exercise is a folder of data (docs/DESIGN.md, "Exercises
// as data"): exercise.toml (the spec: checker/exercise_spec.h reads it), README.md (the statement
// and its numbered hints), stencil.cu (the skeleton), solution.cu (the instructor's), wrong/*.cu
// (kernels that must fail, each naming its verdict). The built-in ones are such folders under the
// data folder's exercises/ (core/install_layout.h); a folder given by path is read the same way.
//
// A spec either names a problem the lab knows (star3d at radius 1..4, cardiac2d, derivative) and a
// version of that problem's table, from which the tiles, the launch, OUT_TILE_DIM and the load
// count follow as they do for the lab's own kernels; or it writes a stencil as data (`DataStencil`:
// its points, weights and boundary) and the kernel's signature and launch as data (`DataKernel`).
#pragma once
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "checker/spec_expr.h"
#include "kernels/versions.h"

namespace stencil::checker {

// A stencil written as data: out(x) = sum_k w_k in(x + o_k) over its points o_k, on a 2D (nz = 1)
// or 3D grid whose `boundary` cells next to each face are fixed (never written).
struct DataStencil {
    int dims = 3;                             // 2 or 3
    std::string shape;                        // "star", "box" or "points" (a list)
    std::vector<std::array<int, 3>> points;   // (dx, dy, dz); weight k belongs to point k
    int radius = 1;                           // the largest |offset| on any axis
    int boundary = 1;                         // the fixed boundary's width (>= radius)
    std::vector<double> weights;              // given in the spec; empty: random and distinct per seed
};

// What a kernel parameter of a data exercise is.
enum class ParamRole { input, output, nx, ny, nz, n, weights, int_value, real_value };
const char* to_string(ParamRole r);

struct DataParam {
    std::string name;
    ParamRole role = ParamRole::input;
    double value = 0;        // int_value, real_value: what the harness passes
    bool is_unsigned = false;  // an integer parameter declared `unsigned int` (the textbook's N)
};

struct DataMacro {
    std::string name;
    SpecExpr value;  // of T, r, b
};

struct DataKernel {
    std::string name;                        // the __global__ function
    std::vector<DataParam> params;           // in order
    bool weights_in_constant = true;         // __constant__ c0..c{p-1} (or c[p]); else a parameter of role weights
    bool weights_as_array = false;           // constant memory as one array c[p] rather than p scalars
    std::vector<DataMacro> macros;           // #define NAME <value at T>
    std::array<SpecExpr, 3> block, grid;     // of T, r, b, nx, ny, nz, N and the macros
    // Dynamic shared memory, in values of the exercise's precision (the launch's third argument is
    // this times sizeof(float) or sizeof(double)): for `extern __shared__ real s[];`. None: 0 bytes.
    std::optional<SpecExpr> shared;
    int tile_min = 1, tile_max = 1024;
};

// The sizes a data exercise's check runs (2D: n x n, 3D: n^3).
struct DataSizes {
    std::vector<int> visible;         // fixed, in every check
    int hidden_count = 2;             // drawn from the seed, from [hidden_min, hidden_max]
    int hidden_min = 6, hidden_max = 47;
    int large = 0;                    // one large case (run_plan.h: one run, a sample checked); 0: none
    int count = 0;                    // the size loads are counted at (one of `visible`)
};

// The load budget: a multiple of the lab version's count (lab problems), a number of global loads
// per output, or a multiple of the instructor's solution's count.
struct Budget {
    double factor = 1.0;
    std::optional<double> loads_per_output;
    bool from_solution = false;
};

struct DataExercise {
    DataStencil stencil;
    DataKernel kernel;
    DataSizes sizes;
};

struct Exercise {
    std::string name;               // the folder's name ("tiled", "heat2d")
    std::string id;                 // what find_exercise takes back: a built-in's name, a folder's
                                    // path as given (CheckResult::exercise, a grade's record)
    bool builtin = false;           // one of the data folder's exercises (every install tree has it)
    std::filesystem::path folder;   // where its files are
    std::string display;            // how messages name the folder ("exercises/tiled")
    std::string spec_file;          // as errors name the spec ("exercises/tiled/exercise.toml")
    std::string summary;
    Problem problem = Problem::star3d;  // the lab problem (a data exercise: none, see `data`)
    std::string version;            // that problem's row: launch contract, timing reference, load count
    int radius = 1;                 // star3d: r (6r + 1 points, weights c0..c{6r}, boundary r cells
                                    // wide); cardiac2d 1, derivative 4; data: the stencil's radius
    Precision precision = Precision::f32;  // element type of the arrays, the weights and the scalars
    Budget budget;
    int default_tile = 0;           // 0: the version's
    double time_limit_s = 0;        // the kernel's runs in all; 0: the check's default
    std::map<std::string, int> hints;  // a finding's cause (hints.h) -> the README's hint number
    std::optional<DataExercise> data;  // a stencil written as data

    bool is_star3d() const { return !data && problem == Problem::star3d; }
    bool is_data() const { return data.has_value(); }
    // The star3d row it is (kernels/versions.h); only for star3d exercises.
    KernelId kernel() const;
};

// The built-in exercises (the data folder's exercises/*/exercise.toml), read once; a folder that
// does not parse is a UserError naming its file, line and column.
std::span<const Exercise> exercises();
// A built-in by name, or the exercise in a folder given by path (any name with a '/', or an
// existing folder holding exercise.toml), read once per path; nullptr for an unknown name.
// A folder whose spec is wrong throws UserError (file:line:column: what to change).
const Exercise* find_exercise(std::string_view name_or_folder);
std::string exercise_names();
// The name a reader knows an exercise by: a built-in's name, a folder's own name (never the path it
// was read from: on a grading platform that is the platform's, which a student cannot use).
std::string exercise_label(std::string_view name_or_folder);
// The built-ins, then every folder read by path so far (the viewer's list: a folder given with
// --exercise DIR joins the built-ins).
std::vector<const Exercise*> known_exercises();

struct Launch {
    unsigned grid[3] = {1, 1, 1};
    unsigned block[3] = {1, 1, 1};
    long long dynamic_shared_bytes = 0;  // <<<grid, block, bytes>>>: extern __shared__ arrays
};
int default_tile(const Exercise& ex);          // the spec's T, else the version's default
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
