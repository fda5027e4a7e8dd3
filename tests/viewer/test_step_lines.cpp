// The stepper, one instruction at a time: steps are the block's instructions (one site each, every
// thread's program order kept), each with the source line it came from; zoom levels; the shared
// array in the table's shape; the lab's kernel matched line by line to the textbook's listing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "viewer/core/kernel_source.h"
#include "viewer/core/listing_match.h"
#include "viewer/core/stepper.h"
#include "tests/viewer/viewer_test_support.h"

using namespace stencil;
using namespace stencil::viewer;
using stencil::viewer::test::traced;

namespace {
// The 0-based line of `s` holding `text` at or after `from` (-1: none).
int line_with(const KernelSource& s, const std::string& text, int from = 0) {
    for (int i = std::max(0, from); i < (int)s.lines.size(); ++i)
        if (s.lines[i].find(text) != std::string::npos) return i;
    return -1;
}
std::string line_of(const StepperTrace& t, int step, const KernelSource& src) {
    const SourcePos p = step_source(t, step);
    return p.known() && p.line <= (int)src.lines.size() ? src.lines[p.line - 1] : std::string("?");
}
}  // namespace

TEST_CASE("streaming's shared array is two planes of T + 2r rows of 32 vectors, as the table says",
          "[viewer][stepper]") {
    const int r = GENERATE(1, 2);
    const int T = 8;
    // Block (0, 1, 0): rows 8..15 of a 20 x 20 x 20 grid, so both halo rows lie inside the grid.
    const StepperTrace t = traced(KernelId::streaming, T, {20, 20, 20}, {0, 1, 0}, r);
    const StepperState end = stepper_state(t, t.last_step());
    const long long stored = std::count(end.shared.begin(), end.shared.end(), 1);
    CAPTURE(r, t.error, t.shared_planes, t.shared_nx, t.shared_ny, end.shared.size(), stored);
    // Every lane stores its vector (zeros outside the grid) and the first r rows of threads the halo
    // rows, into both buffers: every value of both planes is written.
    REQUIRE((t.ok() && t.shared_planes == 2 && t.shared_nx == 128 && t.shared_ny == T + 2 * r &&
             (long long)end.shared.size() == 2LL * (T + 2 * r) * 128 && stored == 2LL * (T + 2 * r) * 128));
}

TEST_CASE("the shared plane's shape follows the table's SharedTile", "[viewer][stepper]") {
    CHECK(shared_plane_shape(KernelId::naive, 8, 1, 4).cells() == 0);
    CHECK(shared_plane_shape(KernelId::tiled, 8, 2, 4).nx == 8);
    CHECK(shared_plane_shape(KernelId::coarsened, 16, 1, 4).ny == 16);
    CHECK(shared_plane_shape(KernelId::register_tiled, 8, 3, 8).cells() == 64);
    // streaming: T + 2r rows of 32 vectors of 16 bytes (4 floats, 2 doubles)
    CHECK(shared_plane_shape(KernelId::streaming, 8, 4, 4).nx == 128);
    CHECK(shared_plane_shape(KernelId::streaming, 8, 4, 8).cells() == 64 * 16);
}

TEST_CASE("a step is one instruction of the block: one site, and each thread's program order is kept",
          "[viewer][stepper]") {
    const auto k = GENERATE(KernelId::naive, KernelId::tiled, KernelId::coarsened, KernelId::register_tiled,
                            KernelId::streaming);
    // Streaming's one block along x (32 lanes x 4 values cover all 15 columns): the block at x = 0.
    const engine::Idx3 b = k == KernelId::streaming ? engine::Idx3{0, 1, 0} : engine::Idx3{1, 1, 0};
    const StepperTrace t = traced(k, k == KernelId::naive ? 4 : 6, {15, 16, 17}, b);
    CAPTURE(version(k).name, t.error);
    REQUIRE(t.ok());
    bool one_site = true, ordered = true, counted = true, located = true;
    for (int s = 1; s <= t.last_step(); ++s) {
        const Step& st = t.steps[s];
        const int from = t.steps[s - 1].end;
        counted = counted && st.threads == st.end - from && st.threads > 0;
        for (int i = from; i < st.end; ++i)
            one_site = one_site && t.acc[i].site == st.site && t.acc[i].occurrence == st.occurrence &&
                       t.acc[i].interval == st.interval;
        located = located && step_source(t, s).known();
    }
    std::map<int, int> last_seq;
    for (const auto& a : t.acc) {
        auto [it, fresh] = last_seq.try_emplace(a.thread, a.seq);
        if (!fresh) ordered = ordered && a.seq > it->second, it->second = a.seq;
    }
    CAPTURE(one_site, ordered, counted, located);
    REQUIRE((one_site && ordered && counted && located && t.steps.back().end == (int)t.acc.size()));
}

TEST_CASE("tiled T=8: the steps' lines are the load, the shared store, the shared reads and the store",
          "[viewer][stepper][source]") {
    const StepperTrace t = traced(KernelId::tiled, 8, {20, 20, 20}, {1, 1, 1});
    const KernelSource src = load_kernel_source(KernelId::tiled, "");
    REQUIRE((t.ok() && src.error.empty()));
    const SourcePos first = step_source(t, 1);
    const std::string load = line_of(t, 1, src), store = line_of(t, t.last_step(), src);
    // The first shared load: the compute's centre term.
    std::string shared_read;
    for (int s = 1; s <= t.last_step() && shared_read.empty(); ++s)
        if (t.acc[t.steps[s].end - 1].space == engine::Space::shared && t.acc[t.steps[s].end - 1].op == engine::Op::load)
            shared_read = line_of(t, s, src);
    CAPTURE(first.file, first.line, first.instruction, load, store, shared_read, t.steps[1].threads);
    REQUIRE((same_source_file(first.file, src.path) && first.instruction.starts_with("ld.global") &&
             load.find("= in[c]") != std::string::npos && t.steps[1].threads == 512 &&
             store.find("out[c] = sum") != std::string::npos && shared_read.find("in_s[") != std::string::npos &&
             !step_source(t, 0).known()));
}

TEST_CASE("zoom: a line's instructions go as one step, an interval's as one", "[viewer][stepper]") {
    const StepperTrace t = traced(KernelId::tiled, 6, {15, 16, 17}, {1, 1, 1}, 1);
    REQUIRE(t.ok());
    std::vector<int> lines, intervals;
    for (int s = 0; s < t.last_step(); s = next_stop(t, s, StepZoom::line)) lines.push_back(s);
    for (int s = 0; s < t.last_step(); s = next_stop(t, s, StepZoom::interval)) intervals.push_back(s);
    intervals.push_back(t.last_step());
    // Between two line stops every step is on one line; consecutive stops change line or interval.
    bool one_line = true, changes = true;
    for (size_t i = 1; i < lines.size(); ++i) {
        for (int s = lines[i - 1] + 1; s < lines[i]; ++s)
            one_line = one_line && step_source(t, s).line == step_source(t, lines[i]).line;
        if (lines[i] + 1 <= t.last_step())
            changes = changes && (step_source(t, lines[i]).line != step_source(t, lines[i] + 1).line ||
                                  t.steps[lines[i]].interval != t.steps[lines[i] + 1].interval);
    }
    std::vector<int> ends = {0};
    ends.insert(ends.end(), t.interval_end.begin(), t.interval_end.end());
    const int back = prev_stop(t, t.last_step(), StepZoom::line);
    CAPTURE(lines, intervals, ends, back, t.last_step());
    REQUIRE((one_line && changes && lines.size() > 2 && (int)lines.size() < t.last_step() && intervals == ends &&
             back < t.last_step() && back == lines.back() &&
             step_for_key(t, 0, StepKey::down, StepZoom::instruction) == 1 &&
             step_for_key(t, 0, StepKey::down, StepZoom::interval) == t.interval_end.front() &&
             parse_zoom("line") == StepZoom::line && !parse_zoom("word")));
}

TEST_CASE("statements normalise across the book's and the lab's spellings", "[viewer][source]") {
    const auto lab = statement_tokens("        in_s[tz][ty][tx] = in[c];  // load", {"in_s"});
    const auto book = statement_tokens("tile[threadIdx.z][threadIdx.y][threadIdx.x] = in[i*N*N + j*N + k];", {"tile"});
    const auto other = statement_tokens("out[c] = sum;", {});
    CAPTURE(lab, book);
    CHECK(std::vector<std::string>(lab.begin(), lab.begin() + 10) ==
          std::vector<std::string>(book.begin(), book.begin() + 10));
    CHECK(statement_similarity(lab, lab) == 1.0);
    CHECK(line_similarity(lab, book) >= kMinStatementSimilarity);
    CHECK(line_similarity(lab, other) < kMinStatementSimilarity);
    CHECK(statement_tokens("const int i = (int)blockIdx.z * OUT_TILE_DIM + tz - R;", {}) ==
          statement_tokens("int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - 1;", {}));
}

TEST_CASE("the lab's kernel and the textbook's listing: corresponding lines", "[viewer][source]") {
    const auto k = GENERATE(KernelId::tiled, KernelId::coarsened, KernelId::register_tiled, KernelId::naive);
    const KernelSource lab = load_kernel_source(k, ""), book = load_textbook_source(k, "");
    REQUIRE((lab.error.empty() && book.error.empty()));
    const auto m = corresponding_lines(lab, book);
    CAPTURE(version(k).name, m);
    // Every barrier of the lab's kernel is the book's barrier of the same rank.
    REQUIRE(lab.barriers.size() == book.barriers.size());
    for (size_t b = 0; b < lab.barriers.size(); ++b) CHECK(m[lab.barriers[b]] == book.barriers[b]);
    // The output store is the book's output store; a comment line corresponds to nothing.
    const int lab_store = line_with(lab, "out[", lab.body_first), book_store = line_with(book, "out[", book.body_first);
    CHECK(m[lab_store] == book_store);
    const int comment = line_with(lab, "    //", lab.body_first);
    if (comment >= 0) CHECK(m[comment] == -1);
    if (k == KernelId::tiled) {  // the collaborative load
        CHECK(m[line_with(lab, "in_s[tz][ty][tx] = in[c]")] == line_with(book, "tile[threadIdx.z][threadIdx.y][threadIdx.x] = in["));
        CHECK(m[line_with(lab, "real sum = ")] == book_store);  // the centre term
    }
}

TEST_CASE("a .loc file name and a path on disk name the same file", "[viewer][source]") {
    CHECK(same_source_file("kernels/tiled.cuh", "/work/main/kernels/tiled.cuh"));
    CHECK(same_source_file("/tmp/x/stencil.cu", "stencil.cu"));
    CHECK_FALSE(same_source_file("kernels/tiled.cuh", "/work/main/kernels/untiled.cuh"));
    CHECK_FALSE(same_source_file("", "a.cu"));
}

TEST_CASE("the pointer's questions: who loaded a cell when, what one thread did in order", "[viewer][stepper]") {
    const StepperTrace t = traced(KernelId::tiled, 8, {20, 20, 20}, {1, 1, 1});
    REQUIRE(t.ok());
    // Block (1, 1, 1) of tiled T=8 loads x, y, z in 5..12: thread (tx, ty, tz) loads (5 + tx, ...).
    const auto who = loads_of_cell(t, 7, 6, 5);  // tx = 2, ty = 1, tz = 0
    const auto none = loads_of_cell(t, 0, 0, 0);
    const int th = (1 * 8 + 1) * 8 + 1;  // (1, 1, 1): an inner thread
    const auto mine = accesses_of_thread(t, th);
    std::vector<std::string> kinds;
    bool steps_rise = true;
    for (size_t i = 0; i < mine.size(); ++i) {
        kinds.push_back(fmt::format("{} {}", engine::to_string(mine[i].op), engine::to_string(mine[i].space)));
        steps_rise = steps_rise && (i == 0 || mine[i].step > mine[i - 1].step) && mine[i].where.known();
    }
    CAPTURE(who.size(), kinds, steps_rise);
    // One load, its shared store, the 7 shared reads of the star, the output.
    REQUIRE((who.size() == 1 && who[0].thread == (0 * 8 + 1) * 8 + 2 && who[0].step == 1 && who[0].where.line > 0 &&
             none.empty() && mine.size() == 10 && kinds.front() == "load global" && kinds[1] == "store shared" &&
             std::count(kinds.begin(), kinds.end(), "load shared") == 7 && kinds.back() == "store global" &&
             steps_rise && mine.back().step == t.last_step() && step_of_access(t, 0) == 1));
}
