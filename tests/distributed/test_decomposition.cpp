// The decomposition's geometry and model (analysis/decomposition.h): the split, the neighbours, the
// rules, and the halo bytes pinned by hand for simple cases (not recomputed with the formulas under
// test).
#include <catch2/catch.hpp>

#include <set>

#include "analysis/decomposition.h"
#include "core/error.h"

using namespace stencil;
using namespace stencil::analysis;

TEST_CASE("decomposition: PXxPYxPZ is parsed, anything else refused in one line", "[distributed]") {
    REQUIRE(parse_decomposition("2x1x4").parts == std::array<int, 3>{2, 1, 4});
    REQUIRE(parse_decomposition("3x2", 2).parts == std::array<int, 3>{3, 2, 1});
    const char* bad = GENERATE("", "2", "2x1", "2x1x", "x1x1", "2x1x1x1", "0x1x1", "-1x1x1", "2.5x1x1", "2x1x1 ",
                               "4097x1x1", "2X1X1", "axbxc");
    CAPTURE(bad);
    REQUIRE_THROWS_AS(parse_decomposition(bad), UserError);
}

TEST_CASE("decomposition: near-equal ranges, the remainder on the first", "[distributed]") {
    // 10 cells in 3 parts: 4, 3, 3.
    REQUIRE(split_range(10, 3, 0).lo == 0);
    REQUIRE(split_range(10, 3, 0).hi == 4);
    REQUIRE(split_range(10, 3, 1).lo == 4);
    REQUIRE(split_range(10, 3, 1).hi == 7);
    REQUIRE(split_range(10, 3, 2).lo == 7);
    REQUIRE(split_range(10, 3, 2).hi == 10);
    // Every cell owned exactly once, for awkward sizes.
    const int n = GENERATE(1, 7, 16, 17, 100);
    const int parts = GENERATE(1, 2, 3, 5);
    if (parts > n) return;
    CAPTURE(n, parts);
    int next = 0, shortest = n, longest = 0;
    for (int i = 0; i < parts; ++i) {
        const CellRange r = split_range(n, parts, i);
        REQUIRE(r.lo == next);
        next = r.hi;
        shortest = std::min(shortest, r.size());
        longest = std::max(longest, r.size());
    }
    REQUIRE(next == n);
    REQUIRE(longest - shortest <= 1);
}

TEST_CASE("decomposition: neighbours and halos of a 2x2x2 split", "[distributed]") {
    const Decomposition d = parse_decomposition("2x2x2");
    const GridDims g{16, 12, 10};
    // Rank 5 = (1, 0, 1): x high side, y low side, z high side are the grid's edges.
    const SubBox b = sub_box(g, d, 2, 5);
    REQUIRE(b.coord == std::array<int, 3>{1, 0, 1});
    REQUIRE(b.neighbour[0][0] == 4);
    REQUIRE(b.neighbour[0][1] == kNoNeighbour);
    REQUIRE(b.neighbour[1][0] == kNoNeighbour);
    REQUIRE(b.neighbour[1][1] == 7);
    REQUIRE(b.neighbour[2][0] == 1);
    REQUIRE(b.neighbour[2][1] == kNoNeighbour);
    REQUIRE(b.faces() == 3);
    REQUIRE(b.owned_dims() == GridDims{8, 6, 5});
    REQUIRE(b.local_dims() == GridDims{10, 8, 7});  // one halo of r = 2 per axis
    // Neighbourhood is symmetric.
    for (int rank = 0; rank < d.ranks(); ++rank) {
        const SubBox s = sub_box(g, d, 2, rank);
        for (int a = 0; a < 3; ++a)
            for (int side = 0; side < 2; ++side)
                if (s.neighbour[a][side] != kNoNeighbour)
                    REQUIRE(sub_box(g, d, 2, s.neighbour[a][side]).neighbour[a][1 - side] == rank);
    }
}

TEST_CASE("decomposition: the rules, each with its own sentence", "[distributed]") {
    REQUIRE_FALSE(decomposition_error({16, 16, 16}, parse_decomposition("2x2x1"), 1));
    REQUIRE_FALSE(decomposition_error({9, 9, 9}, parse_decomposition("1x1x1"), 4));
    // More parts than cells.
    REQUIRE(decomposition_error({4, 16, 16}, parse_decomposition("5x1x1"), 1).value().find("at most one part per cell") !=
            std::string::npos);
    // 10 cells in 4 parts (3, 3, 2, 2) with r = 3: the last sub-boxes are thinner than r.
    REQUIRE(decomposition_error({10, 16, 16}, parse_decomposition("4x1x1"), 3).value().find("thinner than the radius") !=
            std::string::npos);
    // 9 cells in 2 parts with r = 4: rank 1 owns 4 cells, 4 + 4 = 8 < 2r + 1 with its halo.
    REQUIRE(decomposition_error({9, 16, 16}, parse_decomposition("2x1x1"), 4).value().find("at least 2r + 1") !=
            std::string::npos);
}

TEST_CASE("decomposition model: halo bytes pinned by hand", "[distributed]") {
    SECTION("16^3 fp32 r = 1 split 2x1x1: one 16x16 face of 4-byte values each way") {
        const DecompositionModel m = decomposition_model({16, 16, 16}, parse_decomposition("2x1x1"), 1, Precision::f32);
        REQUIRE(m.ranks.size() == 2);
        REQUIRE(m.ranks[0].halo_bytes == 1024);
        REQUIRE(m.ranks[1].halo_bytes == 1024);
        REQUIRE(m.total_halo_bytes == 2048);
        REQUIRE(m.ranks[0].messages == 1);
        REQUIRE(m.ranks[0].halo_per_owned == Approx(256.0 / 2048));
        // 1024 bytes over 1 GB/s plus 10 us for its one message.
        REQUIRE(m.predicted_seconds(1.0, 10.0) == Approx(1024e-9 + 10e-6));
    }
    SECTION("16^3 fp64 r = 2 split 2x2x2: three 8x8 faces, 2 layers deep, per rank") {
        const DecompositionModel m = decomposition_model({16, 16, 16}, parse_decomposition("2x2x2"), 2, Precision::f64);
        REQUIRE(m.ranks.size() == 8);
        for (const RankTraffic& t : m.ranks) {
            REQUIRE(t.messages == 3);
            REQUIRE(t.halo_bytes == 3 * 2 * 64 * 8);
            REQUIRE(t.halo_per_owned == Approx(384.0 / 512));
        }
        REQUIRE(m.total_halo_bytes == 8 * 3072);
        REQUIRE(m.max_rank_halo_bytes == 3072);
    }
    SECTION("one rank sends nothing") {
        const DecompositionModel m = decomposition_model({16, 16, 16}, parse_decomposition("1x1x1"), 1, Precision::f32);
        REQUIRE(m.total_halo_bytes == 0);
        REQUIRE(m.predicted_seconds(1.0, 10.0) == 0);
    }
}
