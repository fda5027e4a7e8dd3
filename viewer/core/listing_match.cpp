#include "viewer/core/listing_match.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace stencil::viewer {

namespace {

// Words that say nothing about which statement a line is: types, qualifiers, casts' types.
bool is_noise_word(const std::string& w) {
    static const std::set<std::string> noise = {"const", "int", "unsigned", "float", "double", "real",
                                                "auto", "long", "constexpr", "static_cast"};
    return noise.count(w) > 0;
}

std::string code_part(const std::string& line) {
    std::string c = line.substr(0, line.find("//"));
    for (auto a = c.find("/*"); a != std::string::npos; a = c.find("/*")) {
        const auto b = c.find("*/", a + 2);
        c.erase(a, b == std::string::npos ? std::string::npos : b + 2 - a);
    }
    return c;
}

bool ident_start(char ch) { return std::isalpha((unsigned char)ch) || ch == '_'; }
bool ident_char(char ch) { return std::isalnum((unsigned char)ch) || ch == '_'; }

}  // namespace

std::vector<std::string> statement_tokens(const std::string& line, const std::vector<std::string>& shared_names,
                                          const std::vector<std::string>& loop_names) {
    const std::string c = code_part(line);
    std::vector<std::string> raw;
    for (size_t i = 0; i < c.size();) {
        const char ch = c[i];
        if (std::isspace((unsigned char)ch)) {
            ++i;
        } else if (ident_start(ch)) {
            size_t j = i;
            while (j < c.size() && ident_char(c[j])) ++j;
            raw.push_back(c.substr(i, j - i));
            i = j;
        } else if (std::isdigit((unsigned char)ch)) {
            size_t j = i;
            while (j < c.size() && (ident_char(c[j]) || c[j] == '.')) ++j;
            raw.push_back("#");
            i = j;
        } else {
            static const char* two[] = {"+=", "-=", "*=", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "->", "<<", ">>"};
            std::string op(1, ch);
            for (const char* t : two)
                if (c.compare(i, 2, t) == 0) op = t;
            raw.push_back(op);
            i += op.size();
        }
    }
    std::vector<std::string> out;
    for (size_t i = 0; i < raw.size(); ++i) {
        const std::string& w = raw[i];
        // threadIdx.x / blockIdx.y ... -> tx / bx; the lab's tx, ty, tz already are.
        if ((w == "threadIdx" || w == "blockIdx" || w == "blockDim") && i + 2 < raw.size() && raw[i + 1] == ".") {
            out.push_back(std::string(1, w == "threadIdx" ? 't' : w == "blockIdx" ? 'b' : 'd') + raw[i + 2]);
            i += 2;
            continue;
        }
        if (is_noise_word(w)) continue;
        if (w == "(" && i + 2 < raw.size() && is_noise_word(raw[i + 1]) && raw[i + 2] == ")") {  // a cast
            i += 2;
            continue;
        }
        // A weight: the book's c0..c6, the lab's coefficient<real>(n) (its argument dropped).
        if (w == "coefficient" || (w.size() >= 2 && w[0] == 'c' && std::all_of(w.begin() + 1, w.end(), ::isdigit))) {
            out.push_back("coef");
            size_t j = i + 1;
            if (j < raw.size() && raw[j] == "<")
                while (j < raw.size() && raw[j] != ">") ++j;
            if (w == "coefficient" && j + 1 < raw.size() && raw[j + 1] == "(") {
                int depth = 0;
                for (++j; j < raw.size(); ++j) {
                    depth += raw[j] == "(" ? 1 : raw[j] == ")" ? -1 : 0;
                    if (depth == 0) break;
                }
                i = j;
            }
            continue;
        }
        if (w == "+=") {  // `sum += c * x` is the book's `+ c * x` term
            out.push_back("+");
        } else if (std::find(shared_names.begin(), shared_names.end(), w) != shared_names.end()) {
            out.push_back("smem");
        } else if (w == "R" || w == "#" || std::find(loop_names.begin(), loop_names.end(), w) != loop_names.end()) {
            out.push_back("#");
        } else {
            out.push_back(w);
        }
    }
    return out;
}

std::vector<std::string> shared_array_names(const KernelSource& s) {
    std::vector<std::string> names;
    const int first = std::max(0, s.body_first), last = std::min((int)s.lines.size() - 1, s.body_last);
    for (int i = first; i <= last; ++i) {
        const std::string c = code_part(s.lines[i]);
        const auto at = c.find("__shared__");
        if (at == std::string::npos) continue;
        // The declared name: the last identifier before the first '[' (or ';').
        const auto end = c.find_first_of("[;", at);
        std::string name;
        for (size_t j = at; j < std::min(end, c.size());) {
            if (ident_start(c[j])) {
                size_t k = j;
                while (k < c.size() && ident_char(c[k])) ++k;
                name = c.substr(j, k - j);
                j = k;
            } else {
                ++j;
            }
        }
        if (!name.empty() && name != "__shared__") names.push_back(name);
    }
    return names;
}

std::vector<std::string> loop_counter_names(const KernelSource& s) {
    std::vector<std::string> names;
    const int first = std::max(0, s.body_first), last = std::min((int)s.lines.size() - 1, s.body_last);
    for (int i = first; i <= last; ++i) {
        const std::string c = code_part(s.lines[i]);
        const auto at = c.find("for (");
        if (at == std::string::npos) continue;
        const auto eq = c.find('=', at);
        if (eq == std::string::npos) continue;
        size_t e = eq;
        while (e > at && !ident_char(c[e - 1])) --e;
        size_t b = e;
        while (b > at && ident_char(c[b - 1])) --b;
        if (b < e) names.push_back(c.substr(b, e - b));
    }
    return names;
}

double statement_similarity(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    auto features = [](const std::vector<std::string>& t) {
        std::set<std::string> f(t.begin(), t.end());
        for (size_t i = 0; i + 1 < t.size(); ++i) f.insert(t[i] + " " + t[i + 1]);
        return f;
    };
    const auto fa = features(a), fb = features(b);
    if (fa.empty() || fb.empty()) return 0;
    size_t common = 0;
    for (const auto& x : fa) common += fb.count(x);
    return (double)common / (double)(fa.size() + fb.size() - common);
}

double line_similarity(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    const auto ea = std::find(a.begin(), a.end(), "="), eb = std::find(b.begin(), b.end(), "=");
    if (ea == a.end() || eb == b.end()) return statement_similarity(a, b);
    // Two assignments: what is stored where. Their target and value are compared apart, so that
    // `out[..] = tile[..]` is not the book's `tile[..] = in[..]` however many words they share.
    const std::vector<std::string> la(a.begin(), ea), lb(b.begin(), eb), ra(ea + 1, a.end()), rb(eb + 1, b.end());
    const double value = statement_similarity(ra, rb);
    double sim = (statement_similarity(la, lb) + value) / 2;
    // A local that holds the value (the lab's `real sum = c * x`) is the book's statement that
    // computes the same value (`out[..] = c * x + ...`'s first term).
    const bool store_a = la.size() >= 2 && la[1] == "[", store_b = lb.size() >= 2 && lb[1] == "[";
    if (!store_a || !store_b) sim = std::max(sim, value);
    // A store to the same array (`out[c] = sum` is the book's `out[i*N*N + ...] = ...`), however
    // its index and value are written: a match, though weaker than the same text.
    if (store_a && store_b && la[0] == lb[0]) sim = std::max(sim, kMinStatementSimilarity + 0.1);
    return sim;
}

std::vector<int> corresponding_lines(const KernelSource& lab, const KernelSource& book) {
    std::vector<int> out(lab.lines.size(), -1);
    if (lab.lines.empty() || book.lines.empty()) return out;
    const auto lab_shared = shared_array_names(lab), book_shared = shared_array_names(book);
    const auto lab_loops = loop_counter_names(lab), book_loops = loop_counter_names(book);
    // A statement's tokens must say something: a lone brace or `else` matches nothing.
    auto meaningful = [](const std::vector<std::string>& t) {
        return std::any_of(t.begin(), t.end(), [](const std::string& w) { return ident_start(w[0]); });
    };
    std::vector<std::vector<std::string>> book_tokens(book.lines.size());
    for (int j = book.body_first; j <= book.body_last; ++j) book_tokens[j] = statement_tokens(book.lines[j], book_shared, book_loops);
    const double lab_span = std::max(1, lab.body_last - lab.body_first);
    const double book_span = std::max(1, book.body_last - book.body_first);
    for (int i = lab.body_first; i <= lab.body_last; ++i) {
        const auto t = statement_tokens(lab.lines[i], lab_shared, lab_loops);
        if (!meaningful(t)) continue;
        const double where = (i - lab.body_first) / lab_span;
        double best = kMinStatementSimilarity;
        double best_distance = 2;
        for (int j = book.body_first; j <= book.body_last; ++j) {
            if (!meaningful(book_tokens[j])) continue;
            const double sim = line_similarity(t, book_tokens[j]);
            const double distance = std::abs((j - book.body_first) / book_span - where);
            if (sim > best + 1e-9 || (std::abs(sim - best) <= 1e-9 && out[i] >= 0 && distance < best_distance)) {
                best = sim;
                best_distance = distance;
                out[i] = j;
            }
        }
    }
    return out;
}

}  // namespace stencil::viewer
