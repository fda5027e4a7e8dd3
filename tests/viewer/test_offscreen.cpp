// The viewer's --offscreen path (viewer/offscreen_egl.h) run as a user would: a frame-time
// measurement with every panel open under this machine's EGL (Mesa's llvmpipe in CI), the one line
// and exit 1 when EGL has no display at all, and the usage errors. The screenshots it draws are
// checked with the others (tests/viewer/offscreen.cmake).
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace {

const std::string kViewer = std::string(STENCIL_LAB_BINARY_DIR) + "/stencil-lab-viewer";

struct Ran {
    int rc = -1;
    std::string err;  // stderr
};

// Runs the viewer with `args` (and `env` before it), stdout dropped, stderr kept in a file of this
// process's own: ctest runs this file's test cases at once, each a process.
Ran run_viewer(const std::string& args, const std::string& env = "") {
    const std::string err_file =
        std::string(STENCIL_LAB_BINARY_DIR) + "/test_offscreen-" + std::to_string(::getpid()) + ".err";
    const std::string cmd = env + " '" + kViewer + "' " + args + " > /dev/null 2> '" + err_file + "'";
    const int status = std::system(cmd.c_str());
    Ran r;
    r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(err_file);
    std::getline(in, r.err, '\0');
    std::remove(err_file.c_str());
    return r;
}

}  // namespace

TEST_CASE("offscreen: frame times of every panel open, with sane values", "[viewer][offscreen]") {
    const std::string out = std::string(STENCIL_LAB_BINARY_DIR) + "/offscreen-frame-times.json";
    std::remove(out.c_str());
    const int frames = 12;
    const Ran r = run_viewer("--offscreen --open-all --window 1024x768 --font 16 --frames " + std::to_string(frames) +
                             " --frame-times '" + out + "'");
    CAPTURE(r.rc, r.err);
    REQUIRE(r.rc == 0);
    nlohmann::json j;
    std::ifstream(out) >> j;
    CAPTURE(j.dump());
    const double mean = j["mean_ms"], p50 = j["p50_ms"], p95 = j["p95_ms"], mx = j["max_ms"], mn = j["min_ms"];
    REQUIRE((j["frames"] == frames - 2 && j["warmup_frames"] == 2 && j["frame_ms"].size() == (size_t)frames - 2 &&
             mn > 0 && mn <= p50 && p50 <= p95 && p95 <= mx && mn <= mean && mean <= mx && mx < 60000 &&
             std::abs(j["fps"].get<double>() - 1000 / mean) < 1e-6 && j["window"][0] == 1024 &&
             j["window"][1] == 768 && j["font_px"] == 16 && j["panels_open"].size() == 8 && j["offscreen"] == true &&
             !j["gl_renderer"].get<std::string>().empty() && j["egl"].get<std::string>().find("platform") != std::string::npos &&
             !j["layout"].get<std::string>().empty()));
}

TEST_CASE("offscreen: no EGL display is one line and exit 1", "[viewer][offscreen]") {
    // glvnd with no vendor library: no platform can give a display.
    const Ran r = run_viewer("--offscreen --screenshot /dev/null", "__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent.json");
    CAPTURE(r.err);
    REQUIRE((r.rc == 1 && r.err.rfind("stencil-lab-viewer: --offscreen: no EGL display (", 0) == 0 &&
             r.err.find('\n') == r.err.size() - 1));
}

TEST_CASE("offscreen: usage errors", "[viewer][offscreen]") {
    const auto [args, says] = GENERATE(table<std::string, std::string>({
        {"--offscreen", "--offscreen needs --screenshot or --frame-times"},
        {"--frames 5", "--frames needs --screenshot or --frame-times"},
        {"--offscreen --screenshot x.png --run-sweep", "--run-sweep needs --run N"},
    }));
    CAPTURE(args);
    const Ran r = run_viewer(args);
    CAPTURE(r.err);
    REQUIRE((r.rc == 2 && r.err.find(says) != std::string::npos));
}
