// Text 002's cardiac mesh as a decomposed problem (decomposed_problem.h, `run --problem cardiac2d
// --decompose PXxPY`), as the course decomposes it (the P1..P15 picture): the n x n mesh cut into
// pieces (analysis::cardiac_piece), each with a one-cell ghost ring; two fields, E_prev (whose
// edge rows and columns travel, one cell wide, no corners: a 5-point stencil never reads them) and
// R; the bit-for-bit comparison of E and R with the whole mesh computed alone, and the one JSON
// object rank 0 prints. Its engines: cardiac2d_run.h (the CPU engine, halos through MPI) and
// nccl_cardiac2d.h (GPUs, halos through NCCL). No MPI, no CUDA here.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/cardiac2d.h"
#include "distributed/decomposed_problem.h"
#include "kernels/cardiac2d/versions.h"

namespace stencil::distributed {

struct Cardiac2dRunOptions {
    cardiac2d::KernelId kernel = cardiac2d::KernelId::fused;
    Precision precision = Precision::f64;
    int n = 64;  // interior cells per side of the whole mesh
    analysis::Decomposition decomposition;  // parts[2] == 1
    int steps = 2;
    bool overlap = true;  // NCCL: step the rows that read no ghost row while the ghost rows travel
};

// Why these options cannot run on `ranks` ranks, in one sentence; nullopt when they can. Depends
// on nothing but its arguments, so every rank reaches the same verdict without talking.
std::optional<std::string> cardiac2d_run_error(const Cardiac2dRunOptions& o, int ranks);

// The outer sides of a piece (OuterSide bits): those without a neighbour, mirrored by the rank.
int outer_sides(const analysis::SubBox& piece);

// fp64 values as bytes of the kernel's precision, and back (widening keeps the bits apart).
std::vector<unsigned char> as_precision(const std::vector<double>& values, Precision p);
std::vector<double> widened(const std::vector<unsigned char>& bytes, Precision p);

class Cardiac2dProblem : public DecomposedProblem {
public:
    explicit Cardiac2dProblem(const Cardiac2dRunOptions& o) : o_(o) {}
    std::optional<std::string> run_error(int ranks) const override { return cardiac2d_run_error(o_, ranks); }
    GridDims whole_dims() const override;  // (n + 2) x (n + 2): the ring included
    analysis::SubBox box_of(int rank) const override { return analysis::cardiac_piece(o_.n, o_.decomposition, rank); }
    int halo() const override { return 1; }
    int value_bytes() const override { return bytes_of(o_.precision); }
    int fields() const override { return 2; }  // E_prev (and E), R
    int passes() const override { return o_.steps; }
    int steps() const override { return o_.steps; }
    analysis::DecompositionModel model() const override;
    Fields start() const override;  // the spiral's start, rounded to the kernel's precision
    // E and R compared on the interior, the kernel's values widened.
    Verdict compare(const Fields& gathered, const Fields& alone) const override;

private:
    Cardiac2dRunOptions o_;
};

// The whole mesh's state from fields (start() or a single domain's), and back.
cardiac2d::State state_of(const Fields& fields, int n, Precision p);
Fields fields_of(const cardiac2d::State& s, Precision p);

struct Cardiac2dRunResult : DecomposedRunResult {
    Cardiac2dRunResult() = default;
    Cardiac2dRunResult(DecomposedRunResult run, const Cardiac2dRunOptions& o)
        : DecomposedRunResult(std::move(run)), options(o) {}
    Cardiac2dRunOptions options;
    nlohmann::json to_json() const;  // the keys of star3d's (star3d_problem.h), as this problem has them
};

}  // namespace stencil::distributed
