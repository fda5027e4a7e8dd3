#include "handout_commands.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <sstream>

namespace stencil::handouts {

namespace {

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return {};
    return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

// The line's command and its comment: the first '#' after a blank, outside quotes.
std::pair<std::string, std::string> split_comment(const std::string& line) {
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
            return {trim(line.substr(0, i)), trim(line.substr(i + 1))};
        }
    }
    return {trim(line), ""};
}

std::vector<std::string> words_of(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    return w;
}

bool is_stencil_lab_word(const std::string& w) { return w == "stencil-lab" || w == "build/stencil-lab"; }

bool mentions_stencil_lab(const std::string& s) {
    for (const auto& w : words_of(s))
        if (is_stencil_lab_word(w)) return true;
    return false;
}

// `exit N ...`, or `GPU: exit N ...` for a GPU-only command with another exit.
int expected_exit(const std::string& comment) {
    const std::string c = starts_with(comment, "GPU:") ? trim(comment.substr(4)) : comment;
    if (starts_with(c, "exit ") && c.size() > 5 && std::isdigit(static_cast<unsigned char>(c[5]))) return c[5] - '0';
    return 0;
}

bool shell_block(const std::string& info) {
    const std::string lang = trim(info);
    return lang.empty() || lang == "sh" || lang == "bash" || lang == "console" || lang == "shell";
}

// A word that stands for something the reader fills in: FILE.cu, DIR, N, ...
bool placeholder(const std::string& w) {
    if (w.empty() || w[0] == '$' || w[0] == '-') return false;
    if (w == "..." || w.find("...") != std::string::npos) return true;
    size_t upper = 0;
    for (char c : w) {
        if (c == '.') break;  // FILE.cu: the stem decides
        if (std::isupper(static_cast<unsigned char>(c))) ++upper;
        else if (std::isalpha(static_cast<unsigned char>(c))) return false;
    }
    return upper > 0 && std::isupper(static_cast<unsigned char>(w[0]));
}

// The prose's paragraphs outside fenced blocks, each with its first line.
struct Paragraph {
    int line;
    std::string text;
};

}  // namespace

std::vector<double> numbers_in(const std::string& t) {
    std::vector<double> out;
    size_t i = 0;
    while (i < t.size()) {
        const bool sign = (t[i] == '-' || t[i] == '+') && i + 1 < t.size() && std::isdigit(static_cast<unsigned char>(t[i + 1]));
        const bool digit = std::isdigit(static_cast<unsigned char>(t[i]));
        const bool after_word = i > 0 && (std::isalnum(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '.' ||
                                          t[i - 1] == '_' || t[i - 1] == '-');
        if ((digit || sign) && !after_word) {
            char* end = nullptr;
            const double v = std::strtod(t.c_str() + i, &end);
            const size_t j = (size_t)(end - t.c_str());
            const bool word_follows = j < t.size() && (std::isalpha(static_cast<unsigned char>(t[j])) || t[j] == '_');
            if (j > i && !word_follows) out.push_back(v);
            i = std::max(j, i + 1);
            continue;
        }
        ++i;
    }
    return out;
}

std::string for_the_cpu(const std::string& command, std::string* why, bool on_gpu) {
    std::string c = std::regex_replace(command, std::regex(R"((^|[\s;(])build/stencil-lab\b)"), "$1stencil-lab");
    const auto w = words_of(c);
    auto has = [&](const std::string& x) { return std::find(w.begin(), w.end(), x) != w.end(); };
    auto skip = [&](const std::string& r) {
        *why = r;
        return std::string();
    };
    if (has("mpirun")) return skip("mpirun: the mpi tests (ctest -L mpi) run the commands under MPI");
    // Placeholders are looked for outside quotes ('^  OP/B  ' is a pattern, not a placeholder).
    const auto bare = words_of(std::regex_replace(c, std::regex(R"('[^']*'|"[^"]*")"), " "));
    for (size_t i = 0; i < bare.size(); ++i) {
        const std::string& x = bare[i];
        const bool loop_variable = i > 0 && bare[i - 1] == "for";  // "for T in 4 6 8": a shell variable
        if ((placeholder(x) && !loop_variable) || x.find('[') != std::string::npos || x.find(']') != std::string::npos)
            return skip("a synopsis (" + x + "), not a command");
    }
    for (size_t i = 0; i + 1 < w.size(); ++i)
        if (w[i] == "|" && starts_with(w[i + 1], "--")) return skip("a synopsis (" + w[i + 1] + " is an alternative)");
    if (on_gpu) return c;
    size_t at = 0;  // the subcommand
    while (at < w.size() && w[at] != "stencil-lab") ++at;
    const std::string sub = at + 1 < w.size() ? w[at + 1] : "";
    if (sub == "baseline") return skip("GPU only: baseline times the textbook's listings on CUDA");
    if (has("--counters")) return skip("GPU only: --counters reads the GPU's counters");
    if (has("--gpus")) return skip("GPU only: --gpus exchanges halos by NCCL between GPUs");
    for (size_t i = 0; i + 1 < w.size(); ++i)
        if (w[i] == "--backend" && (w[i + 1] == "cuda" || w[i + 1] == "gpu")) return skip("GPU only: --backend cuda");
    if (sub != "run" && sub != "sweep" && sub != "tune") return c;
    // Grid sides above 32 become 32; a sweep or tune without a size gets 16.
    static const std::regex side(R"((--size|-n|--nx|--ny|--nz)(\s+|=)(\d+))");
    std::string out;
    auto begin = c.cbegin();
    std::smatch m;
    while (std::regex_search(begin, c.cend(), m, side)) {
        out.append(begin, m[0].first);
        const int v = std::atoi(m[3].str().c_str());
        out += m[1].str() + m[2].str() + (v > 32 ? "32" : m[3].str());
        begin = m[0].second;
    }
    out.append(begin, c.cend());
    const bool sized = std::regex_search(out, std::regex(R"((--size|-n)(\s|=))"));
    if ((sub == "sweep" || sub == "tune") && !sized && !has("--replot")) {
        // After this command's own words: before a pipe, a redirection or the next command.
        const size_t start = out.find("stencil-lab");
        size_t end = std::min(out.find_first_of("|;&>", start), out.size());
        while (end > start && out[end - 1] == ' ') --end;
        out = out.substr(0, end) + " --size 16" + out.substr(end);
    }
    return out;
}

// Long because it is one pass over the handout's lines: code blocks and prose paragraphs are told
// apart as the lines come.
std::vector<HandoutCommand> handout_commands(const std::string& file, const std::string& markdown, bool on_gpu) {
    std::vector<std::string> lines;
    {
        std::istringstream in(markdown);
        for (std::string l; std::getline(in, l);) lines.push_back(l);
    }
    std::vector<HandoutCommand> out;
    std::vector<Paragraph> prose;
    int block = -1;
    long prev_prose = -2;  // the last prose line's index: a paragraph's lines follow each other
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string t = trim(lines[i]);
        if (!starts_with(t, "```")) {  // prose: paragraphs for the inline spans
            if (t.empty()) continue;
            if (!prose.empty() && prev_prose == (long)i - 1) prose.back().text += "\n" + t;
            else prose.push_back({(int)i + 1, t});
            prev_prose = (long)i;
            continue;
        }
        const bool runnable = shell_block(t.substr(3));
        ++block;
        std::vector<std::string> answers;
        std::vector<size_t> of_block;
        for (++i; i < lines.size() && !starts_with(trim(lines[i]), "```"); ++i) {
            if (!runnable) continue;
            const int first = (int)i + 1;
            std::string logical = lines[i];
            while (!logical.empty() && logical.back() == '\\' && i + 1 < lines.size())
                logical = trim(logical.substr(0, logical.size() - 1)) + " " + trim(lines[++i]);
            const std::string lt = trim(logical);
            if (lt.empty()) continue;
            if (lt[0] == '#') {  // a comment line; "# answers: ID ..." makes the block a recipe
                if (starts_with(lt, "# answers:"))
                    for (const auto& id : words_of(lt.substr(10))) answers.push_back(id);
                continue;
            }
            HandoutCommand c;
            c.file = file;
            c.line = first;
            c.block = block;
            static const std::regex heredoc(R"(<<\s*'?"?(\w+)'?"?)");
            std::smatch m;
            if (std::regex_search(lt, m, heredoc)) {  // its lines, up to the terminator
                const std::string end = m[1].str();
                c.text = lt;
                while (i + 1 < lines.size()) {
                    c.text += "\n" + lines[++i];
                    if (trim(lines[i]) == end) break;
                }
                c.run = c.text;
                out.push_back(c);
                of_block.push_back(out.size() - 1);
                continue;
            }
            auto [cmd, comment] = split_comment(lt);
            c.text = cmd;
            c.comment = comment;
            c.stencil_lab = mentions_stencil_lab(cmd);
            if (!c.stencil_lab) continue;  // another tool's line (scripts/test-lab, gnuplot): not ours
            c.expect_exit = expected_exit(comment);
            c.run = for_the_cpu(cmd, &c.skip, on_gpu);
            if (c.skip.empty() && starts_with(comment, "GPU:") && !on_gpu) {
                c.run.clear();
                c.skip = "GPU only: its text says so";
            }
            out.push_back(c);
            of_block.push_back(out.size() - 1);
        }
        for (size_t k : of_block) out[k].answers = answers;
    }
    // The prose's `stencil-lab ...` spans.
    for (const auto& p : prose) {
        size_t at = 0;
        while ((at = p.text.find('`', at)) != std::string::npos) {
            const size_t end = p.text.find('`', at + 1);
            if (end == std::string::npos) break;
            std::string span = p.text.substr(at + 1, end - at - 1);
            for (char& ch : span)
                if (ch == '\n') ch = ' ';
            const int line = p.line + (int)std::count(p.text.begin(), p.text.begin() + (long)at, '\n');
            at = end + 1;
            if (!starts_with(span, "stencil-lab ")) continue;
            HandoutCommand c;
            c.file = file;
            c.line = line;
            c.text = trim(span);
            c.stencil_lab = true;
            c.inline_span = true;
            // Held to its words: its command and options must exist (--help checks them, runs nothing).
            c.run = for_the_cpu(c.text, &c.skip, on_gpu);
            if (!c.run.empty()) {
                const size_t end = std::min(c.run.find_first_of("|;&>"), c.run.size());
                c.run = trim(c.run.substr(0, end)) + " --help";
            }
            out.push_back(c);
        }
    }
    return out;
}

}  // namespace stencil::handouts
