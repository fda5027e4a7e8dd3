// A data exercise's load budget (exercise.toml's [budget]): a number of global loads per output, or
// the instructor's solution's own count at the spec's count size, times a factor. The solution's
// count is a check of solution.cu on the CPU engine (its global loads are the same on a GPU: one
// load instruction per element either way), made once per spec content and tile and kept in the
// disk cache (core/disk_cache.h, kind "budgets"), so a student's check costs no second run.
#pragma once
#include <string>
#include <vector>

#include "checker/exercises.h"

namespace stencil::checker {

// A copy of an exercise shipped without its solution (a grading bundle) carries the solution's
// counts instead: {"8": 3.014, ...} (tile -> loads per output), written by solution_counts_json.
inline constexpr const char* kSolutionCountsFile = "solution-counts.json";

// The solution's counts at `tiles`, as kSolutionCountsFile holds them (checks the solution where
// the disk cache has no count).
std::string solution_counts_json(const Exercise& ex, const std::vector<int>& tiles);

// Global loads per output allowed at tile T. Throws UserError (one line naming the solution's file)
// when the budget comes from a solution that is missing or does not pass.
double data_budget(const Exercise& ex, int tile);

// Where a budget comes from, in words: "the lab's tiled kernel's count", "3.5 loads per output
// (exercises/heat2d/exercise.toml)", "the solution's count x 1.2".
std::string budget_source(const Exercise& ex);

}  // namespace stencil::checker
