// The OP/B chart tells one story at a time: a filter over opb_figure()'s series (figures.h), chosen
// by a preset or by clicking legend entries, the axes fitted to what is shown, and the limits each
// shown series obeys drawn for it. Two scales never share an axis: FLOP per byte loaded (the
// textbook's convention: naive, tiled, coarsened, register-tiled, conv27 and every measured level)
// and FLOP per byte moved (loads and stores per cell update: streaming, and temporal, whose K fused
// steps make K updates per byte moved, so its curves rise above the one-step limit by design).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "viewer/core/figures.h"

namespace stencil::viewer {

enum class OpbScale { per_byte_loaded, per_byte_moved };

struct OpbPreset {
    const char* key;          // --opb-preset's spelling: "textbook", "tiled", "beyond", "loaded"
    const char* name;         // the panel's words: "the textbook's four"
    OpbScale scale;
    std::vector<std::string> groups;  // the series groups it shows (kernel names, "temporal K=2")
    const char* explanation;  // one line above the chart: what this view says
};
const std::vector<OpbPreset>& opb_presets();
const OpbPreset* find_opb_preset(const std::string& key);
std::string opb_preset_keys();  // "textbook, tiled, beyond, loaded"

// What the chart shows: the scale and the groups (a preset's, or the user's clicks since).
struct OpbSelection {
    int preset = 0;    // into opb_presets(); -1: the user's own choice (a legend click)
    OpbScale scale = OpbScale::per_byte_loaded;
    std::set<std::string> shown;
};
OpbSelection selection_of(int preset);
// A click on a legend entry of `group`: shown <-> hidden; the selection is then the user's own.
void toggle_group(OpbSelection& s, const std::string& group);

// The chart of `sel` from the full figure `all` (every series of both scales): the scale's series
// (the others left out), those not shown kept in the legend as hidden, the axes fitted to the
// shown series and limits, and the limit lines of the shown series:
//   per byte loaded: the single-step limit (12r+1)/sizeof(real), the T -> infinity figure every
//   single-step kernel stays under; tiled's largest T (T^3 <= 1024 threads) as a vertical line.
//   per byte moved: one step per pass (12r+1)/(2 sizeof(real)) for streaming and temporal K = 1,
//   K (12r+1)/(2 sizeof(real)) for temporal's K fused steps, each in its curve's colour.
// `compact` (lecture mode, a large font in a small chart): the textbook's points labelled with their
// value only, and the hidden series left out of the legend.
OpbFigure opb_view(const OpbFigure& all, const OpbSelection& sel, int radius, Precision precision, bool log_y,
                   bool compact = false);

// The limit a shown group obeys on its scale (FLOP per byte), as opb_view draws it.
double group_limit(const std::string& group, int radius, Precision precision);

}  // namespace stencil::viewer
