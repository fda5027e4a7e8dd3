#include "viewer/svg_export.h"

#include <imgui.h>

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

namespace stencil::viewer {

namespace {

// A glyph of the atlas, found by the texture coordinates of its quad's top-left corner.
struct GlyphAt {
    const ImFont* font;
    const ImFontGlyph* glyph;
};
using GlyphKey = std::pair<long, long>;
GlyphKey key_of(ImVec2 uv) { return {std::lround(uv.x * 65536.0), std::lround(uv.y * 65536.0)}; }

std::map<GlyphKey, GlyphAt> glyph_table() {
    std::map<GlyphKey, GlyphAt> t;
    const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
    for (const ImFont* f : atlas->Fonts)
        for (const ImFontGlyph& g : f->Glyphs)
            if (g.Visible) t.emplace(key_of(ImVec2(g.U0, g.V0)), GlyphAt{f, &g});
    return t;
}

// "#rrggbb" and an opacity from ImGui's packed 0xAABBGGRR.
std::string rgb(ImU32 c) { return fmt::format("#{:02x}{:02x}{:02x}", c & 0xff, (c >> 8) & 0xff, (c >> 16) & 0xff); }
double alpha(ImU32 c) { return ((c >> 24) & 0xff) / 255.0; }
std::string fill_attrs(ImU32 c) {
    const double a = alpha(c);
    return a >= 0.999 ? fmt::format("fill=\"{}\"", rgb(c)) : fmt::format("fill=\"{}\" fill-opacity=\"{:.3f}\"", rgb(c), a);
}

// A triangle's colour: the mean of its corners' (an anti-aliased edge fades to 0 at its outer corners).
ImU32 mean_colour(ImU32 a, ImU32 b, ImU32 c) {
    ImU32 out = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        const unsigned v = (((a >> shift) & 0xff) + ((b >> shift) & 0xff) + ((c >> shift) & 0xff) + 1) / 3;
        out |= (ImU32)v << shift;
    }
    return out;
}

std::string escaped(unsigned codepoint) {
    switch (codepoint) {
        case '&': return "&amp;";
        case '<': return "&lt;";
        case '>': return "&gt;";
        case '"': return "&quot;";
    }
    std::string s;  // UTF-8
    if (codepoint < 0x80) s += (char)codepoint;
    else if (codepoint < 0x800) s += (char)(0xc0 | (codepoint >> 6)), s += (char)(0x80 | (codepoint & 0x3f));
    else {
        s += (char)(0xe0 | (codepoint >> 12));
        s += (char)(0x80 | ((codepoint >> 6) & 0x3f));
        s += (char)(0x80 | (codepoint & 0x3f));
    }
    return s;
}

// Characters on one baseline, in one font size and colour, each at its own x: one <text>.
struct TextRun {
    float baseline = 0, size = 0, next_x = 0;
    ImU32 colour = 0;
    std::string xs, chars;
    bool empty() const { return chars.empty(); }
};

struct Writer {
    std::ostringstream out;
    SvgCounts counts;
    std::string path_d;  // triangles of one colour, joined into one path
    ImU32 path_colour = 0;
    TextRun run;

    void flush_path() {
        if (path_d.empty()) return;
        out << "<path " << fill_attrs(path_colour) << " d=\"" << path_d << "\"/>\n";
        ++counts.paths;
        path_d.clear();
    }
    void flush_text() {
        if (run.empty()) return;
        out << fmt::format("<text xml:space=\"preserve\" x=\"{}\" y=\"{:.1f}\" font-size=\"{:.1f}\" {}>", run.xs,
                           run.baseline, run.size,
                           fill_attrs(run.colour))
            << run.chars << "</text>\n";
        ++counts.texts;
        run = {};
    }
    void triangle(ImVec2 a, ImVec2 b, ImVec2 c, ImU32 colour) {
        if (alpha(colour) < 0.02) return;
        flush_text();
        if (colour != path_colour) flush_path();
        path_colour = colour;
        path_d += fmt::format("M{:.1f} {:.1f}L{:.1f} {:.1f}L{:.1f} {:.1f}Z", a.x, a.y, b.x, b.y, c.x, c.y);
    }
    void glyph(const GlyphAt& g, ImVec2 top_left, float quad_w, ImU32 colour) {
        flush_path();
        // The quad's size over the glyph's own gives the size it was drawn at (a font drawn scaled).
        const float scale = g.glyph->X1 > g.glyph->X0 ? quad_w / (g.glyph->X1 - g.glyph->X0) : 1.0f;
        const float size = g.font->FontSize * scale;
        const float x = top_left.x - g.glyph->X0 * scale;
        const float baseline = top_left.y - g.glyph->Y0 * scale + g.font->Ascent * scale;
        // ImGui draws no quad for a space: the spaces are put back (searchable, copyable text); a gap
        // wider than a few spaces starts another run (another label on the same line).
        const ImFontGlyph* space = g.font->FindGlyphNoFallback(' ');
        const float space_w = space ? space->AdvanceX * scale : size * 0.3f;
        const bool same_run = !run.empty() && std::abs(run.baseline - baseline) < 0.5f && std::abs(run.size - size) < 0.1f &&
                              run.colour == colour && x >= run.next_x - 0.5f && x - run.next_x < space_w * 4.5f;
        if (!same_run) flush_text();
        if (run.empty()) run = {baseline, size, x, colour, "", ""};
        if (same_run && space_w > 0)
            for (float at = run.next_x; x - at > space_w * 0.5f; at += space_w) {
                run.xs += fmt::format(" {:.1f}", at);
                run.chars += ' ';
            }
        if (!run.xs.empty()) run.xs += ' ';
        run.xs += fmt::format("{:.1f}", x);
        run.chars += escaped(g.glyph->Codepoint);
        run.next_x = x + g.glyph->AdvanceX * scale;
        ++counts.chars;
    }
};

}  // namespace

bool write_svg(const std::string& path, const ImDrawData* dd, int width, int height, SvgCounts* counts,
               std::string* why) {
    const auto glyphs = glyph_table();
    const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
    Writer w;
    w.out << fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
                         "font-family=\"DejaVu Sans, Verdana, sans-serif\">\n"
                         "<rect width=\"{0}\" height=\"{1}\" fill=\"#17171c\"/>\n",
                         width, height);
    std::map<std::tuple<int, int, int, int>, int> clips;  // a clip path per distinct rectangle
    for (int l = 0; dd && l < dd->CmdListsCount; ++l) {
        const ImDrawList* list = dd->CmdLists[l];
        for (const ImDrawCmd& cmd : list->CmdBuffer) {
            if (cmd.UserCallback || cmd.ElemCount == 0) continue;
            const ImVec4 cr = cmd.ClipRect;
            const auto rect = std::make_tuple((int)std::floor(cr.x), (int)std::floor(cr.y), (int)std::ceil(cr.z),
                                              (int)std::ceil(cr.w));
            const bool whole = std::get<0>(rect) <= 0 && std::get<1>(rect) <= 0 && std::get<2>(rect) >= width &&
                               std::get<3>(rect) >= height;
            if (!whole) {
                auto [it, fresh] = clips.emplace(rect, (int)clips.size());
                if (fresh)
                    w.out << fmt::format("<clipPath id=\"c{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>\n",
                                         it->second, std::get<0>(rect), std::get<1>(rect),
                                         std::get<2>(rect) - std::get<0>(rect), std::get<3>(rect) - std::get<1>(rect));
                w.out << fmt::format("<g clip-path=\"url(#c{})\">\n", it->second);
            }
            const ImDrawIdx* idx = list->IdxBuffer.Data + cmd.IdxOffset;
            const ImDrawVert* vtx = list->VtxBuffer.Data + cmd.VtxOffset;
            for (unsigned i = 0; i + 2 < cmd.ElemCount; i += 3) {
                const ImDrawVert &a = vtx[idx[i]], &b = vtx[idx[i + 1]], &c = vtx[idx[i + 2]];
                const bool solid = a.uv.x == white.x && a.uv.y == white.y;
                if (!solid) {
                    const auto g = glyphs.find(key_of(a.uv));
                    if (g != glyphs.end() && i + 5 < cmd.ElemCount) {  // a glyph's quad: two triangles
                        w.glyph(g->second, a.pos, b.pos.x - a.pos.x, a.col);
                        i += 3;
                        continue;
                    }
                }
                // A filled shape, or a texture-baked line (drawn filled, its fringe included).
                w.triangle(a.pos, b.pos, c.pos, mean_colour(a.col, b.col, c.col));
            }
            w.flush_path();
            w.flush_text();
            if (!whole) w.out << "</g>\n";
        }
    }
    w.out << "</svg>\n";
    std::ofstream f(path);
    f << w.out.str();
    if (!f) {
        if (why) *why = "cannot write " + path;
        return false;
    }
    if (counts) *counts = w.counts;
    return true;
}

}  // namespace stencil::viewer
