// The 2D cardiac simulation of text 002 (the CSE 260 Aliev-Panfilov assignment), in plain C++:
// the assignment's constants and time step, the (n + 2)^2 mesh with its ghost cells, the no-flux
// boundary as the lecture's code fills it, the spiral-wave initial condition, the fp64 reference
// step (PDE, then ODE) and the statistics the assignment prints. The kernels are in
// kernels/cardiac2d/; core/cardiac2d_check.h checks them against this reference.
#pragma once
#include <vector>

#include "kernels/cardiac2d/model_constants.h"
#include "kernels/versions.h"  // Precision

namespace stencil::cardiac2d {

// The assignment's discretisation of the unit square with n x n cells: dx = 1 / (n - 1), and the
// largest stable explicit step with a 5% margin, the smaller of the diffusion limit
// dte = dx^2 / (4 d + dx^2 (rp + kk)) and the reaction limit dtr = 1 / (epsilon + (M1 / M2) rp),
// rp = kk (b + 1)^2 / 4. alpha = d dt / dx^2 weighs the Laplacian.
struct Discretisation {
    int n = 0;
    double dx = 0, dt = 0, alpha = 0;
};
Discretisation discretise(int n);

// What one step computes with, in the precision a kernel computes in: every constant rounded to
// `real` (and widened back), so that the fp64 reference of a check starts from the numbers the
// kernel really used. For f64 they are the assignment's own values.
struct StepCoefficients {
    double a, b, kk, M1, M2, epsilon, alpha, dt;
};
StepCoefficients step_coefficients(int n, Precision p);

// The mesh: E (the current potential, the lecture's E_prev at the start of a step) and R (the
// recovery variable), (n + 2) x (n + 2) values each, row-major, x fastest; rows and columns 0 and
// n + 1 are ghost cells. Host values are fp64; a kernel's run rounds them to its precision.
struct State {
    int n = 0;
    std::vector<double> E, R;
    int width() const { return n + 2; }
    long long index(int x, int y) const { return (long long)y * width() + x; }
};

// The assignment's initial condition, which winds up into a spiral wave: E = 1 on the right half
// of the columns (x > n / 2), R = 1 on the bottom half of the rows (y > n / 2), 0 elsewhere.
State spiral_initial_state(int n);

// The no-flux boundary of the lecture's solve(): each ghost cell takes the interior value two cells
// away (E[y][0] = E[y][2], E[y][n+1] = E[y][n-1], and the same for rows). Corners are not touched.
void fill_ghosts(int n, std::vector<double>& E);

// One step in fp64, in the lecture's order: fill E's ghosts, the PDE into a new E, the ODE on
// (new E, R); the new E becomes the state's E.
void reference_step(const StepCoefficients& c, State& s);
void reference_steps(const StepCoefficients& c, State& s, int steps);

// Every value rounded to precision p (and widened back): the state a kernel of that precision sees.
State rounded(const State& s, Precision p);

// The assignment's statistics over the interior: max |E| and the L2 norm sqrt(sum E^2 / n^2).
struct Statistics {
    double max_abs_E = 0;
    double l2_E = 0;
};
Statistics statistics(const State& s);

}  // namespace stencil::cardiac2d
