// Internal to stencil-check-runner (CPU half, the replay): the value a traced thread stored, as the
// sum of products the engine executed, for the checker's effective stencil (checker/
// effective_stencil.h). The slice (backends/cpu/ptx/slice.h) says which statements made a value;
// this says what the value is made of: each product's literal factor, the __constant__ weights and
// the global cells in it (a shared cell followed back to the global cell its store copied), and
// any factor that is neither (a division, a square root, a shared cell no thread stored). Register
// arithmetic is expanded exactly (add, sub, mul, fma, neg, mov, float-to-float cvt); anything else
// is one opaque factor named by its operation and line.
#pragma once
#include <string>
#include <vector>

#include "backends/cpu/ptx/provenance.h"
#include "checker/protocol.h"

namespace ptx {
class Module;
}

namespace stencil::checker::runner {

struct StoredSum {
    std::vector<SumTermOutcome> terms;
    std::string note;  // why there are no terms (too many products, no store found)
};

// The value thread `thread` of the traced block stored by its access `access` (a global store) into
// the cell at byte `offset` (a vector store: which component), with the buffers named as the case
// names them.
StoredSum stored_sum(const ptx::Module& m, const ptx::Recording& rec, int thread, int access, long long offset,
                     const CaseSpec& cs);

// The traced thread's last store into `buffer` overlapping bytes [offset, offset + bytes) (offset
// < 0: any), or -1.
int last_store_access(const ptx::Recording& rec, int thread, int buffer, long long offset, int bytes);

}  // namespace stencil::checker::runner
