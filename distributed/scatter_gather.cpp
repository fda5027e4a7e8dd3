#include "distributed/scatter_gather.h"

#include <climits>
#include <vector>

#include "core/error.h"
#include "distributed/box_copy.h"

namespace stencil::distributed {

namespace {
constexpr int kScatterTag = 100, kGatherTag = 101;

int message_bytes(const Box& box, int value_bytes) {
    const long long bytes = box.cells() * value_bytes;
    if (bytes > INT_MAX)
        throw UserError("a rank's sub-box is over 2 GiB, more than one MPI message carries here: use more ranks");
    return static_cast<int>(bytes);
}
}  // namespace

void scatter_local_arrays(const MpiWorld& world, GridDims global_dims, const BoxOfRank& box_of, int value_bytes,
                          const void* global, void* local) {
    const analysis::SubBox mine = box_of(world.rank());
    if (!world.root()) {
        const int bytes = message_bytes(local_in_global(mine), value_bytes);
        mpi_check(MPI_Recv(local, bytes, MPI_BYTE, 0, kScatterTag, world.comm(), MPI_STATUS_IGNORE),
                  "MPI_Recv of the input");
        return;
    }
    std::vector<unsigned char> buffer;
    for (int rank = 1; rank < world.size(); ++rank) {
        const Box box = local_in_global(box_of(rank));
        buffer.resize(static_cast<std::size_t>(message_bytes(box, value_bytes)));
        pack_box(global, global_dims, value_bytes, box, buffer.data());
        mpi_check(MPI_Send(buffer.data(), static_cast<int>(buffer.size()), MPI_BYTE, rank, kScatterTag, world.comm()),
                  "MPI_Send of the input");
    }
    pack_box(global, global_dims, value_bytes, local_in_global(mine), local);
}

void gather_owned_boxes(const MpiWorld& world, GridDims global_dims, const BoxOfRank& box_of, int value_bytes,
                        const void* local, void* global) {
    const analysis::SubBox mine = box_of(world.rank());
    std::vector<unsigned char> buffer(static_cast<std::size_t>(message_bytes(owned_in_local(mine), value_bytes)));
    pack_box(local, mine.local_dims(), value_bytes, owned_in_local(mine), buffer.data());
    if (!world.root()) {
        mpi_check(MPI_Send(buffer.data(), static_cast<int>(buffer.size()), MPI_BYTE, 0, kGatherTag, world.comm()),
                  "MPI_Send of the result");
        return;
    }
    unpack_box(buffer.data(), owned_in_global(mine), global, global_dims, value_bytes);
    for (int rank = 1; rank < world.size(); ++rank) {
        const Box box = owned_in_global(box_of(rank));
        buffer.resize(static_cast<std::size_t>(message_bytes(box, value_bytes)));
        mpi_check(MPI_Recv(buffer.data(), static_cast<int>(buffer.size()), MPI_BYTE, rank, kGatherTag, world.comm(),
                           MPI_STATUS_IGNORE),
                  "MPI_Recv of the result");
        unpack_box(buffer.data(), box, global, global_dims, value_bytes);
    }
}

void scatter_local_arrays(const MpiWorld& world, GridDims global_dims, const analysis::Decomposition& d, int radius,
                          int value_bytes, const void* global, void* local) {
    scatter_local_arrays(
        world, global_dims, [&](int rank) { return analysis::sub_box(global_dims, d, radius, rank); }, value_bytes,
        global, local);
}

void gather_owned_boxes(const MpiWorld& world, GridDims global_dims, const analysis::Decomposition& d, int radius,
                        int value_bytes, const void* local, void* global) {
    gather_owned_boxes(
        world, global_dims, [&](int rank) { return analysis::sub_box(global_dims, d, radius, rank); }, value_bytes,
        local, global);
}

}  // namespace stencil::distributed
