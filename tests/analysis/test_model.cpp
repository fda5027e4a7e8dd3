// Every figure of shared/seed-figures.md that the model gives, pinned to the text's rounding.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "analysis/finite_difference.h"
#include "analysis/model.h"
#include "core/error.h"

using namespace stencil;
using namespace stencil::analysis;

TEST_CASE("row 1: the central difference converges with order 2", "[analysis]") {
    auto f = [](double x) { return std::sin(x) + 0.5 * std::exp(x); };
    auto df = [](double x) { return std::cos(x) + 0.5 * std::exp(x); };
    const auto s = central_difference_study(f, df, {0.3, 1.0, 2.1}, 0.1, 5);
    for (double o : s.order) REQUIRE(o == Approx(2.0).margin(0.02));
    // halving h quarters the error
    REQUIRE(s.error[0] / s.error[1] == Approx(4.0).epsilon(0.01));
}

TEST_CASE("row 2: naive 7-point kernel, 13 FLOP, 7 loads of 4 B, OP/B 0.46", "[analysis]") {
    const Model m = model(KernelId::naive, 8, 1, Precision::f32);
    REQUIRE(m.flops_per_point == 13);
    REQUIRE(m.loads_per_block == 7 * 512);
    REQUIRE(m.opb == Approx(13.0 / 28.0));
    REQUIRE(m.opb == Approx(0.46).margin(0.005));
    REQUIRE(m.opb_limit == Approx(m.opb));
    REQUIRE(flops_per_point(2) == 25);
}

TEST_CASE("row 3: tiled OP/B = 13 (T-2)^3 / (4 T^3)", "[analysis]") {
    auto [T, text] = GENERATE(table<int, double>({{8, 1.37}, {4, 0.41}, {6, 0.96}, {10, 1.66}}));
    CAPTURE(T);
    const Model m = model(KernelId::tiled, T, 1, Precision::f32);
    REQUIRE(m.opb == Approx(tiled_opb_textbook(T)));
    REQUIRE(m.opb == Approx(text).margin(0.005));
    REQUIRE(m.loads_per_block == (long long)T * T * T);
    REQUIRE(m.outputs_per_block == (long long)(T - 2) * (T - 2) * (T - 2));
}

TEST_CASE("row 4: the limit is 13/4 = 3.25, not 7/2", "[analysis]") {
    const Model m = model(KernelId::tiled, 8, 1, Precision::f32);
    REQUIRE(m.opb_limit == Approx(3.25));
    REQUIRE(exact_upper_bound_opb(7) == Approx(3.25));
    REQUIRE(points_upper_bound_opb(7) == Approx(3.5));
    REQUIRE(m.opb_note.find("6 add") != std::string::npos);
    REQUIRE(model(KernelId::tiled, 10, 1, Precision::f32).opb < 3.25);
}

TEST_CASE("row 5: the tiled kernel's T is bounded by T^3 <= 1024 threads", "[analysis]") {
    REQUIRE(largest_fitting_tile(KernelId::tiled, 1, Precision::f32) == 10);
    REQUIRE(model(KernelId::tiled, 8, 1, Precision::f32).threads_per_block == 512);
    REQUIRE(model(KernelId::tiled, 10, 1, Precision::f32).threads_per_block == 1000);
    REQUIRE_FALSE(model(KernelId::tiled, 10, 1, Precision::f32).tile_error);
    const Model m11 = model(KernelId::tiled, 11, 1, Precision::f32);
    REQUIRE(m11.tile_error);
    REQUIRE(m11.tile_error->find("1331") != std::string::npos);
    REQUIRE(m11.tile_bounds.find("T <= 10") != std::string::npos);
    REQUIRE(m11.tile_bounds.find("31.25 warps") != std::string::npos);
    const auto table = tile_table(KernelId::tiled, 1, Precision::f32, 12);
    REQUIRE_FALSE(table[1].runnable);  // T = 2 <= 2r
    REQUIRE(table[7].runnable);        // T = 8
    REQUIRE_FALSE(table[10].fits);     // T = 11
    REQUIRE_THROWS_AS(model(KernelId::tiled, 2, 1, Precision::f32), UserError);
}

TEST_CASE("row 6: upper bounds points / 2, points from each shape", "[analysis]") {
    const auto b = pattern_bounds();
    // the seed's figures (003), in the seed's order
    const double want[] = {2.5, 4.5, 4.5, 12.5, 6.5, 24.5, 9.5, 171.5};
    REQUIRE(b.size() == 8);
    for (size_t i = 0; i < b.size(); ++i) {
        CAPTURE(b[i].name);
        // closed forms, written independently of the enumeration in pattern_points
        const int k = b[i].size;
        const int closed = b[i].shape == PatternShape::star ? (b[i].dims == 2 ? 4 * k + 1 : 6 * k + 1)
                                                            : (b[i].dims == 2 ? k * k : k * k * k);
        REQUIRE(b[i].points == closed);
        REQUIRE(b[i].opb == Approx(closed / 2.0));
        REQUIRE(b[i].opb == Approx(want[i]));
        REQUIRE(b[i].opb_exact == Approx((2.0 * closed - 1) / 4));
    }
    // an order-2 2D star has no corners: 9 points (the 3x3 box, also 9, has them)
    REQUIRE(pattern_points(PatternShape::star, 2, 2) == 9);
    REQUIRE(pattern_points(PatternShape::star, 3, 1) == point_count(1));
}

TEST_CASE("rows 7, 8: halo shares of 8^3 and 32x32 tiles", "[analysis]") {
    const Halo h3 = halo_3d(8, 1);
    REQUIRE(h3.halo_cells == 296);
    REQUIRE(h3.tile_cells == 512);
    REQUIRE(h3.output_cells == 216);
    REQUIRE(h3.fraction == Approx(0.58).margin(0.005));
    const Halo h2 = halo_2d(32, 1);
    REQUIRE(h2.halo_cells == 124);
    REQUIRE(h2.tile_cells == 1024);
    REQUIRE(h2.output_cells == 900);
    REQUIRE(h2.fraction == Approx(0.12).margin(0.005));
    REQUIRE(model(KernelId::tiled, 8, 1, Precision::f32).halo.halo_cells == 296);
}

TEST_CASE("row 9: a naive 8x8x8 warp is 4 rows, 36/7 sectors inside, 5.07 over N = 256", "[analysis]") {
    const WarpPattern w = warp_pattern(KernelId::naive, 8, 1, Precision::f32, {256, 256, 256});
    REQUIRE(w.rows_per_warp == 4);
    REQUIRE(w.interior.size() == 7);
    for (const auto& l : w.interior) {
        CAPTURE(l.name);
        REQUIRE(l.rows == Approx(4));
        const bool shifted_x = l.name == "x-1" || l.name == "x+1";
        REQUIRE(l.sectors == Approx(shifted_x ? 8 : 4));
    }
    REQUIRE(w.interior_sectors_per_request == Approx(36.0 / 7.0));
    REQUIRE(w.interior_sectors_per_request == Approx(5.14).margin(0.005));
    // ncu on an H100: 5.07 (boundary warps have inactive lanes)
    REQUIRE(w.sectors_per_request == Approx(5.07).margin(0.005));
    REQUIRE(w.explanation.find("36/7") != std::string::npos);
}

TEST_CASE("row 10: coarsening: T^2 threads, 3 T^2 shared, OP/B 2.68 at T = 32", "[analysis]") {
    const Model c = model(KernelId::coarsened, 32, 1, Precision::f32);
    REQUIRE(c.threads_per_block == 1024);
    REQUIRE(c.smem_bytes == 3 * 32 * 32 * 4);
    REQUIRE_FALSE(c.tile_error);
    REQUIRE(c.opb_textbook == Approx(13.0 * 30 * 30 * 30 / (4.0 * 32 * 32 * 32)));
    REQUIRE(c.opb_textbook == Approx(2.68).margin(0.005));
    // exact: T^2 per plane for 2r + OUT planes = T^3 (so the text's form is exact inside)
    REQUIRE(c.loads_per_block == 32LL * 32 * 32);
    REQUIRE(c.outputs_per_block == 30LL * 30 * 30);
    REQUIRE(c.opb == Approx(c.opb_textbook));
    const double tiled8 = model(KernelId::tiled, 8, 1, Precision::f32).opb;
    REQUIRE(c.opb / tiled8 == Approx(1.95).margin(0.005));
    REQUIRE(c.opb_note.find("2.856") != std::string::npos);  // Z -> infinity at T = 32
}

TEST_CASE("row 11: register tiling keeps T^2 in shared memory, a third of 3 T^2", "[analysis]") {
    const int T = GENERATE(8, 16, 32);
    CAPTURE(T);
    const Model rt = model(KernelId::register_tiled, T, 1, Precision::f32);
    const Model c = model(KernelId::coarsened, T, 1, Precision::f32);
    REQUIRE(rt.smem_bytes == (long long)T * T * 4);
    REQUIRE(3 * rt.smem_bytes == c.smem_bytes);
    REQUIRE(rt.loads_per_block == c.loads_per_block);
}

TEST_CASE("row 13: registers per thread, derived from each stencil's offsets", "[analysis]") {
    for (int r = 1; r <= kMaxRadius; ++r) {
        CAPTURE(r);
        const auto a = registers_star(r);
        REQUIRE(a.points == 6 * r + 1);
        REQUIRE(a.z_reach == r);
        REQUIRE(a.columns == 1);  // a star reaches other planes only in its own column
        REQUIRE(a.queue_registers == 2 * r + 1);
    }
    const auto box = registers_box27();
    REQUIRE(box.points == 3 * 3 * 3);
    REQUIRE(box.columns == 3 * 3);                 // every (dx, dy) of the 3x3 window
    REQUIRE(box.queue_registers == 3 * (3 * 3));   // 3 planes x 9 columns
    const auto nine = registers_nine_point();
    REQUIRE(nine.points == 9);
    REQUIRE(nine.z_reach == 2);
    REQUIRE(nine.queue_registers == 2 * 2 + 1);
    // the other reading (two extra points in the plane) needs only the 7-point star's queue
    REQUIRE(nine.note.find("needs " + std::to_string(2 * 1 + 1)) != std::string::npos);
    REQUIRE(model(KernelId::register_tiled, 32, 1, Precision::f32).queue_registers ==
            registers_star(1).queue_registers);
}

TEST_CASE("row 14: a 16x16 block with its ghost ring has 60 ghost cells", "[analysis]") {
    REQUIRE(ghost_ring_cells(16) == 16 * 4 - 4);
    REQUIRE(ghost_ring_cells(16) == 60);
}

TEST_CASE("rows 1, 15: derivative weights solved from Taylor, dx^8 convergence", "[analysis]") {
    // m = 1: the central difference (f(x+h) - f(x-h)) / 2h
    const auto w1 = central_derivative_weights(1);
    REQUIRE(w1.size() == 1);
    REQUIRE((w1[0].num == 1 && w1[0].den == 2));
    // the seed's 8th-order weights (004), exact fractions
    const auto w = central_derivative_weights(4);
    REQUIRE(w.size() == 4);
    const long long seed[4][2] = {{4, 5}, {-1, 5}, {4, 105}, {-1, 280}};
    for (int j = 0; j < 4; ++j) {
        CAPTURE(j);
        REQUIRE(w[j].num == seed[j][0]);
        REQUIRE(w[j].den == seed[j][1]);
    }
    // and every Taylor condition, checked in doubles: sum 2 j^n c_j = [n == 1], n = 1, 3, 5, 7
    for (int n = 1; n <= 7; n += 2) {
        double s = 0;
        for (int j = 1; j <= 4; ++j) s += 2 * std::pow(j, n) * w[j - 1].value();
        REQUIRE(s == Approx(n == 1 ? 1.0 : 0.0).margin(1e-12));
    }
    const auto& k = eighth_order_coefficients();
    REQUIRE(k.a == Approx(4.0 / 5));
    REQUIRE(k.d == Approx(-1.0 / 280));
    const auto s = eighth_order_study(16, 3);  // 16^3, 32^3, 64^3 (the seed's periodic 64^3)
    REQUIRE(s.order.size() == 2);
    for (double o : s.order) REQUIRE(o == Approx(8.0).margin(0.1));
    REQUIRE(s.error.back() < 1e-9);
}

TEST_CASE("model notes: every sentence computed for its (kernel, T, r, precision)", "[analysis]") {
    // tiled: the largest legal T and its computing threads, for r = 1 and r = 2
    int Tm = 1;
    while ((Tm + 1) * (Tm + 1) * (Tm + 1) <= 1024) ++Tm;
    for (int r : {1, 2}) {
        CAPTURE(r);
        const Model m = model(KernelId::tiled, 2 * r + 1, r, Precision::f32);
        const long long computing = (long long)(Tm - 2 * r) * (Tm - 2 * r) * (Tm - 2 * r);
        REQUIRE(m.tile_bounds.find("T = " + std::to_string(Tm) + " is legal") != std::string::npos);
        REQUIRE(m.tile_bounds.find("= " + std::to_string(computing) + " of them compute") != std::string::npos);
    }
    REQUIRE(model(KernelId::tiled, 6, 2, Precision::f32).tile_bounds.find("512 of them") == std::string::npos);

    // coarsened vs tiled: the ratio printed is the models' ratio; "almost doubled" only for the text's case
    auto ratio_in = [](const std::string& note) {
        const auto at = note.find("the ratio is x");
        REQUIRE(at != std::string::npos);
        return std::stod(note.substr(at + 14));
    };
    struct Case {
        int T, r;
        Precision p;
        bool text;
    };
    for (const Case c : {Case{32, 1, Precision::f32, true}, Case{32, 2, Precision::f32, false},
                         Case{8, 1, Precision::f32, false}, Case{32, 1, Precision::f64, false},
                         Case{16, 1, Precision::f32, false}}) {
        CAPTURE(c.T, c.r, to_string(c.p));
        const Model m = model(KernelId::coarsened, c.T, c.r, c.p);
        const double tiled = model(KernelId::tiled, 8, c.r, c.p).opb;
        REQUIRE(ratio_in(m.opb_note) == Approx(m.opb / tiled).margin(0.005));
        REQUIRE((m.opb_note.find("almost doubled") != std::string::npos) == c.text);
    }

    // tiled f64: the limit 13/8 is compared with 2 x 7 / 8, not with 7/2 (a 4-byte figure)
    const Model d = model(KernelId::tiled, 8, 1, Precision::f64);
    REQUIRE(d.opb_limit == Approx(13.0 / 8));
    REQUIRE(d.opb_note.find(fmt::format("{:.4g}", 2.0 * 7 / 8)) != std::string::npos);
    REQUIRE(d.opb_note.find("3.5") == std::string::npos);
}

TEST_CASE("row 16: 16x16 tiles reload half, 64x4 pencils none", "[analysis]") {
    const auto sq = x_derivative_tile(16, 16, 4, 64);
    REQUIRE(sq.reloaded == 8 * 16);
    REQUIRE(sq.reload_share == Approx(0.5));
    REQUIRE(sq.rows_per_warp == 2);
    REQUIRE_FALSE(sq.fully_coalesced);
    const auto pencil = x_derivative_tile(64, 4, 4, 64);
    REQUIRE(pencil.reloaded == 0);
    REQUIRE(pencil.reload_share == 0);
    REQUIRE(pencil.rows_per_warp == 1);
    REQUIRE(pencil.lines_per_request == 1);
    REQUIRE(pencil.fully_coalesced);
}

TEST_CASE("the model agrees with the version table for every runnable configuration", "[analysis]") {
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const int r = GENERATE(1, 2);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    for (int T : runnable_tiles(v.id, r, p)) {
        CAPTURE(v.name, r, to_string(p), T);
        const Model m = model(v.id, T, r, p);
        REQUIRE(m.threads_per_block == threads_per_block(v.id, T));
        REQUIRE(m.smem_bytes == smem_bytes(v.id, T, r, bytes_of(p)));
        REQUIRE_FALSE(m.tile_error);
        REQUIRE(m.opb == Approx(double(m.flops_per_point) * m.outputs_per_block /
                                (double(m.loads_per_block) * bytes_of(p))));
        REQUIRE(m.opb <= m.opb_limit + 1e-12);
        REQUIRE(std::find(m.valid_tiles.begin(), m.valid_tiles.end(), T) != m.valid_tiles.end());
    }
}

TEST_CASE("exact whole-grid traffic: interior cells and block sums", "[analysis]") {
    // naive: (N - 2r)^3 (6r + 1) loads
    const auto n = exact_grid_traffic(KernelId::naive, 8, 1, Precision::f32, {256, 256, 256});
    REQUIRE(n.load_values == 254LL * 254 * 254 * 7);
    REQUIRE(n.store_values == 254LL * 254 * 254);
    // tiled T = 8 on 18^3 (OUT = 6, 3 blocks per axis): per axis [-1,7) [5,13) [11,19) clipped
    const auto t = exact_grid_traffic(KernelId::tiled, 8, 1, Precision::f32, {18, 18, 18});
    REQUIRE(t.load_values == 22LL * 22 * 22);
    // the z-marching kernels load the same cells as the tiled one
    REQUIRE(exact_grid_traffic(KernelId::coarsened, 8, 1, Precision::f32, {18, 18, 18}).load_values ==
            t.load_values);
    REQUIRE_THROWS_AS(exact_grid_traffic(KernelId::naive, 8, 1, Precision::f32, {2, 8, 8}), UserError);
}

// ---- streaming (issue 13): hand-derived from the kernel's loop, Z = 8 planes per block ----------

TEST_CASE("streaming: 32 V x T outputs per plane, the queue, halo rows and rows' ends per block", "[analysis]") {
    REQUIRE(version(KernelId::streaming).z_chunk == 8);  // the figures below assume it
    // T = 8, r = 1, fp32: V = 4, W = 128 cells a row, 128 x 8 x 8 = 8192 outputs. Loads: the
    // queue 1024 x (8 + 2) = 10240; per plane 2 halo rows of 128 and 8 rows x 2 ends x 1 value:
    // 8 x 272 = 2176. 12416 in all.
    const Model m = model(KernelId::streaming, 8, 1, Precision::f32);
    REQUIRE(m.outputs_per_block == 8192);
    REQUIRE(m.loads_per_block == 12416);
    REQUIRE(m.threads_per_block == 256);
    REQUIRE(m.active_threads == 256);  // every thread computes
    REQUIRE(m.out_planes == 8);
    REQUIRE(m.smem_bytes == 2 * 10 * 32 * 16);  // two buffers of T + 2r rows of 32 vectors
    REQUIRE(m.queue_registers == 3 * 4);  // 2r + 1 vectors of 16 bytes, 4 registers each
    REQUIRE(m.requested_per_output == Approx(1.515625));  // 1 + 2/8 + 2/8 + 2/128
    REQUIRE(m.halo_reread_share == Approx(1 - 8192.0 / 12416));
    REQUIRE(m.opb == Approx(13.0 * 8192 / (4.0 * 12416)));
    REQUIRE(m.block.shared_stores == 8 * 128 * 10);
    REQUIRE(m.block.shared_loads == 8 * 128 * 8 * 2);
    REQUIRE(m.halo_plane.halo_cells == 2 * (128 + 8));
    // T = 16, r = 4, fp64: V = 2, W = 64, Q = 2 vectors a side, all of both read: lane 0 loads 4
    // values a side, lane 1 the 2 of vector 2: 12 a row. Outputs 64 x 16 x 8 = 8192; loads
    // 1024 x 16 + 8 x (8 x 64 + 16 x 12) = 16384 + 5632.
    const Model w = model(KernelId::streaming, 16, 4, Precision::f64);
    REQUIRE(w.loads_per_block == 22016);
    REQUIRE(w.requested_per_output == Approx(22016.0 / 8192));
    REQUIRE(w.smem_bytes == 2 * 24 * 32 * 16);
    REQUIRE(w.queue_registers == 9 * 4);
    REQUIRE(w.opb_limit == Approx(49.0 / 8));
    REQUIRE_FALSE(w.tile_error);
    // A block of fewer rows than r cannot load its halo rows.
    REQUIRE(model(KernelId::streaming, 3, 4, Precision::f32).tile_error);
    // Against register tiling at T = 32, r = 4: 24^2 of 32^2 threads compute there, and each of its
    // blocks re-reads 2r = 8 planes for every 24 it computes; a chunk of 8 re-reads 8 for every 8,
    // so at r = 4 streaming asks for more bytes (the re-read planes are L2 hits: DRAM sees one read).
    const Model rt = model(KernelId::register_tiled, 32, 4, Precision::f64);
    REQUIRE(rt.requested_per_output == Approx(32.0 * 32 * 32 / (24.0 * 24 * 24)));
    REQUIRE(w.requested_per_output > rt.requested_per_output);
}

TEST_CASE("streaming: whole-grid traffic counts the queue per chunk, halo rows and rows' ends per plane",
          "[analysis]") {
    // 136 x 11 x 21, T = 8, r = 1, fp32, chunks of 16 planes: two chunks of 11 planes computing
    // 1..10 and 11..19 (19 planes), their queues 12 + 11 = 23 planes of 136 x 11. Halo rows: the
    // y-blocks at 0 and 8 each have one row of the other inside the grid: 2 rows of 136. Rows' ends:
    // block 0's lane 31 reads cell 128, block 1's lane 0 cell 127 (its lane 31 lies past nx): 2 a row.
    const auto a = exact_grid_traffic(KernelId::streaming, 8, 1, Precision::f32, {136, 11, 21}, 1, 16);
    REQUIRE(a.blocks == 2LL * 2 * 2);
    REQUIRE(a.load_values == 136LL * 11 * 23 + 19LL * (136 * 2 + 11 * 2));
    REQUIRE(a.store_values == 134LL * 9 * 19);
    // A grid smaller than one block (one chunk of 16): no halo row, no row end inside the grid;
    // every plane once.
    const auto c = exact_grid_traffic(KernelId::streaming, 16, 2, Precision::f64, {13, 7, 11}, 1, 16);
    REQUIRE(c.load_values == 13LL * 7 * 11);
    REQUIRE(c.load_bytes == 13LL * 7 * 11 * 8);
}
