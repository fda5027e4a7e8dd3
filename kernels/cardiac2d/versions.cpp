#include "kernels/cardiac2d/versions.h"

#include <fmt/format.h>

#include <algorithm>

namespace stencil::cardiac2d {

namespace {
int ceil_div(int a, int b) { return (a + b - 1) / b; }
}  // namespace

// shuffle.cuh takes a warp's row as its block's x extent (lane = threadIdx.x, 32 lanes).
static_assert(version(KernelId::shuffle).tile_x == 32, "the shuffle kernel's block is one warp wide");

std::span<const Version> versions() { return kVersions; }

const Version* find_version(std::string_view name) {
    for (const Version& v : kVersions)
        if (name == v.name) return &v;
    return nullptr;
}

std::string version_names() {
    std::string s;
    for (const Version& v : kVersions) s += (s.empty() ? "" : ", ") + std::string(v.name);
    return s;
}

std::vector<CatalogEntry> catalog_entries(Precision) {
    std::vector<CatalogEntry> out;
    for (const Version& v : kVersions) {
        const Dim3 b = block_threads(v.id);
        out.push_back({Problem::cardiac2d, v.name, v.title, v.idea, v.source_file, fmt::format("{}x{}", b.x, b.y),
                       {fmt::format("{}x{}", v.tile_x, v.tile_y)}});
    }
    return out;
}

Launch launch_geometry(KernelId k, int nx, int ny, Precision p) {
    const Version& v = version(k);
    Launch l;
    l.block = block_threads(k);
    l.grid = {ceil_div(nx, v.tile_x), ceil_div(ny, v.tile_y), 1};
    l.smem_bytes = smem_bytes(k, p);
    return l;
}

Launch ghost_launch(int nx, int ny) {
    return {{ceil_div(std::max(nx, ny), kGhostBlock), 1, 1}, {kGhostBlock, 1, 1}, 0};
}

std::string instantiation(KernelId k, Precision p, bool ode) {
    const Version& v = version(k);
    const std::string real = p == Precision::f32 ? "float" : "double";
    std::string args = real;
    if (!ode) {
        if (v.neighbours == Neighbours::edge_threads || v.neighbours == Neighbours::thread_per_cell)
            args += fmt::format(", {}, {}", v.tile_x, v.tile_y);
        else if (v.neighbours == Neighbours::row_registers)
            args += fmt::format(", {}", v.tile_x);
    }
    return fmt::format("stencil::cardiac2d::{}<{}>", ode ? v.ode_kernel : v.kernel, args);
}

std::string ghost_instantiation(Precision p) {
    return fmt::format("stencil::cardiac2d::cardiac_fill_ghosts_kernel<{}>", p == Precision::f32 ? "float" : "double");
}

std::optional<std::string> size_error(int n) {
    if (n < kMinSide || n > kMaxSide)
        return fmt::format("--size must be between {} and {} for cardiac2d (got {}): the mesh is n x n interior "
                           "cells plus a ghost ring",
                           kMinSide, kMaxSide, n);
    return std::nullopt;
}

}  // namespace stencil::cardiac2d
