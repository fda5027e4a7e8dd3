#include "viewer/widgets.h"

namespace stencil::viewer {

void HelpMarker(const char* text) {
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void ValueWithHelp(const char* label, const std::string& value, const char* formula) {
    ImGui::TextUnformatted(label);
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.35f, 1.0f), "%s", value.c_str());
    HelpMarker(formula);
}

void Greyed(const char* text, const std::string& why) {
    // The reason is visible (greyed), not only on hover: a projector audience cannot hover.
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s not available: %s", text, why.c_str());
    ImGui::PopStyleColor();
}

void Swatch(std::uint32_t colour, const char* label) {
    const float h = ImGui::GetTextLineHeight();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + h, p.y + h), col(colour));
    ImGui::Dummy(ImVec2(h, h));
    ImGui::SameLine();
    ImGui::TextUnformatted(label);
}

}  // namespace stencil::viewer
