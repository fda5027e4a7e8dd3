// The CUDA backend beyond correctness: device facts, compiler attributes, timings, the refusals
// of cannot_run, errors as UserError, and the CLI on a GPU machine.
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/run.h"
#include "core/weights.h"
#include "tests/gpu/gpu_fixture.h"

namespace stencil {

TEST_CASE("the GPU's facts are sane", "[gpu]") {
    Backend& b = test::gpu();
    REQUIRE(b.kind() == BackendKind::cuda);
    const DeviceInfo d = b.device();
    CAPTURE(d.name, d.multiprocessors, d.l2_bytes, d.cc_major, d.cc_minor);
    CHECK(!d.name.empty());
    CHECK(d.multiprocessors > 0);
    CHECK(d.l2_bytes >= (1 << 20));
    CHECK(d.smem_per_block >= 48 * 1024);
    CHECK(d.smem_per_sm >= d.smem_per_block);
    CHECK(d.cc_major >= 7);
    CHECK(d.global_mem_bytes > (1LL << 30));
    CHECK(d.warp_size == 32);
    const DeviceLimits lim = b.limits();
    CHECK(lim.max_threads_per_block == 1024);
    CHECK(lim.max_static_smem_per_block == 48 * 1024);
    CHECK(lim.max_grid_yz == 65535);
    CHECK(!cuda_unavailable_reason());
}

TEST_CASE("compiler attributes agree with the version table", "[gpu]") {
    Backend& b = test::gpu();
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    const Precision p = GENERATE(Precision::f32, Precision::f64);
    const int r = GENERATE(1, 2, 3, 4);
    for (int T : runnable_tiles(v.id, r, p, b.limits())) {
        const LaunchRequest req{v.id, T, r, p, {256, 256, 256}};
        const KernelAttributes a = b.attributes(req);
        CAPTURE(v.name, T, r, to_string(p), a.registers_per_thread, a.static_smem_bytes, a.active_blocks_per_sm,
                a.occupancy);
        CHECK((a.registers_per_thread > 0 && a.registers_per_thread <= 255 &&
               a.static_smem_bytes == smem_bytes(v.id, T, r, bytes_of(p)) &&
               a.max_threads_per_block >= threads_per_block(v.id, T) && a.active_blocks_per_sm >= 1 &&
               a.occupancy > 0 && a.occupancy <= 1.0));
        // A tile the table calls runnable must launch: its block's registers fit the SM's 64 K
        // (streaming at T = 32, f64, r = 3 once asked for more and failed to launch).
        CHECK(a.registers_per_thread * threads_per_block(v.id, T) <= 65536);
    }
}

TEST_CASE("timings are positive and the copy bandwidth is plausible", "[gpu][timing][alone]") {
    Backend& b = test::gpu();
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    RunOptions opt;
    opt.request = {v.id, v.default_tile, 1, Precision::f32, {192, 160, 128}};
    opt.warmup = 2;
    opt.reps = 5;
    const RunReport rep = run_kernel(b, opt);
    CAPTURE(v.name, rep.check.summary(), rep.ms.min, rep.ms.median, rep.ms.max, rep.gbps, rep.copy_gbps);
    REQUIRE(rep.ok);
    REQUIRE(rep.timed);
    CHECK(rep.samples_ms.size() == 5);
    CHECK(rep.ms.min > 0);
    CHECK(rep.ms.min <= rep.ms.median);
    CHECK(rep.ms.median <= rep.ms.max);
    CHECK(rep.gbps > 1);
    CHECK(rep.copy_gbps > 100);  // any GPU since Volta copies faster than 100 GB/s (read + write)
    CHECK(rep.copy_ratio > 0);
    CHECK(rep.copy_ratio < 2);  // L2 flushed: a kernel cannot beat a copy by much
    const auto j = rep.to_json();
    CHECK(j["ok"].get<bool>());
    CHECK(j["registers"].get<int>() > 0);
    CHECK(j["ms_median"].get<double>() == rep.ms.median);
}

TEST_CASE("copy bandwidth of a large array", "[gpu][timing][alone]") {
    const auto gbps = test::gpu().copy_gbps(256LL << 20, 5);
    REQUIRE(gbps.size() == 5);
    for (double g : gbps) CHECK(g > 100);
}

TEST_CASE("cannot_run refuses what the GPU cannot do, with the numbers", "[gpu][alone]") {
    Backend& b = test::gpu();
    SECTION("more cells than 32-bit offsets reach") {
        const LaunchRequest req{KernelId::naive, 8, 1, Precision::f64, {8192, 8192, 4096}};
        RunOptions opt;
        opt.request = req;
        CHECK_THROWS_WITH(run_kernel(b, opt), Catch::Contains("32-bit"));
    }
    SECTION("more memory than the GPU has free") {
        // Every grid the 32-bit offsets allow fits an 80 GB GPU, so take most of its memory first.
        std::size_t free_b = 0, total_b = 0;
        REQUIRE(cudaMemGetInfo(&free_b, &total_b) == cudaSuccess);
        void* hog = nullptr;
        const std::size_t keep = std::size_t(4) << 30;  // leave 4 GiB free
        REQUIRE(free_b > keep);
        REQUIRE(cudaMalloc(&hog, free_b - keep) == cudaSuccess);
        const LaunchRequest req{KernelId::naive, 8, 1, Precision::f64, {1200, 1200, 1200}};  // 2 x 13.8 GB
        const auto why = b.cannot_run(req);
        cudaFree(hog);
        REQUIRE(why);
        CAPTURE(*why);
        CHECK(why->find("MiB") != std::string::npos);
        CHECK(why->find("free") != std::string::npos);
    }
    SECTION("more than 65535 blocks along y") {
        const LaunchRequest req{KernelId::naive, 1, 1, Precision::f32, {3, 70000, 3}};
        const auto why = b.cannot_run(req);
        REQUIRE(why);
        CAPTURE(*why);
        CHECK(why->find("65535") != std::string::npos);
    }
    SECTION("a tile over the device's limits") {
        const LaunchRequest req{KernelId::tiled, 11, 1, Precision::f32, {64, 64, 64}};
        REQUIRE(b.cannot_run(req));
        std::vector<float> in(64 * 64 * 64, 1.f), out(in.size(), 0.f);
        CHECK_THROWS_AS(b.execute(req, laplacian_weights(1), in.data(), out.data()), UserError);
    }
    SECTION("a runnable request") {
        CHECK(!b.cannot_run({KernelId::register_tiled, 32, 4, Precision::f64, {512, 512, 512}}));
    }
}

TEST_CASE("weights of the wrong radius are an error, not a wrong answer", "[gpu]") {
    Backend& b = test::gpu();
    const LaunchRequest req{KernelId::naive, 8, 2, Precision::f32, {16, 16, 16}};
    std::vector<float> in(16 * 16 * 16, 1.f), out(in.size(), 0.f);
    CHECK_THROWS_AS(b.execute(req, laplacian_weights(1), in.data(), out.data()), UserError);
}

TEST_CASE("the same input gives the same bits twice (no race, no stale weights)", "[gpu]") {
    Backend& b = test::gpu();
    const auto& v = GENERATE(from_range(kernel_versions().begin(), kernel_versions().end()));
    CAPTURE(v.name);
    const LaunchRequest req{v.id, v.default_tile, 1, Precision::f32, {67, 45, 39}};
    const Field<float> in = random_field<float>(req.dims, 3);
    const StencilWeights w1 = random_weights(1, 5).rounded_to(Precision::f32);
    const StencilWeights w2 = random_weights(1, 6).rounded_to(Precision::f32);
    Field<float> a = poisoned_output(in, 1), b2 = poisoned_output(in, 1), c = poisoned_output(in, 1);
    b.execute(req, w1, in.data.data(), a.data.data());
    b.execute(req, w2, in.data.data(), c.data.data());  // other weights in between
    b.execute(req, w1, in.data.data(), b2.data.data());
    CHECK(a.data != c.data);
    REQUIRE(a.data == b2.data);
}

namespace {

struct Cli {
    int code = -1;
    std::string out;
};

Cli stencil_lab(const std::string& args) {
    namespace fs = std::filesystem;
    // $STENCIL_LAB_BINARY_DIR overrides the build's own path: a carried build may live elsewhere.
    const char* env = std::getenv("STENCIL_LAB_BINARY_DIR");
    const fs::path bin = fs::path(env ? env : STENCIL_LAB_BINARY_DIR) / "stencil-lab";
    if (!fs::exists(bin)) FAIL("stencil-lab is not built at " << bin.string());
    const fs::path out = fs::temp_directory_path() / ("stencil_gpu_cli_" + std::to_string(::getpid()));
    const int status = std::system((bin.string() + " " + args + " >" + out.string()).c_str());
    std::ifstream f(out);
    std::stringstream s;
    s << f.rdbuf();
    fs::remove(out);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, s.str()};
}

}  // namespace

TEST_CASE("stencil-lab info and run work on the GPU", "[gpu][cli]") {
    test::gpu();
    const Cli info = stencil_lab("info --json --copy-mib 64");
    REQUIRE(info.code == 0);
    const auto j = nlohmann::json::parse(info.out);
    CHECK(j["cuda"]["available"].get<bool>());
    CHECK(j["cuda"]["copy_gbps"].get<double>() > 100);

    const Cli run = stencil_lab("run --kernel coarsened --tile 16 --radius 2 --size 96 --backend cuda --reps 3 --json");
    CAPTURE(run.out);
    REQUIRE(run.code == 0);
    const auto r = nlohmann::json::parse(run.out);
    CHECK(r["ok"].get<bool>());
    CHECK(r["backend"] == "cuda");
    CHECK(r["gbps"].get<double>() > 0);
    CHECK(r["registers"].get<int>() > 0);
}

}  // namespace stencil
