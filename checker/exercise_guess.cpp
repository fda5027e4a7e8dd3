#include "checker/exercise_guess.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace stencil::checker {

namespace {

// Lower-case words of letters and digits.
std::vector<std::string> words_of(const std::string& text) {
    std::vector<std::string> out;
    std::string w;
    for (char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            w += (char)std::tolower(static_cast<unsigned char>(c));
        } else if (!w.empty()) {
            out.push_back(std::move(w));
            w.clear();
        }
    }
    if (!w.empty()) out.push_back(std::move(w));
    return out;
}

bool named(const std::string& word, const std::vector<std::string>& text) {
    auto has = [&](const std::string& w) {
        return std::any_of(text.begin(), text.end(), [&](const std::string& t) { return t.rfind(w, 0) == 0; });
    };
    if (word == "f64") return has("f64") || has("double");
    if (word.size() >= 2 && word[0] == 'r' && std::all_of(word.begin() + 1, word.end(), ::isdigit)) {
        // "radius 2", "r = 2" or "r2"
        for (size_t i = 0; i + 1 < text.size(); ++i)
            if ((text[i] == "radius" || text[i] == "r") && text[i + 1] == word.substr(1)) return true;
        return has(word);
    }
    return has(word);
}

// The exercise all of whose words `text` names, the most words first; nullopt when none.
std::optional<std::string> best_named(const std::vector<std::string>& text, const std::vector<std::string>& names) {
    std::optional<std::string> best;
    size_t best_words = 0;
    for (const auto& n : names) {
        const auto ws = words_of(n);
        if (ws.empty() || ws.size() <= best_words) continue;
        if (std::all_of(ws.begin(), ws.end(), [&](const std::string& w) { return named(w, text); }))
            best = n, best_words = ws.size();
    }
    return best;
}

// The opening comment lines only: code below them names arrays and variables, not the exercise.
std::string opening_comment(const std::string& header) {
    std::string out;
    size_t a = 0;
    while (a < header.size()) {
        size_t e = header.find('\n', a);
        if (e == std::string::npos) e = header.size();
        const std::string line = header.substr(a, e - a);
        const size_t first = line.find_first_not_of(" \t\r");
        if (first != std::string::npos && line.compare(first, 2, "//") != 0 && line.compare(first, 2, "/*") != 0 &&
            line[first] != '*')
            break;
        out += line + "\n";
        a = e + 1;
    }
    return out;
}

}  // namespace

std::optional<ExerciseGuess> guess_exercise(const std::string& path, const std::string& header,
                                            const std::vector<std::string>& names) {
    const std::filesystem::path p(path);
    const std::string folder = p.parent_path().filename().string();
    if (std::find(names.begin(), names.end(), folder) != names.end()) return ExerciseGuess{folder, "its folder"};
    // An exercise folder of the instructor's: the file sits in it (a skeleton, a solution) or in
    // its wrong/ folder.
    for (std::filesystem::path dir = p.parent_path(); !dir.empty(); dir = dir.filename() == "wrong" ? dir.parent_path() : std::filesystem::path()) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(dir / "exercise.toml", ec)) return ExerciseGuess{dir.string(), "its exercise folder"};
        if (dir.filename() != "wrong") break;
    }
    if (auto n = best_named(words_of(opening_comment(header)), names)) return ExerciseGuess{*n, "its opening comment"};
    if (auto n = best_named(words_of(p.stem().string()), names)) return ExerciseGuess{*n, "its file name"};
    return std::nullopt;
}

std::string read_header(const std::string& path, std::size_t max_bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "";
    std::string s(max_bytes, '\0');
    in.read(s.data(), (std::streamsize)max_bytes);
    s.resize((size_t)in.gcount());
    return s;
}

std::string exercise_mismatch(const std::optional<ExerciseGuess>& g, const std::string& chosen) {
    if (!g || g->name == chosen) return "";
    return "the file looks like the '" + g->name + "' exercise (" + g->reason + "), but '" + chosen +
           "' is chosen: its contract and its tests are the ones applied";
}

}  // namespace stencil::checker
