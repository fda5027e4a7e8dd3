// The temporal kernel on the GPU (issue 13): every K, radius and precision that a tile leaves room
// for, S steps against S steps of the fp64 reference and bit for bit against S launches of the
// naive kernel (temporal.cuh sums in naive's order); `run --steps` for every version. Correctness
// only: the rate against the copy is the lead's benchmark,
//   stencil-lab run --kernel temporal --fuse 3 --steps 6 --size 512 --precision f32
// beside `--kernel streaming --steps 8` (its copy_ratio is updates x (read + write) over the copy).
#include <catch2/catch.hpp>

#include <cstring>

#include "core/compare.h"
#include "core/field.h"
#include "core/reference.h"
#include "core/run.h"
#include "tests/gpu/gpu_fixture.h"

namespace stencil {

namespace {

template <class real>
long long differing_cells(Backend& b, LaunchRequest t, LaunchRequest n, const StencilWeights& w,
                          CompareResult& vs_reference) {
    const Field<real> in = random_field<real>(t.dims, 1234);
    Field<real> got = poisoned_output(in, t.radius), naive = poisoned_output(in, t.radius);
    b.execute(t, w, in.data.data(), got.data.data());
    b.execute(n, w, in.data.data(), naive.data.data());
    vs_reference = compare_with_reference(got, reference_steps(in, w, t.steps), t.precision);
    long long differ = 0;
    for (std::size_t c = 0; c < got.data.size(); ++c)
        differ += std::memcmp(&got.data[c], &naive.data[c], sizeof(real)) != 0;
    return differ;
}

}  // namespace

TEST_CASE("temporal: every K, radius and precision equals S naive launches on the GPU", "[kernel][gpu]") {
    Backend& backend = test::gpu();
    const int r = GENERATE(1, 2, 3, 4);
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int K = GENERATE(1, 2, 3, 4);
    const int T = GENERATE(16, 32, 64);
    if (fuse_error(KernelId::temporal, T, r, K)) return;  // no room for K halos of r: refused by the table
    const int S = 2 * K + 1;  // two full passes and a shorter one
    const GridDims d = GENERATE(GridDims{131, 67, 2 * version(KernelId::temporal).z_chunk + 9}, GridDims{45, 93, 37});
    CAPTURE(r, to_string(p), K, T, S, d.nx, d.ny, d.nz);
    LaunchRequest t{KernelId::temporal, T, r, p, d};
    t.steps = S;
    t.fuse = K;
    LaunchRequest n{KernelId::naive, 8, r, p, d};
    n.steps = S;
    // sum |w| = 1, as run_kernel's S-step weights
    StencilWeights w = random_weights(r, 99);
    double sum = 0;
    for (int i = 0; i < coefficient_count(r); ++i) sum += std::abs(w.c[i]);
    for (int i = 0; i < coefficient_count(r); ++i) w.c[i] /= sum;
    w = w.rounded_to(p);
    CompareResult ref;
    const long long differ = p == Precision::f32 ? differing_cells<float>(backend, t, n, w, ref)
                                                 : differing_cells<double>(backend, t, n, w, ref);
    CAPTURE(ref.summary(), differ);
    REQUIRE((ref.ok && differ == 0));
}

TEST_CASE("run --steps: every version on the GPU against S steps of the reference", "[kernel][gpu]") {
    Backend& backend = test::gpu();
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    RunOptions opt;
    opt.request = {v.id, v.default_tile, 1, p, {96, 80, 70}};
    opt.request.steps = 5;
    opt.time = true;  // the S-step timing path too
    opt.reps = 2;
    CAPTURE(v.name, to_string(p));
    const RunReport rep = run_kernel(backend, opt);
    CAPTURE(rep.check.summary());
    REQUIRE((rep.ok && rep.timed && rep.bytes == 5 * minimum_bytes(opt.request.dims, p)));
}

TEST_CASE("temporal at its default T, K = 3 and 4 is correct on the 512^3 benchmark grid", "[kernel][gpu]") {
    Backend& backend = test::gpu();
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int K = GENERATE(3, 4);
    RunOptions opt;
    opt.request = {KernelId::temporal, version(KernelId::temporal).default_tile, 1, p, {512, 512, 512}};
    opt.request.steps = 2 * K;
    opt.request.fuse = K;
    opt.time = false;
    CAPTURE(to_string(p), K);
    const RunReport rep = run_kernel(backend, opt);
    CAPTURE(rep.check.summary());
    REQUIRE(rep.ok);
}

}  // namespace stencil
