// Moving whole fields between rank 0 and the decomposition: the input goes out as each rank's
// local array (its owned box and its halos, so the first step starts with correct halos and every
// rank's edge and corner cells hold finite input values), and the result comes back as the owned
// boxes. Point-to-point, one message per rank; rank 0 holds the global field (the runs compare with
// one domain computed alone, so they are sized to fit one machine's memory anyway).
#pragma once
#include <functional>

#include "analysis/decomposition.h"
#include "distributed/mpi_world.h"

namespace stencil::distributed {

// Each rank's box, by rank: analysis::sub_box for the 3D grid, analysis::cardiac_piece for the
// cardiac mesh (whose ghost ring lies on every side).
using BoxOfRank = std::function<analysis::SubBox(int rank)>;

// `global` is read on rank 0 only (nullptr elsewhere); `local` is every rank's array.
void scatter_local_arrays(const MpiWorld& world, GridDims global_dims, const BoxOfRank& box_of, int value_bytes,
                          const void* global, void* local);
// `global` is written on rank 0 only (nullptr elsewhere): every cell, from the rank that owns it.
void gather_owned_boxes(const MpiWorld& world, GridDims global_dims, const BoxOfRank& box_of, int value_bytes,
                        const void* local, void* global);

// The same for the 3D grid's sub-boxes of radius r.
// `global` is read on rank 0 only (nullptr elsewhere); `local` is every rank's array.
void scatter_local_arrays(const MpiWorld& world, GridDims global_dims, const analysis::Decomposition& d, int radius,
                          int value_bytes, const void* global, void* local);
// `global` is written on rank 0 only (nullptr elsewhere): every cell, from the rank that owns it.
void gather_owned_boxes(const MpiWorld& world, GridDims global_dims, const analysis::Decomposition& d, int radius,
                        int value_bytes, const void* local, void* global);

}  // namespace stencil::distributed
