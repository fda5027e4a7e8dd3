// The broken kernels of broken_kernels.h get their diagnoses, without crashing or hanging, under
// every schedule and worker count; the correct kernels get none.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>

#include "backends/cpu/cpu_backend.h"
#include "core/compare.h"
#include "core/field.h"
#include "core/reference.h"
#include "tests/cpu/broken_kernels.h"

using namespace stencil;
using simt::DiagKind;

namespace {

struct Setup {
    GridDims d;
    Field<float> in;
    StencilWeights w;
    Field<float> out;
    Reference ref;
    explicit Setup(GridDims dims) : d(dims), in(random_field<float>(dims, 3)), w(random_weights(1, 4).rounded_to(Precision::f32)) {
        out = poisoned_output(in, 1);
        ref = reference_stencil(in, w);
        for (int i = 0; i < kMaxCoefficients; ++i) {  // this TU's constant memory
            c_coefficients_f32[i] = static_cast<float>(w.c[i]);
            c_coefficients_f64[i] = w.c[i];
        }
    }
    simt::GlobalPtr<const float> pin() const { return {in.data.data(), (long long)in.data.size(), 0, "in"}; }
    simt::GlobalPtr<float> pout() { return {out.data.data(), (long long)out.data.size(), 1, "out"}; }
};

simt::ExecOptions checked(simt::Schedule s = simt::Schedule::in_order, int workers = 0) {
    simt::ExecOptions o;
    o.check_shared = true;
    o.schedule = s;
    o.workers = workers;
    return o;
}

dim3 grid_for(GridDims d, int out) {
    return dim3((d.nx + out - 1) / out, (d.ny + out - 1) / out, (d.nz + out - 1) / out);
}

// The first race of a tiled fixture, derived from the geometry: in block 0, thread t stores its own
// cell (element t of the 8x8x8 tile) and the first computing thread reads a neighbour's. In order,
// the first computing thread is (2,2,2) = 146 (i, j, k >= 1 needs t{x,y,z} >= 2); its x-1
// neighbour 145 already stored. Reversed, the first is (6,6,6) = 438; 437 has not run yet, so the
// first conflict is its x+1 neighbour 439. Any schedule: one thread loads the cell the other
// stores, a +-1, +-8 or +-64 neighbour of its own.
bool tiled_race_as_expected(const simt::Diagnostic& d, simt::Schedule s) {
    const bool a_loads = d.op_a == simt::Op::load;
    const int loader = a_loads ? d.thread_a : d.thread_b, storer = a_loads ? d.thread_b : d.thread_a;
    const long long e = d.offset / d.elem_size;
    const int step = std::abs(storer - loader);
    const bool shape = d.block == simt::Idx3{0, 0, 0} && d.interval == 0 && d.array.size() > 1 && d.elem_size == 4 &&
                       e == storer && (step == 1 || step == 8 || step == 64);
    if (s == simt::Schedule::in_order) return shape && loader == 146 && storer == 145 && a_loads;
    if (s == simt::Schedule::reversed) return shape && loader == 438 && storer == 439 && a_loads;
    return shape;
}

}  // namespace

TEST_CASE("tiled without the barrier after the load: the race names block, interval and cell", "[cpu][diagnostics]") {
    const auto sched = GENERATE(simt::Schedule::in_order, simt::Schedule::reversed, simt::Schedule::random);
    CAPTURE(simt::to_string(sched));
    Setup s({14, 13, 12});
    auto in = s.pin();
    auto out = s.pout();
    auto rep = simt::launch(grid_for(s.d, 6), dim3(8, 8, 8), checked(sched), [&] {
        broken::tiled_no_barrier<float, 8, 1>(in, out, s.d.nx, s.d.ny, s.d.nz);
    });
    const simt::Diagnostic* race = rep.first(DiagKind::race);
    CAPTURE(rep.summary());
    REQUIRE((rep.ok && race && race->space == simt::Space::shared && tiled_race_as_expected(*race, sched)));
}

// Coarsened (8x8 threads, planes 0..2): interval 1 computes nothing in block 0 (plane i = 0 is a
// boundary), interval 2 computes plane 1 for ty, tx in 2..6 while neighbours shift plane 1. In
// order, thread 18 = (2,2) reads plane 1, x-1: element 64 + 2*8 + 1 = 81, which thread 17 has just
// stored; reversed, thread 54 = (6,6) reads x+1: element 64 + 6*8 + 7 = 119, stored by thread 55.
TEST_CASE("coarsened without the barrier before the plane shift: the race names its cell", "[cpu][diagnostics]") {
    const auto sched = GENERATE(simt::Schedule::in_order, simt::Schedule::reversed, simt::Schedule::random);
    CAPTURE(simt::to_string(sched));
    Setup s({14, 13, 12});
    auto in = s.pin();
    auto out = s.pout();
    auto rep = simt::launch(grid_for(s.d, 6), dim3(8, 8, 1), checked(sched), [&] {
        broken::coarsened_no_shift_barrier<float, 8, 1>(in, out, s.d.nx, s.d.ny, s.d.nz);
    });
    CAPTURE(rep.summary());
    const simt::Diagnostic* d = rep.first(DiagKind::race);
    REQUIRE(d);
    const bool a_loads = d->op_a == simt::Op::load;
    const int loader = a_loads ? d->thread_a : d->thread_b, storer = a_loads ? d->thread_b : d->thread_a;
    const long long e = d->offset / d->elem_size;
    const bool shape = d->block == simt::Idx3{0, 0, 0} && d->interval == 2 && e == 64 + storer &&
                       (std::abs(storer - loader) == 1 || std::abs(storer - loader) == 8);
    const bool exact = sched == simt::Schedule::in_order   ? loader == 18 && storer == 17 && e == 81
                       : sched == simt::Schedule::reversed ? loader == 54 && storer == 55 && e == 119
                                                           : true;
    REQUIRE((shape && exact));
}

// Column tx = 0 is never stored. In block 0 no computing thread reads it (k >= 1 needs tx >= 2);
// block (1,0,0) is the first whose tx = 1 threads compute and read x-1. In order the first is
// (1,2,2) = 145 reading element 144; reversed (1,6,6) = 433 reading 432; always interval 1 and an
// element of column 0 next to the reader.
TEST_CASE("tiled with a halo column never loaded: the uninitialized read names its cell", "[cpu][diagnostics]") {
    const auto sched = GENERATE(simt::Schedule::in_order, simt::Schedule::reversed, simt::Schedule::random);
    CAPTURE(simt::to_string(sched));
    Setup s({14, 13, 12});
    auto in = s.pin();
    auto out = s.pout();
    auto rep = simt::launch(grid_for(s.d, 6), dim3(8, 8, 8), checked(sched), [&] {
        broken::tiled_missing_halo<float, 8, 1>(in, out, s.d.nx, s.d.ny, s.d.nz);
    });
    CAPTURE(rep.summary());
    const simt::Diagnostic* u = rep.first(DiagKind::uninitialized_shared_read);
    REQUIRE(u);
    const long long e = u->offset / u->elem_size;
    const bool shape = rep.ok && rep.total(DiagKind::race) == 0 && u->block == simt::Idx3{1, 0, 0} &&
                       u->interval == 1 && e % 8 == 0 && e == u->thread_a - 1;
    const bool exact = sched == simt::Schedule::in_order   ? u->thread_a == 145
                       : sched == simt::Schedule::reversed ? u->thread_a == 433
                                                           : true;
    const auto cmp = compare_with_reference(s.out, s.ref, Precision::f32);
    REQUIRE((shape && exact && !cmp.ok && cmp.nan_cells > 0));
}

// The two barriers of broken::divergent_barrier, found in the header by their comment.
std::pair<std::string, std::string> divergent_sites() {
    std::ifstream f(std::string(STENCIL_LAB_SOURCE_DIR) + "/tests/cpu/broken_kernels.h");
    std::string line;
    for (int n = 1; std::getline(f, line); ++n)
        if (line.find("BUG: half of a divergent pair of barriers") != std::string::npos)
            return {"broken_kernels.h:" + std::to_string(n), "broken_kernels.h:" + std::to_string(n + 3)};
    return {};
}

TEST_CASE("a __syncthreads() in a divergent branch names block, interval, threads and both lines", "[cpu][diagnostics]") {
    const auto sched = GENERATE(simt::Schedule::in_order, simt::Schedule::reversed, simt::Schedule::random);
    const int workers = GENERATE(1, 2);
    CAPTURE(simt::to_string(sched), workers);
    Setup s({64, 3, 3});
    auto in = s.pin();
    auto out = s.pout();
    auto rep = simt::launch(dim3(2), dim3(64), checked(sched, workers), [&] {
        broken::divergent_barrier<float>(in, out, s.d.nx, 0, 0);
    });
    CAPTURE(rep.summary());
    const simt::Diagnostic* d = rep.first(DiagKind::divergent_barrier);
    const auto [then_site, else_site] = divergent_sites();
    // Threads 0-3 wait in the then-branch, 4-63 in the else-branch; block 0 is first in queue order.
    REQUIRE((!rep.ok && d && d->block == simt::Idx3{0, 0, 0} && d->interval == 0 && d->thread_a == 0 &&
             d->thread_b == 4 && d->site_a == then_site && d->site_b == else_site &&
             rep.total(DiagKind::divergent_barrier) == 1));
}

TEST_CASE("threads returning while others wait at a barrier are reported", "[cpu][diagnostics]") {
    Setup s({40, 3, 3});
    auto in = s.pin();
    auto out = s.pout();
    auto rep = simt::launch(dim3(3), dim3(64), checked(), [&] {
        broken::early_return<float>(in, out, s.d.nx, 0, 0);
    });
    CAPTURE(rep.summary());
    const simt::Diagnostic* d = rep.first(DiagKind::exit_before_barrier);
    REQUIRE((!rep.ok && d && d->thread_b == 40 && d->thread_a == 0 && !d->site_a.empty()));
}

TEST_CASE("an out-of-bounds index and a throwing kernel end the launch with a diagnostic", "[cpu][diagnostics]") {
    Setup s({40, 3, 3});
    auto in = s.pin();
    auto out = s.pout();
    auto rep = simt::launch(dim3(2), dim3(32), checked(), [&] { broken::out_of_bounds<float>(in, out, s.d.nx, 0, 0); });
    const simt::Diagnostic* d = rep.first(DiagKind::out_of_bounds);
    CAPTURE(rep.summary());
    REQUIRE((!rep.ok && d && d->thread_a == 0 && d->message.find("index -1") != std::string::npos));
    auto rep2 = simt::launch(dim3(2), dim3(32), checked(), [&] { broken::throws<float>(in, out, 0, 0, 0); });
    const simt::Diagnostic* e = rep2.first(DiagKind::kernel_exception);
    REQUIRE((!rep2.ok && e && e->thread_a == 3 && e->message.find("boom") != std::string::npos));
}

TEST_CASE("a race is found under every schedule, whatever the worker count", "[cpu][diagnostics]") {
    Setup s({20, 17, 15});
    auto in = s.pin();
    auto out = s.pout();
    std::vector<long long> races;
    std::vector<int> first_thread;
    for (int workers : {1, 2, 3}) {
        simt::ExecOptions o = checked(simt::Schedule::random, workers);
        o.seed = 77;
        auto rep = simt::launch(grid_for(s.d, 6), dim3(8, 8, 8), o, [&] {
            broken::tiled_no_barrier<float, 8, 1>(in, out, s.d.nx, s.d.ny, s.d.nz);
        });
        races.push_back(rep.total(DiagKind::race));
        first_thread.push_back(rep.first(DiagKind::race) ? rep.first(DiagKind::race)->thread_a : -1);
    }
    CAPTURE(races, first_thread);
    REQUIRE((races[0] > 0 && races[0] == races[1] && races[1] == races[2] &&
             first_thread[0] == first_thread[1] && first_thread[1] == first_thread[2]));
}

TEST_CASE("the correct kernels produce no diagnostic", "[cpu][diagnostics]") {
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const int r = GENERATE(1, 2);
    const auto in = random_field<double>({15, 13, 14}, 8);
    auto out = poisoned_output(in, r);
    CpuOptions o;
    o.exec.check_shared = true;
    const int T = v.id == KernelId::naive ? 8 : v.id == KernelId::tiled ? 8 : 12;
    auto run = run_cpu({v.id, T, r, Precision::f64, in.dims}, random_weights(r, 1), in.data.data(), out.data.data(), o);
    CAPTURE(v.name, r, run.report.summary());
    REQUIRE(run.report.clean());
}

namespace {
template <typename In, typename Out>
__global__ void shared_histogram(In in, Out out, int n) {
    __shared__ Shared<int> count;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n && in[t] > 0) atomicAdd(&count, 1);  // atomics do not race with each other
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(&out[0], (float)count);
}
}  // namespace

TEST_CASE("shared and global atomics are exact and race-free", "[cpu][diagnostics]") {
    std::vector<float> in(1000), out(1, 0.0f);
    int positive = 0;
    for (int i = 0; i < 1000; ++i) positive += (in[i] = (i * 37 % 11) - 5.0f) > 0;
    simt::GlobalPtr<const float> pin(in.data(), 1000, 0, "in");
    simt::GlobalPtr<float> pout(out.data(), 1, 1, "out");
    auto rep = simt::launch(dim3(8), dim3(128), checked(simt::Schedule::random, 2), [&] { shared_histogram(pin, pout, 1000); });
    CAPTURE(rep.summary());
    REQUIRE((rep.clean() && out[0] == (float)positive));
}
