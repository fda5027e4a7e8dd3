// stencil-viewer-image-check: the screenshot tests' checker, a test tool of its own (not part of
// the viewer). Checks that a PNG has the window's size and is not blank (luminance variance), and
// that its sidecar PNG.json holds the facts given with --expect (viewer/core/sidecar_expect.h).
//
//   stencil-viewer-image-check f.png --size 1920x1080 --expect '/clipped_items=0' ...
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "viewer/core/measure.h"
#include "viewer/core/sidecar_expect.h"

int main(int argc, char** argv) {
    std::string png, size;
    std::vector<std::string> expects;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--size" || a == "--expect") && i + 1 < argc) (a == "--size" ? size : expects.emplace_back()) = argv[++i];
        else if (png.empty() && a.rfind("--", 0) != 0) png = a;
        else {
            std::fprintf(stderr, "usage: stencil-viewer-image-check FILE.png --size WxH [--expect FACT]...\n");
            return 2;
        }
    }
    int w = 0, h = 0;
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
