#include "distributed/mpi_world.h"

#include <fmt/format.h>

#include <cstdlib>
#include <string>

#include "core/error.h"

namespace stencil::distributed {

MpiWorld::MpiWorld() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    // Errors come back as return codes, so one line can say what failed (the default aborts).
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiWorld::MpiWorld(MPI_Comm split) : comm_(split), owns_mpi_(false) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
}

MpiWorld::~MpiWorld() {
    if (owns_mpi_)
        MPI_Finalize();
    else
        MPI_Comm_free(&comm_);
}

std::unique_ptr<MpiWorld> MpiWorld::first_ranks(const MpiWorld& parent, int ranks) {
    const bool in = parent.rank() < ranks;
    MPI_Comm split = MPI_COMM_NULL;
    mpi_check(MPI_Comm_split(parent.comm(), in ? 0 : MPI_UNDEFINED, parent.rank(), &split),
              "MPI_Comm_split for a row of the sweep");
    if (!in) return nullptr;
    return std::unique_ptr<MpiWorld>(new MpiWorld(split));
}

void MpiWorld::abort(int code) const {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

void agree(const MpiWorld& world, const std::optional<std::string>& my_error) {
    int mine = my_error ? 1 : 0, failed = 0;
    mpi_check(MPI_Allreduce(&mine, &failed, 1, MPI_INT, MPI_SUM, world.comm()), "MPI_Allreduce of a check");
    if (my_error && failed == world.size()) throw EveryRankError(*my_error);  // every rank alike: rank 0 says it once
    if (my_error) throw RankError(fmt::format("rank {}: {}", world.rank(), *my_error));
    if (failed) throw OtherRankFailed();
}

void mpi_check(int rc, const char* what) {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(rc, text, &length);
    throw UserError(fmt::format("{} failed: {}", what, std::string(text, length)));
}

}  // namespace stencil::distributed
