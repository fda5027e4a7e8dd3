// The one table of kernel versions. CLI, tests, model, viewer and both backends read it; adding a
// version is one kernel file plus one row here (and one dispatch line per backend).
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/stencil_shape.h"

namespace stencil {

enum class KernelId { naive, tiled, coarsened, register_tiled };
enum class Precision { f32, f64 };

constexpr int bytes_of(Precision p) { return p == Precision::f32 ? 4 : 8; }
std::string_view to_string(Precision p);
std::optional<Precision> parse_precision(std::string_view s);  // "f32" | "f64"

struct Dim3 {
    int x = 1, y = 1, z = 1;
    long long count() const { return (long long)x * y * z; }
};

// Grid sizes in cells; x varies fastest in memory, then y, then z.
struct GridDims {
    int nx = 0, ny = 0, nz = 0;
    long long cells() const { return (long long)nx * ny * nz; }
    bool operator==(const GridDims&) const = default;
};

// How a version is launched for a given tile T and radius r.
struct LaunchGeometry {
    Dim3 grid;                 // blocks per axis
    Dim3 block;                // threads per block
    int out_tile = 0;          // OUT_TILE_DIM (output cells per block along x and y)
    int out_planes = 0;        // output planes per block along z
    long long smem_bytes = 0;  // static shared memory per block
};

// Hardware limits the tile checks use. Defaults are every CUDA GPU since Volta; a backend that
// knows its device fills in the device's own figures.
struct DeviceLimits {
    int max_threads_per_block = 1024;
    long long max_static_smem_per_block = 48 * 1024;  // static __shared__ arrays stop at 48 KiB
    int max_grid_yz = 65535;
};

struct KernelVersion {
    KernelId id;
    const char* name;         // CLI spelling: naive, tiled, coarsened, register-tiled
    const char* title;        // for people: "Shared-memory tiled"
    const char* idea;         // the idea in one line
    const char* source_file;  // path below the repository root, shown by the viewer
    int default_tile;         // the exercises' default T
    bool tile_is_template;    // T is a compile-time IN_TILE_DIM (else it is only the block edge)
};

std::span<const KernelVersion> kernel_versions();
const KernelVersion& version(KernelId id);
const KernelVersion* find_version(std::string_view name);
std::string version_names();  // "naive, tiled, coarsened, register-tiled"

// ---- tile rules: constexpr, so the backends instantiate exactly the valid (T, r, precision) ----

// The tile sizes the backends instantiate for the templated kernels. Every valid T from 3 to 10
// (all the tiled kernel can have), then a spread up to 32 for the z-marching kernels: compile time
// grows with every instantiation, on two backends.
inline constexpr int kBuiltTiles[] = {3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 20, 24, 28, 32};

constexpr long long smem_bytes(KernelId k, int T, int radius, int bytes) {
    switch (k) {
        case KernelId::naive: return 0;
        case KernelId::tiled: return (long long)T * T * T * bytes;
        case KernelId::coarsened: return (long long)(2 * radius + 1) * T * T * bytes;
        case KernelId::register_tiled: return (long long)T * T * bytes;
    }
    return 0;
}

constexpr long long threads_per_block(KernelId k, int T) {
    return (k == KernelId::naive || k == KernelId::tiled) ? (long long)T * T * T : (long long)T * T;
}

// True when (k, T, r, precision) obeys every hardware rule (with the default limits).
constexpr bool tile_fits(KernelId k, int T, int radius, int bytes, DeviceLimits lim = {}) {
    if (T < 1 || radius < 1 || radius > kMaxRadius) return false;
    if (k != KernelId::naive && T <= 2 * radius) return false;
    if (threads_per_block(k, T) > lim.max_threads_per_block) return false;
    return smem_bytes(k, T, radius, bytes) <= lim.max_static_smem_per_block;
}

constexpr bool tile_is_built(KernelId k, int T) {
    if (k == KernelId::naive) return true;
    for (int t : kBuiltTiles)
        if (t == T) return true;
    return false;
}

// Why (k, T, r, precision) cannot run, in one sentence; nullopt when it can.
std::optional<std::string> tile_error(KernelId k, int T, int radius, Precision p,
                                      DeviceLimits lim = {});
// The T that can run for (k, r, precision): valid and built.
std::vector<int> runnable_tiles(KernelId k, int radius, Precision p, DeviceLimits lim = {});

LaunchGeometry launch_geometry(KernelId k, int T, int radius, Precision p, GridDims g);

// Why a grid cannot be used with radius r (every side must be at least 2r + 1); nullopt if fine.
std::optional<std::string> grid_error(GridDims g, int radius);

}  // namespace stencil
