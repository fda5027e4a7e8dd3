// The lab's kernels as PTX: kernels/*.cuh compiled by NVRTC (nvrtc_ptx.h), for the PTX
// engine (engine.h).
//
// The kernel headers are embedded into the library at build time, so a binary never reads the
// source tree. One NVRTC program compiles a whole (kernel, precision) family, every built (T, r),
// on first use; the family is kept in memory for the process and in a disk cache for the next
// process (lab_ptx.cpp says why, with the measured times). Each instantiation's PTX is the
// family's module with the other entries left out.
#pragma once
#include <string>

#include "backends/cpu/ptx/nvrtc_ptx.h"
#include "kernels/versions.h"

namespace stencil {

struct LabPtx {
    std::string ptx;                  // the PTX text: this instantiation's entry (and the module's
                                      // declarations, .file table and .section .debug_str)
    std::string entry;                // lowered name of this instantiation's kernel
    std::string coefficients_symbol;  // lowered name of the precision's weights: c_coefficients_f32
                                      // or _f64, or the dense cube's c_dense_weights_f32 or _f64
                                      // (the row's WeightLayout)
    std::string source_file;          // the kernel's header as .file names it ("kernels/tiled.cuh")
    double compile_seconds = 0;       // NVRTC's time for the family this came from; 0 when it came
                                      // from a cache (the disk, or memory: the family was compiled)
};

// Thread-safe; compiled on first use and cached. Throws stencil::UserError (core/error.h) for
// a (kernel, tile, radius, precision) the version table refuses (tile_error with the default
// limits). The naive kernel has no T parameter: every valid tile gives the same instantiation.
// The reference stays valid for the life of the process. `fused`: the steps a launch of a version
// that fuses steps applies (temporal's K, fuse_error says which may run); 1 for the others.
const LabPtx& lab_ptx(KernelId k, int tile, int radius, Precision p, int fused = 1);

// ---- the pieces, for tests --------------------------------------------------------------------
namespace lab_ptx_detail {

// kernels/*.cuh and the headers they include, as the build read them (generated .cpp).
struct EmbeddedHeader {
    const char* name;  // "kernels/tiled.cuh"
    const char* text;
};
extern const EmbeddedHeader kEmbeddedHeaders[];
extern const int kEmbeddedHeaderCount;

// The NVRTC program of one (kernel, precision) family.
ptx::CompileRequest family_request(KernelId k, Precision p);

// compile_to_ptx through the disk cache in `dir` (core/disk_cache.h; "": no cache). An entry is
// used only when the full key it stores (NVRTC version, the libnvrtc and libnvrtc-builtins files,
// options, source, headers, name expressions) equals this request's byte for byte and its payload
// is intact; anything else is a miss, compiled again and rewritten. Only successful compiles are
// stored. *from_cache: whether it came from the disk (seconds = 0).
ptx::CompileResult cached_compile(const ptx::CompileRequest& req, const std::string& dir,
                                  bool* from_cache = nullptr);
// The file cached_compile uses for `req` in `dir`.
std::string cache_entry_path(const ptx::CompileRequest& req, const std::string& dir);
// The "ptx" folder of the cache root (DiskCache::for_kind: $STENCIL_LAB_CACHE_DIR, else
// $XDG_CACHE_HOME/stencil-lab, else ~/.cache/stencil-lab), created if needed; "" when it cannot be
// written (lab_ptx then works without a disk cache, after one note on stderr).
std::string default_cache_dir();

// `ptx` with every `.entry` definition other than `entry` left out (declarations, .file table and
// debug sections stay); `ptx` itself when it has no such entry.
std::string only_entry(const std::string& ptx, const std::string& entry);

}  // namespace lab_ptx_detail

}  // namespace stencil
