// What a problem brings to a decomposed run, so that one driver serves every problem: the host
// driver (mpi_run.h, halos through MPI) and the GPU driver (nccl_run.h, halos through NCCL) hold
// the exchange, the timing, the scatter and gather, the halo bytes and the verdict; a problem
// (star3d_problem.h: the chapter's 3D stencils; cardiac2d_problem.h: text 002's 2D mesh) holds
// its fields, its split, its halo width, its model and its comparison, and an engine of the
// problem's holds its launches on a piece and on the whole grid alone (HostSteps here; GpuSteps,
// nccl_run.h). No MPI, no CUDA here.
//
// The fields of a grid or of a piece are byte arrays of the run's precision (x fastest). Field 0
// is the one whose halos travel: every pass exchanges its halos, then launches once, reading field
// 0 and writing its second copy (the two swap after the pass); the other fields (the cardiac
// mesh's R) are read and written in place.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/decomposition.h"
#include "distributed/run_result.h"

namespace stencil::distributed {

using Fields = std::vector<std::vector<unsigned char>>;

class DecomposedProblem {
public:
    virtual ~DecomposedProblem() = default;
    // Why the run cannot go on `ranks` ranks (or GPUs), in one sentence; nullopt when it can. The
    // same on every rank: it depends on the options alone.
    virtual std::optional<std::string> run_error(int ranks) const = 0;
    virtual GridDims whole_dims() const = 0;                     // the whole grid's array
    virtual analysis::SubBox box_of(int rank) const = 0;         // a rank's piece, halos included
    virtual int halo() const = 0;                                // the exchanged width (r, or r K)
    virtual int value_bytes() const = 0;
    virtual int fields() const = 0;  // arrays a piece holds (its field 0 twice)
    virtual int passes() const = 0;  // exchanges in the run, each followed by one launch
    virtual int steps() const = 0;
    virtual analysis::DecompositionModel model() const = 0;  // the link's probe size, the halo total
    virtual Fields start() const = 0;                        // the whole grid's fields at the start
    // The gathered fields (whole grid) against the single domain's.
    virtual Verdict compare(const Fields& gathered, const Fields& alone) const = 0;
};

// A piece's launches on the host (any backend, or the CPU engine), for the MPI driver.
class HostPieceSteps {
public:
    virtual ~HostPieceSteps() = default;
    // Pass `k`: field 0's halos in `in` are fresh; writes `out` (the two then swap) and `others`.
    virtual void pass(int k, std::vector<unsigned char>& in, std::vector<unsigned char>& out, Fields& others) = 0;
};

class HostSteps {
public:
    virtual ~HostSteps() = default;
    virtual std::string backend() const = 0;
    virtual std::string device() const = 0;
    // What this rank's engine cannot run on its piece (may differ between ranks: agreed on).
    virtual std::optional<std::string> cannot_run(const analysis::SubBox& box) const = 0;
    virtual std::unique_ptr<HostPieceSteps> on_piece(const analysis::SubBox& box) = 0;
    // The same steps on the whole grid alone, through the same engine, and their time per step.
    virtual Fields single_domain(const Fields& start, double* seconds_per_step) = 0;
};

}  // namespace stencil::distributed
