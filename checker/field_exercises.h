// The exercises of the problems other than star3d (text 002's cardiac2d, text 004's derivative,
// and every stencil an exercise's spec writes as data): their test cases and the judgement of
// their runs. Their kernels read and write plain fields
// (checker/contract.h has the signatures), so one judge serves both: every array the kernel
// writes is compared cell by cell with the fp64 reference of the problem (core/cardiac2d_check.h's
// one-step bound, core/derivative.h's bound), every array it only reads must come back unchanged,
// the guard zones around each array must too, and the runs of a case must agree bit for bit.
// The star3d exercises keep their own cases and judge (evaluate.h): boundary cells, slice maps
// of an N^3 grid, the textbook's load formulas.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/evaluate.h"

namespace stencil::checker {

// One array of a case, as given to the kernel.
struct FieldBuffer {
    std::string name;        // the kernel parameter's name ("E_prev", "E", "R"; "f", "df")
    bool read_only = false;  // the kernel reads it only: it must come back unchanged
    Cells cells;             // guard + cells + guard
    // Written arrays, per cell (no guard): the fp64 reference and its bound; a negative bound
    // means the cell must keep the value it was given (a ghost cell the kernel has no business
    // writing).
    std::vector<double> expected, bound;
};

struct FieldCase {
    int n = 0;               // the size the case is known by: cardiac2d n (interior n x n),
                             // derivative my (the grid is MX x my x mz)
    GridDims dims;           // every array's extents, x fastest (cardiac2d: (n+2) x (n+2) x 1)
    std::string label;       // "n=17 (19x19 with ghosts)", "64x8x3"
    long long guard = 0;
    std::uint64_t poison = 0;  // the bit pattern written arrays start as (f32: low 32 bits)
    std::vector<FieldBuffer> buffers;
    std::vector<KernelArg> args;
    Launch launch;
    std::vector<RunSpec> runs;  // run_plan.h
    int check_block_stride = 1;
    bool gpu_only = false;     // a size only the GPU runs (the timed one)
    bool large = false;        // the large case (run_plan.h: one run on the CPU, a sample checked)
    bool drawn = false;        // a size drawn from the check's seed
    long long outputs = 0;     // cells the kernel computes
    long long lab_loads = 0;   // global loads of the lab's kernel here (its table row, exactly)
};

// The sizes of a check (the fixed ones, those drawn from the seed, a large one, and on the GPU the
// timed one), each case made from its own seed. `timing_index`: the timed case's index, or -1.
// `hidden_seed` (CheckOptions::hidden_seed; unset: `seed`) draws the sizes and makes the data of
// the cases past the fixed sizes. A stencil written as data (checker/data_exercise.h) has its sizes
// from its spec and no timed case.
std::vector<FieldCase> make_field_cases(const Exercise& ex, int tile, std::uint64_t seed, bool quick, bool large,
                                        bool gpu, bool timing, int& timing_index,
                                        std::optional<std::uint64_t> hidden_seed = std::nullopt);

// The request's view of case `index` (files case<index>.<buffer>), and the files themselves.
CaseSpec field_case_spec(const FieldCase& c, int index);
void write_field_case_files(const FieldCase& c, int index, const std::string& dir);

// Where a cell of an array sits, for the student (CellClass in checker.h): cardiac2d's ghost
// ring is `boundary`, its first interior ring `next-to-boundary`, a tile's edge `halo`; the
// derivative's first and last four cells of a pencil (their stencil wraps around) `halo`.
CellClass classify_field_cell(const Exercise& ex, GridDims dims, int x, int y, int z);

// The verdict of the runs (judge_child first, then run by run), as judge_runs does for star3d.
Judgement judge_field_runs(const Exercise& ex, int tile, const std::vector<FieldCase>& cases,
                           const ResultFile& result, const ChildResult& child, const std::string& dir,
                           const SharedArrays& arrays);

}  // namespace stencil::checker
