// stencil-viewer-image-check: the screenshot tests' checker, a test tool of its own (not part of
// the viewer). Checks that a PNG has the window's size and is not blank (luminance variance), and
// that its sidecar PNG.json holds the facts given with --expect (viewer/core/sidecar_expect.h).
//
//   stencil-viewer-image-check f.png --size 1920x1080 --expect '/clipped_items=0' ...
//   stencil-viewer-image-check --slides DIR --size 1024x768
//       --export-slides' folder: DIR/slides.json lists one slide per stop of the stepping (an
//       interval stepping: the intervals and the start), each PNG of the size and not blank, each
//       SVG with shapes and text, nothing cut.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "viewer/core/measure.h"
#include "viewer/core/sidecar_expect.h"

namespace {

// The slides of --export-slides: returns the exit code, one line per finding.
int check_slides(const std::string& dir, int w, int h) {
    nlohmann::json j;
    try {
        std::ifstream in(dir + "/slides.json");
        in >> j;
    } catch (const std::exception& e) {
        std::printf("%s/slides.json: %s\n", dir.c_str(), e.what());
        return 1;
    }
    const auto& slides = j["slides"];
    bool ok = slides.size() == j["stops"].get<size_t>() && !slides.empty() && j["clipped_items"] == 0;
    if (j["zoom"] == "interval") ok = ok && slides.size() == j["intervals"].get<size_t>() + 1;
    std::printf("%zu slides for %d stops (%s zoom, %d intervals), %d clipped items\n", slides.size(),
                j["stops"].get<int>(), j["zoom"].get<std::string>().c_str(), j["intervals"].get<int>(),
                j["clipped_items"].get<int>());
    for (const auto& s : slides) {
        const std::string png = dir + "/" + s["png"].get<std::string>(), svg = dir + "/" + s["svg"].get<std::string>();
        const auto st = stencil::viewer::image_stats(png);
        std::ifstream in(svg);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        size_t paths = 0, texts = 0;
        for (size_t at = 0; (at = text.find("<path", at)) != std::string::npos; ++at) ++paths;
        for (size_t at = 0; (at = text.find("<text", at)) != std::string::npos; ++at) ++texts;
        const bool good = st.error.empty() && st.width == w && st.height == h && st.variance > 100 && paths >= 10 &&
                          texts >= 3 && text.find("</svg>") != std::string::npos &&
                          s["figures"]["stepper"]["figure_visible"] == true;
        std::printf("  %s %s: %dx%d variance %.0f; %s: %zu paths, %zu texts\n", good ? "ok  " : "FAIL", png.c_str(),
                    st.width, st.height, st.variance, svg.c_str(), paths, texts);
        ok = ok && good;
    }
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    std::string png, size, slides;
    std::vector<std::string> expects;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--size" || a == "--expect" || a == "--slides") && i + 1 < argc)
            (a == "--size" ? size : a == "--slides" ? slides : expects.emplace_back()) = argv[++i];
        else if (png.empty() && a.rfind("--", 0) != 0) png = a;
        else {
            std::fprintf(stderr, "usage: stencil-viewer-image-check FILE.png --size WxH [--expect FACT]...\n");
            return 2;
        }
    }
    int w = 0, h = 0;
    if (!slides.empty() && std::sscanf(size.c_str(), "%dx%d", &w, &h) == 2) return check_slides(slides, w, h);
    if (png.empty() || std::sscanf(size.c_str(), "%dx%d", &w, &h) != 2) {
        std::fprintf(stderr, "usage: stencil-viewer-image-check FILE.png --size WxH [--expect FACT]...\n");
        return 2;
    }
    const auto s = stencil::viewer::image_stats(png);
    bool ok = s.error.empty() && s.width == w && s.height == h && s.variance > 100;
    std::printf("%s: %dx%d, luminance mean %.1f variance %.1f%s%s\n", png.c_str(), s.width, s.height, s.mean,
                s.variance, s.error.empty() ? "" : ", ", s.error.c_str());
    if (expects.empty()) return ok ? 0 : 1;
    nlohmann::json side;
    try {
        std::ifstream in(png + ".json");
        in >> side;
    } catch (const std::exception& e) {
        std::printf("%s.json: %s\n", png.c_str(), e.what());
        return 1;
    }
    for (const auto& e : expects) {
        std::string why;
        const bool good = stencil::viewer::check_expect(side, e, &why);
        std::printf("  %s %s%s%s\n", good ? "ok  " : "FAIL", e.c_str(), good ? "" : ": ", why.c_str());
        ok = ok && good;
    }
    // A clip count above 0: name the items, so the failure says what to fix.
    if (side.contains("clipped") && !side["clipped"].empty()) std::printf("  clipped: %s\n", side["clipped"].dump().c_str());
    return ok ? 0 : 1;
}
