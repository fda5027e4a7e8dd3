// The link model's pieces that the NCCL probe feeds (distributed/link_model.h): the size a probe
// sends, what a probe result says about itself in the JSON and the text, and the prediction on
// one GPU (no halo, so 0 whatever the link). Sizes and times chosen by hand.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>

#include "distributed/link_model.h"
#include "distributed/scaling_report.h"
#include "distributed/star3d_problem.h"

using namespace stencil;
using namespace stencil::analysis;

namespace {
distributed::PingPong one_gb_per_second(distributed::LinkPath path) {
    // 8 bytes in 2 us; 1 MB + 8 bytes in 2 us + 1 ms: 1 GB/s, 2 us.
    distributed::PingPong p;
    p.path = path;
    p.small_seconds = 2e-6;
    p.large_bytes = 1'000'008;
    p.large_seconds = 2e-6 + 1e-3;
    return p;
}
}  // namespace

TEST_CASE("link probe size: the largest face, or an x face of an uncut grid", "[distributed]") {
    // 40 x 30 x 20, r = 2, f32: an x face is 30 x 20 cells, 2 deep, 4 bytes: 4800 bytes.
    const GridDims g{40, 30, 20};
    const auto split_x = decomposition_model(g, Decomposition{{2, 1, 1}}, 2, Precision::f32);
    REQUIRE(distributed::largest_message_bytes(split_x) == 4800);
    REQUIRE(distributed::probe_message_bytes(split_x) == 4800);
    // Split in z: a z face is 40 x 30, 2 deep: 9600 bytes.
    const auto split_z = decomposition_model(g, Decomposition{{1, 1, 2}}, 2, Precision::f32);
    REQUIRE(distributed::probe_message_bytes(split_z) == 9600);
    // One rank sends nothing; its probe sends the x face it would send if cut.
    const auto whole = decomposition_model(g, Decomposition{{1, 1, 1}}, 2, Precision::f32);
    REQUIRE(distributed::largest_message_bytes(whole) == 0);
    REQUIRE(distributed::probe_message_bytes(whole) == 4800);
    // The cardiac mesh n = 64, fp64, alone: one edge column of 64 values, 512 bytes.
    REQUIRE(distributed::probe_message_bytes(cardiac_decomposition_model(64, Decomposition{{1, 1, 1}}, Precision::f64)) ==
            512);
}

TEST_CASE("link model: one GPU with itself predicts no exchange, and says self", "[distributed]") {
    const auto whole = decomposition_model({40, 30, 20}, Decomposition{{1, 1, 1}}, 1, Precision::f32);
    const distributed::LinkEstimate e = distributed::estimate_exchange(one_gb_per_second(distributed::LinkPath::nccl_self), whole);
    REQUIRE(e.link.gbps == Approx(1.0));
    REQUIRE(e.link.latency_us == Approx(2.0));
    REQUIRE(e.predicted_exchange_seconds_per_step == 0.0);
    const nlohmann::json j = e.to_json();
    REQUIRE(j["between"] == "self");
    REQUIRE(j["gbps"].get<double>() == Approx(1.0));
    const std::string text = distributed::link_text(e, 3e-6, std::nullopt);
    CAPTURE(text);
    REQUIRE(text.find("self") != std::string::npos);
    REQUIRE(text.find("no halo to exchange") != std::string::npos);
    REQUIRE(text.find("within a step") == std::string::npos);  // NCCL has no in-step time
}

TEST_CASE("link model: two GPUs over NCCL predict their faces' time", "[distributed]") {
    // 1x1x2 of 40 x 30 x 20, r = 1, f32: each rank sends one 4800-byte z face: 2 us + 4.8 us.
    const auto split_z = decomposition_model({40, 30, 20}, Decomposition{{1, 1, 2}}, 1, Precision::f32);
    const distributed::LinkEstimate e =
        distributed::estimate_exchange(one_gb_per_second(distributed::LinkPath::nccl_peers), split_z);
    REQUIRE(e.predicted_exchange_seconds_per_step == Approx(6.8e-6));
    REQUIRE(e.to_json()["between"] == "GPUs of ranks 0 and 1");
    REQUIRE(distributed::link_text(e, 9e-6, std::nullopt).find("6.8e-06 s per exchange predicted") != std::string::npos);
    // The MPI probe keeps its words, and its in-step time is printed beside.
    const distributed::LinkEstimate mpi =
        distributed::estimate_exchange(one_gb_per_second(distributed::LinkPath::mpi_ranks), split_z);
    REQUIRE(mpi.to_json()["between"] == "ranks 0 and 1");
    REQUIRE(distributed::link_text(mpi, 9e-6, 2e-5).find("within a step") != std::string::npos);
}

TEST_CASE("run report: the link goes into the JSON where measured, the exchange alone always", "[distributed]") {
    distributed::Star3dRunResult r;
    r.options.request.dims = {40, 30, 20};
    r.options.decomposition = Decomposition{{1, 1, 1}};
    r.halo_exchange = "nccl";
    r.seconds_per_step = 1e-3;
    r.exchange_alone_seconds = 4e-6;
    REQUIRE_FALSE(r.to_json().contains("link"));
    REQUIRE(r.to_json()["exchange_alone_seconds"].get<double>() == 4e-6);
    REQUIRE(r.to_json()["exchange_seconds_per_step"].is_null());
    const auto whole = decomposition_model({40, 30, 20}, Decomposition{{1, 1, 1}}, 1, Precision::f32);
    r.link = distributed::estimate_exchange(one_gb_per_second(distributed::LinkPath::nccl_self), whole);
    const nlohmann::json j = r.to_json();
    REQUIRE(j["link"]["between"] == "self");
    REQUIRE(j["link"]["large_message_bytes"] == 1'000'008);

    // In a sweep the one-GPU row's prediction (0) stays in the table but out of the log-scale
    // figure; the two-GPU row's goes in.
    distributed::ScalingSweep sweep;
    nlohmann::json two = j;
    two["ranks"] = 2;
    two["link"]["predicted_exchange_seconds_per_step"] = 6.8e-6;
    sweep.rows = {distributed::scaling_row(j), distributed::scaling_row(two)};
    sweep.set_efficiencies();
    REQUIRE(sweep.to_json()["rows"][0]["link"]["predicted_exchange_seconds_per_step"] == 0.0);
    const std::string data = sweep.plot_data();
    CAPTURE(data);
    REQUIRE(data.find("\n1 0.001 nan nan ") != std::string::npos);
    REQUIRE(data.find("\n2 0.001 nan 6.8e-06 ") != std::string::npos);
}
