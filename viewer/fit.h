// Text that is never cut, and the count of what was: every panel's text goes through these
// helpers, which measure each item as ImGui drew it (its rectangle against the cell or window it
// is in) and count the items that did not fit. The count is the screenshot sidecar's
// `clipped_items`, which CI holds at 0 for every panel at 16 and 32 px, 1024x768 and 1920x1080.
// Controls flow onto the next line when they do not fit the current one (SameLineIfFits).
#pragma once
#include <imgui.h>

#include <string>
#include <string_view>
#include <vector>

namespace stencil::viewer::fit {

struct Clip {
    std::string text;   // the item (its label or text), shortened
    std::string where;  // window / "plot" / "cell"
    float overflow_px = 0;
};
void begin_frame();                  // resets the count (one frame's items)
int clipped_count();
const std::vector<Clip>& clipped();  // the first few, for the sidecar
void note_clip(std::string_view text, const char* where, float overflow_px);

// Text items, measured as drawn.
void Text(std::string_view s);
void Colored(const ImVec4& c, std::string_view s);
void Disabled(std::string_view s);
// Wraps at the cell / window edge, at spaces only (a number is never split: viewer/core/text_wrap.h);
// a line that still does not fit is counted.
void Wrapped(std::string_view s);

// Widths of items before they are drawn, for the flow.
float TextWidth(std::string_view s);                 // the visible part (before "##")
float ButtonWidth(std::string_view label);
float LabeledWidth(float item_w, std::string_view label);  // slider / combo / input + its label
float CheckWidth(std::string_view label);            // checkbox and radio button
// Puts the next item on the current line when `w` fits there, else on the next line.
void SameLineIfFits(float w);
// The last item (a widget) against its cell / window: counted when it does not fit.
void CheckItem(std::string_view what);
// Before End() / EndChild() of a window without a horizontal scrollbar: content drawn wider than
// the window (a widget or picture pushed past its edge) counts once.
void CheckWindow(const char* name);

// Text drawn straight onto a draw list (plots), wrapped at wrap_w when > 0 (at spaces, as Wrapped):
// counted when it leaves [lo, hi].
void DrawText(ImDrawList* dl, ImVec2 pos, ImU32 colour, std::string_view text, ImVec2 lo, ImVec2 hi,
              float wrap_w = 0);
// The size DrawText gives `text` at wrap_w (0: no wrapping).
ImVec2 TextSize(std::string_view text, float wrap_w = 0);

// A panel's figure (the stepper's tile and current line, a chart, the memory axis...): the items
// between BeginFigure and EndFigure are one part of it; TakeFigure joins the parts drawn since the
// last call into the facts the sidecar reports (figure_share, figure_visible: viewer/core/layout.h).
void BeginFigure();
void EndFigure();
struct Figure {
    bool drawn = false;  // some part was drawn
    double share = 0;    // of the whole window
    bool visible = false;  // every part wholly on screen
};
Figure TakeFigure();
// Whether the last item (a group: BeginGroup / EndGroup) lies wholly inside what its window shows
// (its clip rectangle, within the screen), as a figure part is judged.
bool LastItemShown();

// A table sized to its contents: each column as wide as its widest cell or header, and when the
// whole is wider than the panel, wrapped into bands of columns, one under the other, each
// repeating the key columns. Cells are strings (formatted once by the caller); a cell's colour and
// tooltip are optional.
struct Cell {
    std::string text;
    ImVec4 colour{0, 0, 0, 0};  // alpha 0: the default text colour
    std::string tooltip;
    Cell(std::string t = {}, ImVec4 c = ImVec4(0, 0, 0, 0), std::string tip = {})
        : text(std::move(t)), colour(c), tooltip(std::move(tip)) {}
};
struct Column {
    std::string header;
    std::string help;  // the header's tooltip (the formula)
};
void Table(const char* id, const std::vector<Column>& columns, const std::vector<std::vector<Cell>>& rows,
           int key_columns = 1);

}  // namespace stencil::viewer::fit
