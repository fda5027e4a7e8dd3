// Figures measured from CPU-backend runs (counts of every access of a whole launch), for the OP/B
// panel's "trace" points, and the image checks of the screenshot test.
#pragma once
#include <optional>
#include <string>

#include "kernels/versions.h"

namespace stencil::viewer {

struct TraceOpb {
    KernelId kernel = KernelId::naive;
    int tile = 0, radius = 1;
    Precision precision = Precision::f32;  // the chart shows only its own precision's points
    long long outputs = 0;            // global stores
    long long load_bytes = 0;         // bytes requested by global loads
    double opb = 0;                   // outputs * (12r + 1) / load_bytes
    std::string error;
};
// Runs (k, T, r, p) on the CPU backend over `dims` with access counting (no records).
TraceOpb measure_trace_opb(KernelId k, int T, int r, Precision p, GridDims dims);

struct ImageStats {
    int width = 0, height = 0;
    double mean = 0, variance = 0;  // of the luminance, 0..255
    std::string error;
};
ImageStats image_stats(const std::string& png_path);

}  // namespace stencil::viewer
