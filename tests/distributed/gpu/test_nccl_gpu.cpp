// The NCCL path on a GPU machine (ctest label `gpu`): `run --decompose ... --gpus N` in one
// process and, in builds with MPI, one rank per GPU under mpirun, each equal to one domain computed
// alone bit for bit. On one GPU the split is 1x1x1 (NCCL refuses two ranks on one GPU), so these
// check the communicator's start, the device arrays, the slab launches and the gather; the faces
// travel only with 2 GPUs or more, which the 2-GPU case runs when the machine has them.
// Every run also probes its link before the timed steps (distributed/nccl_link_probe.h): on one GPU
// the GPU with itself ("self"), whose prediction is 0 since one GPU has no halo to exchange, so
// the prediction is held against the measured exchange only on 2 GPUs.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

#include "tests/distributed/cli_run.h"

using stencil::test::lines_of;
using stencil::test::run_command;

namespace {

nlohmann::json require_equal(const std::string& command) {
    CAPTURE(command);
    const auto o = run_command(command);
    CAPTURE(o.out, o.err);
    REQUIRE(o.rc == 0);
    const auto lines = lines_of(o.out);
    REQUIRE(lines.size() == 1);
    const nlohmann::json j = nlohmann::json::parse(lines[0]);
    REQUIRE(j["ok"] == true);
    REQUIRE(j["halo_exchange"] == "nccl");
    REQUIRE(j["backend"] == "cuda");
    REQUIRE(j["max_abs_diff_vs_single_domain"].get<double>() == 0.0);
    REQUIRE(j["differing_cells"] == 0);
    REQUIRE(j["halo_bytes_per_step"]["total"] == j["halo_bytes_per_step"]["model_total"]);
    // The link probed: both sizes timed, a latency and a bandwidth fitted.
    REQUIRE(j.contains("link"));
    const nlohmann::json& link = j["link"];
    CAPTURE(link.dump());
    REQUIRE(link["small_one_way_seconds"].get<double>() > 0);
    REQUIRE(link["large_one_way_seconds"].get<double>() > 0);
    REQUIRE(link["large_message_bytes"].get<long long>() > link["small_message_bytes"].get<long long>());
    REQUIRE(link["latency_us"].get<double>() > 0);
    REQUIRE(link["gbps"].get<double>() > 0);
    REQUIRE(j["exchange_alone_seconds"].get<double>() >= 0);
    return j;
}

// One GPU: the probe measured the GPU with itself, and with no halo the model predicts nothing.
void require_self_link(const nlohmann::json& j, long long probe_bytes) {
    REQUIRE(j["link"]["between"] == "self");
    REQUIRE(j["link"]["large_message_bytes"].get<long long>() == probe_bytes);
    REQUIRE(j["link"]["predicted_exchange_seconds_per_step"].get<double>() == 0.0);
    REQUIRE(j["halo_bytes_per_step"]["total"].get<long long>() == 0);
}

// Two GPUs: the GPUs of ranks 0 and 1 probed, and the prediction within a generous factor of the exchange
// timed alone (the model leaves out the packing copies and counts a latency per face where NCCL
// launches one group, so it is not meant to be closer than that).
void require_peer_link(const nlohmann::json& j) {
    REQUIRE(j["link"]["between"] == "GPUs of ranks 0 and 1");
    const double predicted = j["link"]["predicted_exchange_seconds_per_step"].get<double>();
    const double measured = j["exchange_alone_seconds"].get<double>();
    CAPTURE(predicted, measured);
    REQUIRE(predicted > 0);
    REQUIRE(measured > 0);
    REQUIRE(predicted / measured > 0.1);
    REQUIRE(predicted / measured < 10);
}

int gpus_here() {
    const auto o = run_command("nvidia-smi -L");
    return o.rc == 0 ? static_cast<int>(lines_of(o.out).size()) : 0;
}

}  // namespace

TEST_CASE("nccl: --gpus 1 equals the single domain, overlap on and off, f32 and f64", "[gpu]") {
    const char* kernel = GENERATE("tiled", "register-tiled", "streaming");
    const char* flags = GENERATE("--precision f32", "--precision f64 --radius 2 --no-overlap");
    const auto j = require_equal(stencil::test::stencil_lab_exe() + " run --backend cuda --kernel " + kernel + " " +
                                 flags + " --nx 130 --ny 97 --nz 75 --steps 4 --decompose 1x1x1 --gpus 1 --json");
    // The probe's large message: the x face of 97 x 75 cells, r deep.
    const int radius = j["radius"].get<int>(), value_bytes = j["precision"] == "f32" ? 4 : 8;
    require_self_link(j, 97LL * 75 * radius * value_bytes);
}

TEST_CASE("nccl link: the text report of --gpus 1 says the GPU was probed with itself", "[gpu]") {
    const auto o = run_command(stencil::test::stencil_lab_exe() + " run --backend cuda --kernel tiled --nx 130 --ny 97 "
                               "--nz 75 --steps 4 --decompose 1x1x1 --gpus 1");
    CAPTURE(o.out, o.err);
    REQUIRE(o.rc == 0);
    REQUIRE(o.out.find("  model     link ") != std::string::npos);
    REQUIRE(o.out.find(", self): no halo to exchange, 0 s predicted; measured ") != std::string::npos);
}

TEST_CASE("nccl: --gpus 2 split along z and along x (runs only with 2 GPUs)", "[gpu]") {
    if (gpus_here() < 2) {
        WARN("one GPU here: the 2-GPU exchange is not run");
        return;
    }
    const char* split = GENERATE("1x1x2", "2x1x1");
    const char* overlap = GENERATE("", "--no-overlap");
    const auto j = require_equal(stencil::test::stencil_lab_exe() + " run --backend cuda --kernel tiled --nx 130 --ny 97 " +
                                 "--nz 75 --steps 4 --decompose " + split + " --gpus 2 --json " + overlap);
    REQUIRE(j["halo_bytes_per_step"]["total"].get<long long>() > 0);
    require_peer_link(j);
}

// The fastest single-step kernel and temporal blocking (halos r K wide, once per pass of K steps),
// decomposed over every GPU count this machine has up to 4, along the axis the scaling runs cut.
TEST_CASE("nccl: streaming and temporal over 1, 2 and 4 GPUs equal one domain bit for bit", "[gpu]") {
    const int gpus = GENERATE(1, 2, 4);
    if (gpus_here() < gpus) {
        WARN(gpus_here() << " GPU(s) here: the " << gpus << "-GPU run is not made");
        return;
    }
    const char* kernel = GENERATE("streaming --precision f64 --radius 4", "streaming --radius 2",
                                  "temporal --fuse 3", "temporal --fuse 2 --radius 2 --precision f64");
    const std::string split = "1x1x" + std::to_string(gpus);
    const auto j = require_equal(stencil::test::stencil_lab_exe() + " run --backend cuda --kernel " + kernel +
                                 " --nx 131 --ny 67 --nz 97 --steps 7 --decompose " + split + " --gpus " +
                                 std::to_string(gpus) + " --json");
    if (gpus > 1) require_peer_link(j);
}

#ifdef MPIEXEC
TEST_CASE("nccl: one rank under mpirun, the communicator from MPI", "[gpu]") {
    const auto j = require_equal(stencil::test::mpirun_prefix(MPIEXEC, 1) + stencil::test::stencil_lab_exe() +
                                 " run --backend cuda --kernel tiled --nx 130 --ny 97 --nz 75 --steps 4 --decompose 1x1x1 --json");
    require_self_link(j, 97LL * 75 * 4);
}
#endif

TEST_CASE("nccl cardiac2d: --gpus 1 equals the whole mesh, every version, both precisions", "[gpu]") {
    const char* kernel = GENERATE("naive", "fused", "shared", "shared-all", "sliding-rows", "shuffle");
    const char* precision = GENERATE("f32", "f64");
    const auto j = require_equal(stencil::test::stencil_lab_exe() + " run --backend cuda --problem cardiac2d --kernel " +
                                 kernel + " --precision " + precision + " --size 150 --steps 6 --decompose 1x1 --gpus 1 --json");
    REQUIRE(j["problem"] == "cardiac2d");
    require_self_link(j, 150LL * (j["precision"] == "f32" ? 4 : 8));  // one edge column
}

TEST_CASE("nccl cardiac2d: --gpus 2 split on x and on y (runs only with 2 GPUs)", "[gpu]") {
    if (gpus_here() < 2) {
        WARN("one GPU here: the 2-GPU exchange is not run");
        return;
    }
    const char* split = GENERATE("2x1", "1x2");
    const char* overlap = GENERATE("", "--no-overlap");
    const auto j = require_equal(stencil::test::stencil_lab_exe() + " run --backend cuda --problem cardiac2d --kernel shared "
                                 "--size 150 --steps 6 --decompose " + split + " --gpus 2 --json " + overlap);
    REQUIRE(j["halo_bytes_per_step"]["total"].get<long long>() > 0);
    REQUIRE(j["overlap"] == (std::string(overlap).empty()));
    require_peer_link(j);
}

// The ghost rows travel while the rows that read none are stepped (nccl_cardiac2d.cpp): every
// version on pieces cut across y, their edge rows stepped as pieces one row tall (75 rows a piece,
// and 4 and 5); on 4 GPUs also a 2x2 cut and pieces two rows tall, which step after the exchange.
TEST_CASE("nccl cardiac2d: overlapped ghost rows equal the whole mesh, every version, pieces 2 to 75 rows tall",
          "[gpu]") {
    if (gpus_here() < 2) {
        WARN("one GPU here: the 2-GPU exchange is not run");
        return;
    }
    const char* kernel = GENERATE("naive", "fused", "shared", "shared-all", "sliding-rows", "shuffle");
    const char* precision = GENERATE("f32", "f64");
    const std::string run = stencil::test::stencil_lab_exe() + " run --backend cuda --problem cardiac2d --kernel " +
                            kernel + " --precision " + precision + " --steps 5 --json";
    for (const char* size : {"150", "9"}) {
        const auto j = require_equal(run + " --size " + size + " --decompose 1x2 --gpus 2");
        REQUIRE(j["overlap"] == true);
    }
    if (gpus_here() >= 4) {
        require_equal(run + " --size 150 --decompose 2x2 --gpus 4");
        require_equal(run + " --size 8 --decompose 1x4 --gpus 4");
    }
}

TEST_CASE("nccl scaling: --gpus N --scaling strong has a row per GPU count", "[gpu]") {
    const auto o = run_command(stencil::test::stencil_lab_exe() + " run --backend cuda --kernel tiled --size 96 --steps 3 "
                               "--decompose auto --scaling strong --gpus " + std::to_string(std::max(1, gpus_here())) + " --json");
    CAPTURE(o.out, o.err);
    REQUIRE(o.rc == 0);
    const nlohmann::json j = nlohmann::json::parse(lines_of(o.out).at(0));
    REQUIRE(j["ok"] == true);
    REQUIRE(j["rows"].size() >= 1);
    REQUIRE(j["rows"][0]["efficiency"].get<double>() == 1.0);
    REQUIRE(j["rows"][0]["link"]["between"] == "self");
    for (const auto& row : j["rows"]) REQUIRE(row["exchange_alone_seconds"].get<double>() >= 0);
}

#ifdef MPIEXEC
TEST_CASE("nccl cardiac2d: one rank under mpirun, the communicator from MPI", "[gpu]") {
    const auto j = require_equal(stencil::test::mpirun_prefix(MPIEXEC, 1) + stencil::test::stencil_lab_exe() +
                                 " run --backend cuda --problem cardiac2d --kernel fused --size 150 --steps 6 "
                                 "--decompose 1x1 --json");
    require_self_link(j, 150LL * 4);
}
#endif
