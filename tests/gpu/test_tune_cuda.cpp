// The tuner on the GPU: every configuration it can pick passes its check against the fp64
// reference and is timed; the best is the fastest median of those.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/backend.h"
#include "experiments/tune.h"

using namespace stencil;
using namespace stencil::experiments;

TEST_CASE("tune on the GPU: every configuration it can pick is correct and timed", "[gpu][tune]") {
    std::string why;
    auto backend = make_backend("cuda", &why);
    REQUIRE(backend);
    // naive: its tiles and every block shape of kTuneBlocks.
    const KernelId k =
        GENERATE(KernelId::naive, KernelId::tiled, KernelId::coarsened, KernelId::streaming, KernelId::temporal);
    TuneOptions o;
    o.kernel = k;
    o.size = 96;
    o.reps = 3;
    o.warmup = 1;
    const TuneResult r = run_tune(*backend, o);
    CAPTURE(version(k).name);
    REQUIRE(r.timed);
    REQUIRE(r.best);
    // The tiles (and naive's shapes), then streaming's and temporal's z-chunks at the best of them,
    // then temporal's K.
    const size_t chunks = version(k).z_chunk > 0 ? std::size(kTuneZChunks) - 1 : 0;
    const size_t fuses = tune_fuse_configs(k, 0, 0).size();
    REQUIRE(r.tried.size() == tune_configs(k, 1, Precision::f32, backend->limits()).size() + chunks + fuses);
    for (const auto& t : r.tried) {
        CAPTURE(t.label(), t.skipped, t.check);
        if (!t.skipped.empty()) continue;
        CHECK(t.ok);
        CHECK(t.timed);
        CHECK(t.ms_median >= t.ms_min);
        CHECK(t.ms_max >= t.ms_median);
        CHECK(r.tried[*r.best].ms_median / r.tried[*r.best].steps <= t.ms_median / t.steps);
    }
}
