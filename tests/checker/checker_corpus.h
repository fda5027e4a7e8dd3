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
//   unwritten_shared a read of shared memory no thread wrote: the CPU explores its first bytes
//                    (0xFF, NaN, in one run; random in others) and, the engine having counted the
//                    reads and found no race, gives wrong_result with cause unstored_read (issue
//                    44: no two accesses conflict); a GPU leaves whatever a previous block left (a
//                    wrong result, or runs that differ, which it cannot tell from a race: race)
//   unspecified      an output that depends on what a GPU leaves unspecified (clocks, the order of
//                    atomics, an approximate result within its bound): the CPU's runs explore it
//                    and differ (a race), a GPU shows one of the values (wrong, or by luck right)
// Every other entry must get the same verdict on both backends.
//
// Issue 26's entries (the table's second part) say what the GPU does where the CPU engine
// of their day did not: its limits, its state kept between launches, its larger grids, what it
// leaves unspecified, its memory model, valid CUDA the engine refused. Each says
//   awaits     what the CPU engine needs to give the expected CPU verdict (kEngineHas below
//              lists what it has; until then the CPU tests leave the entry out, with a warning);
//   gpu        `predicted` where its GPU verdict is reasoned, not yet measured on a GPU (the GPU
//              test holds it to the prediction: a miss there is the table to fix); every entry
//              is measured now (docs/results/h100-corpus-issue26.md), a new one starts predicted;
//   gpu_timed  checked on the GPU with the timed case too (N = 256), where its bug shows.
#pragma once
#include <string>
#include <vector>

// A submission of the corpus: tests/checker/submissions/<file>.
inline std::string corpus(const std::string& file) {
    return std::string(STENCIL_LAB_SOURCE_DIR) + "/tests/checker/submissions/" + file;
}

enum class Stricter { no, race, oob_read, transient_input, unwritten_shared, unspecified };

// What the CPU engine needs for an entry's CPU verdict (issue 26's classes).
enum class Awaits {
    nothing,
    gpu_limits,        // registers x threads, .maxntid, the per-thread stack: a launch a GPU refuses
    persistent_state,  // __device__ variables kept from one launch of the module to the next
    large_sizes,       // grids past 72 a side (past 129 for naive_size_grid_limit_128.cu)
    exploration,       // unwritten shared memory, atomics' order, clocks, approximate instructions
    memory_model,      // fences, atomics, volatile, __syncwarp(mask); reads against in[]'s true bounds
    valid_cuda,        // device malloc/free, indirect calls, isspacep, address initialisers, printf `*`
};
// What the CPU engine has (each class added as it landed).
inline constexpr Awaits kEngineHas[] = {Awaits::nothing,     Awaits::gpu_limits,   Awaits::persistent_state,
                                        Awaits::large_sizes, Awaits::exploration,  Awaits::memory_model,
                                        Awaits::valid_cuda};
inline bool engine_has(Awaits a) {
    for (Awaits h : kEngineHas)
        if (h == a) return true;
    return false;
}

enum class Gpu { measured, predicted };

struct CorpusEntry {
    const char* file;
    const char* exercise;
    int tile;                 // 0: the exercise's default
    const char* cpu_verdict;
    const char* gpu_verdict = nullptr;  // what the GPU may show; nullptr: not run there
    double time_limit = 120;  // the kernel's runs (the endless loop has a short one)
    bool gpu_sanitize = false;
    Stricter cpu_stricter = Stricter::no;
    Awaits awaits = Awaits::nothing;
    Gpu gpu = Gpu::measured;
    bool gpu_timed = false;
};

// The table in two parts, each checked by a test of its own (a test's time stays under ctest's
// limit): the entries before issue 26, and issue 26's.
enum class CorpusPart { before_issue26, issue26, issue44 };

// Long because it is the corpus's table: one row per case.
inline const std::vector<CorpusEntry>& corpus_entries(CorpusPart part) {
    using S = Stricter;
    static const std::vector<CorpusEntry> before = {
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
        {"cardiac_shared_wrong_ghost.cu", "cardiac-shared", 0, "wrong_result", "wrong_result"},
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
        {"naive_wrong_above_20.cu", "naive", 0, "wrong_result", "wrong_result"},  // the report's smallest counterexample
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
    using A = Awaits;
    [[maybe_unused]] constexpr Gpu P = Gpu::predicted;  // a new entry's mark until a GPU measures it
    static const std::vector<CorpusEntry> issue26 = {
        // ==== issue 26: what a GPU does that the CPU engine of its day did not ====
        // ---- 1. GPU limits: a launch the GPU cannot make is a crash (registers from ptxas for
        //      sm_90; the SM has 64 Ki registers, .maxntid, a 1 KiB stack the driver grows only
        //      for frames it can size) ----
        // a 3x7x7 register window: 168 registers x 512 threads > 64 Ki
        {"tiled_limit_registers.cu", "tiled", 0, "crash", "crash", 120, false, S::no, A::gpu_limits},
        // __launch_bounds__(256) after void, 512 threads launched
        {"tiled_limit_launch_bounds_small.cu", "tiled", 0, "crash", "crash", 120, false, S::no, A::gpu_limits},
        // __launch_bounds__(512, 2) before void, 1024 threads launched
        {"coarsened_limit_launch_bounds_small.cu", "coarsened", 0, "crash", "crash", 120, false, S::no, A::gpu_limits},
        // a column of 32 doubles in registers: 95 registers x 1024 threads > 64 Ki
        {"register_tiled_f64_limit_registers.cu", "register-tiled-f64", 0, "crash", "crash", 120, false, S::no, A::gpu_limits},
        // __launch_bounds__(128), 64 x 4 threads launched
        {"derivative_x_limit_launch_bounds_small.cu", "x-derivative", 0, "crash", "crash", 120, false, S::no, A::gpu_limits},
        // recursion one frame (40 bytes) per cell to the wall: past 1 KiB from N = 31
        {"naive_limit_recursion_deep.cu", "naive", 0, "crash", "crash", 120, false, S::no, A::gpu_limits},
        // recursion seven frames deep, 24 bytes each: fits
        {"naive_valid_recursion_shallow.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::nothing},
        // a 4 KiB local frame: ptxas sizes it, the driver grows the stack for it
        {"naive_valid_big_local_frame.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::nothing},
        {"naive_valid_launch_bounds.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::nothing},  // (512, 2) after void
        // (512, 5): more threads per SM than it holds; ptxas ignores .minnctapersm
        {"naive_valid_launch_bounds_min_blocks_ignored.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::nothing},
        {"tiled_valid_launch_bounds_macro.cu", "tiled", 0, "pass", "pass", 120, false, S::no, A::nothing},  // T^3 before void
        {"register_tiled_valid_launch_bounds.cu", "register-tiled", 0, "pass", "pass", 120, false, S::no, A::nothing},
        // ---- 2. state kept between launches of one module ----
        // a work queue never reset: the second launch finds it empty
        {"naive_state_work_queue.cu", "naive", 0, "unwritten", "unwritten", 120, false, S::no, A::persistent_state},
        // "done" marks per block number: later launches skip those blocks
        {"naive_state_done_flags.cu", "naive", 0, "unwritten", "unwritten", 120, false, S::no, A::persistent_state},
        // the same queue, reset by the last block (fence and atomicInc ticket)
        {"naive_state_queue_reset_ok.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::nothing},
        // a launch counter flips the splitting's order on odd launches
        // (the CPU's race: every block's plain read of `steps`, merged into one record of many
        // blocks, is not shown ordered before the last block's atomicAdd; the GPU shows the state)
        {"cardiac_state_launch_parity.cu", "cardiac-shared", 0, "race", "wrong_result", 120, false, S::race, A::persistent_state},
        // ---- 3. sizes the CPU did not run (the GPU adds N = 127, and 256 when timing) ----
        {"naive_size_branch_over_100.cu", "naive", 0, "wrong_result", "wrong_result", 120, false, S::no, A::large_sizes},
        // at most 16 blocks a side: cells past 128 unwritten, seen at N = 256 only
        {"naive_size_grid_limit_128.cu", "naive", 0, "unwritten", "unwritten", 120, false, S::no, A::large_sizes, P, true},
        // the z loop's end in a signed char: wraps for the block starting at plane 120
        {"coarsened_size_char_loop_end.cu", "coarsened", 0, "unwritten", "unwritten", 120, false, S::no, A::large_sizes},
        // at most 5 tiles a side: meshes over 80 unwritten
        {"cardiac_size_mesh_limit_80.cu", "cardiac-shared", 0, "unwritten", "unwritten", 120, false, S::no, A::large_sizes},
        // loads row j % 64: my = 256 wrong
        {"derivative_x_size_rows_64.cu", "x-derivative", 0, "wrong_result", "wrong_result", 120, false, S::no, A::large_sizes},
        // ---- 4. what the GPU leaves unspecified, explored ----
        // a NaN in shared memory means "not loaded": right only where unwritten shared memory is NaN
        {"tiled_unspec_nan_sentinel.cu", "tiled", 0, "wrong_result", "wrong_result|race", 120, false, S::unwritten_shared, A::exploration},
        // +x then -x per thread into a float atomic: zero only when each thread's pair runs together
        {"naive_unspec_float_atomic_order.cu", "naive", 0, "race", "wrong_result|race", 120, false, S::unspecified, A::exploration},
        {"naive_valid_int_atomic_count.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::nothing},  // order-free integer atomics
        // clock64() picks the sum's order: both within the bound, different bits between runs
        {"naive_unspec_clock_order.cu", "naive", 0, "race", "race", 120, false, S::no, A::exploration},
        // bit 5 of clock64() writes 0
        {"naive_unspec_clock_decides.cu", "naive", 0, "race", "wrong_result|race", 120, false, S::unspecified, A::exploration},
        // waits 2000 cycles of clock64(): a clock that never moved would hang it
        {"tiled_valid_clock_spin.cu", "tiled", 0, "pass", "pass", 30, false, S::no, A::exploration},
        // __fdividef == IEEE division decides a cell
        {"naive_unspec_fdividef_exact.cu", "naive", 0, "race", "wrong_result", 120, false, S::unspecified, A::exploration},
        // rsqrtf == __frsqrt_rn decides a cell
        {"naive_unspec_rsqrtf_exact.cu", "naive", 0, "race", "wrong_result", 120, false, S::unspecified, A::exploration},
        // __fdividef on normalised coordinates: v = N - 1 gives exactly 1 only if __fdividef(x, x) is
        // exact, which PTX does not promise (2 ulp): moved within the bound, the boundary row reads
        // past in[] (a GPU may give 1 and pass, or give less and read in the guard zone)
        {"naive_valid_fast_division.cu", "naive", 0, "crash", "pass|crash", 120, false, S::unspecified, A::exploration},
        // inline asm by token pasting, refused from the PTX (checker/ptx_vetting.h): %smid,
        // %globaltimer, an fma of the student's; and one that writes what clock64() writes
        {"naive_hostile_asm_smid.cu", "naive", 0, "compile_error", "compile_error", 120, false, S::no, A::nothing},
        {"naive_hostile_asm_globaltimer.cu", "naive", 0, "compile_error", "compile_error", 120, false, S::no, A::nothing},
        {"naive_hostile_asm_fma.cu", "naive", 0, "compile_error", "compile_error", 120, false, S::no, A::nothing},
        {"naive_valid_asm_spelling_clock64.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::nothing},
        // ---- 5. synchronisation: the PTX memory model's order, and nothing more ----
        // the Programming Guide's last-block pattern, as the Guide writes it
        {"naive_sync_last_block_ok.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::nothing},
        // the same without __threadfence(): the total is not an output, a GPU shows nothing
        {"naive_sync_last_block_no_fence.cu", "naive", 0, "race", "pass", 120, false, S::race, A::memory_model},
        // volatile flag, __threadfence_block() on both sides
        {"tiled_sync_volatile_flag_ok.cu", "tiled", 0, "pass", "pass", 60, false, S::no, A::memory_model},
        {"tiled_sync_volatile_flag_no_fence.cu", "tiled", 0, "race", "race", 60, false, S::no, A::memory_model},
        // atomicExch / atomicAdd(&f, 0) flag with fences
        {"tiled_sync_atomic_flag_ok.cu", "tiled", 0, "pass", "pass", 60, false, S::no, A::memory_model},
        // x neighbours through shared memory within a warp
        {"naive_sync_syncwarp_ok.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::nothing},
        // the warp in two __syncwarp(mask) groups, each reading what the other stored
        {"naive_sync_syncwarp_split_masks.cu", "naive", 0, "race", "pass", 120, false, S::race, A::memory_model},
        // __threadfence_block() where __syncthreads() belongs
        {"register_tiled_sync_fence_not_barrier.cu", "register-tiled", 0, "race", "race|wrong_result", 120, true, S::race, A::nothing},
        // a discarded read up to N^2 cells past in[]'s end: inside the guard zone
        {"naive_guard_zone_read.cu", "naive", 0, "crash", "pass", 120, false, S::oob_read, A::nothing},
        // ---- 6. valid CUDA that must pass ----
        {"naive_valid_device_malloc.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::valid_cuda},
        // its null branch rounds otherwise: the runs differ where malloc fails (explored on the CPU)
        {"naive_unspec_malloc_null.cu", "naive", 0, "race", "race", 120, false, S::no, A::exploration},
        {"naive_valid_function_pointers.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::valid_cuda},
        {"tiled_valid_isspacep.cu", "tiled", 0, "pass", "pass", 120, false, S::no, A::valid_cuda},
        {"tiled_valid_address_table.cu", "tiled", 0, "pass", "pass", 120, false, S::no, A::valid_cuda},
        {"naive_valid_printf_star.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::valid_cuda},  // %*.*f
        {"naive_valid_template_lambda.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::nothing},
        // typedef'd float, const and __restrict__, a default argument (the PTX gives the types)
        {"naive_valid_declaration_spellings.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::nothing},
        {"naive_valid_extern_c.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::nothing},
        {"derivative_x_valid_unnamed_params.cu", "x-derivative", 0, "pass", "pass", 120, false, S::no, A::nothing},
        // refused from the PTX's types: `int N` behind __launch_bounds__; float behind a typedef
        {"naive_wrong_signature_int_n.cu", "naive", 0, "compile_error", "compile_error", 120, false, S::no, A::nothing},
        {"cardiac_wrong_precision_typedef.cu", "cardiac-shared", 0, "compile_error", "compile_error", 120, false, S::no, A::nothing},
        // ---- course styles (written for this corpus in the manner of public course code) ----
        {"naive_course_grid_stride.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::nothing},
        {"coarsened_course_register_queue.cu", "coarsened", 0, "pass", "pass", 120, false, S::no, A::nothing},
        {"tiled_r2_course_cooperative_load.cu", "tiled-r2", 0, "pass", "pass", 120, false, S::no, A::nothing},
        // ---- issue 47 (and 46's printf loads): where the CPU engine differed from a GPU ----
        // a printf per block: its string reads are not the kernel's loads (the loads item holds)
        {"tiled_valid_printf_per_block.cu", "tiled", 0, "pass", "pass", 120, false, S::no, A::valid_cuda, Gpu::predicted},
        // vetting on what the compiler sees: a second __global__ inside #if 0; #pragma unroll(7)
        {"naive_valid_if0_second_kernel.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::valid_cuda, Gpu::predicted},
        {"naive_valid_pragma_unroll_paren.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::valid_cuda, Gpu::predicted},
        // printf's return value past the cap is the arguments' count on both backends (the GPU's gate)
        {"naive_valid_printf_return_past_cap.cu", "naive", 0, "pass", "pass", 120, false, S::no, A::valid_cuda, Gpu::predicted},
        // one warp loads the tile and releases it (fence + atomicAdd) to the others, which spin on
        // the count: the spinning warps must yield (timed out on the CPU before they did)
        {"tiled_sync_warp_handoff_ok.cu", "tiled", 0, "pass", "pass", 120, false, S::no, A::memory_model, Gpu::predicted},
        // a read into the guard zone through a pointer rebuilt from the parameter's bytes
        {"naive_alias_param_bytes_guard_read.cu", "naive", 0, "crash", "pass", 120, false, S::oob_read, A::nothing, Gpu::predicted},
        // a store before out[] through a cast alias that puts the old value back: the CPU faults on
        // the read of the old value (crash); the GPU's guard is unchanged after the run, so its
        // path sees nothing (issue 47 asks the CPU for out_of_bounds_write, naming the store)
        {"hole_cast_alias_restores_before.cu", "naive", 0, "crash", "pass", 120, false, S::oob_read, A::nothing, Gpu::predicted},
    };
    // Issue 44's shapes: each wrong kernel's explanation is tested line by line in
    // tests/checker/test_feedback.cpp; here their verdicts (the GPU's predicted).
    static const std::vector<CorpusEntry> issue44 = {
        {"tiled_swapped_weights.cu", "tiled", 0, "wrong_result", "wrong_result", 120, false, S::no, A::nothing, Gpu::predicted},
        {"tiled_swapped_axes.cu", "tiled", 0, "wrong_result", "wrong_result", 120, false, S::no, A::nothing, Gpu::predicted},
        {"naive_doubled_neighbour.cu", "naive", 0, "wrong_result", "wrong_result", 120, false, S::no, A::nothing, Gpu::predicted},
        {"tiled_r2_shifted_offset.cu", "tiled-r2", 0, "wrong_result", "wrong_result", 120, false, S::no, A::nothing, Gpu::predicted},
        // the plane z = 0 never loaded: what a GPU's shared memory held (runs that differ: race there)
        {"tiled_unstored_plane.cu", "tiled", 0, "wrong_result", "wrong_result|race", 120, false, S::unwritten_shared, A::nothing, Gpu::predicted},
        // threads with k >= N return before __syncthreads(); they load no cell an output needs, so a
        // GPU (whose barrier counts exited threads) most likely computes the right result
        {"tiled_return_before_sync.cu", "tiled", 0, "race", "race|pass", 120, false, S::race, A::nothing, Gpu::predicted},
        // in[-5] through unsigned arithmetic: 16 GiB past in[] on a GPU, most likely a fault
        {"naive_negative_index.cu", "naive", 0, "crash", "crash", 120, false, S::oob_read, A::nothing, Gpu::predicted},
        // the previous plane loaded from iStart - 2 (the second z block on: N = 33 and up)
        {"coarsened_prev_plane.cu", "coarsened", 0, "wrong_result", "wrong_result", 120, false, S::no, A::nothing, Gpu::predicted},
        // c_bx and c_cx exchanged; the periodic images right
        {"derivative_x_swapped_weights.cu", "x-derivative", 0, "wrong_result", "wrong_result", 120, false, S::no, A::nothing, Gpu::predicted},
        // the register queue shifted in the wrong order (inCurr = inNext before inPrev = inCurr)
        {"register_tiled_rotation_order.cu", "register-tiled", 0, "wrong_result", "wrong_result", 120, false, S::no, A::nothing, Gpu::predicted},
        // the tile stored with x and z exchanged, read the textbook's way
        {"tiled_transposed_store.cu", "tiled", 0, "wrong_result", "wrong_result", 120, false, S::no, A::nothing, Gpu::predicted},
    };
    if (part == CorpusPart::issue44) return issue44;
    return part == CorpusPart::issue26 ? issue26 : before;
}

// The whole table, in order.
inline const std::vector<CorpusEntry>& corpus_entries() {
    static const std::vector<CorpusEntry> all = [] {
        std::vector<CorpusEntry> v = corpus_entries(CorpusPart::before_issue26);
        for (CorpusPart p : {CorpusPart::issue26, CorpusPart::issue44}) {
            const auto& more = corpus_entries(p);
            v.insert(v.end(), more.begin(), more.end());
        }
        return v;
    }();
    return all;
}

// The verdicts a GPU may show for an entry whose CPU verdict is stricter for `why`.
inline const char* gpu_may_show(Stricter why) {
    switch (why) {
        case Stricter::race: return "race|pass|wrong_result|unwritten";
        case Stricter::oob_read: return "crash|pass";
        case Stricter::transient_input: return "input_modified|pass|race";
        case Stricter::unwritten_shared: return "wrong_result|race";
        case Stricter::unspecified: return "race|wrong_result|pass|crash|unwritten";
        case Stricter::no: break;
    }
    return "";
}
