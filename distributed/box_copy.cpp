#include "distributed/box_copy.h"

#include <cstring>

namespace stencil::distributed {

namespace {
std::size_t offset(GridDims d, int x, int y, int z) {
    return (static_cast<std::size_t>(z) * d.ny + y) * d.nx + x;
}
}  // namespace

void pack_box(const void* array, GridDims dims, int value_bytes, const Box& box, void* packed) {
    const auto* src = static_cast<const unsigned char*>(array);
    auto* dst = static_cast<unsigned char*>(packed);
    const std::size_t row = static_cast<std::size_t>(box.hi[0] - box.lo[0]) * value_bytes;
    for (int z = box.lo[2]; z < box.hi[2]; ++z)
        for (int y = box.lo[1]; y < box.hi[1]; ++y, dst += row)
            std::memcpy(dst, src + offset(dims, box.lo[0], y, z) * value_bytes, row);
}

void unpack_box(const void* packed, const Box& box, void* array, GridDims dims, int value_bytes) {
    const auto* src = static_cast<const unsigned char*>(packed);
    auto* dst = static_cast<unsigned char*>(array);
    const std::size_t row = static_cast<std::size_t>(box.hi[0] - box.lo[0]) * value_bytes;
    for (int z = box.lo[2]; z < box.hi[2]; ++z)
        for (int y = box.lo[1]; y < box.hi[1]; ++y, src += row)
            std::memcpy(dst + offset(dims, box.lo[0], y, z) * value_bytes, src, row);
}

Box owned_in_local(const analysis::SubBox& b) {
    Box box;
    for (int a = 0; a < 3; ++a) box.lo[a] = b.halo[a][0], box.hi[a] = b.halo[a][0] + b.owned[a].size();
    return box;
}

Box local_in_global(const analysis::SubBox& b) {
    Box box;
    for (int a = 0; a < 3; ++a) box.lo[a] = b.owned[a].lo - b.halo[a][0], box.hi[a] = b.owned[a].hi + b.halo[a][1];
    return box;
}

Box owned_in_global(const analysis::SubBox& b) {
    Box box;
    for (int a = 0; a < 3; ++a) box.lo[a] = b.owned[a].lo, box.hi[a] = b.owned[a].hi;
    return box;
}

Box send_face(const analysis::SubBox& b, int axis, int side, int radius) {
    Box box = owned_in_local(b);
    if (side == 0)
        box.hi[axis] = box.lo[axis] + radius;
    else
        box.lo[axis] = box.hi[axis] - radius;
    return box;
}

Box receive_face(const analysis::SubBox& b, int axis, int side, int radius) {
    Box box = owned_in_local(b);
    if (side == 0) {
        box.hi[axis] = box.lo[axis];
        box.lo[axis] -= radius;
    } else {
        box.lo[axis] = box.hi[axis];
        box.hi[axis] += radius;
    }
    return box;
}

std::optional<long long> contiguous_offset(const Box& box, GridDims dims) {
    const bool whole_rows = box.lo[0] == 0 && box.hi[0] == dims.nx;
    const bool whole_planes = whole_rows && box.lo[1] == 0 && box.hi[1] == dims.ny;
    const bool one_plane = box.hi[2] - box.lo[2] == 1;
    if (!whole_planes && !(whole_rows && one_plane)) return std::nullopt;
    return ((long long)box.lo[2] * dims.ny + box.lo[1]) * dims.nx;
}

}  // namespace stencil::distributed
