// The CPU engine's diagnostics (protocol.h's EngineDiagnostic, from a run of the runner's result) as a
// verdict and evidence in the student's terms: the cell by the name the student declared
// (`tile[2][2][3]`, `in[] at (x, y, z)`), the threads, the block, the barrier interval, and the
// line of the student's file the faulting instruction came from (the PTX's line info).
// Internal to stencil_checker (evaluate.cpp calls it run by run).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/checker.h"
#include "checker/exercises.h"
#include "checker/protocol.h"
#include "checker/shared_arrays.h"

namespace stencil::checker {

struct DiagnosisContext {
    const Exercise& ex;
    int tile = 0;
    int n = 0;                    // the run's grid size
    const SharedArrays& arrays;   // the submission's __shared__ declarations
    // The other problems' arrays (checker/field_exercises.h): their extents (x fastest), their
    // names, the read-only one the kernel reads, and where a cell sits. Unset for star3d: in[] and
    // out[], N^3 cells each.
    GridDims dims{};
    std::vector<std::string> buffers{};
    std::string input = "in";
    std::function<CellClass(int, int, int)> classify{};
};

struct Diagnosis {
    Verdict verdict = Verdict::pass;  // pass: no verdict (an uninitialized shared read warns)
    bool fatal = false;               // the engine abandoned the run: its outputs tell nothing
    Evidence evidence;                // `base` with the message, the race, the cell and the line
};

// Which verdict each kind is (checker/README.md's table):
//   out_of_bounds        a store to in[], out[] or a shared array: out_of_bounds_write; a load,
//                        or a store to an address in no buffer (a null or wild pointer): crash
//   race                 race (shared: one block's barrier interval; global: also between blocks)
//   divergent_barrier,
//   exit_before_barrier  race (a synchronization error)
//   input_write          input_modified (a store through in[], even one undone later)
//   timeout              timeout (the block's instruction budget)
//   uninitialized_shared_read   no verdict (a warning; the NaN poison shows if an output uses it)
//   anything else        crash
Diagnosis diagnose(const EngineDiagnostic& d, const Evidence& base, const DiagnosisContext& ctx);

// A path's file name ("stencil.cu"): how findings name the student's file.
std::string base_name(std::string_view path);
// "(x, y, z)": a cell, block or thread index as every line of the report writes it.
std::string index_text(const Int3& a);
// A statement of the student's file as a finding names it, from where the engine saw it.
SourceRef source_ref(const SourceAt& at, std::string role, std::optional<Int3> block = std::nullopt,
                     std::optional<Int3> thread = std::nullopt);

}  // namespace stencil::checker
