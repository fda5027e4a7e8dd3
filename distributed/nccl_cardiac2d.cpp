#include "distributed/nccl_cardiac2d.h"

#include <utility>

#include "backends/cuda/cardiac2d.h"
#include "distributed/nccl_run.h"

namespace stencil::distributed {

namespace {

class Cardiac2dPieceOnGpu : public GpuPieceSteps {
public:
    Cardiac2dPieceOnGpu(const Cardiac2dRunOptions& o, const analysis::SubBox& box)
        : o_(o), piece_(cardiac2d::mesh_piece(box.owned[0].size(), box.owned[1].size())), sides_(outer_sides(box)),
          d_(cardiac2d::discretise(o.n)) {}
    void pass(int, DevicePiece& piece) override {
        // Rows 2 .. ny - 1 read rows 1 .. ny: no ghost row. With at least three rows the mirrors read
        // only the piece's own rows too, so both run while the ghost rows travel; rows 1 and ny go
        // on the exchange's stream after the mirrors, and run as soon as the ghost rows land
        // (device_piece.h, "Overlap"). On a thinner piece a mirror may read a neighbour's cells:
        // after the exchange.
        const int ny = piece_.ny;
        if (o_.overlap && piece.late_axis() == 1 && piece.late_halos() && ny >= 3) {
            cardiac2d::launch_ghosts_on_device(o_.precision, piece.in(), piece_, sides_);
            const cudaStream_t edges = piece.late_halo_stream();
            step_rows(piece, 2, ny - 1, nullptr);
            step_rows(piece, 1, 1, edges);
            step_rows(piece, ny, ny, edges);
        } else {
            piece.wait_for_late_halos();
            cardiac2d::launch_ghosts_on_device(o_.precision, piece.in(), piece_, sides_);
            step_rows(piece, 1, ny, nullptr);
        }
    }

private:
    // Rows first .. last of the piece (1-based, as the ghost ring counts them) as a piece of their
    // own, on `stream`: its ghost rows are the rows around them, whose cells it reads and leaves
    // alone.
    void step_rows(const DevicePiece& piece, int first, int last, cudaStream_t stream) const {
        if (last < first) return;
        cardiac2d::Piece rows = piece_;
        rows.ny = last - first + 1;
        const std::size_t offset = std::size_t(first - 1) * piece_.pitch * piece.value_bytes();
        auto at = [offset](void* field) { return static_cast<unsigned char*>(field) + offset; };
        cardiac2d::launch_step_on_device(o_.kernel, o_.precision, at(piece.in()), at(piece.out()), at(piece.field(1)),
                                         rows, d_.alpha, d_.dt, stream);
    }

    Cardiac2dRunOptions o_;
    cardiac2d::Piece piece_;
    int sides_;
    cardiac2d::Discretisation d_;  // the whole mesh's alpha and dt
};

class Cardiac2dOnGpu : public GpuSteps {
public:
    explicit Cardiac2dOnGpu(const Cardiac2dRunOptions& o) : o_(o) {}
    std::optional<std::string> unavailable() const override { return std::nullopt; }
    void on_device() const override {}
    std::unique_ptr<GpuPieceSteps> on_piece(const analysis::SubBox& box) const override {
        return std::make_unique<Cardiac2dPieceOnGpu>(o_, box);
    }
    // The whole mesh alone on the current GPU, through the same launchers (CudaStepper), and its
    // time per step from the spiral's start (CUDA events, a run of its own).
    Fields single_domain(const Fields& start, double* seconds_per_step) const override {
        cardiac2d::State alone = state_of(start, o_.n, o_.precision);
        cardiac2d::CudaStepper stepper;
        stepper.advance(o_.kernel, o_.precision, alone, o_.steps);
        *seconds_per_step = stepper.time_step_ms(o_.kernel, o_.precision, o_.n, o_.steps, 1).at(0) * 1e-3;
        return fields_of(alone, o_.precision);
    }

private:
    Cardiac2dRunOptions o_;
};

}  // namespace

Cardiac2dRunResult run_cardiac2d_gpus(int gpus, const Cardiac2dRunOptions& o) {
    return {run_on_gpus(gpus, Cardiac2dProblem(o), Cardiac2dOnGpu(o)), o};
}

#if STENCIL_LAB_HAVE_MPI
Cardiac2dRunResult run_cardiac2d_nccl(const MpiWorld& world, const Cardiac2dRunOptions& o) {
    return {run_nccl(world, Cardiac2dProblem(o), Cardiac2dOnGpu(o)), o};
}
#endif

}  // namespace stencil::distributed
