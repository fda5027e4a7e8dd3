// check --explain: a replay's backward slice (protocol.h's SliceLinkOutcome, from the PTX engine's
// backends/cpu/ptx/slice.h) in the student's words, from the first bad output back to the first
// step that went wrong, and only the path to it:
//   out(1,1,1) = nan (expected -0.0447): thread (1,1,1) of block (0,0,0) stored it at line 21
//   <- computed at lines 21-27
//   <- tile[1][1][0] read at line 22
//   <- never stored: no thread of the block stored tile[1][1][0]
//   <- thread (0,1,1)'s store at line 10 did not run: the condition at line 9 was false
// What counts as the wrong step, in the order the slice meets them: a value rounded to float in an
// fp64 exercise; a global cell loaded that is not one the stencil reads for this output (a wrong
// index); a shared cell read that no thread stored, or that another thread stored in the same
// barrier interval (no __syncthreads() between: a race) or only after the read; for a cell that
// must not be written (the boundary, a ghost cell, in[]), the store itself and the condition that let
// it run; for a cell never written, the store that did not run and its condition. A global cell the
// stencil does not read, and a value whose every step is right by these rules, end at the effective
// stencil (effective_stencil.h) when it names a difference: the kernel's stencil beside the
// exercise's and the line that holds the difference; else at the arithmetic (the statements that
// computed the value).
#pragma once
#include <optional>
#include <vector>

#include "checker/causes.h"
#include "checker/checker.h"
#include "checker/effective_stencil.h"
#include "checker/exercises.h"
#include "checker/protocol.h"
#include "checker/shared_arrays.h"

namespace stencil::checker {

struct ExplainContext {
    const Exercise& ex;
    int n = 0;                    // the failing case's size (star3d N; cardiac2d n)
    const SharedArrays& arrays;   // the submission's __shared__ declarations
    GridDims dims{};              // the arrays' extents, x fastest (star3d: N^3)
    std::string output = "out";   // the written array the bad cell is in
    const EffectiveStencil* stencil = nullptr;  // the first bad output's stencil, when traced
};

struct ExplainedSlice {
    std::vector<ExplainStep> steps;         // the path to the wrong step, output first
    std::optional<SourceRef> cause;         // the wrong step's statement
    bool unstored_shared_read = false;      // the output depends on a shared cell no thread stored
    std::optional<Cause> cause_kind;        // what the wrong step is (nullopt: the verdict's default)
    bool stencil_cause = false;             // `cause` is the effective stencil's (a term's or the index lines')
};

ExplainedSlice explain_slice(const ReplayOutcome& replay, Verdict verdict, const Evidence& ev,
                             const ExplainContext& ctx);

}  // namespace stencil::checker
