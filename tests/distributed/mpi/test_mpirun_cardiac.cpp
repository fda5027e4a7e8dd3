// `mpirun --oversubscribe -np P stencil-lab run --problem cardiac2d --decompose PXxPY` on the CPU
// backend, and the scaling sweeps (ctest label `mpi`): the gathered E and R must equal the whole
// mesh computed alone bit for bit after several steps (a ghost cell exchanged wrong, or mirrored
// where a neighbour should have filled it, changes cells from the second step on); the halo bytes
// must be the model's; bad input ends every rank with exit 2 and one line; a sweep has a row per
// rank count, each equal to its single domain, with a sane efficiency, and draws its figure.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "analysis/decomposition.h"
#include "tests/distributed/mpi/mpirun_cpu.h"

using namespace stencil;

namespace {

using stencil::test::mpirun;
using stencil::test::require_refused;

nlohmann::json one_json_line(const stencil::test::Outcome& o) {
    return nlohmann::json::parse(stencil::test::the_one_line(o));
}

void require_equal_to_whole_mesh(int ranks, const std::string& split, const std::string& args) {
    const std::string all = "--problem cardiac2d " + args + " --decompose " + split + " --json";
    CAPTURE(ranks, all);
    const nlohmann::json j = one_json_line(mpirun(ranks, all));
    CAPTURE(j.dump());
    REQUIRE(j["ok"] == true);
    REQUIRE(j["problem"] == "cardiac2d");
    REQUIRE(j["ranks"] == ranks);
    REQUIRE(j["max_abs_diff_vs_single_domain"].get<double>() == 0.0);
    REQUIRE(j["differing_cells"] == 0);
    REQUIRE(j["seconds_per_step"].get<double>() > 0);
    const int n = j["grid"][0].get<int>();
    const auto model = analysis::cardiac_decomposition_model(n, analysis::parse_cardiac_decomposition(split),
                                                             *parse_precision(j["precision"].get<std::string>()));
    const auto& halo = j["halo_bytes_per_step"];
    REQUIRE(halo["total"].get<long long>() == model.total_halo_bytes);
    for (int rank = 0; rank < ranks; ++rank) REQUIRE(halo["per_rank"][rank].get<long long>() == model.ranks[rank].halo_bytes);
    if (ranks > 1) {
        REQUIRE(halo["total"].get<long long>() > 0);
        // The model beside the measurement: a link measured on the spot, a time predicted from it.
        REQUIRE(j["link"]["gbps"].get<double>() > 0);
        REQUIRE(j["link"]["predicted_exchange_seconds_per_step"].get<double>() > 0);
        REQUIRE(j["exchange_seconds_per_step"].get<double>() > 0);
        REQUIRE(j["exchange_alone_seconds"].get<double>() > 0);
    }
}

}  // namespace

TEST_CASE("mpirun cardiac2d: 1 rank equals the whole mesh", "[mpi]") {
    require_equal_to_whole_mesh(1, "1x1", "--kernel fused --size 21 --steps 3");
}

TEST_CASE("mpirun cardiac2d: 2 ranks, every version, split on x or on y", "[mpi]") {
    struct Case {
        const char* kernel;
        const char* split;
    };
    // Each version once (CI's two cores), the splits alternating; 2x2 below covers both at once.
    const Case c = GENERATE(Case{"naive", "2x1"}, Case{"fused", "1x2"}, Case{"shared", "2x1"},
                            Case{"shared-all", "1x2"}, Case{"sliding-rows", "2x1"}, Case{"shuffle", "1x2"},
                            Case{"shuffle", "2x1"}, Case{"shared", "1x2"});
    require_equal_to_whole_mesh(2, c.split, std::string("--kernel ") + c.kernel + " --size 21 --steps 3");
}

TEST_CASE("mpirun cardiac2d: 4 ranks, 2x2 and thin pieces, both precisions", "[mpi]") {
    struct Case {
        const char* split;
        const char* args;
    };
    const Case c = GENERATE(Case{"2x2", "--kernel shared --precision f64 --size 19"},
                            Case{"2x2", "--kernel shuffle --precision f32 --size 40"},
                            Case{"4x1", "--kernel sliding-rows --precision f64 --size 9"},  // 3, 2, 2, 2 columns
                            Case{"1x4", "--kernel naive --precision f32 --size 8"});        // 2 rows each
    require_equal_to_whole_mesh(4, c.split, std::string(c.args) + " --steps 4");
}

TEST_CASE("mpirun cardiac2d: bad decompositions end every rank with exit 2 and one line", "[mpi]") {
    require_refused(2, "--problem cardiac2d --kernel fused --decompose 2x2", "needs 4 ranks, but this run has 2");
    require_refused(2, "--problem cardiac2d --kernel fused --decompose 1x1x2", "PZ must be 1");
    require_refused(2, "--problem cardiac2d --kernel fused --decompose 2x", "--decompose must be PXxPY");
    require_refused(2, "--problem cardiac2d --kernel fused --decompose 2x1 --tile 8", "--tile does not apply");
    require_refused(2, "--problem cardiac2d --kernel fused --decompose 2x1 --fuse 2", "--fuse does not apply");
    require_refused(2, "--problem cardiac2d --kernel fused --decompose 1x2 --no-overlap",
                    "--no-overlap applies to halos through NCCL");
    require_refused(2, "--problem cardiac2d --kernel fused --decompose 2x1 --size 4", "--size must be between");
    require_refused(2, "--problem cardiac2d --kernel tiled --decompose 2x1", "unknown kernel 'tiled'");
    require_refused(9, "--problem cardiac2d --kernel fused --size 8 --decompose 9x1", "at least one interior cell");
}

TEST_CASE("mpirun cardiac2d: a backend no rank can start is one line and exit 2, not a hang", "[mpi]") {
    stencil::test::require_cuda_refused_without_gpu("--problem cardiac2d --kernel fused --decompose 2x1");
}

namespace {
void require_sweep(const nlohmann::json& j, const std::vector<int>& ranks) {
    CAPTURE(j.dump());
    REQUIRE(j["ok"] == true);
    REQUIRE(j["rows"].size() == ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const auto& row = j["rows"][i];
        REQUIRE(row["ranks"] == ranks[i]);
        REQUIRE(row["ok"] == true);
        REQUIRE(row["max_abs_diff_vs_single_domain"].get<double>() == 0.0);
        REQUIRE(row["efficiency"].get<double>() > 0);
        REQUIRE(row["efficiency"].get<double>() <= 1.5);
        REQUIRE(row["halo_bytes_per_step"] == row["model_halo_bytes_per_step"]);
        if (ranks[i] > 1) REQUIRE(row["link"]["predicted_exchange_seconds_per_step"].get<double>() > 0);
    }
    REQUIRE(j["rows"][0]["efficiency"].get<double>() == 1.0);
}
}  // namespace

TEST_CASE("mpirun scaling: cardiac2d strong on 1, 2, 4 ranks in one mpirun, with its figure", "[mpi][alone]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "stencil-scaling-test";
    fs::remove_all(dir);
    const nlohmann::json j = one_json_line(
        mpirun(4, "--problem cardiac2d --kernel fused --size 32 --steps 3 --decompose auto --scaling strong --json "
                  "--out " + dir.string()));
    require_sweep(j, {1, 2, 4});
    REQUIRE(j["scaling"] == "strong");
    REQUIRE(j["rows"][2]["decomposition"] == "2x2");
    for (const char* file : {"scaling.json", "scaling.dat", "scaling.gp"}) REQUIRE(fs::exists(dir / file));
    if (stencil::test::run_command("command -v gnuplot").rc == 0) REQUIRE(fs::file_size(dir / "scaling.png") > 0);
    fs::remove_all(dir);
}

TEST_CASE("mpirun scaling: star3d weak from a list of splits, the grid growing", "[mpi][alone]") {
    const nlohmann::json j = one_json_line(
        mpirun(2, "--kernel tiled --size 12 --steps 2 --decompose 1x1x1,2x1x1 --scaling weak --json"));
    require_sweep(j, {1, 2});
    REQUIRE(j["rows"][1]["grid"] == nlohmann::json({24, 12, 12}));
    // Weak: labelled so, and each row's efficiency t0 / tN (not the strong r0 t0 / (N tN)).
    REQUIRE(j["scaling"] == "weak");
    const double t0 = j["rows"][0]["seconds_per_step"].get<double>(), t1 = j["rows"][1]["seconds_per_step"].get<double>();
    REQUIRE(j["rows"][1]["efficiency"].get<double>() == Approx(t0 / t1));
}

TEST_CASE("mpirun scaling: a split of more ranks than the run has is refused on every rank", "[mpi]") {
    require_refused(2, "--kernel tiled --size 12 --decompose 1x1x1,2x2x1 --scaling strong", "needs 4 ranks");
    require_refused(2, "--kernel tiled --size 12 --decompose 2x1x1 --out /tmp/x", "--out goes with --scaling");
}
