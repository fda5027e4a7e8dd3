#include "viewer/widgets.h"

#include "viewer/fit.h"

namespace stencil::viewer {

void HelpMarker(const char* text) {
    fit::SameLineIfFits(fit::TextWidth("(?)"));
    fit::Disabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void ValueWithHelp(const char* label, const std::string& value, const char* formula) {
    fit::Text(label);
    fit::SameLineIfFits(fit::TextWidth(value));
    fit::Colored(ImVec4(1.0f, 0.85f, 0.35f, 1.0f), value);
    HelpMarker(formula);
}

void Greyed(const char* text, const std::string& why) {
    // The reason is visible (greyed), not only on hover: a projector audience cannot hover.
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    fit::Wrapped(std::string(text) + " not available: " + why);
    ImGui::PopStyleColor();
}

float SwatchWidth(const char* label) {
    return ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.x + fit::TextWidth(label);
}

void Swatch(std::uint32_t colour, const char* label) {
    const float h = ImGui::GetTextLineHeight();
    ImGui::BeginGroup();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + h, p.y + h), col(colour));
    ImGui::Dummy(ImVec2(h, h));
    ImGui::SameLine();
    fit::Text(label);
    ImGui::EndGroup();
}

void Swatches(const std::vector<std::pair<std::uint32_t, const char*>>& items) {
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) fit::SameLineIfFits(SwatchWidth(items[i].second));
        Swatch(items[i].first, items[i].second);
    }
}

}  // namespace stencil::viewer

namespace stencil::viewer {

bool LetterPressed(char upper) { return !ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(upper, false); }

}  // namespace stencil::viewer
