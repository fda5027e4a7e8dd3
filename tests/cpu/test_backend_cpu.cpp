// The stencil::Backend of the CPU: what make_backend("cpu") gives the CLI and the viewer.
#include <catch2/catch.hpp>

#include "backends/cpu/cpu_backend.h"
#include "core/compare.h"
#include "core/field.h"
#include "core/reference.h"

using namespace stencil;

TEST_CASE("the cpu backend executes, times, copies and describes itself", "[cpu][backend]") {
    std::string why;
    auto b = make_backend("cpu", &why);
    REQUIRE(b);
    REQUIRE(b->kind() == BackendKind::cpu);
    const DeviceInfo dev = b->device();
    REQUIRE((!dev.name.empty() && dev.multiprocessors >= 1 && dev.warp_size == 32));

    const LaunchRequest req{KernelId::coarsened, 8, 1, Precision::f64, {19, 14, 12}};
    REQUIRE_FALSE(b->cannot_run(req));
    REQUIRE(b->cannot_run({KernelId::tiled, 12, 1, Precision::f32, {64, 64, 64}}));
    const auto in = random_field<double>(req.dims, 5);
    const auto w = random_weights(1, 9);
    auto out = poisoned_output(in, 1);
    b->execute(req, w, in.data.data(), out.data.data());
    REQUIRE(compare_with_reference(out, reference_stencil(in, w), Precision::f64).ok);

    const auto ms = b->time_ms(req, w, 1, 2);
    REQUIRE((ms.size() == 2 && ms[0] > 0));
    const auto gbps = b->copy_gbps(1 << 20, 2);
    REQUIRE((gbps.size() == 2 && gbps[1] > 0));
    const auto attr = b->attributes({KernelId::tiled, 8, 1, Precision::f32, {64, 64, 64}});
    REQUIRE((attr.static_smem_bytes == 2048 && attr.registers_per_thread == -1));
}
