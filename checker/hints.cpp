#include "checker/hints.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include "core/install_layout.h"

namespace stencil::checker {

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

// The table: for each exercise, which hint of its README fits each kind of finding. A kind an
// exercise has no row for gets no hint (naive has no shared memory; coarsened's hint 3 is about a
// warning, not a verdict).
constexpr HintRow kHints[] = {
    // 1: z is blockIdx.z * blockDim.z + threadIdx.z; 2: the interior condition; 3: the weights.
    {"naive", HintKind::race_global, 2},
    {"naive", HintKind::out_of_bounds_read, 2},
    {"naive", HintKind::out_of_bounds_write, 2},
    {"naive", HintKind::boundary_modified, 2},
    {"naive", HintKind::unwritten, 1},
    {"naive", HintKind::wrong_result, 3},
    // 1: the input cell can be -1 or >= N; 2: the barrier, reached by all; 3: who computes.
    {"tiled", HintKind::race_shared, 2},
    {"tiled", HintKind::barrier, 2},
    {"tiled", HintKind::race_global, 3},
    {"tiled", HintKind::unstored_shared_read, 1},
    {"tiled", HintKind::out_of_bounds_read, 1},
    {"tiled", HintKind::out_of_bounds_write, 3},
    {"tiled", HintKind::boundary_modified, 3},
    {"tiled", HintKind::unwritten, 3},
    {"tiled", HintKind::wrong_result, 1},
    // 1: the planes before the loop; 2: the loop's two waits and the shift.
    {"coarsened", HintKind::race_shared, 2},
    {"coarsened", HintKind::barrier, 2},
    {"coarsened", HintKind::out_of_bounds_read, 1},
    {"coarsened", HintKind::unstored_shared_read, 1},
    {"coarsened", HintKind::unwritten, 1},
    {"coarsened", HintKind::wrong_result, 1},
    // 1: registers need no barrier; 2: the shared plane needs both; 3: initialise the registers.
    {"register-tiled", HintKind::race_shared, 2},
    {"register-tiled", HintKind::barrier, 2},
    {"register-tiled", HintKind::wrong_result, 3},
    // 1: who reads the overwritten cell; 2: a barrier inside an if; 3: the result in shared memory.
    {"find-the-race", HintKind::race_shared, 1},
    {"find-the-race", HintKind::barrier, 2},
    {"find-the-race", HintKind::wrong_result, 3},
    // 1: the input cell can be -2, -1 or >= N; 2: the barrier; 3: who computes; 4: the new terms.
    {"tiled-r2", HintKind::race_shared, 2},
    {"tiled-r2", HintKind::barrier, 2},
    {"tiled-r2", HintKind::race_global, 3},
    {"tiled-r2", HintKind::unstored_shared_read, 4},
    {"tiled-r2", HintKind::out_of_bounds_read, 1},
    {"tiled-r2", HintKind::out_of_bounds_write, 3},
    {"tiled-r2", HintKind::boundary_modified, 3},
    {"tiled-r2", HintKind::unwritten, 3},
    {"tiled-r2", HintKind::wrong_result, 4},
    // 1: every float to double; 2: types written out; 3: the structure (loads, barriers, shift).
    {"register-tiled-f64", HintKind::wrong_result, 1},
    {"register-tiled-f64", HintKind::race_shared, 3},
    {"register-tiled-f64", HintKind::barrier, 3},
    {"register-tiled-f64", HintKind::out_of_bounds_read, 3},
    {"register-tiled-f64", HintKind::unstored_shared_read, 3},
    {"register-tiled-f64", HintKind::unwritten, 3},
    // 1: the tile with its ghost ring; 2: the edge threads load the ring; 3: the barrier.
    {"cardiac-shared", HintKind::race_shared, 3},
    {"cardiac-shared", HintKind::barrier, 3},
    {"cardiac-shared", HintKind::out_of_bounds_read, 2},
    {"cardiac-shared", HintKind::unstored_shared_read, 2},
    {"cardiac-shared", HintKind::out_of_bounds_write, 1},
    {"cardiac-shared", HintKind::unwritten, 2},
    {"cardiac-shared", HintKind::wrong_result, 2},
    // 1: the pencil's layout with its periodic images; 2: the waits around copying them.
    {"x-derivative", HintKind::race_shared, 2},
    {"x-derivative", HintKind::barrier, 2},
    {"x-derivative", HintKind::out_of_bounds_read, 1},
    {"x-derivative", HintKind::unstored_shared_read, 1},
    {"x-derivative", HintKind::out_of_bounds_write, 1},
    {"x-derivative", HintKind::unwritten, 1},
    {"x-derivative", HintKind::wrong_result, 1},
};

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

std::span<const HintRow> hint_table() { return kHints; }

int hint_for(const std::string& exercise, HintKind kind) {
    for (const HintRow& r : kHints)
        if (exercise == r.exercise && r.kind == kind) return r.hint;
    return 0;
}

std::string readme_name(const std::string& exercise) { return "exercises/" + exercise + "/README.md"; }

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
    const auto dir = data_dir(STENCIL_LAB_SOURCE_TREE);
    if (dir.empty()) return {};
    std::ifstream f(dir / "exercises" / exercise / "README.md");
    if (!f) return {};
    std::stringstream ss;
    ss << f.rdbuf();
    return parse_hints(ss.str());
}

}  // namespace stencil::checker
