// Small ImGui helpers every panel uses (their text goes through viewer/fit.h): the HelpMarker of imgui_demo.cpp, a value with its formula,
// a greyed-out line with its reason, colour conversion.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stencil::viewer {

// "(?)" that shows `text` in a tooltip (imgui_demo.cpp's HelpMarker).
void HelpMarker(const char* text);
// "label: value (?)" where the tooltip gives the formula.
void ValueWithHelp(const char* label, const std::string& value, const char* formula);
// "text not available: why" in the disabled colour, wrapped (the reason visible, not on hover).
void Greyed(const char* text, const std::string& why);
inline ImU32 col(std::uint32_t packed) { return (ImU32)packed; }
// A filled square of the colour, then a label (legends of cell maps).
void Swatch(std::uint32_t colour, const char* label);
float SwatchWidth(const char* label);
// A legend of swatches that flows onto the next line when the panel is narrow.
void Swatches(const std::vector<std::pair<std::uint32_t, const char*>>& items);
// A letter key pressed this frame ('L'), while no text field has the keyboard. ImGui 1.86 names
// only a few keys; it indexes the others by the backend's codes, which GLFW gives letters as their
// upper-case ASCII code (GLFW_KEY_L = 'L').
bool LetterPressed(char upper);

}  // namespace stencil::viewer
