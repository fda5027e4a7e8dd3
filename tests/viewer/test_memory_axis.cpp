// The memory axis under a warp: lanes' addresses, 32-byte sectors, 128-byte lines, segments of
// nearby lines, sectors per request and efficiency; synthetic requests with known answers.
#include <catch2/catch.hpp>

#include "viewer/core/memory_axis.h"

using namespace stencil::viewer;

namespace {
// Lane i at base + (i / width) * stride + (i % width) * size: `width` consecutive lanes per row.
std::vector<long long> rows(long long base, int width, long long stride, int size, int lanes = 32) {
    std::vector<long long> o(32, -1);
    for (int i = 0; i < lanes; ++i) o[i] = base + (i / width) * stride + (long long)(i % width) * size;
    return o;
}
}  // namespace

TEST_CASE("a warp reading 32 consecutive aligned floats: 4 sectors of one line, all used", "[viewer][warp]") {
    const MemoryAxis m = memory_axis(rows(256, 32, 0, 4), 4);
    REQUIRE((m.lanes == 32 && m.sectors == 4 && m.lines == 1 && m.segments.size() == 1 && m.efficiency == 1.0 &&
             m.ideal_sectors == 4 && m.where(0) == std::pair{0, 0} && m.where(31) == std::pair{0, 3}));
}

TEST_CASE("shifted by one float (the x - 1 neighbour): 5 sectors over 2 lines, 80%", "[viewer][warp]") {
    const MemoryAxis m = memory_axis(rows(256 + 124, 32, 0, 4), 4);
    CAPTURE(m.sectors, m.lines, m.efficiency);
    REQUIRE((m.sectors == 5 && m.lines == 2 && m.segments.size() == 1 && m.efficiency == 128.0 / 160 &&
             m.ideal_sectors == 4));
}

TEST_CASE("an 8-wide block: 4 rows far apart are 4 segments, a sector each when aligned", "[viewer][warp]") {
    const MemoryAxis aligned = memory_axis(rows(0, 8, 64 * 4, 4), 4);
    const MemoryAxis shifted = memory_axis(rows(28, 8, 64 * 4, 4), 4);  // x - 1 of an aligned row
    CAPTURE(aligned.sectors, shifted.sectors, shifted.efficiency);
    REQUIRE((aligned.segments.size() == 4 && aligned.sectors == 4 && aligned.lines == 4 &&
             shifted.segments.size() == 4 && shifted.sectors == 8 && shifted.efficiency == 0.5));
}

TEST_CASE("a broadcast and inactive lanes", "[viewer][warp]") {
    std::vector<long long> same(32, 1000);
    const MemoryAxis b = memory_axis(same, 4);
    std::vector<long long> half = rows(0, 32, 0, 8, 16);
    const MemoryAxis h = memory_axis(half, 8);
    REQUIRE((b.sectors == 1 && b.bytes_used == 4 && b.efficiency == 4.0 / 32 && b.bytes_requested == 128 &&
             h.lanes == 16 && h.sectors == 4 && h.efficiency == 1.0 && h.where(20) == std::pair{-1, -1}));
}
