// The problems table (kernels/problems.h): a row per problem in kProblems order, every part it
// names present in the tree (a file, and where it names a function, the function in that file),
// and every version of a problem (kernels/catalog.h) lying in its row's kernels.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "kernels/catalog.h"
#include "kernels/problems.h"

using namespace stencil;

namespace {

namespace fs = std::filesystem;

std::string text_of(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// "path" or "path: function": the path exists below the root, and the function is named in it.
void require_part(const char* part) {
    CAPTURE(part);
    const std::string text = part;
    const auto colon = text.find(": ");
    const fs::path path = fs::path(STENCIL_LAB_SOURCE_DIR) / text.substr(0, colon);
    REQUIRE(fs::exists(path));
    if (colon != std::string::npos) CHECK(text_of(path).find(text.substr(colon + 2) + "(") != std::string::npos);
}

}  // namespace

TEST_CASE("problems table: a row per problem, every part it names in the tree", "[kernels]") {
    REQUIRE(problem_rows().size() == std::size(kProblems));
    for (std::size_t i = 0; i < std::size(kProblems); ++i) {
        const ProblemRow& row = problem_rows()[i];
        CAPTURE(to_string(row.id));
        REQUIRE(row.id == kProblems[i]);
        REQUIRE(&problem_row(row.id) == &row);
        for (const char* part : {row.kernels, row.versions, row.reference, row.model, row.contract}) require_part(part);
        if (row.decomposed) require_part(row.decomposed);
        for (const CatalogEntry& e : catalog(row.id, 1, Precision::f32)) {
            CAPTURE(e.kernel, e.source_file);
            CHECK(e.source_file.rfind(row.kernels, 0) == 0);
        }
    }
    CHECK(decomposed_problem_names() == "star3d and cardiac2d");
}
