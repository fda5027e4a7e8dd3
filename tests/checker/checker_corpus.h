// The corpus of submissions (tests/checker/submissions) and the verdict each must get: on the
// CPU backend here (CI), and on the GPU (tests/gpu/test_checker_gpu.cpp, on the device machine).
// nullptr: not run on that backend. Where the two differ, the comment says why. A GPU verdict
// may list alternatives ("race|wrong_result"): without compute-sanitizer a GPU shows a race only
// through its effects, which depend on warp timing; such entries also run with --sanitize
// (gpu_sanitize), so a lucky pass still ends in `race`.
#pragma once
#include <vector>

struct CorpusEntry {
    const char* file;
    const char* exercise;
    int tile;                 // 0: the exercise's default
    const char* cpu_verdict;
    const char* gpu_verdict = nullptr;
    double time_limit = 120;  // the child's limit; short for the endless loop
    bool gpu_sanitize = false;
};

inline const std::vector<CorpusEntry>& corpus_entries() {
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
        // loads only the inner one-cell ring of the two-cell halo: the +-2 terms at tile edges read
        // shared cells nobody stored (NaN-poisoned on the CPU; on the GPU whatever is left there,
        // which can differ between runs, as with tiled_no_halo.cu). Grids within one tile pass.
        {"tiled_r2_halo_one.cu", "tiled-r2", 0, "wrong_result", "wrong_result|race"},
        {"tiled_r2_as_r1.cu", "tiled-r2", 0, "wrong_result", "wrong_result"},     // c7..c12 missing
        {"register_tiled_f64_ok.cu", "register-tiled-f64", 0, "pass", "pass"},
        {"register_tiled_f64_ok.cu", "register-tiled-f64", 9, "pass", "pass"},
        // a float accumulator: every value a few float ulps off, far outside the fp64 bound
        {"register_tiled_f64_float_sum.cu", "register-tiled-f64", 0, "wrong_result", "wrong_result"},
        // the fp32 solution submitted to the fp64 exercise: refused, naming the precision
        {"register_tiled_ok.cu", "register-tiled-f64", 0, "compile_error", "compile_error"},
        // ---- valid CUDA constructs the CPU backend must compile (audit 6) ----
        {"naive_valid_ldg_const.cu", "naive", 0, "pass", "pass"},     // __ldg(&in[c]), const in
        {"naive_valid_fmaf_rn.cu", "naive", 0, "pass", "pass"},       // __fmaf_rn
        {"naive_valid_min_mixed.cu", "naive", 0, "pass", "pass"},     // min(int, unsigned)
        {"naive_valid_ptr_offset.cu", "naive", 0, "pass", "pass"},    // const float* p = in + off
        {"naive_valid_ptr_out.cu", "naive", 0, "pass", "pass"},       // float* o = &out[c]
        // ---- one per verdict ----
        {"naive_syntax_error.cu", "naive", 0, "compile_error", "compile_error"},
        {"register_tiled_textbook_verbatim.cu", "register-tiled", 0, "compile_error", "compile_error"},
        {"naive_swapped_coefficients.cu", "naive", 0, "wrong_result", "wrong_result"},
        {"naive_off_by_one.cu", "naive", 0, "wrong_result", "wrong_result"},
        {"naive_slightly_off.cu", "naive", 0, "wrong_result", "wrong_result"},
        {"naive_zeros.cu", "naive", 0, "wrong_result", "wrong_result"},
        // On the GPU the never-loaded halo holds whatever the last block left in shared memory, so
        // the runs differ: the GPU's evidence looks like a race (seen on an H100, 2026-11-22).
        {"tiled_no_halo.cu", "tiled", 0, "wrong_result", "wrong_result|race"},
        {"naive_skips_cell.cu", "naive", 0, "unwritten", "unwritten"},
        {"naive_writes_boundary.cu", "naive", 0, "boundary_modified", "boundary_modified"},
        {"naive_writes_input.cu", "naive", 0, "input_modified", "input_modified"},
        {"naive_pads_past_end.cu", "naive", 0, "out_of_bounds_write", "out_of_bounds_write"},
        {"tiled_no_sync.cu", "tiled", 0, "race", "race|wrong_result", 120, true},
        {"coarsened_no_second_sync.cu", "coarsened", 0, "race", "race|wrong_result", 120, true},
        // The exercise's own buggy kernel (exercises/find-the-race/stencil.cu).
        {"../../../exercises/find-the-race/stencil.cu", "find-the-race", 0, "race", "race|wrong_result", 120, true},
        // CUDA leaves an early return before __syncthreads() undefined; the CPU backend reports
        // it as a barrier error (verdict race). On an H100 it happened to run correctly
        // (2026-11-22): the GPU path cannot see this, so either verdict is accepted there (the
        // README's known holes say so); the CPU verdict is the one that holds.
        {"tiled_early_return.cu", "tiled", 0, "race", "race|pass"},
        {"naive_endless_loop.cu", "naive", 0, "timeout", "timeout", 6},
        {"naive_null_deref.cu", "naive", 0, "crash", "crash"},
        // abort() exists on the host, not in NVRTC's device code.
        {"naive_abort.cu", "naive", 0, "crash", "compile_error"},
        // The CPU backend bounds-checks loads (in[-1] is a crash there); on an H100 the read before
        // the allocation faulted too (cudaErrorIllegalAddress at N=3, 2026-11-22).
        {"tiled_unguarded_load.cu", "tiled", 0, "crash", "crash"},
        // Reads past the allocation, value discarded: bounds-checked on the CPU; silent on the GPU
        // without --sanitize (tests/gpu: with it, memcheck makes it a crash).
        {"naive_reads_past_alloc.cu", "naive", 0, "crash", "pass"},
        // ---- sizes drawn from the seed (2-3 per check, besides the fixed ones) ----
        {"naive_big_n_wrong.cu", "naive", 0, "wrong_result", "wrong_result"},   // zeros when N > 64
        {"naive_even_n_wrong.cu", "naive", 0, "wrong_result", "wrong_result"},  // zeros for even N
        // ---- vetting: hidden names and backend detection ----
        {"vet_splice_system.cu", "naive", 0, "compile_error", "compile_error"},
        {"vet_digitsep_system.cu", "naive", 0, "compile_error", "compile_error"},
        {"vet_rawstring_system.cu", "naive", 0, "compile_error", "compile_error"},
        {"naive_detects_cpu.cu", "naive", 0, "compile_error", "compile_error"},
        // 256 KiB of static __shared__: ptxas refuses it on the GPU (not run there: where the
        // GPU path reports it, NVRTC or the library load, is not established yet).
        {"tiled_too_much_shared.cu", "tiled", 0, "compile_error"},
        // ---- host code on the CPU path: the runner's seccomp filter traps it (crash); NVRTC
        // has none of these host functions (compile_error) ----
        {"escape_exec.cu", "naive", 0, "crash", "compile_error"},
        {"escape_fork.cu", "naive", 0, "crash", "compile_error"},
        {"escape_write.cu", "naive", 0, "crash", "compile_error"},
        {"escape_setsid_exec.cu", "naive", 0, "crash", "compile_error"},
        {"escape_kill_parent.cu", "naive", 0, "crash", "compile_error"},
        {"escape_forge_gradescope.cu", "naive", 0, "crash", "compile_error"},
        {"forge_result.cu", "naive", 0, "crash", "compile_error"},
        // ---- the CPU backend's read-only input and block orders catch these ----
        // writes 1e30 into in[c] and restores it: the final in[] is intact, the store is not
        {"naive_input_transient.cu", "naive", 0, "input_modified", "pass|input_modified"},
        // block 0 writes zeros into the last block's cells: wrong only when that block runs first
        {"naive_interblock_race.cu", "naive", 0, "race", "race|pass|wrong_result", 120, true},
    };
    return v;
}
