// The problems table's rows (kernels/problems.h).
#include "kernels/problems.h"

#include <array>
#include <string_view>
#include <vector>

namespace stencil {

namespace {

constexpr std::array kRows = {
    ProblemRow{Problem::star3d, "3D star stencils of radius r", "the stencil chapter (PMPP), texts 000, 001, 003",
               "kernels/", "kernels/version_rows.cpp", "core/reference.h: reference_stencil",
               "analysis/model.h", "checker/contract.cpp: star3d_contract", "distributed/star3d_problem.h"},
    ProblemRow{Problem::cardiac2d, "the Aliev-Panfilov cardiac mesh (2D, 5-point)", "text 002",
               "kernels/cardiac2d/", "kernels/cardiac2d/versions.cpp", "core/cardiac2d.h: reference_step",
               "analysis/cardiac2d_model.h", "checker/contract.cpp: cardiac_contract",
               "distributed/cardiac2d_problem.h"},
    ProblemRow{Problem::derivative, "the 8th-order first derivative on a periodic 3D grid", "text 004",
               "kernels/derivative/", "kernels/derivative/versions.cpp", "core/derivative.h: derivative_reference",
               "analysis/derivative_tiles.h", "checker/contract.cpp: derivative_contract", nullptr},
};
static_assert(kRows.size() == std::size(kProblems), "a row for every problem");

}  // namespace

std::span<const ProblemRow> problem_rows() { return kRows; }

const ProblemRow& problem_row(Problem p) {
    for (const ProblemRow& row : kRows)
        if (row.id == p) return row;
    return kRows.front();  // unreachable: the static_assert and the test hold a row per problem
}

std::string decomposed_problem_names() {
    std::vector<std::string_view> names;
    for (const ProblemRow& row : kRows)
        if (row.decomposed) names.push_back(to_string(row.id));
    std::string words;
    for (std::size_t i = 0; i < names.size(); ++i)
        words += std::string(i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + std::string(names[i]);
    return words;
}

}  // namespace stencil
