// MPI_COMM_WORLD for one run: initialised on construction (MPI_THREAD_FUNNELED: the CPU backend's
// worker threads never call MPI), finalised on destruction. Only the `--decompose` path makes one,
// so every other command runs without MPI even in an MPI build. A scaling sweep runs each row on
// the first N ranks only: first_ranks gives those a world of their own (a split communicator).
#pragma once
#include <mpi.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/error.h"

namespace stencil::distributed {

class MpiWorld {
public:
    MpiWorld();
    ~MpiWorld();
    // The first `ranks` ranks of `parent` as a world of their own (MPI_Comm_split); nullptr on the
    // ranks left out. Collective over `parent`. MPI itself stays the parent's to finalise.
    static std::unique_ptr<MpiWorld> first_ranks(const MpiWorld& parent, int ranks);
    MpiWorld(const MpiWorld&) = delete;
    MpiWorld& operator=(const MpiWorld&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    bool root() const { return rank_ == 0; }
    MPI_Comm comm() const { return comm_; }

    // The last resort when one rank fails where the others would wait for it (a launch that throws
    // mid-run): ends every rank with `code`. Input errors never come here: every rank finds them
    // alike before any communication.
    [[noreturn]] void abort(int code) const;

private:
    explicit MpiWorld(MPI_Comm split);  // owns the communicator, not MPI
    MPI_Comm comm_ = MPI_COMM_WORLD;
    bool owns_mpi_ = true;
    int rank_ = 0, size_ = 1;
};

// Raised on the ranks that found nothing wrong when another rank failed a check they made together
// (agree below): that rank says why, these exit with the same code without a word of their own.
struct OtherRankFailed : std::runtime_error {
    OtherRankFailed() : std::runtime_error("another rank failed") {}
};

// One rank's own failure, said by that rank alone ("rank N: why").
struct RankError : UserError {
    using UserError::UserError;
};
// The same failure on every rank, said by rank 0 alone.
struct EveryRankError : UserError {
    using UserError::UserError;
};

// A check each rank makes on its own (its backend, its memory) that may differ between ranks:
// collective, so either every rank goes on or none does (a rank that went on would wait forever
// for one that stopped). When every rank failed, each throws EveryRankError(why), which rank 0
// alone prints; otherwise RankError("rank N: why") on a rank that failed, OtherRankFailed on the others.
void agree(const MpiWorld& world, const std::optional<std::string>& my_error);

// Throws UserError with MPI's own words when `rc` is not MPI_SUCCESS.
void mpi_check(int rc, const char* what);

}  // namespace stencil::distributed
