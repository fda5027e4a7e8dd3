// Wrapping text at a width without ImGui: lines broken at spaces, so a number is never split
// ("8.00" became "8." and "00": ImGui's own wrapping also breaks after '.', ',' and the like).
// Only a word wider than the whole line (a long code expression) is broken inside, after an
// operator or a bracket, else between letters; a number's digits and its point stay together.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace stencil::viewer {

using TextMeasure = std::function<float(std::string_view)>;  // the width of a text as drawn

// The lines of `text` (its own line breaks kept), each at most `width` wide where a line can be.
std::vector<std::string> wrap_lines(std::string_view text, float width, const TextMeasure& measure);
// The same lines joined with '\n'.
std::string wrap_text(std::string_view text, float width, const TextMeasure& measure);

}  // namespace stencil::viewer
