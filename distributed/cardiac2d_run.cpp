#include "distributed/cardiac2d_run.h"

#include <algorithm>
#include <limits>

#include "backends/cpu/cardiac2d_cpu.h"
#include "distributed/mpi_run.h"
#include "distributed/seconds_since.h"

namespace stencil::distributed {

namespace {

// A cell no kernel wrote shows: E is poisoned before each step, as the whole mesh's is (cardiac2d_cpu.cpp).
void poison(std::vector<unsigned char>& E, Precision p) {
    if (p == Precision::f32) {
        auto* v = reinterpret_cast<float*>(E.data());
        std::fill(v, v + E.size() / sizeof(float), std::numeric_limits<float>::quiet_NaN());
    } else {
        auto* v = reinterpret_cast<double*>(E.data());
        std::fill(v, v + E.size() / sizeof(double), std::numeric_limits<double>::quiet_NaN());
    }
}

class PieceOnCpu : public HostPieceSteps {
public:
    PieceOnCpu(cardiac2d::CpuStepper& stepper, const Cardiac2dRunOptions& o, const analysis::SubBox& box)
        : stepper_(stepper), o_(o), piece_(cardiac2d::mesh_piece(box.owned[0].size(), box.owned[1].size())),
          sides_(outer_sides(box)), d_(cardiac2d::discretise(o.n)) {}
    void pass(int, std::vector<unsigned char>& E_prev, std::vector<unsigned char>& E, Fields& R) override {
        stepper_.fill_ghosts(o_.precision, E_prev.data(), piece_, sides_);
        poison(E, o_.precision);
        stepper_.step(o_.kernel, o_.precision, E_prev.data(), E.data(), R.at(0).data(), piece_, d_.alpha, d_.dt);
    }

private:
    cardiac2d::CpuStepper& stepper_;
    Cardiac2dRunOptions o_;
    cardiac2d::Piece piece_;
    int sides_;
    cardiac2d::Discretisation d_;  // the whole mesh's alpha and dt: a piece is part of the same discretisation
};

class Cardiac2dOnCpu : public HostSteps {
public:
    Cardiac2dOnCpu(cardiac2d::CpuStepper& stepper, const Cardiac2dRunOptions& o) : stepper_(stepper), o_(o) {}
    std::string backend() const override { return stepper_.backend_name(); }
    std::string device() const override { return "the PTX engine"; }
    std::optional<std::string> cannot_run(const analysis::SubBox&) const override { return std::nullopt; }
    std::unique_ptr<HostPieceSteps> on_piece(const analysis::SubBox& box) override {
        return std::make_unique<PieceOnCpu>(stepper_, o_, box);
    }
    // The whole mesh alone, through the same stepper (it rounds the fp64 state to the precision itself).
    Fields single_domain(const Fields& start, double* seconds_per_step) override {
        cardiac2d::State alone = state_of(start, o_.n, o_.precision);
        const auto t0 = Clock::now();
        stepper_.advance(o_.kernel, o_.precision, alone, o_.steps);
        *seconds_per_step = seconds_since(t0) / o_.steps;
        return fields_of(alone, o_.precision);
    }

private:
    cardiac2d::CpuStepper& stepper_;
    Cardiac2dRunOptions o_;
};

}  // namespace

Cardiac2dRunResult run_cardiac2d(const MpiWorld& world, const Cardiac2dRunOptions& o) {
    engine::ExecOptions exec;
    exec.workers = 1;
    cardiac2d::CpuStepper stepper(exec);
    Cardiac2dOnCpu steps(stepper, o);
    return {run_on_ranks(world, Cardiac2dProblem(o), steps), o};
}

}  // namespace stencil::distributed
