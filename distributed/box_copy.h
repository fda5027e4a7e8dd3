// Boxes of a field as flat byte buffers: the packing behind the halo exchange, the scatter of the
// input and the gather of the result. Type-agnostic (a value is `value_bytes` bytes, x fastest), so
// one implementation serves fp32 and fp64; a box is copied x-row by x-row. No MPI here.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "analysis/decomposition.h"
#include "kernels/versions.h"

namespace stencil::distributed {

// [lo, hi) along x, y, z in the coordinates of some array.
struct Box {
    std::array<int, 3> lo{}, hi{};
    long long cells() const { return (long long)(hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]); }
};

// Copies the box of `array` (dims, x fastest) into `packed` (box order, x fastest) and back.
void pack_box(const void* array, GridDims dims, int value_bytes, const Box& box, void* packed);
void unpack_box(const void* packed, const Box& box, void* array, GridDims dims, int value_bytes);

// Where a rank's data sits. Local coordinates index the rank's own array (owned box plus halos).
Box owned_in_local(const analysis::SubBox& b);                  // the cells it computes or holds fixed
Box local_in_global(const analysis::SubBox& b);                 // its whole array, in global coordinates
Box owned_in_global(const analysis::SubBox& b);
// The face it sends towards the neighbour on (axis, side): its own r outermost owned layers; and
// the halo that neighbour fills: the r layers beyond its owned box. Both span the owned box on the
// two other axes only (faces, no edges or corners: a star stencil never reads them).
Box send_face(const analysis::SubBox& b, int axis, int side, int radius);
Box receive_face(const analysis::SubBox& b, int axis, int side, int radius);

// Where the box starts in `dims`'s array, in values, when its cells are one contiguous run there
// (whole x rows, and whole x-y planes when it spans more than one row): a face that can travel
// straight from and into the array, with no packing copy. nullopt when they are not.
std::optional<long long> contiguous_offset(const Box& box, GridDims dims);

}  // namespace stencil::distributed
