// Hardware counters through CUPTI, in-process. Where the machine keeps counters for administrators
// the test passes with a warning that carries the sentence the user would see (which must name
// the fix); where they can be read, they must agree with what the kernel has to do.
#include <catch2/catch.hpp>

#include "backends/cuda/counters.h"
#include "core/run.h"
#include "core/weights.h"
#include "tests/gpu/gpu_fixture.h"

namespace stencil {

TEST_CASE("hardware counters of the naive kernel agree with the model", "[gpu][counters]") {
    test::gpu();
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const LaunchRequest req{KernelId::naive, 8, 1, p, {256, 256, 256}};
    std::string why;
    const auto c = measure_counters(req, random_weights(1, 1), &why);
    if (!c) {
        WARN("hardware counters not available: " << why);
        CHECK(!why.empty());
        if (why.find("administrators") != std::string::npos)
            CHECK(why.find("NVreg_RestrictProfilingToAdminUsers=0") != std::string::npos);
        return;
    }
    std::string all;
    for (const auto& [name, value] : c->raw) all += name + " = " + std::to_string(value) + "\n";
    CAPTURE(all);
    const double array = double(req.dims.cells()) * bytes_of(p);
    CAPTURE(to_string(p), c->dram_bytes_read, c->dram_bytes_write, c->l2_bytes, c->sectors_per_request(), c->flops());
    // Every cell is read from DRAM at least once (the L2 was flushed), and not much more than once.
    CHECK(c->dram_bytes_read > 0.9 * array);
    CHECK(c->dram_bytes_read < 3.0 * array);
    CHECK(c->dram_bytes_write > 0);  // (dirty lines may still sit in the L2 when the kernel ends)
    CHECK(c->l2_bytes >= c->dram_bytes_read);
    // An 8-wide block row: each warp touches 4 rows, at least 4 and at most 32 sectors per request.
    CHECK(c->sectors_per_request() >= 4);
    CHECK(c->sectors_per_request() <= 32);
    // 12r + 1 FLOP per interior output: one multiply and 6r fused multiply-adds.
    CHECK(c->flops() == Approx(stencil_flops(req.dims, 1)).epsilon(1e-6));
    // The requested level, measured: each of the 254^3 interior threads asks for its 7 values and
    // stores 1, and no other thread touches memory. Exact, byte for byte (the textbook's 7 x 4 B).
    INFO(c->requested_unavailable);
    REQUIRE(c->requested_read_bytes());
    const double interior = 254.0 * 254.0 * 254.0;
    CHECK(*c->requested_read_bytes() == 7 * interior * bytes_of(p));
    REQUIRE(c->requested_write_bytes());
    CHECK(*c->requested_write_bytes() == interior * bytes_of(p));
}

}  // namespace stencil
