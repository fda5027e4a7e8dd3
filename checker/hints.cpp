#include "checker/hints.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include "checker/causes.h"
#include "checker/exercises.h"

namespace stencil::checker {

namespace {

// "12. text" -> 12 (and where the text starts); 0 when the line is not a numbered item.
int item_number(const std::string& line, size_t& text_at) {
    size_t i = 0;
    int n = 0;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) n = n * 10 + (line[i++] - '0');
    if (i == 0 || i + 1 >= line.size() || line[i] != '.' || line[i + 1] != ' ') return 0;
    text_at = i + 2;
    return n;
}

}  // namespace

bool is_hint_cause(const std::string& name) { return parse_cause(name).has_value(); }

std::string hint_cause_names() {
    std::string s;
    for (Cause c : all_causes()) s += (s.empty() ? "" : ", ") + std::string(cause_name(c));
    return s;
}

int hint_for(const std::string& exercise, const std::string& cause) {
    if (cause.empty()) return 0;
    const Exercise* ex = find_exercise(exercise);
    if (!ex) return 0;
    const auto it = ex->hints.find(cause);
    return it == ex->hints.end() ? 0 : it->second;
}

std::string readme_name(const std::string& exercise) {
    const Exercise* ex = find_exercise(exercise);
    // a course's folder by its own name (exercise_label), a built-in by where the lab keeps it
    return (ex ? (ex->builtin ? ex->display : ex->name) : "exercises/" + exercise) + "/README.md";
}

std::vector<std::string> parse_hints(const std::string& readme_text) {
    std::vector<std::string> hints;
    std::istringstream in(readme_text);
    std::string line;
    bool in_hints = false;
    while (std::getline(in, line)) {
        if (!in_hints) {
            in_hints = line.rfind("**Hints.**", 0) == 0;
            continue;
        }
        size_t at = 0;
        if (const int n = item_number(line, at); n == int(hints.size()) + 1) {
            hints.push_back(line.substr(at));
        } else if (!hints.empty() && !line.empty() && line[0] == ' ') {  // the item goes on
            hints.back() += ' ';
            hints.back().append(line, line.find_first_not_of(' '));
        } else if (!hints.empty() || !line.empty()) {
            break;  // the list ended (a blank line, a code block, the next paragraph)
        }
    }
    return hints;
}

std::vector<std::string> exercise_hints(const std::string& exercise) {
    const Exercise* ex = find_exercise(exercise);
    if (!ex) return {};
    std::ifstream f(ex->folder / "README.md");
    if (!f) return {};
    std::stringstream ss;
    ss << f.rdbuf();
    return parse_hints(ss.str());
}

}  // namespace stencil::checker
