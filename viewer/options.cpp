#include "viewer/options.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>

#include "checker/exercises.h"
#include "kernels/versions.h"
#include "viewer/app.h"
#include "viewer/core/layout.h"
#include "viewer/core/opb_view.h"

namespace stencil::viewer {

// Long because it is the viewer's flags, one add_option each, in the order --help lists them.
std::optional<int> parse_options(int argc, char** argv, ViewerOptions& o) {
    CLI::App cli{"stencil-lab-viewer: step through the stencil kernels; OP/B, halos, coalescing, runs"};
    std::string panel, window_text = "1600x1000";
    cli.add_option("--screenshot", o.screenshot, "render, write the window to this PNG (and PNG.json) and exit");
    cli.add_option("--present,--panel", panel,
                   "presentation: this panel fills the window (stepper, opb, halos, coalescing, runs, check, cardiac, timeline); "
                   "Page Down / Page Up go to the next / previous panel");
    auto* frames_opt =
        cli.add_option("--frames", o.frames,
                       "frames to render before the screenshot or over which --frame-times measures")
            ->check(CLI::Range(1, 10000));
    cli.add_flag("--offscreen", o.offscreen,
                 "no window: draw with EGL into a framebuffer (a GPU machine without a display; needs "
                 "--screenshot or --frame-times)");
    cli.add_option("--frame-times", o.frame_times,
                   "time each of --frames frames (each ended by glFinish) and write mean / p50 / p95 / max ms, "
                   "fps and GL_RENDERER to this JSON file, then exit");
    cli.add_flag("--open-all", o.open_all, "open every panel (the default layout opens five)");
    cli.add_flag("--lecture", o.lecture,
                 "lecture mode: one panel (--present's, else the stepper), its figure as large as the window allows, "
                 "controls left to the keys, a small status line; L toggles it");
    cli.add_option("--opb-preset", o.opb_preset,
                   "OP/B chart: which story it tells: " + opb_preset_keys() + " (default textbook)")
        ->check([](const std::string& k) { return find_opb_preset(k) ? std::string() : "one of: " + opb_preset_keys(); });
    cli.add_option("--export-slides", o.export_slides,
                   "write the stepper's stepping (each stop of --zoom, the lecture view) as DIR/slide-NNN.png and "
                   ".svg at --window's size, listed in DIR/slides.json, then exit");
    cli.add_option("--window", window_text, "window size WxH, 1024x768 .. 3840x2160");
    cli.add_option("--font", o.font_px, "font height in pixels, 14 .. 40 (every size follows it)")
        ->check(CLI::Range(kMinFontPx, kMaxFontPx));
    cli.add_flag("--headless-report", o.headless,
                 "print the model of every kernel and a checked run of each on the best backend, then exit "
                 "(no display needed)");
    cli.add_option("--kernel", o.kernel, "stepper kernel: " + version_names());
    cli.add_option("--tile", o.tile, "stepper and halos tile edge T")->check(CLI::Range(1, 64));
    cli.add_option("--radius", o.radius, "stencil radius r (stepper, OP/B, halos)")->check(CLI::Range(1, kMaxRadius));
    cli.add_option("--precision", o.precision, "f32 or f64 (stepper and OP/B)")->check(CLI::IsMember({"f32", "f64"}));
    cli.add_option("--grid", o.grid, "stepper grid N (N^3 cells)")->check(CLI::Range(3, 256));
    cli.add_option("--block", o.block, "stepper block X,Y,Z (blockIdx)");
    int step = 0;
    auto* step_opt = cli.add_option("--step", step, "stepper step (negative: counted back from the last, -1 = last)");
    cli.add_option("--zoom", o.zoom, "stepper: what one step is, instruction, line or interval")
        ->check(CLI::IsMember({"instruction", "line", "interval"}));
    cli.add_option("--block-shape", o.block_shape,
                   "stepper and coalescing: naive's threads per block BXxBYxBZ (8x8x8 as printed, 32x4x2 coalesced)");
    cli.add_option("--kernel-file", o.kernel_file,
                   "stepper: step a student's kernel (FILE.cu, with --exercise), run on the CPU engine in the "
                   "checker's child process");
    cli.add_option("--open", o.open,
                   "File > Open: 'kernel' or 'results' shows its dialog; kernel:FILE.cu (with --exercise, or the one "
                   "the file suggests) or results:FILE.json opens FILE as if chosen in it");
    cli.add_option("--thread", o.thread, "stepper: list this thread's loads and stores (linear index in the block)")
        ->check(CLI::Range(0, 1023));
    cli.add_flag("--ptx", o.ptx, "stepper: the PTX the engine runs beside the source, with per-line counts");
    cli.add_flag("--halo-2d", o.halo_2d, "halos panel in 2D");
    cli.add_flag("--roofline", o.roofline, "OP/B panel: open its roofline tab (GFLOP/s against FLOP/B, the ceilings)");
    cli.add_option("--halo-slice", o.halo_slice, "halos panel: the z slice of the 3D tile shown")->check(CLI::Range(0, 63));
    cli.add_option("--load", o.load, "load a results.json (stencil-lab sweep) into the runs table");
    cli.add_option("--check", o.check_path, "check this .cu submission in the check panel (opens it)");
    cli.add_option("--check-report", o.check_report,
                   "show this saved check (stencil-lab check --json > FILE.json) in the check panel without "
                   "running it again");
    cli.add_option("--exercise", o.check_exercise,
                   "the exercise --check grades against (default: the one the file's folder, opening comment or "
                   "name suggests)")
        ->check([](const std::string& e) {
            return checker::find_exercise(e) ? std::string() : "one of: " + checker::exercise_names();
        });
    cli.add_option("--check-backend", o.check_backend, "auto, cuda or cpu (--check)")
        ->check(CLI::IsMember({"auto", "cuda", "cpu"}));
    cli.add_option("--check-cell", o.check_cell,
                   "--check or --check-report: click cell X,Y,Z of the slice map when the check ends (its "
                   "backward slice)");
    cli.add_option("--check-hints", o.check_hints,
                   "--check or --check-report: press Show hint this many times when the check ends")
        ->check(CLI::Range(0, 20));
    cli.add_flag("--beside-lab", o.beside_lab,
                 "with --kernel-file: step beside the lab (the lab's kernel of the exercise on the same block, "
                 "stopped at the first shared cell or store that differs)");
    cli.add_option("--runs-backend", o.runs_backend, "the runs panel's backend for --run and --measure-ceilings: "
                                                     "auto, cuda or cpu")
        ->check(CLI::IsMember({"auto", "cuda", "cpu"}));
    cli.add_option("--run", o.run_size,
                   "run the stepper's kernel (--kernel, --tile, --radius, --precision) at N^3 in the runs panel "
                   "before the first frame")
        ->check(CLI::Range(3, 1024));
    cli.add_flag("--run-sweep", o.run_sweep, "with --run: every tile size T the kernel can run");
    cli.add_flag("--measure-ceilings", o.measure_ceilings,
                 "measure the roofline's ceilings (copy GB/s, and FMA GFLOP/s on CUDA) on --runs-backend first");
    cli.add_flag("--gpu-timeline", o.gpu_timeline,
                 "record the stepper's block on the GPU first (the timeline panel's button; CUDA backend)");
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = cli.exit(e);
        return rc == 0 ? 0 : 2;
    }
    if (step_opt->count()) o.step = step;
    if (frames_opt->count() && !o.bounded()) {
        std::fprintf(stderr, "stencil-lab-viewer: --frames needs --screenshot or --frame-times\n");
        return 2;
    }
    if (o.offscreen && !o.bounded()) {  // no window to look at: nothing would come out
        std::fprintf(stderr, "stencil-lab-viewer: --offscreen needs --screenshot or --frame-times\n");
        return 2;
    }
    if (o.beside_lab && o.kernel_file.empty()) {
        std::fprintf(stderr, "stencil-lab-viewer: --beside-lab needs --kernel-file FILE.cu\n");
        return 2;
    }
    if ((!o.check_cell.empty() || o.check_hints) && o.check_path.empty() && o.check_report.empty()) {
        std::fprintf(stderr, "stencil-lab-viewer: --check-cell and --check-hints need --check FILE.cu or --check-report FILE.json\n");
        return 2;
    }
    if (!o.check_path.empty() && !o.check_report.empty()) {
        std::fprintf(stderr, "stencil-lab-viewer: --check runs a check and --check-report shows a saved one: give one\n");
        return 2;
    }
    if (o.run_sweep && !o.run_size) {
        std::fprintf(stderr, "stencil-lab-viewer: --run-sweep needs --run N\n");
        return 2;
    }
    std::string why;
    const auto size = parse_window_size(window_text, &why);
    if (!size) {
        std::fprintf(stderr, "stencil-lab-viewer: %s\n", why.c_str());
        return 2;
    }
    o.window_w = size->w;
    o.window_h = size->h;
    if (!panel.empty()) {
        for (int p = 0; p < kPanels; ++p)
            if (panel == panel_name((PanelId)p)) o.present = p;
        if (o.present < 0) {
            std::fprintf(stderr, "stencil-lab-viewer: unknown panel '%s' (stepper, opb, halos, coalescing, runs, check, cardiac, timeline)\n",
                         panel.c_str());
            return 2;
        }
    }
    return std::nullopt;
}

}  // namespace stencil::viewer
