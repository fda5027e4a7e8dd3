// The projector's geometry: window limits, where the panels go for a window and a font, how a
// table too wide for its panel wraps into bands; the screenshot facts; the runs table's cells.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <numeric>

#include "viewer/core/layout.h"
#include "viewer/core/run_table.h"
#include "viewer/core/sidecar_expect.h"

using namespace stencil::viewer;

TEST_CASE("the --window option takes WxH from 1024x768 to 3840x2160 and says why not otherwise", "[viewer][layout]") {
    const auto [text, ok] = GENERATE(table<const char*, bool>({{"1024x768", true},
                                                                {"3840x2160", true},
                                                                {"1920x1080", true},
                                                                {"1023x768", false},
                                                                {"1024x767", false},
                                                                {"3841x2160", false},
                                                                {"1920x1080x", false},
                                                                {"1920", false}}));
    CAPTURE(text);
    std::string why;
    const auto s = parse_window_size(text, &why);
    REQUIRE((s.has_value() == ok && (ok || why.find(text) != std::string::npos)));
}

namespace {
bool inside(const Rect& r, const Rect& area) {
    return r.x >= area.x - 0.5f && r.y >= area.y - 0.5f && r.x + r.w <= area.x + area.w + 0.5f &&
           r.y + r.h <= area.y + area.h + 0.5f;
}
bool overlap(const Rect& a, const Rect& b) {
    return a.x + a.w > b.x + 0.5f && b.x + b.w > a.x + 0.5f && a.y + a.h > b.y + 0.5f && b.y + b.h > a.y + 0.5f;
}
}  // namespace

TEST_CASE("the default layout adapts: a grid of whole panels, the stepper beside the others' tabs, else tabs",
          "[viewer][layout]") {
    const auto [w, h, font] = GENERATE(table<float, float, float>(
        {{1024, 768, 16}, {1024, 768, 32}, {1920, 1080, 16}, {1920, 1080, 32}, {3840, 2160, 40}, {1600, 1000, 20},
         {3840, 2160, 20}}));
    CAPTURE(w, h, font);
    const std::vector<bool> open = {true, true, true, true, true, false};
    const Rect area{0, 30, w, h - 30};
    const PanelLayout L = panel_layout(open, area, font);
    REQUIRE(L.panels == std::vector<int>{0, 1, 2, 3, 4});
    const float min_w = kMinPanelCols * font, min_h = kMinPanelRows * font;
    auto whole = [&](const Rect& r) { return inside(r, area) && r.w >= min_w - 0.5f && r.h >= min_h - 0.5f; };
    if (L.mode == LayoutMode::grid) {
        bool ok = L.rects.size() == 5;
        for (size_t i = 0; ok && i < L.rects.size(); ++i) {
            ok = whole(L.rects[i]);
            for (size_t j = 0; ok && j < i; ++j) ok = !overlap(L.rects[i], L.rects[j]);
        }
        REQUIRE(ok);
    } else if (L.mode == LayoutMode::split) {
        // No grid gave every panel its minimum; half the window does.
        REQUIRE((L.rects.size() == 2 && whole(L.rects[0]) && whole(L.rects[1]) && !overlap(L.rects[0], L.rects[1])));
    } else {
        REQUIRE((L.mode == LayoutMode::tabs && L.rects.size() == 1 && (w / 2 < min_w || area.h < min_h)));
    }
}

TEST_CASE("the layout at the sizes a projector uses: split at 1920x1080, tabs at 1024x768 32 px, a grid at 4K",
          "[viewer][layout]") {
    const std::vector<bool> open = {true, true, true, true, true, false};
    // Five panels sharing 1920x1080 showed no whole figure: the stepper beside the others' tabs.
    REQUIRE(panel_layout(open, {0, 0, 1920, 1050}, 16).mode == LayoutMode::split);
    REQUIRE(panel_layout(open, {0, 0, 1920, 1050}, 20).mode == LayoutMode::split);
    REQUIRE(panel_layout(open, {0, 0, 1024, 730}, 32).mode == LayoutMode::tabs);
    const std::vector<bool> all(8, true);
    REQUIRE(panel_layout(all, {0, 0, 3840, 2130}, 20).mode == LayoutMode::grid);
    // One panel open fills the area (presentation, lecture mode).
    const PanelLayout solo = panel_layout({false, true, false, false, false, false}, {0, 0, 1024, 730}, 40);
    REQUIRE((solo.mode == LayoutMode::solo && solo.panels == std::vector<int>{1} && solo.rects[0].w == 1024));
    REQUIRE(std::string(to_string(LayoutMode::split)) == "split");
}

TEST_CASE("a table wider than its panel wraps into bands that repeat the key column", "[viewer][layout]") {
    const std::vector<float> w = {100, 50, 50, 200, 120, 80};
    SECTION("everything fits: one band of all columns") {
        REQUIRE(table_bands(w, 600, 1) == std::vector<std::vector<int>>{{0, 1, 2, 3, 4, 5}});
    }
    SECTION("narrow: every band fits, starts with the key, and each column appears once") {
        const auto b = table_bands(w, 320, 1);
        std::vector<int> seen;
        bool ok = b.size() > 1;
        for (const auto& band : b) {
            float sum = 0;
            for (int c : band) sum += w[c];
            ok = ok && band.front() == 0 && sum <= 320;
            seen.insert(seen.end(), band.begin() + 1, band.end());
        }
        REQUIRE((ok && seen == std::vector<int>{1, 2, 3, 4, 5}));
    }
    SECTION("a column wider than the panel gets a band of its own") {
        const auto b = table_bands({100, 500, 50}, 300, 1);
        REQUIRE(b == std::vector<std::vector<int>>{{0, 1}, {0, 2}});
    }
}

TEST_CASE("the screenshot facts: =, >=, <=, ~ on a JSON pointer", "[viewer][layout]") {
    const nlohmann::json j = {{"clipped_items", 0}, {"opb", {{"limit", 12.25}, {"why", "load a GPU sweep"}}}};
    const auto [fact, holds] = GENERATE(table<const char*, bool>({{"/clipped_items=0", true},
                                                                  {"/clipped_items=1", false},
                                                                  {"/opb/limit>=12.25", true},
                                                                  {"/opb/limit<=12", false},
                                                                  {"/opb/limit<=12.25", true},
                                                                  {"/opb/why~GPU", true},
                                                                  {"/opb/why~CPU", false},
                                                                  {"/opb/missing=1", false},
                                                                  {"no pointer", false}}));
    CAPTURE(fact);
    std::string why;
    const bool got = check_expect(j, fact, &why);
    REQUIRE((got == holds && (holds || !why.empty())));
}

TEST_CASE("the runs table: a cell per column, numbers in full, pass or FAIL against the bound", "[viewer][results]") {
    RunRecord r;
    r.kernel = "register-tiled";
    r.dims = {256, 256, 256};
    r.backend = "cuda";
    r.ms_median = 1234.5678;
    r.gbps = 512.31;
    r.checked = true;
    r.ok = true;
    r.max_rel_err = 1.5e-7;
    auto cells = run_cells(r);
    REQUIRE(cells.size() == run_columns().size());
    REQUIRE((cells[4].text == "256x256x256" && cells[6].text == "1234.568" && cells[7].text == "512.3 GB/s" &&
             cells[9].text == "pass 1.5e-07" && cells[9].tone == CellTone::good));
    r.ok = false;
    REQUIRE((run_cells(r)[9].text.rfind("FAIL", 0) == 0 && run_cells(r)[9].tone == CellTone::bad));
    r.error = "the check failed: 12 cells";
    REQUIRE((run_cells(r)[9].text == "FAIL" && run_cells(r)[9].tooltip == r.error));
}

TEST_CASE("the runs table: the CPU backend's speed in emulated instructions per second, the error against its bound",
          "[viewer][results]") {
    RunRecord r;
    r.backend = "cpu";
    r.gbps = 0.02;
    r.instructions_per_s = 123456789;
    r.checked = true;
    r.ok = true;
    r.max_rel_err = 1.5e-7;
    r.bound = 4.17e-7;
    REQUIRE((speed_cell(r).text == "123 Minst/s" && error_cell(r).text == "pass 1.5e-07 <= 4.2e-07" &&
             si_rate(2.5e9) == "2.5 G" && si_rate(12) == "12 "));
    r.instructions_per_s = 0;  // a CPU run loaded from a file without the count: never its GB/s
    r.ok = false;
    r.max_rel_err = 1e-3;
    REQUIRE((speed_cell(r).text == "-" && error_cell(r).text == "FAIL 0.001 > 4.2e-07" && error_cell(r).tone == CellTone::bad));
}

TEST_CASE("lecture font: follows the window, 32 px at 1024x768 and 40 at 1920x1080", "[viewer][layout]") {
    CHECK(lecture_font_px(1024, 768) == 32);
    CHECK(lecture_font_px(1920, 1080) == 40);
    CHECK(lecture_font_px(3840, 2160) == kMaxFontPx);  // the limits hold past them
    CHECK(lecture_font_px(640, 480) == 20);
    CHECK(lecture_font_px(200, 100) == kMinFontPx);
    // A tall narrow window is limited by its width: a 4:3 and a 16:9 window keep the same columns.
    CHECK(lecture_font_px(1024, 1400) == 32);
    // Bigger windows never get smaller fonts.
    int last = 0;
    for (int h = 480; h <= 2160; h += 40) {
        const int px = lecture_font_px(h * 16.0f / 9.0f, (float)h);
        CAPTURE(h, px);
        CHECK(px >= last);
        last = px;
    }
}
