// The __shared__ arrays a submission declares, read off its source, so that evidence names a
// shared cell as the student wrote it: `tile[2][2][3]`, not "element 146". The CPU engine knows
// each array's name (the PTX symbol's demangled suffix) and a byte offset; the extents come from
// the declaration, `__shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];`, with the
// harness's macros and the file's own object-like #defines evaluated.
#pragma once
#include <string>
#include <vector>

#include "checker/exercises.h"

namespace stencil::checker {

struct SharedArray {
    std::string name;
    int elem_bytes = 0;               // of the declared element type (float 4, double 8, ...)
    std::vector<long long> extents;   // outermost first
};
using SharedArrays = std::vector<SharedArray>;

// Plain declarations only (`__shared__ [volatile] TYPE a[..][..], b[..];` with a built-in TYPE);
// an array declared another way (a typedef'd type, an extent the checker cannot evaluate) is
// left out and named by its flat element.
SharedArrays find_shared_arrays(const std::string& source, const Exercise& ex, int tile);

// "tile[2][2][3]" for the cell at `offset` bytes into the array `name`; "tile element 146" when
// its declaration is not in `arrays` (or the same name is declared twice with other extents);
// "shared array element 146" without a name. `access_bytes` sizes the element then.
std::string shared_cell_name(const SharedArrays& arrays, const std::string& name, long long offset,
                             int access_bytes);

}  // namespace stencil::checker
