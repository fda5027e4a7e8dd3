// Compare a kernel's output with the fp64 reference, cell by cell, to a bound that is rigorous
// rather than a guessed tolerance.
//
// An interior cell passes when |got - ref| <= gamma * magnitude, where magnitude = sum |w_i x_i|
// and gamma = gamma_m(kernel precision) + gamma_m(fp64), gamma_m = m u / (1 - m u), m = 6r + 1
// terms, u the unit roundoff: the classical bound for a sum of m products in any order, with or
// without FMA. So a correct kernel always passes and an error of a few ulps of the terms fails.
// Boundary cells must equal the input exactly. NaN and Inf fail everywhere.
#pragma once
#include <optional>
#include <string>

#include "core/field.h"
#include "core/reference.h"

namespace stencil {

enum class CellKind { interior, boundary };

struct BadCell {
    int x = 0, y = 0, z = 0;
    double expected = 0, got = 0, bound = 0;
    CellKind kind = CellKind::interior;
};

struct CompareResult {
    bool ok = false;
    long long cells = 0;
    long long bad_cells = 0;         // all failures, NaN and boundary ones included
    long long nan_cells = 0;         // NaN or Inf where the reference is finite
    long long boundary_changed = 0;  // boundary cells that differ from the input
    double max_abs_err = 0;          // over finite interior cells
    double max_rel_err = 0;          // |got - ref| / magnitude, over finite interior cells
    double gamma = 0;                // the bound's factor (see above)
    std::optional<BadCell> first_bad;  // lowest (z, y, x) among the failures

    std::string summary() const;  // one line for people
};

// S steps (reference_steps): every step rounds its sums as above, and the magnitude m_S carries
// each step's rounding through the steps after it, so the kernel's and the reference's errors are
// each at most gamma_m m_S to first order. What first order leaves out: step t rounds the kernel's
// own values, which differ from the reference's by up to g m_{t-1}; carried on, those terms add at
// most g (S - 1) g m_S in all (|A|^(S-t+1) m_{t-1} <= m_S for each t). So the bound is
// g (1 + (S - 1) g) x magnitude, g = gamma_m(p) + gamma_m(fp64): it grows with S through m_S,
// which holds the steps' own |A|^k growth, not through a guessed per-step tolerance. Terms of
// g^3 S^2 are dropped (below 1e-9 of the bound for S <= 1000 in f32).
double rounding_gamma(Precision p, int radius, int steps = 1);

template <class real>
CompareResult compare_with_reference(const Field<real>& got, const Reference& ref, Precision p);

}  // namespace stencil
