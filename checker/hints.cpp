#include "checker/hints.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include "checker/exercises.h"

namespace stencil::checker {

const char* cause_name(HintKind k) {
    switch (k) {
        case HintKind::race_shared: return "race_shared";
        case HintKind::race_global: return "race_global";
        case HintKind::unstored_shared_read: return "unstored_shared_read";
        case HintKind::barrier: return "barrier";
        case HintKind::out_of_bounds_read: return "out_of_bounds_read";
        case HintKind::out_of_bounds_write: return "out_of_bounds_write";
        case HintKind::input_modified: return "input_modified";
        case HintKind::boundary_modified: return "boundary_modified";
        case HintKind::unwritten: return "unwritten";
        case HintKind::wrong_result: return "wrong_result";
        case HintKind::timeout: return "timeout";
    }
    return "?";
}

const char* to_string(HintKind k) {
    switch (k) {
        case HintKind::race_shared: return "race (shared memory)";
        case HintKind::race_global: return "race (global memory)";
        case HintKind::unstored_shared_read: return "a read of shared memory no thread stored";
        case HintKind::barrier: return "barrier error";
        case HintKind::out_of_bounds_read: return "out-of-bounds read";
        case HintKind::out_of_bounds_write: return "out_of_bounds_write";
        case HintKind::input_modified: return "input_modified";
        case HintKind::boundary_modified: return "boundary_modified";
        case HintKind::unwritten: return "unwritten";
        case HintKind::wrong_result: return "wrong_result";
        case HintKind::timeout: return "timeout";
    }
    return "?";
}

namespace {

constexpr HintKind kHintKinds[] = {HintKind::race_shared,       HintKind::race_global,         HintKind::unstored_shared_read,
                                   HintKind::barrier,           HintKind::out_of_bounds_read,  HintKind::out_of_bounds_write,
                                   HintKind::input_modified,    HintKind::boundary_modified,   HintKind::unwritten,
                                   HintKind::wrong_result,      HintKind::timeout};

bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

// Whether the statements a finding names are in shared memory, a barrier, or unknown (-1).
enum class Space { unknown, shared, global, barrier };
Space space_of(const std::string& instruction) {
    if (instruction.rfind("bar", 0) == 0) return Space::barrier;  // bar.sync, barrier.sync
    if (contains(instruction, ".shared")) return Space::shared;
    if (contains(instruction, ".global") || instruction.rfind("ld", 0) == 0 || instruction.rfind("st", 0) == 0 ||
        instruction.rfind("atom", 0) == 0 || instruction.rfind("red", 0) == 0)
        return Space::global;
    return Space::unknown;
}

Space race_space(const Evidence& ev) {
    for (const SourceRef& s : ev.sources)
        if (Space sp = space_of(s.instruction); sp != Space::unknown) return sp;
    if (ev.line)
        if (Space sp = space_of(ev.line->instruction); sp != Space::unknown) return sp;
    // The diagnosis's own words (checker/diagnostics.cpp), when the PTX instruction is unknown.
    if (contains(ev.message, "shared-memory race")) return Space::shared;
    if (contains(ev.message, "global-memory race")) return Space::global;
    if (contains(ev.message, "__syncthreads()") && !contains(ev.message, "race")) return Space::barrier;
    return Space::unknown;
}

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

bool is_hint_cause(const std::string& name) {
    for (HintKind k : kHintKinds)
        if (name == cause_name(k)) return true;
    return false;
}

std::string hint_cause_names() {
    std::string s;
    for (HintKind k : kHintKinds) s += (s.empty() ? "" : ", ") + std::string(cause_name(k));
    return s;
}

std::optional<HintKind> hint_kind(Verdict v, const Evidence& ev) {
    // Outputs that depend on shared cells no thread stored (runs that differ, a NaN, a wrong value):
    // a load that was skipped or went elsewhere, whatever verdict it showed as.
    const bool unstored = contains(ev.message, "shared memory that no thread") || contains(ev.message, "never stored") ||
                          contains(ev.message, "no thread had stored");
    if (unstored && (v == Verdict::race || v == Verdict::wrong_result || v == Verdict::unwritten))
        return HintKind::unstored_shared_read;
    switch (v) {
        case Verdict::race:
            switch (race_space(ev)) {
                case Space::barrier: return HintKind::barrier;
                case Space::global: return HintKind::race_global;
                default: return HintKind::race_shared;  // runs that differ: most often a missing barrier
            }
        case Verdict::crash:
            // Only the CPU engine's out-of-bounds load is the student's index; other crashes vary.
            if (contains(ev.message, "out-of-bounds load") || contains(ev.message, "out-of-bounds read"))
                return HintKind::out_of_bounds_read;
            return std::nullopt;
        case Verdict::out_of_bounds_write: return HintKind::out_of_bounds_write;
        case Verdict::input_modified: return HintKind::input_modified;
        case Verdict::boundary_modified: return HintKind::boundary_modified;
        case Verdict::unwritten: return HintKind::unwritten;
        case Verdict::wrong_result: return HintKind::wrong_result;
        case Verdict::timeout: return HintKind::timeout;
        default: return std::nullopt;
    }
}

int hint_for(const std::string& exercise, HintKind kind) {
    const Exercise* ex = find_exercise(exercise);
    if (!ex) return 0;
    const auto it = ex->hints.find(cause_name(kind));
    return it == ex->hints.end() ? 0 : it->second;
}

std::string readme_name(const std::string& exercise) {
    const Exercise* ex = find_exercise(exercise);
    return (ex ? ex->display : "exercises/" + exercise) + "/README.md";
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
