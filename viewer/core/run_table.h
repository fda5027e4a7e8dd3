// The runs table's text, without ImGui: its columns (with their formulas) and each run's cells,
// formatted once with every digit they need (the table sizes its columns to them: a number is
// never shown cut). The error column says pass or FAIL against the check's bound.
#pragma once
#include <string>
#include <vector>

#include "viewer/core/results.h"

namespace stencil::viewer {

struct RunColumn {
    const char* header;
    const char* help;  // the formula, for the header's tooltip
};
const std::vector<RunColumn>& run_columns();

enum class CellTone { normal, good, bad, muted };
struct RunCell {
    std::string text;
    CellTone tone = CellTone::normal;
    std::string tooltip;
    RunCell(std::string t = {}, CellTone c = CellTone::normal, std::string tip = {})
        : text(std::move(t)), tone(c), tooltip(std::move(tip)) {}
};
// One cell per run_columns() entry.
std::vector<RunCell> run_cells(const RunRecord& r);
// "1.23 G" (the SI prefix, three digits): rates of very different sizes in one column.
std::string si_rate(double v);
// The speed column: GB/s for a GPU, emulated instructions per second on the CPU backend.
RunCell speed_cell(const RunRecord& r);
// "pass 2.2e-07 <= 4.2e-07": the error against the check's bound (when known).
RunCell error_cell(const RunRecord& r);

}  // namespace stencil::viewer
