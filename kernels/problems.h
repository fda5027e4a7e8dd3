// The problems table: the lab's problems as an axis, one row each, naming where each part of a
// problem sits (its kernels and versions table, the fp64 reference its kernels are checked
// against, its model, the checker's contract for its exercises, and its decomposed run where it
// has one), as kernels/version_rows.cpp does for star3d's versions. A front end iterates these
// rows instead of file-name prefixes; tests/kernels/test_problem_table.cpp holds every path named
// here to the tree (a file that moves moves its row).
#pragma once
#include <span>
#include <string>

#include "kernels/versions.h"  // Problem, kProblems

namespace stencil {

// A part as "path" or "path: the function that is it", the path below the repository root.
struct ProblemRow {
    Problem id;
    const char* title;       // for people
    const char* text;        // where the problem comes from
    const char* kernels;     // the folder or files every version's source_file lies in
    const char* versions;    // its versions table
    const char* reference;   // the fp64 CPU reference its kernels are checked against
    const char* model;       // its model (analysis/): what a launch costs
    const char* contract;    // the checker's contract: an exercise's kernel signature and arguments
    const char* decomposed;  // its `run --decompose` problem (distributed/), or nullptr
};

std::span<const ProblemRow> problem_rows();  // in kProblems order
const ProblemRow& problem_row(Problem p);
// The problems `run --decompose` covers, in words: "star3d and cardiac2d".
std::string decomposed_problem_names();

}  // namespace stencil
