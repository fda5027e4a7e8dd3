// The question bank: one row per question, each with the function that computes its answer. The
// rows call the model (analysis/) for everything a pencil-and-paper derivation can give, and read
// the GPU's results file only for what the student's hardware decides (bandwidths, DRAM traffic,
// the compiler's register count). Hints are the wrong answers that known slips produce, computed
// the same way (the fp64 figure where fp32 was asked, the 2D share where 3D was asked, ...).
//
// Sections: helpers (tolerances, hints, the model's calls); then one function of rows per lab
// handout, build_bank calling them in order: 1 the naive kernel and the model, 2 tiling and halos,
// 3 coarsening and register tiling in two halves (the second with text 000's registers and
// convolution questions), 4 the cardiac simulation (text 002), 5 the derivative pencils (text 004).
#include "labs/grading/questions.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <stdexcept>

#include "analysis/derivative_tiles.h"
#include "analysis/finite_difference.h"
#include "analysis/model.h"

namespace stencil::labs {
namespace {

using namespace stencil::analysis;
using nlohmann::json;

// Whole numbers stay whole in the key's JSON (13, not 13.0): counts read as counts.
Key number(double v, std::vector<Hint> hints = {}) {
    const bool whole = std::fabs(v) < 1e15 && v == std::floor(v);
    return Key{whole ? json(static_cast<long long>(v)) : json(v), "", std::move(hints)};
}
Key word(const std::string& w, std::vector<Hint> hints = {}) { return Key{w, "", std::move(hints)}; }
Key pending(const std::string& why) { return Key{nullptr, "needs a GPU run: " + why, {}}; }

double opb(KernelId k, int T, int r = 1, Precision p = Precision::f32) { return model(k, T, r, p).opb; }
const GridDims kGrid256{256, 256, 256};

// What a student runs to answer a GPU question on their machine (or the committed H100 files).
const std::string kRunHint =
    "run `stencil-lab sweep --size 256 --out sweep` on a GPU and pass --results sweep/results.json "
    "(or the H100's docs/results/h100-sweep-256-f32/results.json)";

// A GPU question on one run of the results file: `pick` reads its figure (nullopt: the file does
// not have it, `missing` says what to run).
template <class Pick>
Key from_run(const GpuResults* gpu, const std::string& kernel, int tile, Pick pick, const std::string& missing,
             std::vector<Hint> hints = {}) {
    if (!gpu) return pending(kRunHint);
    const GpuRun* run = gpu->find(kernel, tile);
    if (!run) return pending(fmt::format("{} has no timed run of {} T={} (fp32, r = 1); {}", gpu->path, kernel, tile,
                                         kRunHint));
    const std::optional<double> v = pick(*run);
    if (!v) return pending(fmt::format("{} has no {} for {} T={}; {}", gpu->path, missing, kernel, tile, kRunHint));
    return number(*v, std::move(hints));
}

// Ghost cells that the slides' shared-memory code (002) loads for a T x T block of interior
// threads: the ring of its (T+2)^2 shared tile, less the 4 corners that a 5-point stencil never
// reads and the code's edge threads never load (4T; 64 at 16x16).
long long ghost_cells_loaded_by_edge_threads(int T) { return ghost_ring_cells(T + 2) - 4; }

// Lab 1: the naive kernel and the model.
void add_lab1_naive_and_model(std::vector<Question>& q) {
    const auto add = [&](Question x) { q.push_back(std::move(x)); };
    const double f32_naive = opb(KernelId::naive, 8);
    const double f64_naive = opb(KernelId::naive, 8, 1, Precision::f64);

    add({"l1.flops", 1, "FLOP per output of the star stencil of radius r = {r} (6r + 1 points)", AnswerKind::number,
         0, 0, {}, false, "model: naive, radius {r} (12r + 1)", [](const GpuResults*, const LabParams& p) {
             const int r = p.get("r");
             const int points = 6 * r + 1;
             return number(model(KernelId::naive, 8, r, Precision::f32).flops_per_point,
                           {{2.0 * points, "that is the looser 2-ops-per-point rule; p multiplies need only p - 1 "
                                           "additions"},
                            {double(points), "that counts the multiplies only"}});
         }});
    add({"l1.opb", 1, "OP/B of the naive kernel, fp32, r = 1", AnswerKind::number, 0.01, 0, {}, false,
         "model: naive T=8, r = 1, fp32", [=](const GpuResults*, const LabParams&) {
             return number(f32_naive, {{f64_naive, "you gave the fp64 figure (8-byte values) for fp32"},
                                       {14.0 / 28, "that counts 14 FLOP per output; the kernel does 13"},
                                       {13.0 / 4, "that loads every value once; the naive kernel loads 7 per output"}});
         }});
    add({"l1.opb-f64", 1, "OP/B of the naive kernel, fp64, r = 1", AnswerKind::number, 0.01, 0, {}, false,
         "model: naive T=8, r = 1, fp64", [=](const GpuResults*, const LabParams&) {
             return number(f64_naive, {{f32_naive, "you gave the fp32 figure for fp64: each value is 8 bytes"}});
         }});
    add({"l1.opb-r2", 1, "OP/B of the naive kernel, fp32, r = 2 (13 points)", AnswerKind::number, 0.01, 0, {},
         false, "model: naive T=8, r = 2, fp32", [=](const GpuResults*, const LabParams&) {
             return number(opb(KernelId::naive, 8, 2), {{f32_naive, "that is r = 1's figure"}});
         }});
    add({"l1.sectors-interior", 1,
         "32-byte sectors per load request of a full (interior) warp of the naive kernel with T x T x T = {T}^3 "
         "blocks, averaged over its 7 loads",
         AnswerKind::number, 0.01, 0, {}, false, "model: warp_pattern(naive, T={T}, 256^3), full warps",
         [](const GpuResults*, const LabParams& p) {
             const WarpPattern w = warp_pattern(KernelId::naive, p.get("T"), 1, Precision::f32, kGrid256);
             return number(w.interior_sectors_per_request,
                           {{4, "4 counts rows, not sectors: the x-1 and x+1 loads are shifted by 4 B and each row "
                                "straddles two sectors"},
                            {w.sectors_per_request, "that is the whole grid's figure (boundary warps included); "
                                                    "the question asks for full warps"}});
         }});
    add({"l1.sectors-grid", 1, "sectors per request over the whole 256^3 grid (what ncu reports), naive {T}x{T}x{T}",
         AnswerKind::number, 0.005, 0, {}, false, "model: warp_pattern(naive, T={T}, 256^3), every request",
         [](const GpuResults*, const LabParams& p) {
             const WarpPattern w = warp_pattern(KernelId::naive, p.get("T"), 1, Precision::f32, kGrid256);
             return number(w.sectors_per_request,
                           {{w.interior_sectors_per_request, "that is the full warps' figure; warps at the faces "
                                                             "have inactive lanes and touch fewer sectors"}});
         }});
    add({"l1.dram-opb", 1, "FLOP per DRAM byte read by the naive kernel (T = 8, fp32), from the counters",
         AnswerKind::number, 0.05, 0, {}, true, "results file: naive T=8, DRAM level", [=](const GpuResults* g, const LabParams&) {
             return from_run(
                 g, "naive", 8, [](const GpuRun& r) { return r.dram_opb_read; }, "DRAM counters",
                 {{f32_naive, "that is the model's (requested-level) figure; the question asks what DRAM saw"}});
         }});
    add({"l1.copy-ratio", 1, "the naive kernel's effective bandwidth as a share of the copy bandwidth (T = 8)",
         AnswerKind::number, 0.05, 0, {}, true, "results file: naive T=8, copy_ratio", [](const GpuResults* g, const LabParams&) {
             return from_run(g, "naive", 8, [](const GpuRun& r) { return std::optional(r.copy_ratio); }, "copy ratio");
         }});
    add({"l1.bound", 1, "is the naive kernel memory-bound or compute-bound by the model's OP/B against your GPU's "
                        "ridge point (FMA GFLOP/s / copy GB/s)?",
         AnswerKind::choice, 0, 0, {"memory", "compute"}, true, "results file: fma_gflops / copy_gbps vs model OP/B",
         [=](const GpuResults* g, const LabParams&) {
             if (!g) return pending(kRunHint);
             if (!g->fma_gflops || !g->copy_gbps)
                 return pending(g->path + " has no FMA or copy figure (a sweep records both); " + kRunHint);
             return word(f32_naive < *g->fma_gflops / *g->copy_gbps ? "memory" : "compute");
         }});
}

// Lab 2: tiling and halos.
void add_lab2_tiling_and_halos(std::vector<Question>& q) {
    const auto add = [&](Question x) { q.push_back(std::move(x)); };
    const double f32_naive = opb(KernelId::naive, 8);

    for (int T : {4, 6, 8, 10}) {
        add({fmt::format("l2.opb-t{}", T), 2, fmt::format("OP/B of the tiled kernel at T = {} (fp32, r = 1)", T),
             AnswerKind::number, 0.01, 0, {}, false, fmt::format("model: tiled T={}, r = 1, fp32", T),
             [=](const GpuResults*, const LabParams&) {
                 const double v = opb(KernelId::tiled, T);
                 return number(v, {{opb(KernelId::tiled, T, 1, Precision::f64), "you gave the fp64 figure for fp32"},
                                   {v * 14 / 13, "that counts 14 FLOP per output; the kernel does 13"},
                                   {f32_naive, "that is the naive kernel's figure"}});
             }});
    }
    add({"l2.limit", 2, "the tiled kernel's OP/B as T grows (fp32, r = 1)", AnswerKind::number, 0.01, 0, {}, false,
         "model: tiled opb_limit", [](const GpuResults*, const LabParams&) {
             const Model m = model(KernelId::tiled, 8, 1, Precision::f32);
             return number(m.opb_limit, {{points_upper_bound_opb(m.points),
                                          "points / 2 counts 2 ops per point (14 FLOP); the kernel needs 13"}});
         }});
    add({"l2.first-t", 2, "the smallest T at which the tiled kernel's OP/B exceeds the naive kernel's",
         AnswerKind::number, 0, 0, {}, false, "model: tiled OP/B for T = 3, 4, ... against naive", [=](const GpuResults*, const LabParams&) {
             int T = 3;
             while (opb(KernelId::tiled, T) <= f32_naive) ++T;
             return number(T, {{T - 1, fmt::format("at T = {} the tiled kernel's OP/B is {:.3f}, not above the naive "
                                                   "{:.3f}",
                                                   T - 1, opb(KernelId::tiled, T - 1), f32_naive)}});
         }});
    add({"l2.largest-t", 2, "the largest T the tiled kernel can run (fp32, r = 1)", AnswerKind::number, 0, 0, {}, false,
         "model: largest_fitting_tile(tiled)", [](const GpuResults*, const LabParams&) {
             return number(largest_fitting_tile(KernelId::tiled, 1, Precision::f32),
                           {{8, "8 is the texts' practice; 10^3 = 1000 threads is within the 1024 limit"}});
         }});
    add({"l2.computing-threads-t10", 2, "how many of the tiled kernel's 1000 threads at T = 10 compute an output",
         AnswerKind::number, 0, 0, {}, false, "model: tiled T=10 active_threads", [](const GpuResults*, const LabParams&) {
             const Model m = model(KernelId::tiled, 10, 1, Precision::f32);
             return number(m.active_threads,
                           {{m.threads_per_block, "that is every thread; only the inner (T-2)^3 compute"}});
         }});
    add({"l2.halo-3d", 2, "the halo's share of a {T3}^3 input tile (r = 1), as a fraction", AnswerKind::number, 0.01,
         0, {}, false, "model: halo_3d({T3}, 1)", [](const GpuResults*, const LabParams& p) {
             return number(halo_3d(p.get("T3"), 1).fraction,
                           {{halo_2d(p.get("T2"), 1).fraction, "that is the 2D tile's share"}});
         }});
    add({"l2.halo-2d", 2, "the halo's share of a {T2}x{T2} input tile (r = 1), as a fraction", AnswerKind::number,
         0.01, 0, {}, false, "model: halo_2d({T2}, 1)", [](const GpuResults*, const LabParams& p) {
             return number(halo_2d(p.get("T2"), 1).fraction,
                           {{halo_3d(p.get("T3"), 1).fraction, "that is the 3D tile's share"}});
         }});
    add({"l2.tile-sectors", 2, "sectors per request of a full warp's tile load, tiled T = {Ttile}", AnswerKind::number,
         0.01, 0, {}, false, "model: warp_pattern(tiled, T={Ttile}, 256^3), full warps",
         [](const GpuResults*, const LabParams& p) {
             const WarpPattern w = warp_pattern(KernelId::tiled, p.get("Ttile"), 1, Precision::f32, kGrid256);
             return number(w.interior_sectors_per_request,
                           {{4, "4 is one aligned sector per row; the tile's rows start at x = (T - 2) b - 1, "
                                "not at a multiple of 8"}});
         }});
    add({"l2.tiled-faster", 2, "is the tiled kernel at T = 8 faster than the naive kernel (yes or no)?",
         AnswerKind::choice, 0, 0, {"yes", "no"}, true, "results file: tiled T=8 vs naive T=8 GB/s",
         [](const GpuResults* g, const LabParams&) {
             if (!g) return pending(kRunHint);
             const GpuRun* t = g->find("tiled", 8);
             const GpuRun* n = g->find("naive", 8);
             if (!t || !n) return pending(g->path + " lacks tiled T=8 or naive T=8; " + kRunHint);
             return word(t->gbps > n->gbps ? "yes" : "no");
         }});
    add({"l2.tiled-copy-ratio", 2, "the tiled kernel's (T = 8) effective bandwidth as a share of the copy's",
         AnswerKind::number, 0.05, 0, {}, true, "results file: tiled T=8, copy_ratio", [](const GpuResults* g, const LabParams&) {
             return from_run(g, "tiled", 8, [](const GpuRun& r) { return std::optional(r.copy_ratio); }, "copy ratio");
         }});
}

// Lab 3, first half: coarsening, its loads and outputs, and the tile bounds.
void add_lab3_coarsening(std::vector<Question>& q) {
    const auto add = [&](Question x) { q.push_back(std::move(x)); };
    const double coarse32 = opb(KernelId::coarsened, 32);
    const double tiled8 = opb(KernelId::tiled, 8);

    add({"l3.opb-coarsened-32", 3, "OP/B of the coarsened kernel at T = 32 (fp32, r = 1)", AnswerKind::number,
         0.01, 0, {}, false, "model: coarsened T=32", [=](const GpuResults*, const LabParams&) {
             return number(coarse32, {{tiled8, "that is the tiled kernel at T = 8"}});
         }});
    add({"l3.ratio-vs-tiled", 3, "that OP/B divided by the tiled kernel's at T = 8", AnswerKind::number, 0.01, 0,
         {}, false, "model: coarsened T=32 / tiled T=8", [=](const GpuResults*, const LabParams&) {
             return number(coarse32 / tiled8, {{2, "the texts' \"almost doubled\" is not exactly 2"}});
         }});
    add({"l3.loads-32", 3, "global loads (values) of one interior coarsened block at T = 32", AnswerKind::number, 0, 0,
         {}, false, "model: coarsened T=32 loads_per_block", [](const GpuResults*, const LabParams&) {
             const Model m = model(KernelId::coarsened, 32, 1, Precision::f32);
             return number(m.loads_per_block, {{m.block.load_bytes, "that is bytes; the question counts values"}});
         }});
    add({"l3.outputs-32", 3, "outputs of one interior coarsened block at T = 32", AnswerKind::number, 0, 0, {}, false,
         "model: coarsened T=32 outputs_per_block", [](const GpuResults*, const LabParams&) {
             return number(model(KernelId::coarsened, 32, 1, Precision::f32).outputs_per_block,
                           {{32.0 * 32 * 32, "that is the input tile; the block writes the inner (T-2)^3"}});
         }});
    add({"l3.opb-limit-z", 3, "the coarsened kernel's OP/B at T = 32 if a block marched ever more planes in z",
         AnswerKind::number, 0.01, 0, {}, false, "model: one plane's outputs over one plane's loads, T=32",
         [=](const GpuResults*, const LabParams&) {
             const Model m = model(KernelId::coarsened, 32, 1, Precision::f32);
             // Each plane marched adds (T-2)^2 outputs for T^2 loads: the z halo's two planes vanish.
             const double v = double(m.flops_per_point) * m.halo_plane.output_cells / (m.bytes * m.halo_plane.tile_cells);
             return number(v, {{coarse32, "that marches OUT_TILE_DIM = 30 planes; the question lets Z grow"},
                               {m.opb_limit, "that limit also lets T grow; here T = 32 is fixed"}});
         }});
    add({"l3.smem-coarsened-32", 3, "shared memory (bytes) of the coarsened kernel at T = 32, fp32",
         AnswerKind::number, 0, 0, {}, false, "model: coarsened T=32 smem_bytes", [](const GpuResults*, const LabParams&) {
             return number(model(KernelId::coarsened, 32, 1, Precision::f32).smem_bytes,
                           {{32.0 * 32 * 32 * 4, "T^3 values is the tiled kernel's tile; coarsening keeps 3 planes"}});
         }});
    add({"l3.smem-register-32", 3, "shared memory (bytes) of the register-tiled kernel at T = 32, fp32",
         AnswerKind::number, 0, 0, {}, false, "model: register-tiled T=32 smem_bytes", [](const GpuResults*, const LabParams&) {
             return number(model(KernelId::register_tiled, 32, 1, Precision::f32).smem_bytes,
                           {{double(model(KernelId::coarsened, 32, 1, Precision::f32).smem_bytes),
                             "that is coarsening's 3 T^2; register tiling keeps only the current plane"}});
         }});
    add({"l3.largest-f64-r4", 3, "the largest T the coarsened kernel fits for r = 4 in fp64", AnswerKind::number, 0, 0,
         {}, false, "model: largest_fitting_tile(coarsened, r = 4, fp64)", [](const GpuResults*, const LabParams&) {
             return number(largest_fitting_tile(KernelId::coarsened, 4, Precision::f64),
                           {{32, "32 is the thread limit (T^2 <= 1024); another bound binds first"}});
         }});
    add({"l3.binding-f64-r4", 3, "which bound stops T there: threads or shared-memory?", AnswerKind::choice, 0, 0,
         {"threads", "shared-memory"}, false, "model: tile_error of the next T", [](const GpuResults*, const LabParams&) {
             const int T = largest_fitting_tile(KernelId::coarsened, 4, Precision::f64);
             const auto why = tile_error(KernelId::coarsened, T + 1, 4, Precision::f64);
             return word(why && why->find("shared") != std::string::npos ? "shared-memory" : "threads");
         }});
}

// Lab 3, second half: text 000's register queues, the convolution, and the GPU's figures.
void add_lab3_registers_and_convolution(std::vector<Question>& q) {
    const auto add = [&](Question x) { q.push_back(std::move(x)); };
    const double coarse32 = opb(KernelId::coarsened, 32);
    const double tiled8 = opb(KernelId::tiled, 8);

    const auto registers_note = " (the model's queue; a test checks it against the compiler's count)";
    add({"l3.registers-7pt", 3, std::string("registers per thread for the 3D 7-point stencil's z-queue") + registers_note,
         AnswerKind::number, 0, 0, {}, false, "model: registers_star(1)", [](const GpuResults*, const LabParams&) {
             return number(registers_star(1).queue_registers, {{7, "x and y neighbours come from the shared plane"}});
         }});
    add({"l3.registers-9pt", 3,
         std::string("registers per thread for the 3D 9-point stencil read as the 7-point star plus z-2 and z+2") +
             registers_note,
         AnswerKind::number, 0, 0, {}, false, "model: registers_nine_point()", [](const GpuResults*, const LabParams&) {
             return number(registers_nine_point().queue_registers,
                           {{registers_star(1).queue_registers,
                             "3 is the other reading (two extra points in the plane); this one reaches z +- 2"}});
         }});
    add({"l3.registers-27pt", 3, std::string("registers per thread for the 3D 27-point box") + registers_note,
         AnswerKind::number, 0, 0, {}, false, "model: registers_box27()", [](const GpuResults*, const LabParams&) {
             return number(registers_box27().queue_registers,
                           {{3, "own column only: the box also needs 8 neighbouring columns in the other planes"}});
         }});
    add({"l3.conv-macs", 3, "multiplies per output when the 7-point stencil is computed as a dense 3x3x3 convolution",
         AnswerKind::number, 0, 0, {}, false, "model: pattern_points(box, 3D, 3)", [](const GpuResults*, const LabParams&) {
             return number(pattern_points(PatternShape::box, 3, 3),
                           {{pattern_points(PatternShape::star, 3, 1), "that is the star; the dense window "
                                                                       "multiplies its 20 zero weights too"}});
         }});
    add({"l3.conv-flop-ratio", 3, "FLOP per output of that convolution over the star's (2p - 1 each)",
         AnswerKind::number, 0.01, 0, {}, false, "model: (2 x 27 - 1) / (12r + 1)", [](const GpuResults*, const LabParams&) {
             const int box = pattern_points(PatternShape::box, 3, 3), star = pattern_points(PatternShape::star, 3, 1);
             return number((2.0 * box - 1) / (2.0 * star - 1), {{double(box) / star, "that counts points; with p "
                                                                                      "multiplies and p - 1 adds"}});
         }});
    add({"l3.speedup-32", 3, "coarsened T = 32's effective bandwidth over tiled T = 8's", AnswerKind::number,
         0.05, 0, {}, true, "results file: coarsened T=32 GB/s / tiled T=8 GB/s", [=](const GpuResults* g, const LabParams&) {
             if (!g) return pending(kRunHint);
             const GpuRun* c = g->find("coarsened", 32);
             const GpuRun* t = g->find("tiled", 8);
             if (!c || !t) return pending(g->path + " lacks coarsened T=32 or tiled T=8; " + kRunHint);
             return number(c->gbps / t->gbps, {{coarse32 / tiled8, "that is the model's OP/B ratio, not the "
                                                                   "measured speed-up"}});
         }});
    add({"l3.registers-compiler", 3, "registers per thread the compiler gave register-tiled T = 32 (fp32)",
         AnswerKind::number, 0, 0, {}, true, "results file: register-tiled T=32 registers", [](const GpuResults* g, const LabParams&) {
             return from_run(
                 g, "register-tiled", 32,
                 [](const GpuRun& r) { return r.registers ? std::optional<double>(*r.registers) : std::nullopt; },
                 "register count", {{3, "3 is the z-queue only: addresses, indices and the sum live in registers too"}});
         }});
}

// Lab 4: the cardiac simulation (text 002).
void add_lab4_cardiac_simulation(std::vector<Question>& q) {
    const auto add = [&](Question x) { q.push_back(std::move(x)); };
    add({"l4.laplacian-points", 4, "points of the 2D Laplacian stencil of the PDE step", AnswerKind::number, 0, 0, {},
         false, "model: pattern_points(star, 2D, 1)", [](const GpuResults*, const LabParams&) {
             return number(pattern_points(PatternShape::star, 2, 1), {{9, "the 3x3 window; the 5-point star has no "
                                                                          "corners"}});
         }});
    add({"l4.ghost-slides", 4,
         "ghost cells of a {B}x{B} thread block that includes its one-cell ghost ring (the slides' count at 16x16)",
         AnswerKind::number, 0, 0, {}, false, "model: ghost_ring_cells({B})", [](const GpuResults*, const LabParams& p) {
             const int b = p.get("B");
             return number(ghost_ring_cells(b),
                           {{double(ghost_cells_loaded_by_edge_threads(b)),
                             "that is what the slides' code loads for B x B interior threads; this block includes "
                             "its ring"},
                            {b * 4.0, "B x 4 counts each corner twice: 4 B - 4"}});
         }});
    add({"l4.ghost-code", 4, "ghost cells the slides' shared-memory code loads for a block of {B}x{B} interior threads",
         AnswerKind::number, 0, 0, {}, false, "model: ghost ring of the (B+2)x(B+2) shared tile less its 4 corners",
         [](const GpuResults*, const LabParams& p) {
             const int b = p.get("B");
             return number(ghost_cells_loaded_by_edge_threads(b),
                           {{double(ghost_ring_cells(b)), "that is the slides' count for a block that includes its ring"},
                            {double(ghost_ring_cells(b + 2)), "the corners: the 5-point stencil never reads them and "
                                                              "the code does not load them"}});
         }});
    add({"l4.updated-16", 4, "cells a 16x16 block that includes its ghost ring updates", AnswerKind::number, 0, 0, {},
         false, "model: halo_2d(16, 1).output_cells", [](const GpuResults*, const LabParams&) {
             return number(halo_2d(16, 1).output_cells, {{256, "the ring's threads only load"}});
         }});
    add({"l4.idle-share", 4, "share of that block's threads idle in the compute (a fraction)", AnswerKind::number,
         0.01, 0, {}, false, "model: halo_2d(16, 1).fraction", [](const GpuResults*, const LabParams&) {
             return number(halo_2d(16, 1).fraction, {{halo_2d(16, 1).fraction * 256 / 196, "divide by the block's "
                                                                                            "256 threads"}});
         }});
    add({"l4.opb-bound", 4, "the text's points / 2 upper bound on OP/B for the 5-point stencil", AnswerKind::number,
         0.01, 0, {}, false, "model: points_upper_bound_opb(5)", [](const GpuResults*, const LabParams&) {
             const int p = pattern_points(PatternShape::star, 2, 1);
             return number(points_upper_bound_opb(p),
                           {{exact_upper_bound_opb(p), "that is the exact (2p - 1) / 4; the text's bound is p / 2"}});
         }});
}

// Lab 5: the derivative pencils (text 004).
void add_lab5_derivative_pencils(std::vector<Question>& q) {
    const auto add = [&](Question x) { q.push_back(std::move(x)); };
    const char* names[] = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; ++i) {
        add({fmt::format("l5.weight-{}", names[i]), 5,
             fmt::format("the 8th-order first derivative's weight {} (of f(x+{}dx) - f(x-{}dx), over dx)", names[i],
                         i + 1, i + 1),
             AnswerKind::number, 0.001, 0, {}, false, "model: central_derivative_weights(4)",
             [i](const GpuResults*, const LabParams&) {
                 const double v = central_derivative_weights(4)[i].value();
                 std::vector<Hint> h{{-v, "the sign is wrong"}};
                 if (i == 0) h.push_back({central_derivative_weights(1)[0].value(), "that is the central difference's"});
                 return number(v, std::move(h));
             }});
    }
    add({"l5.points", 5, "points of the 8th-order derivative stencil along x", AnswerKind::number, 0, 0, {}, false,
         "model: 2 x weights + 1", [](const GpuResults*, const LabParams&) {
             return number(2 * central_derivative_weights(4).size() + 1, {{8, "the centre is a point too (its weight "
                                                                              "is 0)"}});
         }});
    add({"l5.order", 5, "the measured order of accuracy of the 8th-order derivative", AnswerKind::number, 0, 0.3, {},
         false, "model: eighth_order_study(16, 3), last order", [](const GpuResults*, const LabParams&) {
             return number(eighth_order_study(16, 3).order.back(), {{2, "2 is the central difference's order"}});
         }});
    add({"l5.error-ratio", 5, "by what factor the error falls when dx halves (measured, 16^3 to 32^3)",
         AnswerKind::number, 0.1, 0, {}, false, "model: eighth_order_study(16, 3), error[0] / error[1]",
         [](const GpuResults*, const LabParams&) {
             const auto s = eighth_order_study(16, 3);
             return number(s.error[0] / s.error[1], {{4, "4 is the central difference's (order 2)"},
                                                     {8, "8 is the order; the factor is 2^order"}});
         }});
    const auto tiles = derivative_tile_table(64, 4);
    const auto& square = derivative_tile(tiles, "16x16").shape;
    const auto& pencil = derivative_tile(tiles, "64x4").shape;
    add({"l5.reload-16x16", 5, "share of a 16x16 tile's values (4-wide halos) that another tile loads too",
         AnswerKind::number, 0, 0.001, {}, false, "model: derivative_tile_table(64), 16x16",
         [square](const GpuResults*, const LabParams&) {
             return number(square.reload_share,
                           {{square.reload_share / 2, "one halo strip; the tile has one on each x side"},
                            {double(square.reloaded) / square.loaded, "divide by the tile's outputs, not by all "
                                                                      "values loaded"}});
         }});
    add({"l5.reload-64x4", 5, "the same share for a 64x4 pencil on the 64^3 grid", AnswerKind::number, 0, 0.001, {},
         false, "model: derivative_tile_table(64), 64x4", [pencil](const GpuResults*, const LabParams&) {
             return number(pencil.reload_share, {{2.0 * kDerivativeHalo * 4 / 256, "the pencil spans the whole "
                                                                                   "periodic x extent: its halo is "
                                                                                   "inside it"}});
         }});
    add({"l5.rows-per-warp-16x16", 5, "rows of the 16x16 tile one warp of 32 threads spans", AnswerKind::number, 0, 0,
         {}, false, "model: derivative_tile_table(64), 16x16", [square](const GpuResults*, const LabParams&) {
             return number(square.rows_per_warp);
         }});
    add({"l5.rows-per-warp-64x4", 5, "rows of the 64x4 pencil one warp spans", AnswerKind::number, 0, 0, {}, false,
         "model: derivative_tile_table(64), 64x4", [pencil](const GpuResults*, const LabParams&) {
             return number(pencil.rows_per_warp);
         }});
    add({"l5.coalesced-16x16", 5, "is a warp's load of the 16x16 tile fully coalesced (yes or no)?",
         AnswerKind::choice, 0, 0, {"yes", "no"}, false, "model: derivative_tile_table(64), 16x16",
         [square](const GpuResults*, const LabParams&) { return word(square.fully_coalesced ? "yes" : "no"); }});
    add({"l5.coalesced-64x4", 5, "is a warp's load of the 64x4 pencil fully coalesced (yes or no)?",
         AnswerKind::choice, 0, 0, {"yes", "no"}, false, "model: derivative_tile_table(64), 64x4",
         [pencil](const GpuResults*, const LabParams&) { return word(pencil.fully_coalesced ? "yes" : "no"); }});
}

// The rows in the order the handouts ask them: one function per lab handout.
std::vector<Question> build_bank() {
    std::vector<Question> q;
    add_lab1_naive_and_model(q);
    add_lab2_tiling_and_halos(q);
    add_lab3_coarsening(q);
    add_lab3_registers_and_convolution(q);
    add_lab4_cardiac_simulation(q);
    add_lab5_derivative_pencils(q);
    return q;
}

}  // namespace

const std::vector<Question>& question_bank() {
    static const std::vector<Question> bank = build_bank();
    return bank;
}

std::vector<const Question*> questions_of_lab(int lab) {
    std::vector<const Question*> out;
    for (const Question& q : question_bank())
        if (q.lab == lab) out.push_back(&q);
    return out;
}

const Question* find_question(const std::string& id) {
    for (const Question& q : question_bank())
        if (q.id == id) return &q;
    return nullptr;
}

const std::vector<ParamSpec>& param_specs() {
    // Every option is a configuration the model computes and the hardware allows (naive's block
    // T^3 <= 1024 threads, tiled's likewise, cardiac's B^2).
    static const std::vector<ParamSpec> specs = {
        {"r", 1, 1, {1, 2, 3, 4}, "the stencil's radius in l1.flops"},
        {"T", 1, 8, {4, 8, 10}, "the naive kernel's block side in l1.sectors-interior and l1.sectors-grid"},
        {"T3", 2, 8, {6, 8, 10}, "the 3D tile's side in l2.halo-3d"},
        {"T2", 2, 32, {16, 32}, "the 2D tile's side in l2.halo-2d"},
        {"Ttile", 2, 8, {6, 8, 10}, "the tiled kernel's T in l2.tile-sectors"},
        {"B", 4, 16, {8, 16, 32}, "the thread block's side in l4.ghost-slides and l4.ghost-code"},
    };
    return specs;
}

int LabParams::get(const std::string& name) const {
    const auto it = values.find(name);
    if (it != values.end()) return it->second;
    for (const ParamSpec& p : param_specs())
        if (p.name == name) return p.fallback;
    throw std::logic_error("no lab parameter named " + name);
}

LabParams default_params(int lab) {
    LabParams p;
    for (const ParamSpec& s : param_specs())
        if (s.lab == lab) p.values[s.name] = s.fallback;
    return p;
}

std::string question_text(const Question& q, const LabParams& params) { return with_params(q.text, params); }

std::string with_params(std::string t, const LabParams& params) {
    for (const ParamSpec& s : param_specs()) {
        const std::string key = "{" + s.name + "}";
        for (size_t at = t.find(key); at != std::string::npos; at = t.find(key, at))
            t.replace(at, key.size(), std::to_string(params.get(s.name)));
    }
    return t;
}

}  // namespace stencil::labs
