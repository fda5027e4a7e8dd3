#include "distributed/halo_exchange.h"

#include <climits>

#include "core/error.h"

namespace stencil::distributed {

namespace {
// A message is tagged with the direction it travels (axis, towards the low or the high side), so a
// rank that has the same neighbour on two sides could still tell the faces apart.
int direction_tag(int axis, int towards_side) { return axis * 2 + towards_side; }
}  // namespace

HaloExchange::HaloExchange(const MpiWorld& world, const analysis::SubBox& box, int radius, int value_bytes)
    : world_(world), local_dims_(box.local_dims()), value_bytes_(value_bytes) {
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            if (box.neighbour[axis][side] == analysis::kNoNeighbour) continue;
            Face f;
            f.neighbour = box.neighbour[axis][side];
            f.send_tag = direction_tag(axis, side);
            f.receive_tag = direction_tag(axis, 1 - side);  // it travelled towards us from that side
            f.send = send_face(box, axis, side, radius);
            f.receive = receive_face(box, axis, side, radius);
            const long long bytes = f.send.cells() * value_bytes;
            if (bytes > INT_MAX)
                throw UserError("a halo face is over 2 GiB, more than one MPI message carries here: use more ranks");
            f.send_buffer.resize(static_cast<std::size_t>(bytes));
            f.receive_buffer.resize(static_cast<std::size_t>(f.receive.cells() * value_bytes));
            bytes_sent_ += bytes;
            faces_.push_back(std::move(f));
        }
}

void HaloExchange::exchange(void* local) {
    std::vector<MPI_Request> requests;
    requests.reserve(2 * faces_.size());
    // Receives first, so no message waits for its buffer.
    for (Face& f : faces_) {
        requests.emplace_back();
        mpi_check(MPI_Irecv(f.receive_buffer.data(), static_cast<int>(f.receive_buffer.size()), MPI_BYTE, f.neighbour,
                            f.receive_tag, world_.comm(), &requests.back()),
                  "MPI_Irecv of a halo");
    }
    for (Face& f : faces_) {
        pack_box(local, local_dims_, value_bytes_, f.send, f.send_buffer.data());
        requests.emplace_back();
        mpi_check(MPI_Isend(f.send_buffer.data(), static_cast<int>(f.send_buffer.size()), MPI_BYTE, f.neighbour,
                            f.send_tag, world_.comm(), &requests.back()),
                  "MPI_Isend of a halo");
    }
    mpi_check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
              "MPI_Waitall of the halo exchange");
    for (const Face& f : faces_) unpack_box(f.receive_buffer.data(), f.receive, local, local_dims_, value_bytes_);
}

}  // namespace stencil::distributed
