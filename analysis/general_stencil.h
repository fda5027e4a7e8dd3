// The model of a stencil given as points (an exercise written as data: a 2D heat step, a 27-point
// box, any list of offsets), in the textbook's terms: FLOP per output, and OP/B, FLOP per byte
// loaded, from the global loads an output costs. The lab's 3D star is the case of 6r + 1 points
// (analysis/model.h has its tiles and versions; this file needs only the points and a load count).
#pragma once

namespace stencil::analysis {

struct GeneralStencilModel {
    int points = 0;
    int flops_per_output = 0;  // a multiply per point and an add between each two: 2p - 1
    int value_bytes = 4;       // 4 (fp32) or 8 (fp64)

    // FLOP per byte loaded at `loads_per_output` global loads of a value per output.
    double opb(double loads_per_output) const;
    // Every input value loaded once (one load per output): the single-step limit of OP/B.
    double limit_opb() const { return opb(1.0); }
};

GeneralStencilModel general_stencil_model(int points, int value_bytes);

// A tile of in_tile^dims input values computing out_tile^dims outputs, each input loaded once:
// its loads per output ((in / out)^dims, the textbook's tiled count).
double tiled_loads_per_output(int in_tile, int out_tile, int dims);

}  // namespace stencil::analysis
