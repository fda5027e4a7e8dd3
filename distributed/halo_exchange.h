// One rank's halo exchange through MPI: every face with a neighbour is packed into a buffer of its
// own and sent with MPI_Isend while MPI_Irecv waits for the matching face of the neighbour; then
// the received faces are unpacked into the halo. Faces only (a star stencil reads along the axes),
// all six at once (no ordering between axes is needed when edges and corners are never read).
#pragma once
#include <vector>

#include "analysis/decomposition.h"
#include "distributed/box_copy.h"
#include "distributed/mpi_world.h"

namespace stencil::distributed {

class HaloExchange {
public:
    HaloExchange(const MpiWorld& world, const analysis::SubBox& box, int radius, int value_bytes);

    // Fills the halo of `local` (the rank's array, box.local_dims()) from the neighbours' faces.
    // Collective among neighbours: every rank of the decomposition calls it once per step.
    void exchange(void* local);

    long long bytes_sent_per_exchange() const { return bytes_sent_; }

private:
    struct Face {
        int neighbour = 0;
        int send_tag = 0, receive_tag = 0;
        Box send, receive;
        std::vector<unsigned char> send_buffer, receive_buffer;
    };
    const MpiWorld& world_;
    GridDims local_dims_;
    int value_bytes_;
    std::vector<Face> faces_;
    long long bytes_sent_ = 0;
};

}  // namespace stencil::distributed
