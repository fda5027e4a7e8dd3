// The model of a stencil given as points (analysis/general_stencil.h) against the lab's own star
// figures: the 7-point star's 13 FLOP and single-step limit 13/4, the textbook's tiled 8^3 at 1.37.
#include <catch2/catch.hpp>

#include "analysis/general_stencil.h"

using namespace stencil::analysis;

TEST_CASE("general stencil: FLOP per output and OP/B from the points and a load count", "[model]") {
    const GeneralStencilModel star = general_stencil_model(7, 4);
    CHECK(star.flops_per_output == 13);
    CHECK(star.limit_opb() == Approx(13.0 / 4));
    // the textbook's tiled kernel at T = 8: 512 inputs for 216 outputs
    CHECK(star.opb(tiled_loads_per_output(8, 6, 3)) == Approx(13.0 / 4 * 216 / 512));
    CHECK(star.opb(tiled_loads_per_output(8, 6, 3)) == Approx(1.37).margin(0.005));
    // the 27-point box in fp32 and the 2D heat step in fp64
    CHECK(general_stencil_model(27, 4).flops_per_output == 53);
    CHECK(general_stencil_model(27, 4).limit_opb() == Approx(53.0 / 4));
    const GeneralStencilModel heat = general_stencil_model(5, 8);
    CHECK(heat.flops_per_output == 9);
    CHECK(heat.opb(tiled_loads_per_output(16, 14, 2)) == Approx(9.0 / 8 * 196 / 256));
    CHECK(heat.opb(0) == 0);
    CHECK(tiled_loads_per_output(4, 0, 2) == 0);
}
