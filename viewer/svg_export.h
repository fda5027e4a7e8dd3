// A frame as SVG, for slides that scale: ImGui's draw lists (what the PNG's pixels were rasterised
// from) written as vector shapes. Filled triangles become paths in their colour, each glyph quad
// of the font atlas becomes its character in a <text> run (real text: it can be searched, copied
// and edited in a slide deck), and each draw command's clip rectangle a clip path.
#pragma once
#include <string>

struct ImDrawData;

namespace stencil::viewer {

struct SvgCounts {
    int paths = 0;  // filled shapes
    int texts = 0;  // runs of characters
    int chars = 0;
};

// Writes `dd` (ImGui::GetDrawData() after ImGui::Render()) at width x height. False, with *why, when
// the file cannot be written.
bool write_svg(const std::string& path, const ImDrawData* dd, int width, int height, SvgCounts* counts,
               std::string* why);

}  // namespace stencil::viewer
