// The broken kernels of broken_kernels.h get their diagnoses, without crashing or hanging, under
// every schedule and worker count; the correct kernels get none.
#include <catch2/catch.hpp>

#include <cmath>

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

}  // namespace

TEST_CASE("tiled without the barrier after the load: a race", "[cpu][diagnostics]") {
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
    REQUIRE((rep.ok && rep.total(DiagKind::race) > 0 && race && race->interval == 0 &&
             race->thread_a != race->thread_b && race->array >= 0 && race->elem_size == 4 &&
             race->message.find("race") != std::string::npos));
}

TEST_CASE("coarsened without the barrier before the plane shift: a race", "[cpu][diagnostics]") {
    Setup s({14, 13, 12});
    auto in = s.pin();
    auto out = s.pout();
    auto rep = simt::launch(grid_for(s.d, 6), dim3(8, 8, 1), checked(), [&] {
        broken::coarsened_no_shift_barrier<float, 8, 1>(in, out, s.d.nx, s.d.ny, s.d.nz);
    });
    CAPTURE(rep.summary());
    const simt::Diagnostic* race = rep.first(DiagKind::race);
    // The race is between one thread's shift (a store) and a neighbour's read of that cell.
    REQUIRE((rep.total(DiagKind::race) > 0 && race && race->interval >= 1 &&
             (race->op_a == simt::Op::store || race->op_b == simt::Op::store)));
}

TEST_CASE("tiled with a halo column never loaded: uninitialized shared reads, no race", "[cpu][diagnostics]") {
    Setup s({14, 13, 12});
    auto in = s.pin();
    auto out = s.pout();
    auto rep = simt::launch(grid_for(s.d, 6), dim3(8, 8, 8), checked(), [&] {
        broken::tiled_missing_halo<float, 8, 1>(in, out, s.d.nx, s.d.ny, s.d.nz);
    });
    CAPTURE(rep.summary());
    const simt::Diagnostic* u = rep.first(DiagKind::uninitialized_shared_read);
    // The cells read are column tx = 0: element index % 8 == 0; they read as NaN, so the output fails.
    const auto cmp = compare_with_reference(s.out, s.ref, Precision::f32);
    REQUIRE((rep.ok && rep.total(DiagKind::race) == 0 && u && u->interval == 1 &&
             (u->offset / u->elem_size) % 8 == 0 && !cmp.ok && cmp.nan_cells > 0));
}

TEST_CASE("a __syncthreads() in a divergent branch is named, not hung on", "[cpu][diagnostics]") {
    Setup s({64, 3, 3});
    auto in = s.pin();
    auto out = s.pout();
    const int workers = GENERATE(1, 2);
    auto rep = simt::launch(dim3(2), dim3(64), checked(simt::Schedule::in_order, workers), [&] {
        broken::divergent_barrier<float>(in, out, s.d.nx, 0, 0);
    });
    CAPTURE(rep.summary());
    const simt::Diagnostic* d = rep.first(DiagKind::divergent_barrier);
    REQUIRE((!rep.ok && d && d->site_a != d->site_b && d->site_a.find("broken_kernels.h:") == 0 &&
             d->message.find("divergent") != std::string::npos));
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
