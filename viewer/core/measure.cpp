#include "viewer/core/measure.h"

#include <stb_image.h>

#include "core/backend.h"
#include "core/engine_runs.h"
#include "core/field.h"
#include "core/weights.h"

namespace stencil::viewer {

TraceOpb measure_trace_opb(KernelId k, int T, int r, Precision p, GridDims dims) {
    TraceOpb m;
    m.kernel = k;
    m.tile = T;
    m.radius = r;
    m.precision = p;
    engine::ExecOptions o;
    o.trace.count = true;
    LaunchRequest req;
    req.kernel = k, req.tile = T, req.radius = r, req.precision = p, req.dims = dims;
    try {
        // The counts are the engine's, whichever backend times: the CPU backend's EngineRuns.
        const std::unique_ptr<Backend> cpu = make_cpu_backend();
        EngineRuns& engine = *cpu->engine();
        engine::ExecReport rep;
        if (p == Precision::f32) {
            const auto in = random_field<float>(dims, 1);
            auto out = poisoned_output(in, r);
            rep = engine.run(req, laplacian_weights(r), in.data.data(), out.data.data(), o).report;
        } else {
            const auto in = random_field<double>(dims, 1);
            auto out = poisoned_output(in, r);
            rep = engine.run(req, laplacian_weights(r), in.data.data(), out.data.data(), o).report;
        }
        if (!rep.ok) m.error = rep.summary();
        m.outputs = rep.counts.global_stores;
        m.load_bytes = rep.counts.global_load_bytes;
        m.opb = m.load_bytes > 0 ? (double)m.outputs * (12.0 * r + 1) / (double)m.load_bytes : 0;
    } catch (const std::exception& e) {
        m.error = e.what();
    }
    return m;
}

ImageStats image_stats(const std::string& png_path) {
    ImageStats s;
    int n = 0;
    unsigned char* px = stbi_load(png_path.c_str(), &s.width, &s.height, &n, 3);
    if (!px) {
        s.error = "cannot read " + png_path;
        return s;
    }
    const long long count = (long long)s.width * s.height;
    double sum = 0, sum2 = 0;
    for (long long i = 0; i < count; ++i) {
        const double y = 0.2126 * px[3 * i] + 0.7152 * px[3 * i + 1] + 0.0722 * px[3 * i + 2];
        sum += y;
        sum2 += y * y;
    }
    stbi_image_free(px);
    if (count > 0) {
        s.mean = sum / count;
        s.variance = sum2 / count - s.mean * s.mean;
    }
    return s;
}

}  // namespace stencil::viewer
