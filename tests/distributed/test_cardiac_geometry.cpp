// The cardiac mesh's pieces and model (analysis/decomposition.h, cardiac section), the balanced
// split a sweep picks, and the model's prediction from a measured link (distributed/link_model.h),
// pinned by hand for simple cases.
#include <catch2/catch.hpp>

#include "analysis/decomposition.h"
#include "core/error.h"
#include "distributed/box_copy.h"
#include "distributed/cardiac2d_problem.h"
#include "distributed/link_model.h"
#include "kernels/cardiac2d/model_constants.h"

using namespace stencil;
using namespace stencil::analysis;

TEST_CASE("cardiac decomposition: PXxPY or PXxPYx1, PZ other than 1 refused", "[distributed]") {
    REQUIRE(parse_cardiac_decomposition("2x3").parts == std::array<int, 3>{2, 3, 1});
    REQUIRE(parse_cardiac_decomposition("2x3x1").parts == std::array<int, 3>{2, 3, 1});
    const char* bad = GENERATE("", "2", "2x", "0x1", "2x1x2", "1x1x4", "2x1x1x1", "ax2");
    CAPTURE(bad);
    REQUIRE_THROWS_AS(parse_cardiac_decomposition(bad), UserError);
}

TEST_CASE("cardiac decomposition: a piece has a ghost ring on every side, neighbours where cut", "[distributed]") {
    // n = 10 in 3 x 2: columns 4 | 3 | 3, rows 5 | 5; mesh coordinates start at 1.
    const Decomposition d{{3, 2, 1}};
    const SubBox middle_top = cardiac_piece(10, d, 1);
    REQUIRE(middle_top.owned[0].lo == 5);
    REQUIRE(middle_top.owned[0].hi == 8);
    REQUIRE(middle_top.owned[1].lo == 1);
    REQUIRE(middle_top.owned[1].hi == 6);
    REQUIRE(middle_top.local_dims().nx == 5);
    REQUIRE(middle_top.local_dims().ny == 7);
    REQUIRE(middle_top.local_dims().nz == 1);
    REQUIRE(middle_top.neighbour[0][0] == 0);
    REQUIRE(middle_top.neighbour[0][1] == 2);
    REQUIRE(middle_top.neighbour[1][0] == kNoNeighbour);
    REQUIRE(middle_top.neighbour[1][1] == 4);
    REQUIRE(distributed::outer_sides(middle_top) == cardiac2d::kNorthSide);
    REQUIRE(distributed::outer_sides(cardiac_piece(10, d, 3)) == (cardiac2d::kWestSide | cardiac2d::kSouthSide));
    REQUIRE(distributed::outer_sides(cardiac_piece(10, Decomposition{}, 0)) == cardiac2d::kAllSides);
    // Its whole array in mesh coordinates: the ring around the owned cells.
    const distributed::Box local = distributed::local_in_global(middle_top);
    REQUIRE(local.lo == std::array<int, 3>{4, 0, 0});
    REQUIRE(local.hi == std::array<int, 3>{9, 7, 1});
    // The face sent west is its first owned column, rows 1..5 of its array, no corners.
    const distributed::Box west = distributed::send_face(middle_top, 0, 0, 1);
    REQUIRE(west.lo == std::array<int, 3>{1, 1, 0});
    REQUIRE(west.hi == std::array<int, 3>{2, 6, 1});
}

TEST_CASE("cardiac decomposition: rules and halo bytes", "[distributed]") {
    REQUIRE_FALSE(cardiac_decomposition_error(8, Decomposition{{8, 1, 1}}));  // one column each
    REQUIRE(cardiac_decomposition_error(8, Decomposition{{9, 1, 1}}));
    REQUIRE(cardiac_decomposition_error(8, Decomposition{{1, 9, 1}}));
    REQUIRE(cardiac_decomposition_error(8, Decomposition{{1, 1, 2}}));
    // 2x1 on n = 64 in fp64: each rank sends one column of 64 values, 512 bytes.
    const DecompositionModel m = cardiac_decomposition_model(64, Decomposition{{2, 1, 1}}, Precision::f64);
    REQUIRE(m.ranks.size() == 2);
    REQUIRE(m.ranks[0].halo_bytes == 512);
    REQUIRE(m.ranks[1].halo_bytes == 512);
    REQUIRE(m.total_halo_bytes == 1024);
    REQUIRE(m.max_rank_messages == 1);
    // 2x2 on n = 10 in fp32: every rank sends a column of 5 and a row of 5, 40 bytes, 2 messages.
    const DecompositionModel q = cardiac_decomposition_model(10, Decomposition{{2, 2, 1}}, Precision::f32);
    REQUIRE(q.total_halo_bytes == 4 * 40);
    REQUIRE(q.max_rank_messages == 2);
}

TEST_CASE("balanced decomposition: the fewest halo bytes, fewer x cuts on a tie", "[distributed]") {
    REQUIRE(balanced_decomposition({32, 32, 32}, 1, 1, false)->parts == std::array<int, 3>{1, 1, 1});
    REQUIRE(balanced_decomposition({32, 32, 32}, 2, 1, false)->parts == std::array<int, 3>{1, 1, 2});
    REQUIRE(balanced_decomposition({32, 32, 32}, 8, 1, false)->parts == std::array<int, 3>{2, 2, 2});
    // A grid long in x is cut across x.
    REQUIRE(balanced_decomposition({64, 8, 8}, 4, 1, false)->parts == std::array<int, 3>{4, 1, 1});
    // Strong 32^3 on 4: 1x2x2 sends 4 faces of 32x16 twice (4096 values), 1x1x4 six of 32x32.
    REQUIRE(balanced_decomposition({32, 32, 32}, 4, 1, false)->parts == std::array<int, 3>{1, 2, 2});
    // Weak, a 16^3 share each: 1x1x4 sends six 16x16 faces (1536 values), 1x2x2 eight (2048).
    const auto weak = balanced_decomposition({16, 16, 16}, 4, 1, true);
    REQUIRE(weak->parts == std::array<int, 3>{1, 1, 4});
    REQUIRE(grown_grid({16, 16, 16}, *weak).nz == 64);
    REQUIRE_FALSE(balanced_decomposition({4, 4, 4}, 64, 1, false));  // pieces thinner than 2r + 1
    REQUIRE(balanced_cardiac_decomposition(64, 4)->parts == std::array<int, 3>{2, 2, 1});
    REQUIRE(balanced_cardiac_decomposition(64, 2)->parts == std::array<int, 3>{1, 2, 1});
}

TEST_CASE("link model: latency and bandwidth from a ping-pong, the exchange time they predict", "[distributed]") {
    // 8 bytes in 2 us; 1 MB + 8 bytes in 2 us + 1 ms: 1 GB/s, 2 us.
    distributed::PingPong p;
    p.small_bytes = 8;
    p.small_seconds = 2e-6;
    p.large_bytes = 1'000'008;
    p.large_seconds = 2e-6 + 1e-3;
    const distributed::Link l = distributed::fit_link(p);
    REQUIRE(l.latency_us == Approx(2.0));
    REQUIRE(l.gbps == Approx(1.0));
    // cardiac 2x1, n = 64, fp64: one 512-byte message per rank per step: 2 us + 512 ns.
    const DecompositionModel m = cardiac_decomposition_model(64, Decomposition{{2, 1, 1}}, Precision::f64);
    const distributed::LinkEstimate e = distributed::estimate_exchange(p, m);
    REQUIRE(e.predicted_exchange_seconds_per_step == Approx(2.512e-6));
    // Noise that makes the large message no slower: bandwidth from the large message alone.
    p.large_seconds = 1e-6;
    REQUIRE(distributed::fit_link(p).gbps == Approx(1'000'008 / 1e-6 * 1e-9));
}
