// The packing behind the exchange (distributed/box_copy.h), checked without MPI: every rank's array
// is cut from one global field, each face is carried from the neighbour's send box into this rank's
// receive box as MPI would carry it, and every halo cell must then hold the global field's value
// of the same cell, for every split and radius.
#include <catch2/catch.hpp>

#include <vector>

#include "distributed/box_copy.h"

using namespace stencil;
using namespace stencil::analysis;
using namespace stencil::distributed;

namespace {
// A distinct value per global cell, so any misplaced copy is seen.
int global_value(GridDims g, int x, int y, int z) { return (z * g.ny + y) * g.nx + x + 1; }
}  // namespace

TEST_CASE("box copy: pack then unpack is the identity on the box, nothing outside it", "[distributed]") {
    const GridDims d{7, 5, 4};
    std::vector<double> a(d.cells());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = double(i);
    const Box box{{1, 2, 0}, {6, 4, 3}};
    std::vector<double> packed(box.cells());
    pack_box(a.data(), d, sizeof(double), box, packed.data());
    REQUIRE(packed.front() == a[(0 * 5 + 2) * 7 + 1]);
    REQUIRE(packed.back() == a[(2 * 5 + 3) * 7 + 5]);
    std::vector<double> b(d.cells(), -1.0);
    unpack_box(packed.data(), box, b.data(), d, sizeof(double));
    long long inside = 0, outside_untouched = 0;
    for (int z = 0; z < d.nz; ++z)
        for (int y = 0; y < d.ny; ++y)
            for (int x = 0; x < d.nx; ++x) {
                const std::size_t i = (std::size_t(z) * d.ny + y) * d.nx + x;
                const bool in = x >= 1 && x < 6 && y >= 2 && y < 4 && z < 3;
                inside += in && b[i] == a[i];
                outside_untouched += !in && b[i] == -1.0;
            }
    REQUIRE(inside == box.cells());
    REQUIRE(outside_untouched == d.cells() - box.cells());
}

TEST_CASE("box copy: faces carried between neighbours fill every halo with the global values", "[distributed]") {
    const char* split = GENERATE("2x1x1", "1x2x1", "1x1x3", "2x2x1", "3x2x2");
    const int r = GENERATE(1, 2);
    const GridDims g{13, 11, 12};
    const Decomposition d = parse_decomposition(split);
    CAPTURE(split, r);
    std::vector<int> global(g.cells());
    for (int z = 0; z < g.nz; ++z)
        for (int y = 0; y < g.ny; ++y)
            for (int x = 0; x < g.nx; ++x) global[(std::size_t(z) * g.ny + y) * g.nx + x] = global_value(g, x, y, z);

    // Each rank starts with its owned box only; halos zero.
    std::vector<SubBox> boxes;
    std::vector<std::vector<int>> local;
    for (int rank = 0; rank < d.ranks(); ++rank) {
        boxes.push_back(sub_box(g, d, r, rank));
        const SubBox& b = boxes.back();
        local.emplace_back(b.local_dims().cells(), 0);
        std::vector<int> owned(owned_in_global(b).cells());
        pack_box(global.data(), g, sizeof(int), owned_in_global(b), owned.data());
        unpack_box(owned.data(), owned_in_local(b), local.back().data(), b.local_dims(), sizeof(int));
    }
    // The exchange, by hand.
    long long faces = 0;
    for (int rank = 0; rank < d.ranks(); ++rank)
        for (int a = 0; a < 3; ++a)
            for (int side = 0; side < 2; ++side) {
                const int from = boxes[rank].neighbour[a][side];
                if (from == kNoNeighbour) continue;
                const Box send = send_face(boxes[from], a, 1 - side, r);
                const Box receive = receive_face(boxes[rank], a, side, r);
                REQUIRE(send.cells() == receive.cells());
                std::vector<int> message(send.cells());
                pack_box(local[from].data(), boxes[from].local_dims(), sizeof(int), send, message.data());
                unpack_box(message.data(), receive, local[rank].data(), boxes[rank].local_dims(), sizeof(int));
                ++faces;
            }
    // Every owned and face-halo cell holds the global value; edges and corners stay 0 (never sent).
    long long wrong = 0, halo_cells = 0;
    for (int rank = 0; rank < d.ranks(); ++rank) {
        const SubBox& b = boxes[rank];
        const GridDims l = b.local_dims();
        const Box origin = local_in_global(b);
        const Box own = owned_in_local(b);
        for (int z = 0; z < l.nz; ++z)
            for (int y = 0; y < l.ny; ++y)
                for (int x = 0; x < l.nx; ++x) {
                    const int c[3] = {x, y, z};
                    int outside_axes = 0;
                    for (int a = 0; a < 3; ++a) outside_axes += c[a] < own.lo[a] || c[a] >= own.hi[a];
                    const int got = local[rank][(std::size_t(z) * l.ny + y) * l.nx + x];
                    const int want = outside_axes <= 1
                                         ? global_value(g, x + origin.lo[0], y + origin.lo[1], z + origin.lo[2])
                                         : 0;
                    wrong += got != want;
                    halo_cells += outside_axes == 1;
                }
    }
    REQUIRE(faces > 0);
    REQUIRE(wrong == 0);
    // The halo cells filled are exactly the values the model says are sent.
    long long sent = 0;
    for (const SubBox& b : boxes) sent += halo_values_sent(b, r);
    REQUIRE(halo_cells == sent);
}

TEST_CASE("contiguous faces: z faces of a split along z alone travel straight from the array", "[distributed]") {
    const GridDims g{10, 9, 16};
    const auto d = parse_decomposition("1x1x2");
    const SubBox b = sub_box(g, d, 2, 0);  // owns z 0..7, halo z 8..9 above
    const GridDims l = b.local_dims();
    const Box send = send_face(b, 2, 1, 2), receive = receive_face(b, 2, 1, 2);
    REQUIRE(contiguous_offset(send, l) == std::optional<long long>(6LL * 10 * 9));
    REQUIRE(contiguous_offset(receive, l) == std::optional<long long>(8LL * 10 * 9));
    // Cut along x too: the z face spans part of each row, so it is packed.
    const SubBox c = sub_box(g, parse_decomposition("2x1x2"), 2, 0);
    REQUIRE_FALSE(contiguous_offset(send_face(c, 2, 1, 2), c.local_dims()));
    // An x face is never one run; a y face of one plane is (whole rows).
    REQUIRE_FALSE(contiguous_offset(send_face(c, 0, 1, 2), c.local_dims()));
    REQUIRE(contiguous_offset(Box{{0, 3, 5}, {10, 5, 6}}, l) == std::optional<long long>((5LL * 9 + 3) * 10));
    REQUIRE_FALSE(contiguous_offset(Box{{0, 3, 5}, {10, 5, 7}}, l));
}
