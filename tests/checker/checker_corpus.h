// The corpus of submissions (tests/checker/submissions) and the verdict each must get: on the
// CPU backend here (CI), and on the GPU (tests/gpu/test_checker_gpu.cpp, on the device machine,
// which also runs the CPU check of each entry there and compares the two).
//
// Both backends run the same PTX (NVRTC, compute_90), so their verdicts agree, except where the
// CPU backend is stricter: it sees what a GPU only shows by luck. `cpu_stricter` says why for
// each such entry, and the GPU verdict then lists what a GPU may show instead ("race|pass"):
//   race             a race or a barrier misuse: a GPU shows it only through its effects, which
//                    depend on warp timing (such entries also run with --sanitize: gpu_sanitize)
//   oob_read         a read out of bounds that a GPU tolerates (the value lands in a guard zone
//                    or is discarded); the CPU bounds-checks every load
//   transient_input  a store to in[] undone later: a GPU's in[] ends intact, but threads of
//                    other blocks may read the temporary value (outputs differ between runs:
//                    a race there; seen on the H100, 2026-11-23)
//   unwritten_shared a read of shared memory no thread wrote: NaN-poisoned on the CPU (a wrong
//                    result), whatever a previous block left on a GPU (which can differ between
//                    runs: a race there)
// Every other entry must get the same verdict on both backends.
#pragma once
#include <vector>

enum class Stricter { no, race, oob_read, transient_input, unwritten_shared };

struct CorpusEntry {
    const char* file;
    const char* exercise;
    int tile;                 // 0: the exercise's default
    const char* cpu_verdict;
    const char* gpu_verdict = nullptr;  // what the GPU may show; nullptr: not run there
    double time_limit = 120;  // the kernel's runs (the endless loop has a short one)
    bool gpu_sanitize = false;
    Stricter cpu_stricter = Stricter::no;
};

inline const std::vector<CorpusEntry>& corpus_entries() {
    using S = Stricter;
    static const std::vector<CorpusEntry> v = {
        // ---- correct, written like the textbook ----
        {"naive_ok.cu", "naive", 0, "pass", "pass"},
        {"naive_ok.cu", "naive", 5, "pass", "pass"},
        {"naive_const_fma_ok.cu", "naive", 0, "pass", "pass"},
        {"tiled_ok.cu", "tiled", 0, "pass", "pass"},
        {"tiled_ok.cu", "tiled", 5, "pass", "pass"},
        {"coarsened_ok.cu", "coarsened", 0, "pass", "pass"},
        {"coarsened_ok.cu", "coarsened", 12, "pass", "pass"},
        {"register_tiled_ok.cu", "register-tiled", 0, "pass", "pass"},
        {"register_tiled_ok.cu", "register-tiled", 9, "pass", "pass"},
        // ---- radius 2 (13 weights, OUT_TILE_DIM = T - 4) and double precision ----
        {"tiled_r2_ok.cu", "tiled-r2", 0, "pass", "pass"},
        {"tiled_r2_ok.cu", "tiled-r2", 7, "pass", "pass"},
        // loads only the inner one-cell ring of the two-cell halo: the +-2 terms at tile edges
        // read shared cells nobody stored. Grids within one tile pass.
        {"tiled_r2_halo_one.cu", "tiled-r2", 0, "wrong_result", "wrong_result|race", 120, false, S::unwritten_shared},
        {"tiled_r2_as_r1.cu", "tiled-r2", 0, "wrong_result", "wrong_result"},     // c7..c12 missing
        {"register_tiled_f64_ok.cu", "register-tiled-f64", 0, "pass", "pass"},
        {"register_tiled_f64_ok.cu", "register-tiled-f64", 9, "pass", "pass"},
        // a float accumulator: every value a few float ulps off, far outside the fp64 bound
        {"register_tiled_f64_float_sum.cu", "register-tiled-f64", 0, "wrong_result", "wrong_result"},
        // the fp32 solution submitted to the fp64 exercise: refused, naming the precision
        {"register_tiled_ok.cu", "register-tiled-f64", 0, "compile_error", "compile_error"},
        // ---- the other problems: text 002's cardiac step, text 004's x-derivative ----
        {"cardiac_shared_ok.cu", "cardiac-shared", 0, "pass", "pass"},
        // the last partial tile's bottom/right ghost edges never loaded: NaN-poisoned shared
        // cells on the CPU, whatever a previous block left on a GPU
        {"cardiac_shared_full_tiles_only.cu", "cardiac-shared", 0, "wrong_result", "wrong_result|race", 120, false, S::unwritten_shared},
        {"cardiac_shared_no_sync.cu", "cardiac-shared", 0, "race", "race|wrong_result", 120, true, S::race},
        {"cardiac_writes_ghosts.cu", "cardiac-shared", 0, "boundary_modified", "boundary_modified"},
        {"cardiac_fused_global.cu", "cardiac-shared", 0, "pass", "pass"},  // over budget: a warning
        {"derivative_x_ok.cu", "x-derivative", 0, "pass", "pass"},
        {"derivative_x_not_periodic.cu", "x-derivative", 0, "wrong_result", "wrong_result"},
        {"derivative_x_global.cu", "x-derivative", 0, "pass", "pass"},    // over budget: a warning
        // another exercise's kernel: refused by its signature
        {"naive_ok.cu", "x-derivative", 0, "compile_error", "compile_error"},
        // ---- valid CUDA: every construct passes on both backends ----
        {"naive_valid_ldg_const.cu", "naive", 0, "pass", "pass"},     // __ldg(&in[c]), const in
        {"naive_valid_fmaf_rn.cu", "naive", 0, "pass", "pass"},       // __fmaf_rn
        {"naive_valid_min_mixed.cu", "naive", 0, "pass", "pass"},     // min(int, unsigned)
        {"naive_valid_ptr_offset.cu", "naive", 0, "pass", "pass"},    // const float* p = in + off
        {"naive_valid_ptr_out.cu", "naive", 0, "pass", "pass"},       // float* o = &out[c]
        {"naive_valid_device_helper.cu", "naive", 0, "pass", "pass"}, // helpers taking const float*
        {"naive_valid_derived_ptrs.cu", "naive", 0, "pass", "pass"},  // pointers from local pointers
        {"naive_valid_clock64.cu", "naive", 0, "pass", "pass"},       // clock64()
        {"naive_valid_warp_shuffle.cu", "naive", 0, "pass", "pass"},  // __shfl_*_sync, votes
        {"tiled_valid_syncthreads_count.cu", "tiled", 0, "pass", "pass"},  // __syncthreads_count/and/or
        {"tiled_valid_template_tile.cu", "tiled", 0, "pass", "pass"},  // float (&)[T][T][T]
        {"hole_backend_names.cu", "tiled", 0, "pass", "pass"},  // simt, GlobalPtr, Shared, tls as names
        // ---- one per verdict ----
        {"naive_syntax_error.cu", "naive", 0, "compile_error", "compile_error"},
        {"register_tiled_textbook_verbatim.cu", "register-tiled", 0, "compile_error", "compile_error"},
        {"naive_swapped_coefficients.cu", "naive", 0, "wrong_result", "wrong_result"},
        {"naive_off_by_one.cu", "naive", 0, "wrong_result", "wrong_result"},
        {"naive_slightly_off.cu", "naive", 0, "wrong_result", "wrong_result"},
        {"naive_zeros.cu", "naive", 0, "wrong_result", "wrong_result"},
        // On the GPU the never-loaded halo holds whatever the last block left in shared memory, so
        // the runs differ: the GPU's evidence looks like a race (seen on an H100, 2026-11-22).
        {"tiled_no_halo.cu", "tiled", 0, "wrong_result", "wrong_result|race", 120, false, S::unwritten_shared},
        {"naive_skips_cell.cu", "naive", 0, "unwritten", "unwritten"},
        {"naive_writes_boundary.cu", "naive", 0, "boundary_modified", "boundary_modified"},
        {"naive_writes_input.cu", "naive", 0, "input_modified", "input_modified"},
        {"naive_pads_past_end.cu", "naive", 0, "out_of_bounds_write", "out_of_bounds_write"},
        {"tiled_no_sync.cu", "tiled", 0, "race", "race|wrong_result", 120, true, S::race},
        {"coarsened_no_second_sync.cu", "coarsened", 0, "race", "race|wrong_result", 120, true, S::race},
        // The exercise's own buggy kernel (exercises/find-the-race/stencil.cu).
        {"../../../exercises/find-the-race/stencil.cu", "find-the-race", 0, "race", "race|wrong_result", 120, true, S::race},
        // CUDA leaves an early return before __syncthreads() undefined; the CPU backend reports
        // it as a barrier error (verdict race). On an H100 it happened to run correctly
        // (2026-11-22).
        {"tiled_early_return.cu", "tiled", 0, "race", "race|pass", 120, false, S::race},
        // The CPU's instruction budget ends it at once; on the GPU the runner's clock at 6 s.
        {"naive_endless_loop.cu", "naive", 0, "timeout", "timeout", 6},
        {"naive_null_deref.cu", "naive", 0, "crash", "crash"},
        // abort() is a host function: NVRTC does not know it (both backends compile with it).
        {"naive_abort.cu", "naive", 0, "compile_error", "compile_error"},
        // in[-1] and past the end: bounds-checked on the CPU; on an H100 the read before the
        // allocation faulted too (cudaErrorIllegalAddress at N=3, 2026-11-22).
        {"tiled_unguarded_load.cu", "tiled", 0, "crash", "crash|pass", 120, false, S::oob_read},
        // Reads past the allocation, value discarded: silent on the GPU without --sanitize
        // (tests/gpu: with it, memcheck makes it a crash).
        {"naive_reads_past_alloc.cu", "naive", 0, "crash", "pass", 120, false, S::oob_read},
        // ---- sizes drawn from the seed (2-3 per check, besides the fixed ones) ----
        {"naive_big_n_wrong.cu", "naive", 0, "wrong_result", "wrong_result"},   // zeros when N > 64
        {"naive_even_n_wrong.cu", "naive", 0, "wrong_result", "wrong_result"},  // zeros for even N
        // ---- the contract (vetting, the same on both backends) ----
        {"vet_splice_system.cu", "naive", 0, "compile_error", "compile_error"},   // NVRTC: no system()
        {"vet_digitsep_system.cu", "naive", 0, "compile_error", "compile_error"},
        {"vet_rawstring_system.cu", "naive", 0, "compile_error", "compile_error"},
        // Tests __CUDACC__ and writes zeros under it: both backends compile with NVRTC, so the
        // kernel cannot tell them apart and is wrong on both.
        {"naive_detects_cpu.cu", "naive", 0, "wrong_result", "wrong_result"},
        // 256 KiB of static __shared__ that the kernel uses: the CPU engine refuses it as ptxas
        // does on the GPU (the driver's JIT): more than 48 KiB.
        {"tiled_too_much_shared.cu", "tiled", 0, "compile_error", "compile_error"},
        // ---- host code: NVRTC compiles device code only; none of these compiles, nothing runs ----
        {"escape_exec.cu", "naive", 0, "compile_error", "compile_error"},
        {"escape_fork.cu", "naive", 0, "compile_error", "compile_error"},
        {"escape_write.cu", "naive", 0, "compile_error", "compile_error"},
        {"escape_setsid_exec.cu", "naive", 0, "compile_error", "compile_error"},
        {"escape_kill_parent.cu", "naive", 0, "compile_error", "compile_error"},
        {"escape_forge_gradescope.cu", "naive", 0, "compile_error", "compile_error"},
        {"forge_result.cu", "naive", 0, "compile_error", "compile_error"},
        {"hole_host_static_ctor.cu", "naive", 0, "compile_error", "compile_error"},
        {"hole_extern_device_call.cu", "naive", 0, "compile_error", "compile_error"},
        // ---- encodings: a UTF-8 byte-order mark is dropped, UTF-8 comments are fine; other
        //      encodings are a compile_error naming the first bad line (checker/text_encoding.h) ----
        {"encoding_utf8_bom.cu", "naive", 0, "pass", "pass"},
        {"encoding_utf8_comment.cu", "naive", 0, "pass", "pass"},
        {"encoding_utf16.cu", "naive", 0, "compile_error", "compile_error"},
        {"encoding_utf32.cu", "naive", 0, "compile_error", "compile_error"},
        {"encoding_nul.cu", "naive", 0, "compile_error", "compile_error"},
        {"encoding_latin1.cu", "naive", 0, "compile_error", "compile_error"},
        // ---- run-away output and compiles: capped and bounded on both backends ----
        // device printf in a loop in every thread: the cap (CPU) and the small FIFO (GPU) keep it
        // prompt; a warning says the output was cut
        {"naive_printf_flood.cu", "naive", 0, "pass", "pass"},
        // (bomb_macro.cu and bomb_template.cu, NVRTC bombs, have tests of their own with shorter
        // compile bounds: tests/checker/test_robustness.cpp, tests/gpu/test_checker_gpu.cpp)
        // ---- the old CPU path's holes: each gets its strict verdict now ----
        {"hole_host_device_split.cu", "naive", 0, "wrong_result", "wrong_result"},  // device path zeros
        {"hole_typedef_tile_race.cu", "tiled", 0, "race", "race|wrong_result", 120, true, S::race},
        {"hole_backend_names_race.cu", "tiled", 0, "race", "race|wrong_result", 120, true, S::race},
        {"hole_cast_alias_input.cu", "naive", 0, "input_modified", "input_modified"},
        {"hole_cast_alias_writes_before.cu", "naive", 0, "out_of_bounds_write", "out_of_bounds_write"},
        {"hole_cast_alias_reads_past.cu", "naive", 0, "crash", "pass", 120, false, S::oob_read},
        // ---- the CPU backend's read-only input and block orders catch these ----
        // writes 1e30 into in[c] and restores it: the final in[] is intact, the store is not
        {"naive_input_transient.cu", "naive", 0, "input_modified", "pass|input_modified|race", 120, false, S::transient_input},
        // block 0 writes zeros into the last block's cells: wrong only when that block runs first
        {"naive_interblock_race.cu", "naive", 0, "race", "race|pass|wrong_result", 120, true, S::race},
    };
    return v;
}

// The verdicts a GPU may show for an entry whose CPU verdict is stricter for `why`.
inline const char* gpu_may_show(Stricter why) {
    switch (why) {
        case Stricter::race: return "race|pass|wrong_result|unwritten";
        case Stricter::oob_read: return "crash|pass";
        case Stricter::transient_input: return "input_modified|pass|race";
        case Stricter::unwritten_shared: return "wrong_result|race";
        case Stricter::no: break;
    }
    return "";
}
