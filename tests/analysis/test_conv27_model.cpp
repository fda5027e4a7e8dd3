// The model of conv27: naive's launch and cells, the dense cube's loads and FLOPs. The counts are
// written out by hand (27 and 53 at r = 1 against the star's 7 and 13), not recomputed with the
// formulas under test.
#include <catch2/catch.hpp>

#include "analysis/model.h"

using namespace stencil;
using namespace stencil::analysis;

TEST_CASE("conv27: 53 FLOP executed for the star's 13 at r = 1", "[analysis]") {
    const Model m = model(KernelId::conv27, 8, 1, Precision::f32);
    REQUIRE(m.points == 7);
    REQUIRE(m.flops_per_point == 13);
    REQUIRE(m.executed_points == 27);
    REQUIRE(m.executed_flops_per_point == 53);
    // 8^3 threads, one output each, 27 loads each.
    REQUIRE(m.outputs_per_block == 512);
    REQUIRE(m.loads_per_block == 27 * 512);
    REQUIRE(m.block.load_bytes == 27 * 512 * 4);
    REQUIRE(m.block.flops == 13 * 512);
    REQUIRE(m.block.executed_flops == 53 * 512);
    REQUIRE(m.opb == Approx(13.0 / 108));
    REQUIRE(m.executed_opb == Approx(53.0 / 108));
    // The same cells from DRAM as naive: at least one 4-byte read and one write per cell.
    REQUIRE(m.dram_opb == Approx(13.0 / 8));
    REQUIRE(m.executed_dram_opb == Approx(53.0 / 8));
    REQUIRE(m.smem_bytes == 0);
    REQUIRE(m.queue_registers == 0);
}

TEST_CASE("conv27: the cube's counts at every radius, in both precisions", "[analysis]") {
    struct Row {
        int r, points, flops, cube, executed;
    };
    // (2r+1)^3 and 2 (2r+1)^3 - 1 against 6r + 1 and 12r + 1, by hand.
    const Row row = GENERATE(Row{1, 7, 13, 27, 53}, Row{2, 13, 25, 125, 249}, Row{3, 19, 37, 343, 685},
                             Row{4, 25, 49, 729, 1457});
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int B = p == Precision::f32 ? 4 : 8;
    CAPTURE(row.r, B);
    const Model m = model(KernelId::conv27, 4, row.r, p);
    REQUIRE(m.points == row.points);
    REQUIRE(m.flops_per_point == row.flops);
    REQUIRE(m.executed_points == row.cube);
    REQUIRE(m.executed_flops_per_point == row.executed);
    REQUIRE(m.loads_per_block == 64LL * row.cube);
    REQUIRE(m.opb == Approx(double(row.flops) / (row.cube * B)));
    REQUIRE(m.executed_opb == Approx(double(row.executed) / (row.cube * B)));
    REQUIRE(m.executed_dram_opb == Approx(double(row.executed) / (2 * B)));
    // naive's figures beside it: the star's loads, useful and executed FLOPs equal.
    const Model n = model(KernelId::naive, 4, row.r, p);
    REQUIRE(n.executed_points == row.points);
    REQUIRE(n.executed_flops_per_point == row.flops);
    REQUIRE(n.executed_opb == n.opb);
    REQUIRE(n.loads_per_block == 64LL * row.points);
    REQUIRE(n.dram_opb == m.dram_opb);  // same bytes
}

TEST_CASE("conv27: whole-grid traffic is naive's cells with the cube's loads", "[analysis]") {
    const GridDims g{19, 13, 11};
    const auto c = exact_grid_traffic(KernelId::conv27, 8, 1, Precision::f32, g);
    const auto n = exact_grid_traffic(KernelId::naive, 8, 1, Precision::f32, g);
    const long long interior = 17LL * 11 * 9;
    REQUIRE(c.load_values == interior * 27);
    REQUIRE(n.load_values == interior * 7);
    REQUIRE(c.store_values == n.store_values);
    REQUIRE(c.flops == interior * 13);
    REQUIRE(c.executed_flops == interior * 53);
    REQUIRE(n.executed_flops == n.flops);
    REQUIRE(c.blocks == n.blocks);
}

TEST_CASE("conv27: the summary gives useful and executed FLOPs and OP/B", "[analysis]") {
    const Model m = model(KernelId::conv27, 8, 1, Precision::f32);
    CAPTURE(m.summary);
    REQUIRE(m.summary.find("useful (the star) 12r + 1 = 13") != std::string::npos);
    REQUIRE(m.summary.find("2 (2r+1)^3 - 1 = 53") != std::string::npos);
    REQUIRE(m.summary.find("useful 13 / 8 B = 1.625") != std::string::npos);
    REQUIRE(m.summary.find("executed 53 / 8 B = 6.625") != std::string::npos);
    // The star kernels' summaries keep their one FLOP line.
    const Model n = model(KernelId::naive, 8, 1, Precision::f32);
    REQUIRE(n.summary.find("FLOP per output      12r + 1 = 13 (7 mul + 6 add)\n") != std::string::npos);
    REQUIRE(n.summary.find("executed") == std::string::npos);
}
