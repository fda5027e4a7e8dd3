// What went wrong in a failing check, as one short snake_case name: the key an exercise's data file
// maps to the README hint that teaches it (the hint is chosen by cause, not by verdict kind). Every
// Finding and its Evidence carry one (checker.h: Evidence::cause, Finding::cause), written in
// `check --json`. The list is fixed here; a name is never reused for another meaning.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "checker/checker.h"

namespace stencil::checker {

enum class Cause {
    // the effective stencil (checker/effective_stencil.h): the output's sum against the exercise's
    weight_pairing,     // a weight multiplies another neighbour than the one the stencil gives it
    index_axis,         // an index taken from the wrong axis: x and z (or a pair) swapped
    index_offset,       // every term shifted: the output reads around another cell than its own
    neighbour_missing,  // a neighbour never read, read twice, or a cell outside the stencil read
    not_a_sum,          // the output is not a sum of weights times cells (a product, a division, ...)
    value_arithmetic,   // the sum is the stencil's but its numbers differ (a factor, an operator)
    precision_lost,     // a value rounded to float in an fp64 exercise
    // shared memory and barriers
    halo_index,         // a tile cell copied from the wrong global cell (a halo or ghost index)
    halo_load_skipped,  // a tile cell no thread stored: its load's condition was false for it
    unstored_read,      // an output depends on a shared cell no thread stored (no skipped load found)
    barrier_missing,    // a shared cell read before its store, no __syncthreads() between (a race)
    barrier_divergent,  // a barrier some threads miss (a return or a branch before it)
    race_shared,        // two accesses to a shared cell, one a store, not ordered
    race_global,        // the same on global memory (between blocks, or atomics' order)
    // which cells are written
    boundary_written,   // a cell that must keep its value (the boundary, a ghost cell) was written
    cell_unwritten,     // an output cell no thread stored (a guard or loop bound off by one)
    input_written,      // a store to the read-only input
    out_of_bounds_load,
    out_of_bounds_store,
    // the rest
    timeout,
    wrong_value,        // a wrong result whose cause the checker did not find
};

std::string_view cause_name(Cause c);
// The cause for a reader: "a weight on the wrong neighbour" (the text report's "cause:" line).
std::string_view cause_words(Cause c);
std::optional<Cause> parse_cause(std::string_view name);
std::span<const Cause> all_causes();

// The cause a finding has when no step named one (the replay, the effective stencil): from its
// verdict and evidence, as today's hint kinds told them apart. nullopt: none (pass, a compile error,
// a crash that is not the student's load).
std::optional<Cause> default_cause(Verdict v, const Evidence& ev);

}  // namespace stencil::checker
