// Schedules: the correct kernels give bit-identical outputs under every schedule and worker count.
#include <catch2/catch.hpp>

#include <cstring>

#include "backends/cpu/cpu_backend.h"
#include "core/field.h"

using namespace stencil;

TEST_CASE("correct kernels agree bit for bit under every schedule", "[cpu][schedule]") {
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const int r = GENERATE(1, 3);
    const auto in = random_field<float>({17, 15, 13}, 21);
    const int T = !v.tile_is_template ? 5 : v.id == KernelId::tiled ? 8 : 16;  // naive, conv27: 5
    const auto chk = schedule_check({v.id, T, r, Precision::f32, in.dims}, random_weights(r, 2), in.data.data(), {}, 2);
    CAPTURE(v.name, r, chk.summary());
    REQUIRE((chk.ok && chk.runs.size() == 4 && !chk.first_difference));
}

TEST_CASE("the output does not depend on the worker count", "[cpu][schedule]") {
    const auto in = random_field<double>({23, 19, 17}, 4);
    const LaunchRequest req{KernelId::coarsened, 8, 2, Precision::f64, in.dims};
    const auto w = random_weights(2, 3);
    std::vector<Field<double>> outs;
    for (int workers : {1, 2, 4}) {
        outs.push_back(poisoned_output(in, 2));
        CpuOptions o;
        o.exec.workers = workers;
        o.exec.schedule = engine::Schedule::random;
        REQUIRE(run_cpu(req, w, in.data.data(), outs.back().data.data(), o).report.ok);
    }
    const size_t bytes = outs[0].data.size() * sizeof(double);
    REQUIRE((std::memcmp(outs[0].data.data(), outs[1].data.data(), bytes) == 0 &&
             std::memcmp(outs[0].data.data(), outs[2].data.data(), bytes) == 0));
}
