// The check panel's default exercise (checker/exercise_guess.h): every exercise's own file is
// recognised from its folder, and again from its opening comment alone (copied elsewhere), and
// from a student's file name; a different choice is said.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "viewer/core/check_status.h"
#include "checker/exercise_guess.h"

using namespace stencil;
using namespace stencil::checker;
namespace fs = std::filesystem;

namespace {
// The exercises' names: the folders of exercises/ that hold a stencil.cu.
std::vector<std::string> exercise_folders() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(std::string(STENCIL_LAB_SOURCE_DIR) + "/exercises"))
        if (e.is_directory() && fs::exists(e.path() / "stencil.cu")) names.push_back(e.path().filename().string());
    return names;
}
}  // namespace

TEST_CASE("the exercise a file suggests: its folder, else its opening comment", "[viewer][exercise]") {
    const auto names = exercise_folders();
    REQUIRE(names.size() >= 8);
    for (const auto& n : names) {
        const std::string path = std::string(STENCIL_LAB_SOURCE_DIR) + "/exercises/" + n + "/stencil.cu";
        const std::string header = read_header(path);
        const auto by_folder = guess_exercise(path, header, names);
        const auto by_header = guess_exercise("/tmp/somewhere/stencil.cu", header, names);
        CAPTURE(n, by_header ? by_header->name : "none");
        REQUIRE((by_folder && by_folder->name == n && by_folder->reason == "its folder" && by_header &&
                 by_header->name == n && by_header->reason == "its opening comment"));
    }
}

TEST_CASE("the exercise a file suggests: its name; none; a mismatch said", "[viewer][exercise]") {
    const std::vector<std::string> names{"naive", "tiled", "tiled-r2", "register-tiled", "register-tiled-f64"};
    const auto a = guess_exercise("/home/alice/alice_register_tiled.cu", "__global__ void k() {}\n", names);
    const auto b = guess_exercise("/home/bob/mine.cu", "// my kernel\n", names);
    // Code below the opening comment names no exercise (IN_TILE_DIM is not "tiled").
    const auto c = guess_exercise("/x/k.cu", "// Exercise: naive stencil\n__shared__ float tile_tiled;\n", names);
    REQUIRE((a && a->name == "register-tiled" && a->reason == "its file name" && !b && c && c->name == "naive"));
    REQUIRE((exercise_mismatch(a, "register-tiled").empty() && exercise_mismatch(b, "naive").empty() &&
             exercise_mismatch(a, "naive").find("'register-tiled' exercise (its file name), but 'naive'") !=
                 std::string::npos));
}

TEST_CASE("the check panel's progress line: compiling, size k of n, cancelling", "[viewer][exercise]") {
    checker::CheckProgress p;
    const std::string before = check_status_text(p, false);
    p = {2, 4, 17, "case 1 N=17 run 0 in_order"};
    REQUIRE((before.find("compiling") != std::string::npos && check_fraction(checker::CheckProgress{}) == 0 &&
             check_status_text(p, false) == "size 2 of 4 (N = 17): case 1 N=17 run 0 in_order" &&
             check_fraction(p) == 0.25f && check_status_text(p, true).rfind("cancelling...", 0) == 0));
}
