#include "kernels/catalog.h"
#include "kernels/cardiac2d/versions.h"
#include "kernels/derivative/versions.h"

namespace stencil {

namespace {

std::vector<CatalogEntry> star3d_catalog(int radius, Precision p) {
    std::vector<CatalogEntry> out;
    for (const KernelVersion& v : kernel_versions()) {
        CatalogEntry e{Problem::star3d, v.name, v.title, v.idea, v.source_file, threads_formula(v.id), {}};
        for (int t : runnable_tiles(v.id, radius, p)) e.tiles.push_back(std::to_string(t));
        out.push_back(std::move(e));
    }
    return out;
}

// Each problem's own table, listed. (A problem whose table does not exist yet lists nothing.)
std::vector<CatalogEntry> problem_catalog(Problem problem, int radius, Precision p) {
    switch (problem) {
        case Problem::star3d: return star3d_catalog(radius, p);
        case Problem::cardiac2d: return cardiac2d::catalog_entries(p);
        case Problem::derivative: return derivative_catalog(p);
    }
    return {};
}

}  // namespace

std::vector<CatalogEntry> catalog(std::optional<Problem> only, int radius, Precision p) {
    std::vector<CatalogEntry> out;
    for (Problem problem : kProblems) {
        if (only && problem != *only) continue;
        for (CatalogEntry& e : problem_catalog(problem, radius, p)) out.push_back(std::move(e));
    }
    return out;
}

std::string kernel_names(Problem p) {
    std::string s;
    for (const CatalogEntry& e : catalog(p, 1, Precision::f32)) s += (s.empty() ? "" : ", ") + e.kernel;
    return s;
}

bool has_kernel(Problem p, std::string_view kernel) {
    for (const CatalogEntry& e : catalog(p, 1, Precision::f32))
        if (e.kernel == kernel) return true;
    return false;
}

}  // namespace stencil
