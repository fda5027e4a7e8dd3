// The phase marks of the lab's tiled and coarsened kernels (kernels/phase_marks.cuh): nothing in
// the lab's compile (no clock is read: the PTX the engine and the GPU run is the uninstrumented
// kernel), and stamps where a phase_mark of its own is in scope, as the GPU's block timeline
// compiles the same files (backends/cuda/block_timeline.cu). NVRTC only: no GPU needed.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "backends/cpu/ptx/lab_ptx.h"
#include "backends/cpu/ptx/nvrtc_ptx.h"

namespace {

ptx::CompileResult compile(const std::string& source, const std::vector<std::string>& kernels) {
    ptx::CompileRequest req;
    req.name = "phase_marks_test.cu";
    req.source = source;
    for (int i = 0; i < stencil::lab_ptx_detail::kEmbeddedHeaderCount; ++i)
        req.headers.push_back(
            {stencil::lab_ptx_detail::kEmbeddedHeaders[i].name, stencil::lab_ptx_detail::kEmbeddedHeaders[i].text});
    req.name_expressions = kernels;
    req.options = {"--no-source-include"};
    return ptx::compile_to_ptx(req);
}

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("phase marks: nothing in the lab's kernels, stamps where the timeline puts its own", "[kernel]") {
    const ptx::CompileResult lab = compile("#include \"kernels/tiled.cuh\"\n#include \"kernels/coarsened.cuh\"\n",
                                           {"stencil::stencil_tiled_kernel<float, 8, 1>",
                                            "stencil::stencil_coarsened_kernel<double, 16, 2>"});
    INFO(lab.log);
    REQUIRE(lab.ok);
    CHECK(count(lab.ptx, "%clock64") + count(lab.ptx, "%globaltimer") == 0);

    // As block_timeline.cu does it: the kernel files included again inside a namespace within
    // stencil (whose names the kernels use), whose own phase_mark an unqualified call finds
    // before the lab's empty one.
    const ptx::CompileResult timed = compile(R"(#include "kernels/phase_marks.cuh"
#include "kernels/stencil_coefficients.cuh"
namespace stencil::timed {
__device__ unsigned long long stamps[64];
__device__ void phase_mark(int phase, int plane = 0) { stamps[(phase * 8 + plane) % 64] = clock64(); }
namespace instrumented {
#include "kernels/tiled.cuh"
#include "kernels/coarsened.cuh"
}
}
)",
                                             {"stencil::timed::instrumented::stencil::stencil_tiled_kernel<float, 8, 1>",
                                              "stencil::timed::instrumented::stencil::stencil_coarsened_kernel<double, 16, 2>"});
    INFO(timed.log);
    REQUIRE(timed.ok);
    // Five marks in the tiled kernel (start, loaded, released, computed, stored), more in the
    // coarsened one's march: at least one clock read per mark of the tiled kernel.
    CHECK(count(timed.ptx, "%clock64") >= 5);
    CHECK_FALSE(timed.lowered_name("stencil::timed::instrumented::stencil::stencil_tiled_kernel<float, 8, 1>").empty());
}
