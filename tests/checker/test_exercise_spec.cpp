// Exercises as folders of data (checker/exercise_spec.h, data_exercise.h, validate_exercise.h):
// every built-in folder reads; a spec an instructor gets wrong is one line naming its file, line
// and column; the expressions of macros and launches; a stencil written as data checked end to end
// on the CPU engine (its solution passes, its wrong kernels get their verdicts).
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "checker/checker.h"
#include "checker/data_exercise.h"
#include "checker/exercise_spec.h"
#include "checker/exercises.h"
#include "checker/spec_expr.h"
#include "checker/validate_exercise.h"
#include "core/error.h"

using namespace stencil;
using namespace stencil::checker;
namespace fs = std::filesystem;

namespace {

// A scratch exercise folder: `spec` as exercise.toml beside a README with two hints and a skeleton.
struct ScratchExercise {
    fs::path dir;
    explicit ScratchExercise(const std::string& spec, bool readme = true) {
        std::string tmpl = (fs::temp_directory_path() / "stencil-spec-XXXXXX").string();
        REQUIRE(mkdtemp(tmpl.data()));
        dir = tmpl;
        std::ofstream(dir / "exercise.toml") << spec;
        if (readme) std::ofstream(dir / "README.md") << "# x\n\n**Hints.**\n1. one\n2. two\n";
        std::ofstream(dir / "stencil.cu") << "__global__ void k(const float* in, float* out, int nx, int ny) {}\n";
    }
    ~ScratchExercise() { fs::remove_all(dir); }
    std::string read_error() const {
        try {
            read_exercise_folder(dir, "ex");
        } catch (const UserError& e) {
            return e.what();
        }
        return "";
    }
};

const std::string kHeatSpec = R"spec(summary = "2D"
[stencil]
dims = 2
points = "star"
radius = 1
[kernel]
name = "k"
params = [{ name = "in", role = "input" }, { name = "out", role = "output" },
          { name = "nx", role = "nx" }, { name = "ny", role = "ny" }]
tile = 16
block = ["T", "T", "1"]
grid = ["cdiv(nx, OUT)", "cdiv(ny, OUT)", "1"]
[kernel.macros]
OUT = "T - 2*r"
[hints]
weight_pairing = 2
)spec";

// The spec with one line replaced (`from` must be in it).
std::string with(const std::string& from, const std::string& to) {
    std::string s = kHeatSpec;
    const size_t at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("exercise folders: the built-ins read, each with its kind, budget and hints", "[exercise][spec]") {
    const auto all = exercises();
    std::vector<std::string> names;
    for (const Exercise& e : all) names.push_back(e.name);
    for (const char* n : {"naive", "tiled", "coarsened", "register-tiled", "find-the-race", "tiled-r2", "register-tiled-f64",
                          "cardiac-shared", "x-derivative", "heat2d", "box27"}) {
        CAPTURE(n);
        const Exercise* ex = find_exercise(n);
        REQUIRE(ex);
        CHECK(ex->id == n);
        CHECK(!ex->summary.empty());
        CHECK(!ex->hints.empty());
        CHECK(fs::is_regular_file(ex->folder / "solution.cu"));
        CHECK(std::count(names.begin(), names.end(), n) == 1);
    }
    CHECK(find_exercise("tiled-r2")->radius == 2);
    CHECK(find_exercise("register-tiled-f64")->precision == Precision::f64);
    CHECK(find_exercise("cardiac-shared")->problem == Problem::cardiac2d);
    const Exercise& heat = *find_exercise("heat2d");
    REQUIRE(heat.is_data());
    CHECK(heat.data->stencil.points.size() == 5);
    CHECK(data_stencil_formula(heat) == "out(x,y) = c0 in(x,y) + c1 in(x-1,y) + c2 in(x+1,y) + c3 in(x,y-1) + c4 in(x,y+1)");
    const Exercise& box = *find_exercise("box27");
    REQUIRE(box.is_data());
    CHECK(box.data->stencil.points.size() == 27);
    CHECK(box.data->stencil.points[13] == std::array<int, 3>{0, 0, 0});  // the centre, (dz+1)*9 + (dy+1)*3 + (dx+1)
    CHECK(box.data->stencil.points[14] == std::array<int, 3>{1, 0, 0});
    // a folder given by path is the same exercise, read once
    const std::string path = std::string(STENCIL_LAB_SOURCE_DIR) + "/exercises/heat2d";
    const Exercise* by_path = find_exercise(path);
    REQUIRE(by_path);
    CHECK(by_path == find_exercise(path));
    CHECK(by_path->id == path);
    CHECK(exercise_spec_hash(*by_path) == exercise_spec_hash(heat));
    CHECK(find_exercise("no-such-exercise") == nullptr);
    CHECK_THROWS_AS(find_exercise("/no/such/folder"), UserError);
}

TEST_CASE("exercise specs: a mistake is one line naming the file, line and column and what to write", "[exercise][spec]") {
    struct Bad {
        std::string spec, where, words;
    };
    const Bad cases[] = {
        {with("tile = 16", "tile = 16\nfoo = 1"), "ex/exercise.toml:11:1:", "unknown key 'foo' in [kernel]"},
        {with("radius = 1", "radius = 5"), "ex/exercise.toml:5:10:", "'radius' is 5; it must be from 1 to 4"},
        {with("radius = 1", "radius = \"one\""), "ex/exercise.toml:5:10:", "'radius' must be a whole number"},
        {with("\"cdiv(nx, OUT)\"", "\"cdiv(nx, OUTT)\""), "ex/exercise.toml:12:9:", "column 10: unknown name 'OUTT'"},
        {with("\"T - 2*r\"", "\"T - 2*q\""), "ex/exercise.toml:14:7:", "unknown name 'q'"},
        {with("\"T - 2*r\"", "\"T - (2\""), "ex/exercise.toml:14:7:", "a ')' is missing"},
        {with("weight_pairing = 2", "weight_pairing = 3"), "ex/exercise.toml:16:18:", "hint 3 is not in ex/README.md: its **Hints.** list has 2"},
        {with("weight_pairing = 2", "wrong_guess = 1"), "ex/exercise.toml:16:1:", "'wrong_guess' is not a cause a hint can be about"},
        {with("points = \"star\"\nradius = 1", "points = [[0, 0], [1, 0, 0]]"), "ex/exercise.toml:4:", "each point is a list of 2 whole numbers"},
        {with("points = \"star\"\nradius = 1", "points = [[0, 0], [0, 0]]"), "ex/exercise.toml:4:", "this point is listed twice"},
        {with("dims = 2", "dims = 4"), "ex/exercise.toml:3:8:", "'dims' is 4; it must be from 2 to 3"},
        {with("role = \"nx\"", "role = \"width\""), "ex/exercise.toml:", "'role' must be one of input, output"},
        {with("{ name = \"out\", role = \"output\" },", ""), "ex/exercise.toml:8:10:", "'params' needs a parameter of role output"},
        {with("summary = \"2D\"", "summary = \"2D\"\n[problem]\nname = \"star3d\"\nversion = \"tiled\""), "ex/exercise.toml:",
         "not both"},
        {"summary = \"x\"\n[problem]\nname = \"star3d\"\nversion = \"tiles\"\n", "ex/exercise.toml:4:11:",
         "'tiles' is not a version of star3d"},
        {"summary = \"x\"\n[problem]\nname = \"star4d\"\nversion = \"tiled\"\n", "ex/exercise.toml:3:8:",
         "[problem] name must be"},
        {"summary = \"x\"\n[problem\n", "ex/exercise.toml:2:", ""},  // TOML's own syntax error, with its position
        {with("block = [\"T\", \"T\", \"1\"]", "block = [\"T\", \"T\"]"), "ex/exercise.toml:11:", "'block' must list three expressions"},
        {with("tile = 16", "tile = 16\nshared = \"T * TT\""), "ex/exercise.toml:11:10:", "unknown name 'TT'"},
    };
    for (const Bad& b : cases) {
        ScratchExercise s(b.spec);
        const std::string e = s.read_error();
        CAPTURE(b.spec, e);
        CHECK(e.rfind(b.where, 0) == 0);
        CHECK(e.find(b.words) != std::string::npos);
        CHECK(e.find('\n') == std::string::npos);
    }
    // files that must be there
    {
        ScratchExercise s(kHeatSpec, false);
        CHECK(s.read_error() == "ex/README.md: no such file (an exercise folder holds exercise.toml, README.md and stencil.cu)");
    }
    {
        ScratchExercise s(kHeatSpec);
        fs::remove(s.dir / "exercise.toml");
        CHECK(s.read_error().rfind("ex/exercise.toml: no such file", 0) == 0);
    }
    // a good spec reads, with its defaults
    {
        ScratchExercise s(kHeatSpec);
        const Exercise ex = read_exercise_folder(s.dir, "ex");
        REQUIRE(ex.is_data());
        CHECK(ex.precision == Precision::f32);
        CHECK(ex.data->stencil.boundary == 1);
        CHECK(ex.budget.from_solution);
        CHECK(ex.data->sizes.count == ex.data->sizes.visible.back());
        CHECK(ex.hints.at("weight_pairing") == 2);
    }
}

TEST_CASE("exercise specs: the expressions of macros and launches", "[exercise][spec]") {
    const auto known = [](const std::string& s) { return s == "T" || s == "N" || s == "OUT"; };
    std::string error;
    const auto value = [&](const std::string& text, long long T, long long N) -> std::optional<long long> {
        const auto e = SpecExpr::parse(text, known, error);
        if (!e) return std::nullopt;
        return e->eval([&](const std::string& s) { return s == "T" ? T : s == "N" ? N : T - 2; }, error);
    };
    CHECK(value("T - 2*1", 8, 0) == 6);
    CHECK(value("cdiv(N, OUT)", 8, 13) == 3);  // 13 / 6 rounded up
    CHECK(value("cdiv(N, OUT)", 8, 12) == 2);
    CHECK(value("(T + 1) * (T - 1) % 7", 8, 0) == 63 % 7);
    CHECK(value("-T + max(N, 3) - min(2, N)", 4, 10) == 4);
    CHECK(!value("N / (T - 8)", 8, 1));
    CHECK(error == "a division by zero");
    CHECK(!value("T +", 8, 0));
    CHECK(error == "column 4: an expression ends too early");
    CHECK(!value("T $ 2", 8, 0));
    CHECK(error == "column 3: unexpected '$'");
    CHECK(!value("pow(T, 2)", 8, 0));
    CHECK(error.find("unknown function 'pow'") != std::string::npos);
    const auto e = SpecExpr::parse("cdiv(N, OUT) * T + N", known, error);
    REQUIRE(e);
    CHECK(e->names() == std::vector<std::string>{"N", "OUT", "T"});
}

TEST_CASE("expect lines of wrong/ kernels", "[exercise][spec]") {
    std::string error;
    const auto a = parse_expectation("// expect: race; gpu: race|wrong_result", error);
    REQUIRE(a);
    CHECK(a->cpu == Verdict::race);
    CHECK(a->gpu == std::vector<Verdict>{Verdict::race, Verdict::wrong_result});
    const auto b = parse_expectation("// expect: unwritten", error);
    REQUIRE(b);
    CHECK(b->gpu == std::vector<Verdict>{Verdict::unwritten});
    CHECK(!parse_expectation("// the kernel", error));
    CHECK(!parse_expectation("// expect: pass", error));
    CHECK(!parse_expectation("// expect: racy", error));
    CHECK(error == "'racy' is not a verdict");
}

TEST_CASE("a stencil written as data: launches, weights and the check on the CPU engine", "[exercise][spec][data]") {
    const Exercise& heat = *find_exercise("heat2d");
    std::string error;
    const Launch l = data_launch(heat, 16, data_dims(heat, 33), error);
    CHECK(error.empty());
    CHECK((l.block[0] == 16 && l.block[1] == 16 && l.block[2] == 1));
    CHECK((l.grid[0] == 3 && l.grid[1] == 3 && l.grid[2] == 1));  // ceil(33 / 14)
    CHECK(tile_problem(heat, 64).find("T from 4 to 32") != std::string::npos);
    CHECK(tile_problem(heat, 32).empty());
    const Exercise& box = *find_exercise("box27");
    CHECK(tile_problem(box, 11).find("T from 3 to 10") != std::string::npos);
    // random weights: distinct magnitudes, the same for a seed
    const auto w = data_weights(box, 7);
    REQUIRE(w.size() == 27);
    CHECK(w == data_weights(box, 7));
    CHECK(w != data_weights(box, 8));
    for (size_t i = 0; i < w.size(); ++i)
        for (size_t j = i + 1; j < w.size(); ++j) CHECK(std::abs(std::abs(w[i]) - std::abs(w[j])) >= 1e-3);
    // hidden sizes: from the seed, none visible
    const auto drawn = data_drawn_sizes(heat, 11);
    CHECK(drawn.size() == 2);
    for (int n : drawn) CHECK(std::find(heat.data->sizes.visible.begin(), heat.data->sizes.visible.end(), n) == heat.data->sizes.visible.end());

    CheckOptions o;
    o.exercise = "heat2d";
    o.backend = "cpu";
    o.seed = 5;
    o.quick = true;
    o.large_case = false;
    const std::string dir = std::string(STENCIL_LAB_SOURCE_DIR) + "/exercises/heat2d/";
    const CheckResult good = check_submission(dir + "solution.cu", o);
    CAPTURE(good.evidence.message);
    CHECK(good.verdict == Verdict::pass);
    REQUIRE(good.loads);
    CHECK(good.loads->within_budget);
    CHECK(good.loads->budget == Approx(good.loads->loads_per_output));  // the solution is its own budget
    const CheckResult swapped = check_submission(dir + "wrong/swapped_weights.cu", o);
    CHECK(swapped.verdict == Verdict::wrong_result);
    CHECK(swapped.findings.size() >= 1);
    // the skeleton compiles and fails
    const CheckResult skeleton = check_submission(dir + "stencil.cu", o);
    CHECK(skeleton.verdict == Verdict::unwritten);
}

TEST_CASE("a stencil written as data: dynamic shared memory in the launch, extern __shared__ in the kernel", "[exercise][spec][data]") {
    const std::string dir = std::string(STENCIL_LAB_SOURCE_DIR) + "/tests/checker/fixtures/heat2d_dynamic";
    const Exercise& heat = *find_exercise(dir);
    std::string error;
    const Launch l = data_launch(heat, 16, data_dims(heat, 33), error);
    CHECK(error.empty());
    CHECK(l.dynamic_shared_bytes == 16 * 16 * 4);  // IN_TILE * IN_TILE floats
    CHECK(data_launch(*find_exercise("heat2d"), 16, data_dims(heat, 33), error).dynamic_shared_bytes == 0);
    // the contract lets extern __shared__ through where the launch gives it, and only there
    CheckOptions o;
    o.exercise = dir;
    o.backend = "cpu";
    o.seed = 3;
    o.quick = true;
    o.large_case = false;
    const CheckResult good = check_submission(dir + "/solution.cu", o);
    CAPTURE(good.evidence.message);
    CHECK(good.verdict == Verdict::pass);
    o.exercise = "heat2d";
    const CheckResult refused = check_submission(dir + "/solution.cu", o);
    CHECK(refused.verdict == Verdict::compile_error);
    CHECK(refused.evidence.message.find("extern __shared__") != std::string::npos);
    // more than a block may have: one line naming the spec
    ScratchExercise s(with("tile = 16", "tile = 16\nshared = \"T * T * T * T\""));
    const Exercise big = read_exercise_folder(s.dir, "ex");
    data_launch(big, 16, data_dims(big, 33), error);
    CHECK(error.find("shared = \"T * T * T * T\" is 65536 values (262144 bytes)") != std::string::npos);
}
