// The broken lab kernels of fixtures/lab_bugs.cu get their diagnoses on the PTX engine, with the
// source line of the faulty statement, without crashing or hanging, under every schedule and
// worker count; the correct kernels get none. Every test case here compiles one program.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>

#include "backends/cpu/cpu_backend.h"
#include "core/compare.h"
#include "core/field.h"
#include "core/reference.h"
#include "tests/cpu/ptx_test_support.h"

using namespace stencil;
using engine::DiagKind;
using ptxtest::element;

namespace {

const ptxtest::Fixture& bugs() {
    return ptxtest::fixture("lab_bugs.cu", {"tiled_no_barrier<float, 8, 1>", "tiled_missing_halo<float, 8, 1>",
                                            "coarsened_no_shift_barrier<float, 8, 1>"});
}

// A grid, its poisoned output, the fp64 reference, and the weights as the fixture's constants.
struct Setup {
    GridDims d;
    Field<float> in;
    StencilWeights w;
    Field<float> out;
    Reference ref;
    explicit Setup(GridDims dims)
        : d(dims), in(random_field<float>(dims, 3)), w(random_weights(1, 4).rounded_to(Precision::f32)) {
        out = poisoned_output(in, 1);
        ref = reference_stencil(in, w);
    }
    ptxtest::Call call(engine::Idx3 grid, engine::Idx3 block) {
        ptxtest::Call c;
        c.grid = grid;
        c.block = block;
        c.buffers = {ptxtest::input(in.data), ptxtest::output(out.data)};
        c.params = {ptxtest::ptr(0), ptxtest::ptr(1), ptxtest::arg(d.nx), ptxtest::arg(d.ny), ptxtest::arg(d.nz)};
        ptx::ConstantInit k;
        k.symbol = ptx::find_symbol(*bugs().module, "c_coefficients_f32");
        for (int i = 0; i < kMaxCoefficients; ++i) {
            const float v = static_cast<float>(w.c[i]);
            const auto* b = reinterpret_cast<const unsigned char*>(&v);
            k.bytes.insert(k.bytes.end(), b, b + sizeof v);
        }
        c.constants = {k};
        return c;
    }
};

engine::ExecOptions checked(engine::Schedule s = engine::Schedule::in_order, int workers = 0) {
    return ptxtest::opts(s, true, workers);
}

engine::Idx3 grid_for(GridDims d, int out) {
    return {(d.nx + out - 1) / out, (d.ny + out - 1) / out, (d.nz + out - 1) / out};
}

}  // namespace

// The first race of a tiled fixture, derived from the geometry: in block 0, thread t stores its own
// cell (element t of the 8x8x8 tile) and the first computing thread reads a neighbour's. In order,
// the first computing thread is (2,2,2) = 146 (i, j, k >= 1 needs t{x,y,z} >= 2); its x-1
// neighbour 145, of the same warp, stored it with the warp's store. Reversed (warps and lanes from
// the last), the first is (6,6,6) = 438, whose x-1 neighbour 437 stored in that warp's store too.
// Any schedule: one thread loads the cell the other stores, a +-1, +-8 or +-64 neighbour of its own.
TEST_CASE("tiled without the barrier after the load: the race names block, interval, cell and line",
          "[cpu][diagnostics]") {
    const auto sched = GENERATE(engine::Schedule::in_order, engine::Schedule::reversed, engine::Schedule::random);
    CAPTURE(engine::to_string(sched));
    const auto& fx = bugs();
    Setup s({14, 13, 12});
    const auto rep = ptxtest::run(fx, "tiled_no_barrier<float, 8, 1>", s.call(grid_for(s.d, 6), {8, 8, 8}), checked(sched));
    const engine::Diagnostic* d = rep.first(DiagKind::race);
    CAPTURE(rep.summary());
    REQUIRE(d);
    CAPTURE(d->message);
    const int loader = ptxtest::loader(*d), storer = ptxtest::storer(*d);
    const long long e = element(*d);
    const int step = std::abs(storer - loader);
    REQUIRE((rep.ok && d->space == engine::Space::shared && d->block == engine::Idx3{0, 0, 0} && d->interval == 0 &&
             d->array == "in_s" && d->elem_size == 4 && e == storer && (step == 1 || step == 8 || step == 64) &&
             d->file == "lab_bugs.cu" && ptxtest::one_line(d->message)));
    // The later access is thread_a's: a load of the compute phase, or the store of the tile.
    if (d->op_a == engine::Op::load)
        REQUIRE(d->line > fx.line_of("real sum = coefficient<real>(0)"));
    else
        REQUIRE(d->line == fx.line_of("<-- tiled store"));
    if (sched == engine::Schedule::in_order)
        REQUIRE((d->op_a == engine::Op::load && loader == 146 && storer == 145 && d->line == fx.line_of("<-- tiled x-1") &&
                 ptxtest::names_all(*d, "in_s[145]", fx.at("<-- tiled x-1")) &&
                 d->message.find(fx.at("<-- tiled store")) != std::string::npos));
    if (sched == engine::Schedule::reversed)
        REQUIRE((d->op_a == engine::Op::load && loader == 438 && storer == 437 && d->line == fx.line_of("<-- tiled x-1")));
}

// Coarsened (8x8 threads, planes 0..2): interval 1 computes nothing in block 0 (plane i = 0 is a
// boundary), interval 2 computes plane 1 for ty, tx in 2..6 while the shift stores plane 1. A
// warp's lanes run each instruction together, so every lane has loaded its neighbours before any
// lane shifts: the race shows at the shift's store. In order, thread 18 = (2,2) stores element
// 64 + 2*8 + 2 = 82, which thread 19 = (3,2) loaded as its x-1 neighbour; reversed, thread 54 =
// (6,6) stores element 64 + 6*8 + 6 = 118, which thread 46 = (6,5) loaded as its y+1 neighbour.
TEST_CASE("coarsened without the barrier before the plane shift: the race names its cell and line",
          "[cpu][diagnostics]") {
    const auto sched = GENERATE(engine::Schedule::in_order, engine::Schedule::reversed, engine::Schedule::random);
    CAPTURE(engine::to_string(sched));
    const auto& fx = bugs();
    Setup s({14, 13, 12});
    const auto rep =
        ptxtest::run(fx, "coarsened_no_shift_barrier<float, 8, 1>", s.call(grid_for(s.d, 6), {8, 8, 1}), checked(sched));
    CAPTURE(rep.summary());
    const engine::Diagnostic* d = rep.first(DiagKind::race);
    REQUIRE(d);
    CAPTURE(d->message, d->line);
    const int loader = ptxtest::loader(*d), storer = ptxtest::storer(*d);
    const long long e = element(*d);
    const bool shape = d->block == engine::Idx3{0, 0, 0} && d->interval == 2 && e == 64 + storer && d->array == "plane_s" &&
                       (std::abs(storer - loader) == 1 || std::abs(storer - loader) == 8) && d->file == "lab_bugs.cu";
    const bool exact = sched == engine::Schedule::in_order
                           ? d->op_a == engine::Op::store && storer == 18 && loader == 19 && e == 82
                       : sched == engine::Schedule::reversed
                           ? d->op_a == engine::Op::store && storer == 54 && loader == 46 && e == 118
                           : true;
    // The shift's store is named, as the later access or as the other.
    const bool named = d->op_a == engine::Op::store ? d->line == fx.line_of("<-- shift store")
                                                  : d->message.find(fx.at("<-- shift store")) != std::string::npos;
    REQUIRE((shape && exact && named));
}

// Column tx = 0 is never stored. In block 0 no computing thread reads it (k >= 1 needs tx >= 2);
// block (1,0,0) is the first whose tx = 1 threads compute and read x-1. In order the first is
// (1,2,2) = 145 reading element 144; reversed (1,6,6) = 433 reading 432; always interval 1 and an
// element of column 0 next to the reader.
TEST_CASE("tiled with a halo column never loaded: the uninitialized read names its cell and line",
          "[cpu][diagnostics]") {
    const auto sched = GENERATE(engine::Schedule::in_order, engine::Schedule::reversed, engine::Schedule::random);
    CAPTURE(engine::to_string(sched));
    const auto& fx = bugs();
    Setup s({14, 13, 12});
    const auto rep =
        ptxtest::run(fx, "tiled_missing_halo<float, 8, 1>", s.call(grid_for(s.d, 6), {8, 8, 8}), checked(sched));
    CAPTURE(rep.summary());
    const engine::Diagnostic* u = rep.first(DiagKind::uninitialized_shared_read);
    REQUIRE(u);
    CAPTURE(u->message);
    const long long e = element(*u);
    const bool shape = rep.ok && rep.total(DiagKind::race) == 0 && u->block == engine::Idx3{1, 0, 0} &&
                       u->interval == 1 && e % 8 == 0 && e == u->thread_a - 1 && u->array == "in_s" &&
                       u->line == fx.line_of("<-- tiled x-1") &&
                       ptxtest::names_all(*u, "in_s[" + std::to_string(e) + "]", fx.at("<-- tiled x-1"));
    const bool exact = sched == engine::Schedule::in_order   ? u->thread_a == 145
                       : sched == engine::Schedule::reversed ? u->thread_a == 433
                                                           : true;
    const auto cmp = compare_with_reference(s.out, s.ref, Precision::f32);
    REQUIRE((shape && exact && !cmp.ok && cmp.nan_cells > 0));
}

TEST_CASE("a __syncthreads() in a divergent branch names block, interval, threads and both lines",
          "[cpu][diagnostics]") {
    const auto sched = GENERATE(engine::Schedule::in_order, engine::Schedule::reversed, engine::Schedule::random);
    const int workers = GENERATE(1, 2);
    CAPTURE(engine::to_string(sched), workers);
    const auto& fx = bugs();
    Setup s({64, 3, 3});
    auto c = s.call({2, 1, 1}, {64, 1, 1});
    c.params = {ptxtest::ptr(0), ptxtest::ptr(1), ptxtest::arg(s.d.nx)};
    c.constants.clear();
    const auto rep = ptxtest::run(fx, "divergent_barrier", c, checked(sched, workers));
    CAPTURE(rep.summary());
    const engine::Diagnostic* d = rep.first(DiagKind::divergent_barrier);
    REQUIRE(d);
    CAPTURE(d->message);
    // Threads 0-3 wait in the then-branch, 4-63 in the else-branch; block 0 is first in queue order.
    REQUIRE((!rep.ok && d->block == engine::Idx3{0, 0, 0} && d->interval == 0 && d->thread_a == 0 && d->thread_b == 4 &&
             d->site_a == fx.at("<-- then barrier") && d->site_b == fx.at("<-- else barrier") &&
             d->line == fx.line_of("<-- then barrier") && ptxtest::one_line(d->message) &&
             rep.total(DiagKind::divergent_barrier) == 1));
}

TEST_CASE("threads returning while others wait at a barrier are reported with the barrier's line",
          "[cpu][diagnostics]") {
    const auto& fx = bugs();
    Setup s({40, 3, 3});
    auto c = s.call({3, 1, 1}, {64, 1, 1});
    c.params = {ptxtest::ptr(0), ptxtest::ptr(1), ptxtest::arg(s.d.nx)};
    c.constants.clear();
    const auto rep = ptxtest::run(fx, "early_return", c, checked());
    CAPTURE(rep.summary());
    const engine::Diagnostic* d = rep.first(DiagKind::exit_before_barrier);
    REQUIRE(d);
    CAPTURE(d->message);
    REQUIRE((!rep.ok && d->thread_b == 40 && d->thread_a == 0 && d->site_a == fx.at("<-- early_return barrier") &&
             d->line == fx.line_of("<-- early_return barrier") && ptxtest::one_line(d->message)));
}

TEST_CASE("an out-of-bounds index, a trap and a failed assert end the launch with a diagnostic and its line", "[cpu][diagnostics]") {
    const auto& fx = bugs();
    Setup s({40, 3, 3});
    auto c = s.call({2, 1, 1}, {32, 1, 1});
    c.params = {ptxtest::ptr(0), ptxtest::ptr(1), ptxtest::arg(s.d.nx)};
    c.constants.clear();
    const auto rep = ptxtest::run(fx, "out_of_bounds", c, checked());
    const engine::Diagnostic* d = rep.first(DiagKind::out_of_bounds);
    CAPTURE(rep.summary());
    REQUIRE(d);
    CAPTURE(d->message);
    REQUIRE((!rep.ok && d->thread_a == 0 && d->block == engine::Idx3{0, 0, 0} && d->array == "in" && element(*d) == -1 &&
             d->space == engine::Space::global && d->line == fx.line_of("<-- BUG: t = 0 reads in[-1]") &&
             ptxtest::names_all(*d, "in[-1]", fx.at("<-- BUG: t = 0 reads in[-1]"))));
    const auto rep2 = ptxtest::run(fx, "traps", c, checked());
    const engine::Diagnostic* e = rep2.first(DiagKind::kernel_exception);
    CAPTURE(rep2.summary());
    REQUIRE(e);
    CAPTURE(e->message);
    REQUIRE((!rep2.ok && e->thread_a == 3 && e->line == fx.line_of("<-- trap") &&
             e->message.find("trap") != std::string::npos && ptxtest::names_all(*e, "trap", fx.at("<-- trap"))));
    const auto rep3 = ptxtest::run(fx, "asserts", c, checked());
    const engine::Diagnostic* a = rep3.first(DiagKind::kernel_exception);
    CAPTURE(rep3.summary());
    REQUIRE(a);
    CAPTURE(a->message);
    REQUIRE((!rep3.ok && a->thread_a == 3 && a->block == engine::Idx3{0, 0, 0} && a->line == fx.line_of("<-- assert") &&
             ptxtest::names_all(*a, "assertion `threadIdx.x != 3` failed", fx.at("<-- assert"))));
}

TEST_CASE("a race is found under every schedule, whatever the worker count", "[cpu][diagnostics]") {
    const auto& fx = bugs();
    Setup s({20, 17, 15});
    std::vector<long long> races;
    std::vector<int> first_thread, first_line;
    for (int workers : {1, 2, 3}) {
        engine::ExecOptions o = checked(engine::Schedule::random, workers);
        o.seed = 77;
        const auto rep = ptxtest::run(fx, "tiled_no_barrier<float, 8, 1>", s.call(grid_for(s.d, 6), {8, 8, 8}), o);
        races.push_back(rep.total(DiagKind::race));
        first_thread.push_back(rep.first(DiagKind::race) ? rep.first(DiagKind::race)->thread_a : -1);
        first_line.push_back(rep.first(DiagKind::race) ? rep.first(DiagKind::race)->line : -1);
    }
    CAPTURE(races, first_thread, first_line);
    REQUIRE((races[0] > 0 && races[0] == races[1] && races[1] == races[2] && first_thread[0] == first_thread[1] &&
             first_thread[1] == first_thread[2] && first_line[0] > 0 && first_line[0] == first_line[1] &&
             first_line[1] == first_line[2]));
}

TEST_CASE("the correct kernels produce no diagnostic", "[cpu][diagnostics]") {
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const int r = GENERATE(1, 2);
    const auto in = random_field<double>({15, 13, 14}, 8);
    auto out = poisoned_output(in, r);
    CpuOptions o;
    o.exec.check_shared = true;
    // T^3 threads stop at T = 10; temporal's tile is whole strips of 4 rows
    const int T = v.threads == ThreadShape::cube ? 8 : v.threads == ThreadShape::warp_strips ? 16 : 12;
    auto run = run_cpu({v.id, T, r, Precision::f64, in.dims}, random_weights(r, 1), in.data.data(), out.data.data(), o);
    CAPTURE(v.name, r, run.report.summary());
    REQUIRE(run.report.clean());
}
