// Source beside PTX (viewer/core/ptx_listing.h): the PTX lines of a source line and back, the
// engine's sites found in the text, and per source line the block's counts, which add up to the
// block's: loads and stores from the trace, FLOPs from the PTX and how often the block ran it.
#include <catch2/catch.hpp>

#include "viewer/core/ptx_listing.h"
#include "viewer/core/stepper.h"

using namespace stencil;
using namespace stencil::viewer;

namespace {

const char* kPtx = R"(.version 8.5
.target sm_90
.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .f32 	%f<4>;
	.loc	1 10 3
	ld.global.f32 	%f1, [%rd1];
	.loc	1 11 3
	fma.rn.f32 	%f2, %f1, %f1, %f1;
	@%p1 bra 	$L__BB0_2;
	.loc	1 12 3
	mul.f32 	%f3, %f2, %f2;
	st.global.f32 	[%rd2], %f3;
$L__BB0_2:
	ret;

}
	.file	1 "kernels/k.cuh"
)";

}  // namespace

TEST_CASE("PTX listing: the entry's instructions, their .loc lines, and the lines of a source line",
          "[viewer][ptx]") {
    const PtxListing l = ptx_listing(kPtx, "k");
    REQUIRE(l.ok());
    int instructions = 0;
    for (const auto& p : l.lines) instructions += p.instruction >= 0;
    CHECK(instructions == 6);  // ld, fma, bra, mul, st, ret
    const auto eleven = ptx_lines_of(l, "kernels/k.cuh", 11);
    REQUIRE(eleven.size() == 2);  // the fma and the branch
    CHECK((l.lines[eleven[0]].opcode == "fma.rn.f32" && l.lines[eleven[0]].flops == 2));
    CHECK(l.lines[eleven[1]].opcode == "bra");
    CHECK(l.lines[ptx_lines_of(l, "kernels/k.cuh", 12)[0]].flops == 1);
    CHECK(ptx_listing(kPtx, "missing").error.find("no entry") != std::string::npos);
    // Sites: the engine numbers the entry's instructions; an opcode that differs refuses the map.
    const std::vector<engine::ExecReport::SiteSource> src = {{"kernels/k.cuh", 10, "ld.global.f32"},
                                                           {"kernels/k.cuh", 12, "st.global.f32"}};
    const auto sl = site_lines(l, {0, 4}, src);
    REQUIRE(sl.size() == 2);
    CHECK((l.lines[sl[0]].opcode == "ld.global.f32" && l.lines[sl[1]].opcode == "st.global.f32"));
    CHECK(site_lines(l, {0, 3}, src).empty());
}

TEST_CASE("PTX listing: per line counts, FLOPs from each run's executions", "[viewer][ptx]") {
    const PtxListing l = ptx_listing(kPtx, "k");
    const std::vector<engine::ExecReport::SiteSource> src = {{"kernels/k.cuh", 10, "ld.global.f32"},
                                                           {"kernels/k.cuh", 12, "st.global.f32"}};
    const auto sl = site_lines(l, {0, 4}, src);
    // Three threads load; two of them pass the branch and store.
    std::vector<engine::Access> acc;
    for (int t = 0; t < 3; ++t) acc.push_back({0, t, 0, 0, 0, 0, engine::Space::global, engine::Op::load, 4, 0, 4L * t});
    for (int t = 0; t < 2; ++t) acc.push_back({0, t, 0, 1, 0, 1, engine::Space::global, engine::Op::store, 4, 1, 4L * t});
    const auto c = counts_by_line(l, sl, acc, src, "kernels/k.cuh");
    CHECK((c.at(10).global_loads == 3 && c.at(12).global_stores == 2));
    CHECK((c.at(11).flops == 6 && c.at(11).flops_known));  // the fma ran in the loads' run: 3 x 2
    CHECK((c.at(12).flops == 2 && c.at(12).flops_known));  // the mul after the branch: 2 x 1
    // Without the sites' map no FLOPs are claimed.
    CHECK(!counts_by_line(l, {}, acc, src, "kernels/k.cuh").at(11).flops_known);
}

TEST_CASE("PTX listing: the lab's tiled kernel, every site found, the lines adding up to the block",
          "[viewer][ptx]") {
    const KernelId k = GENERATE(KernelId::naive, KernelId::tiled, KernelId::coarsened, KernelId::register_tiled);
    CAPTURE(version(k).name);
    StepperConfig cfg;
    cfg.kernel = k;
    cfg.tile = 8;
    cfg.dims = {20, 20, 20};
    cfg.block = {1, 1, 1};
    const StepperTrace t = trace_block(cfg);
    REQUIRE((t.ok() && !t.ptx.empty()));
    const PtxListing l = ptx_listing(t.ptx, t.ptx_entry);
    REQUIRE(l.ok());
    const auto sl = site_lines(l, t.site_instr, t.sites);
    REQUIRE(sl.size() == t.sites.size());
    const auto c = counts_by_line(l, sl, t.acc, t.sites, t.ptx_file);
    double flops = 0;
    long long loads = 0, stores = 0, shared = 0;
    bool known = true;
    for (const auto& [line, n] : c) {
        flops += n.flops;
        loads += n.global_loads;
        stores += n.global_stores;
        shared += n.shared_loads + n.shared_stores;
        known = known && n.flops_known;
    }
    CHECK((loads == t.totals.global_loads && stores == t.totals.global_stores &&
           shared == t.totals.shared_loads + t.totals.shared_stores));
    CHECK(known);
    CHECK(flops == Approx((double)t.outputs * t.model.flops_per_output));  // 13 per output at r = 1
}
