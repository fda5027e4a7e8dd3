#include "viewer/fit.h"

#include <imgui_internal.h>

#include <algorithm>

#include "viewer/core/layout.h"
#include "viewer/core/text_wrap.h"

namespace stencil::viewer::fit {

namespace {
int g_count = 0;
std::vector<Clip> g_clips;
constexpr size_t kKept = 20;
constexpr float kSlack = 0.5f;  // sub-pixel rounding of glyph advances

std::string_view visible(std::string_view label) {
    const size_t h = label.find("##");
    return h == std::string_view::npos ? label : label.substr(0, h);
}

// The right edge an item on the current line may reach: the cell in a table, else the window's
// work area, and never beyond what the window shows.
float right_edge() {
    ImGuiWindow* w = ImGui::GetCurrentWindow();
    return std::min(ImGui::GetContentRegionMaxAbs().x, w->ClipRect.Max.x);
}

void measure_last(std::string_view what, float edge) {
    const float over = ImGui::GetItemRectMax().x - edge;
    if (over > kSlack) note_clip(what, ImGui::GetCurrentWindow()->Name, over);
}
}  // namespace

void begin_frame() {
    g_count = 0;
    g_clips.clear();
}
int clipped_count() { return g_count; }
const std::vector<Clip>& clipped() { return g_clips; }

void note_clip(std::string_view text, const char* where, float overflow_px) {
    ++g_count;
    if (g_clips.size() < kKept) g_clips.push_back({std::string(text.substr(0, 80)), where ? where : "", overflow_px});
}

void Text(std::string_view s) {
    const float edge = right_edge();
    ImGui::TextUnformatted(s.data(), s.data() + s.size());
    measure_last(s, edge);
}

void Colored(const ImVec4& c, std::string_view s) {
    ImGui::PushStyleColor(ImGuiCol_Text, c);
    Text(s);
    ImGui::PopStyleColor();
}

void Disabled(std::string_view s) { Colored(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), s); }

namespace {
float measure_text(std::string_view t) { return ImGui::CalcTextSize(t.data(), t.data() + t.size()).x; }
}  // namespace

void Wrapped(std::string_view s) {
    const float edge = right_edge();
    const float width = std::max(1.0f, edge - ImGui::GetCursorScreenPos().x);
    const std::string lines = wrap_text(s, width, measure_text);
    ImGui::TextUnformatted(lines.data(), lines.data() + lines.size());
    measure_last(s, edge);
}

ImVec2 TextSize(std::string_view text, float wrap_w) {
    if (wrap_w <= 0) return ImGui::CalcTextSize(text.data(), text.data() + text.size());
    const std::string t = wrap_text(text, wrap_w, measure_text);
    return ImGui::CalcTextSize(t.data(), t.data() + t.size());
}

namespace {
struct FigureParts {
    bool any = false, visible = true;
    Rect box;
} g_figure;
}  // namespace

void BeginFigure() { ImGui::BeginGroup(); }

void EndFigure() {
    ImGui::EndGroup();
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const Rect part{a.x, a.y, b.x - a.x, b.y - a.y};
    // What the window shows: its clip rectangle (a child's, inside a scrolled parent) within the screen.
    const ImRect clip = ImGui::GetCurrentWindow()->ClipRect;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const Rect screen{vp->Pos.x, vp->Pos.y, vp->Size.x, vp->Size.y};
    const Rect shown{clip.Min.x, clip.Min.y, clip.Max.x - clip.Min.x, clip.Max.y - clip.Min.y};
    g_figure.visible = g_figure.visible && figure_facts(part, shown, screen).visible;
    g_figure.box = g_figure.any ? bounding(g_figure.box, part) : part;
    g_figure.any = true;
}

bool LastItemShown() {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const ImRect clip = ImGui::GetCurrentWindow()->ClipRect;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    return figure_facts(Rect{a.x, a.y, b.x - a.x, b.y - a.y},
                        Rect{clip.Min.x, clip.Min.y, clip.Max.x - clip.Min.x, clip.Max.y - clip.Min.y},
                        Rect{vp->Pos.x, vp->Pos.y, vp->Size.x, vp->Size.y})
        .visible;
}

Figure TakeFigure() {
    Figure f;
    if (g_figure.any) {
        const ImGuiViewport* vp = ImGui::GetMainViewport();
        const Rect screen{vp->Pos.x, vp->Pos.y, vp->Size.x, vp->Size.y};
        f.drawn = true;
        f.share = figure_facts(g_figure.box, screen, screen).share;
        f.visible = g_figure.visible;
    }
    g_figure = {};
    return f;
}

float TextWidth(std::string_view s) {
    const auto v = visible(s);
    return ImGui::CalcTextSize(v.data(), v.data() + v.size()).x;
}
float ButtonWidth(std::string_view label) { return TextWidth(label) + 2 * ImGui::GetStyle().FramePadding.x; }
float LabeledWidth(float item_w, std::string_view label) {
    const float t = TextWidth(label);
    return item_w + (t > 0 ? ImGui::GetStyle().ItemInnerSpacing.x + t : 0);
}
float CheckWidth(std::string_view label) { return LabeledWidth(ImGui::GetFrameHeight(), label); }

void SameLineIfFits(float w) {
    // Not SameLine-then-NewLine: that moves the cursor past the last item first, and ImGui counts
    // that position as content (a window seemed wider than it is).
    const float x = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
    if (x + w <= right_edge() + kSlack) ImGui::SameLine();
}

void CheckItem(std::string_view what) {
    measure_last(visible(what), right_edge());
}

void CheckWindow(const char* name) {
    ImGuiWindow* w = ImGui::GetCurrentWindow();
    if (w->ScrollbarX) return;  // wider content is reachable: nothing is cut
    // The edge right_edge() gives items of this window: its content region, within what it shows.
    const float over = w->DC.CursorMaxPos.x - std::min(w->ContentRegionRect.Max.x, w->ClipRect.Max.x);
    if (over > 1.0f) note_clip(std::string("content of ") + name, name, over);
}

void DrawText(ImDrawList* dl, ImVec2 pos, ImU32 colour, std::string_view text, ImVec2 lo, ImVec2 hi, float wrap_w) {
    const std::string t = wrap_w > 0 ? wrap_text(text, wrap_w, measure_text) : std::string(text);
    const ImVec2 s = ImGui::CalcTextSize(t.data(), t.data() + t.size());
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), pos, colour, t.data(), t.data() + t.size());
    const float over = std::max({lo.x - pos.x, pos.x + s.x - hi.x, lo.y - pos.y, pos.y + s.y - hi.y});
    if (over > kSlack) note_clip(text, "plot", over);
}

void Table(const char* id, const std::vector<Column>& columns, const std::vector<std::vector<Cell>>& rows,
           int key_columns) {
    const int n = (int)columns.size();
    const ImGuiStyle& st = ImGui::GetStyle();
    const float pad = 2 * st.CellPadding.x + 2;  // both sides and a border
    std::vector<float> widths(n);
    for (int c = 0; c < n; ++c) {
        widths[c] = TextWidth(columns[c].header);
        for (const auto& r : rows)
            if (c < (int)r.size()) widths[c] = std::max(widths[c], TextWidth(r[c].text));
        widths[c] += pad;
    }
    // A vertical scrollbar that appears once the rows outgrow the panel takes its width from the
    // table: keep it free from the start, so the last column never ends under it.
    const float avail = ImGui::GetContentRegionAvail().x - (ImGui::GetCurrentWindow()->ScrollbarY ? 0 : st.ScrollbarSize);
    const auto bands = table_bands(widths, avail - 2, key_columns);
    int b = 0;
    for (const auto& band : bands) {
        float band_w = 0;
        for (int c : band) band_w += widths[c];
        // A column wider than the panel (one long text) wraps inside its own band.
        const bool wrap = band_w > avail;
        const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                      (wrap ? ImGuiTableFlags_SizingStretchProp : ImGuiTableFlags_SizingFixedFit);
        ImGui::PushID(b++);
        if (ImGui::BeginTable(id, (int)band.size(), flags)) {
            for (int c : band)
                ImGui::TableSetupColumn(columns[c].header.c_str(),
                                        wrap ? ImGuiTableColumnFlags_WidthStretch : ImGuiTableColumnFlags_WidthFixed,
                                        wrap ? 1.0f : widths[c] - pad + 2);
            ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
            for (int i = 0; i < (int)band.size(); ++i) {
                ImGui::TableSetColumnIndex(i);
                // The header's item spans the cell's padding too: measure its text.
                const std::string& head = columns[band[i]].header;
                const float over = ImGui::GetCursorScreenPos().x + TextWidth(head) - right_edge();
                ImGui::TableHeader(head.c_str());
                if (over > kSlack) note_clip(head, ImGui::GetCurrentWindow()->Name, over);
                if (!columns[band[i]].help.empty() && ImGui::IsItemHovered())
                    ImGui::SetTooltip("%s", columns[band[i]].help.c_str());
            }
            for (const auto& r : rows) {
                ImGui::TableNextRow();
                for (int c : band) {
                    ImGui::TableNextColumn();
                    if (c >= (int)r.size()) continue;
                    const Cell& cell = r[c];
                    if (cell.colour.w > 0) ImGui::PushStyleColor(ImGuiCol_Text, cell.colour);
                    if (wrap) Wrapped(cell.text);
                    else Text(cell.text);
                    if (cell.colour.w > 0) ImGui::PopStyleColor();
                    if (!cell.tooltip.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", cell.tooltip.c_str());
                }
            }
            ImGui::EndTable();
        }
        ImGui::PopID();
    }
}

}  // namespace stencil::viewer::fit
