// `mpirun --oversubscribe -np P stencil-lab run --decompose ...` on the CPU backend (ctest label
// `mpi`): the gathered result must equal one domain computed alone bit for bit after several steps
// (a halo not exchanged, or put in the wrong place, changes cells from the second step on), the
// halo bytes sent must be the model's, and bad input must end every rank with exit 2 and one line.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>

#include "analysis/decomposition.h"
#include "tests/distributed/mpi/mpirun_cpu.h"

using namespace stencil;

namespace {

using stencil::test::mpirun;
using stencil::test::require_refused;

// One run that must match the single domain; its JSON checked against the model of the same split.
void require_equal_to_single_domain(int ranks, const std::string& decomposition, const std::string& args) {
    const std::string all = args + " --decompose " + decomposition + " --json";
    CAPTURE(ranks, all);
    const nlohmann::json j = nlohmann::json::parse(stencil::test::the_one_line(mpirun(ranks, all)));
    REQUIRE(j["ok"] == true);
    REQUIRE(j["ranks"] == ranks);
    REQUIRE(j["decomposition"] == decomposition);
    if (args.find("--z-chunk 4") != std::string::npos) REQUIRE(j["z_chunk"] == 4);
    REQUIRE(j["max_abs_diff_vs_single_domain"].get<double>() == 0.0);
    REQUIRE(j["differing_cells"] == 0);
    REQUIRE(j["seconds_per_step"].get<double>() > 0);
    const auto& halo = j["halo_bytes_per_step"];
    REQUIRE(halo["per_rank"].size() == static_cast<std::size_t>(ranks));
    // An exchange per pass of K steps (K = 1 but for fused temporal steps), halos r K wide.
    const int steps = j["steps"].get<int>(), fused = j["steps_per_pass"].get<int>();
    REQUIRE(j["halo_width"].get<int>() == j["radius"].get<int>() * fused);
    const long long passes = (steps + fused - 1) / fused;
    const auto per_step = [&](long long per_exchange) { return (per_exchange * passes + steps / 2) / steps; };
    const auto grid = j["grid"].get<std::vector<int>>();
    const auto model = analysis::decomposition_model({grid[0], grid[1], grid[2]},
                                                     analysis::parse_decomposition(decomposition),
                                                     j["halo_width"].get<int>(),
                                                     *parse_precision(j["precision"].get<std::string>()));
    REQUIRE(halo["total"].get<long long>() == per_step(model.total_halo_bytes));
    for (int rank = 0; rank < ranks; ++rank)
        REQUIRE(halo["per_rank"][rank].get<long long>() == per_step(model.ranks[rank].halo_bytes));
    if (ranks > 1) REQUIRE(halo["total"].get<long long>() > 0);
}

}  // namespace

TEST_CASE("mpirun: 1 rank equals the single domain", "[mpi]") {
    require_equal_to_single_domain(1, "1x1x1", "--kernel naive --nx 19 --ny 17 --nz 15 --steps 3");
}

TEST_CASE("mpirun: 2 ranks, the split on each axis, equal bit for bit", "[mpi]") {
    const char* split = GENERATE("2x1x1", "1x2x1", "1x1x2");
    require_equal_to_single_domain(2, split, "--kernel tiled --nx 19 --ny 17 --nz 15 --steps 3");
}

TEST_CASE("mpirun: 4 ranks, two axes at once, several versions, radii and precisions", "[mpi]") {
    struct Case {
        const char* split;
        const char* args;
    };
    const Case c = GENERATE(Case{"2x2x1", "--kernel coarsened --radius 2 --precision f64"},
                            Case{"1x2x2", "--kernel register-tiled --radius 1"},
                            Case{"2x1x2", "--kernel streaming --radius 2 --tile 4 --z-chunk 4"},
                            Case{"4x1x1", "--kernel naive --radius 2 --precision f64"});
    require_equal_to_single_domain(4, c.split, std::string(c.args) + " --nx 21 --ny 18 --nz 16 --steps 3");
}

// Temporal blocking decomposed: halos r K wide exchanged once per pass of K fused steps. A halo too
// thin for K levels, or levels not recomputed over it, changes the cells within r K of a cut.
TEST_CASE("mpirun: passes of fused temporal steps, halos r K wide, equal bit for bit", "[mpi]") {
    struct Case {
        int ranks;
        const char* split;
        const char* args;
    };
    const Case c = GENERATE(Case{2, "1x1x2", "--fuse 2 --steps 4 --nz 15"}, Case{2, "2x1x1", "--fuse 2 --steps 5 --nz 15"},
                            Case{2, "1x2x1", "--fuse 2 --radius 2 --precision f64 --steps 4 --nz 15"},
                            Case{3, "1x1x3", "--fuse 3 --precision f64 --steps 6 --nz 24"});
    CAPTURE(c.split, c.args);
    require_equal_to_single_domain(c.ranks, c.split, std::string("--kernel temporal --nx 19 --ny 17 ") + c.args);
}

TEST_CASE("mpirun: bad decompositions end every rank with exit 2 and one line", "[mpi]") {
    require_refused(2, "--kernel naive --size 16 --decompose 2x2x1", "needs 4 ranks, but this run has 2");
    require_refused(2, "--kernel naive --size 16 --decompose 2x", "--decompose must be PXxPYxPZ");
    // 10 cells in 4 parts (3, 3, 2, 2) at r = 3.
    require_refused(4, "--kernel naive --radius 3 --nx 10 --ny 16 --nz 16 --decompose 4x1x1", "thinner than the radius");
    require_refused(2, "--kernel naive --size 16 --decompose 2x1x1 --reps 3", "--reps does not apply");
    require_refused(4, "--kernel temporal --size 16 --decompose 2x2x1 --fuse 2", "split one axis (1x1x4)");
    // 15 cells in 2 parts (8, 7): thinner than r K = 8 at r = 2, K = 4.
    require_refused(2, "--kernel temporal --radius 2 --fuse 4 --tile 64 --steps 4 --nx 15 --ny 16 --nz 16 --decompose 2x1x1",
                    "halos r x 4 = 8 cells wide");
    require_refused(2, "--kernel naive --size 16 --decompose 2x1x1 --fuse 2", "--fuse");
    require_refused(2, "--kernel naive --size 16 --decompose 2x1x1 --z-chunk 4", "z-chunk");
    // A problem without a decomposed run (kernels/problems.h): the ones that have one are named.
    require_refused(1, "--problem derivative --kernel x-spencils --decompose 1x1x1",
                    "covers --problem star3d and cardiac2d, not derivative");
}

TEST_CASE("mpirun: a backend no rank can start is one line and exit 2, not a hang", "[mpi]") {
    stencil::test::require_cuda_refused_without_gpu("--kernel naive --size 16 --decompose 2x1x1");
}
