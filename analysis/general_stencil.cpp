#include "analysis/general_stencil.h"

#include <cmath>

namespace stencil::analysis {

double GeneralStencilModel::opb(double loads_per_output) const {
    return loads_per_output > 0 ? flops_per_output / (loads_per_output * value_bytes) : 0;
}

GeneralStencilModel general_stencil_model(int points, int value_bytes) {
    return {points, points > 0 ? 2 * points - 1 : 0, value_bytes};
}

double tiled_loads_per_output(int in_tile, int out_tile, int dims) {
    if (out_tile <= 0) return 0;
    return std::pow(double(in_tile) / out_tile, dims);
}

}  // namespace stencil::analysis
