// Both backends instantiate every version from its one row: the GPU's generated launch units
// (backends/cuda/launch_unit.cu.in, through kernels/dispatch.h) and the CPU's NVRTC families
// (backends/cpu/ptx/lab_ptx.cpp) hold exactly the same (precision, T, r, K).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "backends/cpu/ptx/lab_ptx.h"
#include "kernels/versions.h"
#if defined(STENCIL_LAB_HAVE_CUDA)
#include "backends/cuda/cuda_internal.h"
#endif

using namespace stencil;

namespace {

const char* real_name(Precision p) { return p == Precision::f32 ? "float" : "double"; }

// The expression NVRTC would be asked for, for an instantiation the GPU holds.
std::string expression(const KernelVersion& v, Precision p, int T, int r, int K) {
    std::string args = std::string("<") + real_name(p);
    if (v.tile_is_template) args += ", " + std::to_string(T);
    args += ", " + std::to_string(r);
    if (v.max_fused_steps > 1) args += ", " + std::to_string(K);
    return "stencil::" + std::string(v.kernel) + args + ">";
}

std::set<std::string> cpu_instantiations(KernelId k, Precision p) {
    std::set<std::string> out;
    for (const std::string& e : lab_ptx_detail::family_request(k, p).name_expressions)
        if (e.rfind("stencil::" + std::string(version(k).kernel) + "<", 0) == 0) out.insert(e);
    return out;
}

}  // namespace

TEST_CASE("every row's CPU family instantiates what its tile rules allow", "[instantiations]") {
    for (const KernelVersion& v : kernel_versions())
        for (Precision p : {Precision::f32, Precision::f64}) {
            INFO(v.name << " " << to_string(p));
            const std::set<std::string> cpu = cpu_instantiations(v.id, p);
            std::set<std::string> expected;
            for (int r = 1; r <= kMaxRadius; ++r)
                for (int T : v.tile_is_template ? runnable_tiles(v.id, r, p) : std::vector<int>{0})
                    for (int K = 1; K <= v.max_fused_steps; ++K)
                        if (v.max_fused_steps == 1 || fuse_fits(v.id, T, r, K))
                            expected.insert(expression(v, p, T, r, K));
            CHECK(cpu == expected);
        }
}

#if defined(STENCIL_LAB_HAVE_CUDA)
TEST_CASE("the GPU's launch units and the CPU's NVRTC families hold the same instantiations", "[instantiations]") {
    int compared = 0;
    for (const KernelVersion& v : kernel_versions())
        for (Precision p : {Precision::f32, Precision::f64}) {
            INFO(v.name << " " << to_string(p));
            const auto& table = cuda_detail::kernel_table(v.id);
            std::set<std::string> gpu;
            for (int r = 1; r <= kMaxRadius; ++r)
                for (int T = 0; T <= 64; ++T)
                    for (int K = 1; K <= 4; ++K)
                        if (table.function(p, T, r, K) != nullptr) {
                            // A row whose T is only the block edge answers for any T: one kernel.
                            gpu.insert(expression(v, p, v.tile_is_template ? T : 0, r, K));
                            ++compared;
                        }
            CHECK(gpu == cpu_instantiations(v.id, p));
        }
    CHECK(compared > 100);
}
#endif
