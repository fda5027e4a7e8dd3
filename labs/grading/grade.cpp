#include "labs/grading/grade.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include "core/error.h"
#include "core/json_file.h"

namespace stencil::labs {
namespace {

using nlohmann::json;

std::string trim_lower(std::string s) {
    s.erase(0, s.find_first_not_of(" \t\r\n"));
    s.erase(s.find_last_not_of(" \t\r\n") + 1);
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// A number as the student may write it: 0.46, "0.46", "13/28", "58%" (a share).
std::optional<double> as_number(const json& v) {
    if (v.is_number()) return v.get<double>();
    if (!v.is_string()) return std::nullopt;
    const std::string s = trim_lower(v.get<std::string>());
    if (s.empty()) return std::nullopt;
    const auto parse = [](const std::string& t) -> std::optional<double> {
        if (t.empty()) return std::nullopt;
        char* end = nullptr;
        const double x = std::strtod(t.c_str(), &end);
        if (end != t.c_str() + t.size() || !std::isfinite(x)) return std::nullopt;
        return x;
    };
    if (s.back() == '%') {
        auto x = parse(s.substr(0, s.size() - 1));
        return x ? std::optional(*x / 100) : std::nullopt;
    }
    if (const auto slash = s.find('/'); slash != std::string::npos) {
        auto a = parse(s.substr(0, slash)), b = parse(s.substr(slash + 1));
        if (!a || !b || *b == 0) return std::nullopt;
        return *a / *b;
    }
    return parse(s);
}

// Choices and words compare without case, spaces or underscores ("Shared memory" = shared-memory).
std::string normal_word(const json& v) {
    std::string s = v.is_string() ? trim_lower(v.get<std::string>()) : trim_lower(v.dump());
    for (char& c : s)
        if (c == ' ' || c == '_') c = '-';
    return s;
}

bool close(const Question& q, double given, double key) {
    return std::fabs(given - key) <= std::max(q.absolute, q.relative * std::fabs(key)) + 1e-12 * std::fabs(key);
}

std::string show(double x) { return fmt::format("{:.4g}", x); }

GradedAnswer grade_one(const Question& q, const Key& key, const json* given) {
    GradedAnswer a;
    a.question = &q;
    a.expected = key.value;
    if (given) a.given = *given;
    if (!key.needs_gpu.empty()) {
        a.verdict = Verdict::needs_gpu;
        a.why = a.detail = key.needs_gpu;
        return a;
    }
    if (!given) {
        a.verdict = Verdict::missing;
        a.why = a.detail = "no answer";
        return a;
    }
    // `why` says what is wrong without the key; `detail` adds the key and the tolerance.
    if (q.kind == AnswerKind::number) {
        const double k = key.value->get<double>();
        const auto g = as_number(*given);
        const std::string expected = fmt::format("{} expected {}", show(k), tolerance_text(q));
        if (!g) {
            a.verdict = Verdict::wrong;
            a.why = fmt::format("{} is not a number (write 0.46, \"13/28\" or \"46%\")", given->dump());
            a.detail = fmt::format("{}: {}", expected, a.why);
            return a;
        }
        if (close(q, *g, k)) {
            a.verdict = Verdict::right;
            return a;
        }
        a.verdict = Verdict::wrong;
        std::string slip;
        for (const Hint& h : key.hints)
            if (h.value->is_number() && close(q, *g, h.value->get<double>())) {
                slip = h.why;
                break;
            }
        if (slip.empty() && k != 0 && close(q, *g / 100, k)) slip = "that is a percentage; write the share as a fraction";
        if (slip.empty() && k != 0 && close(q, -*g, k)) slip = "the sign is wrong";
        a.why = fmt::format("{} is not within the question's tolerance ({}){}{}", show(*g), tolerance_text(q),
                            slip.empty() ? "" : ": ", slip);
        a.detail = fmt::format("{}, got {}{}{}", expected, show(*g), slip.empty() ? "" : ": ", slip);
        return a;
    }
    const std::string k = normal_word(*key.value), g = normal_word(*given);
    if (g == k) {
        a.verdict = Verdict::right;
        return a;
    }
    a.verdict = Verdict::wrong;
    if (q.kind == AnswerKind::choice &&
        std::find(q.choices.begin(), q.choices.end(), g) == q.choices.end()) {
        std::string list;
        for (const auto& c : q.choices) list += (list.empty() ? "" : ", ") + c;
        a.why = a.detail = fmt::format("{} is not one of the choices ({})", given->dump(), list);
        return a;
    }
    a.why = fmt::format("'{}' is not the answer", g);
    a.detail = fmt::format("'{}' expected, got '{}'", k, g);
    for (const Hint& h : key.hints)
        if (normal_word(*h.value) == g) {
            a.why += ": " + h.why;
            a.detail += ": " + h.why;
        }
    return a;
}

void check_lab(int lab) {
    if (lab < 1 || lab > kLabCount)
        throw UserError(fmt::format("lab must be between 1 and {} (got '{}')", kLabCount, lab));
}

}  // namespace

const char* to_string(Verdict v) {
    switch (v) {
        case Verdict::right: return "right";
        case Verdict::wrong: return "wrong";
        case Verdict::missing: return "missing";
        case Verdict::needs_gpu: return "needs_gpu";
    }
    return "?";
}

int LabGrade::count(Verdict v) const {
    return int(std::count_if(answers.begin(), answers.end(), [v](const GradedAnswer& a) { return a.verdict == v; }));
}

bool LabGrade::passed() const {
    return count(Verdict::wrong) == 0 && count(Verdict::missing) == 0 && unknown_ids.empty();
}

std::string tolerance_text(const Question& q) {
    if (q.kind != AnswerKind::number) return "exactly";
    if (q.relative > 0) return fmt::format("within {:g}%", 100 * q.relative);
    if (q.absolute > 0) return fmt::format("within +- {:g}", q.absolute);
    return "exactly";
}

json read_answer_file(const std::string& path) {
    json doc = read_json_file(path, "", R"(expected {"answers": {"<id>": value}})");
    if (!doc.is_object() || !doc.contains("answers") || !doc["answers"].is_object())
        throw UserError(fmt::format("{}: no \"answers\" object; expected {{\"answers\": {{\"<id>\": value}}}}", path));
    return doc["answers"];
}

LabGrade grade_lab(int lab, const json& answers, const GpuResults* gpu, const LabParams& params) {
    check_lab(lab);
    LabGrade g;
    g.lab = lab;
    for (const Question* q : questions_of_lab(lab)) {
        const Key key = q->compute(q->gpu ? gpu : nullptr, params);
        const json* given = answers.contains(q->id) && !answers[q->id].is_null() ? &answers[q->id] : nullptr;
        g.answers.push_back(grade_one(*q, key, given));
    }
    for (const auto& [id, value] : answers.items()) {
        const Question* q = find_question(id);
        if (!q || q->lab != lab) g.unknown_ids.push_back(id);
    }
    return g;
}

json answer_key(int lab, const GpuResults* gpu, const LabParams& params) {
    check_lab(lab);
    json answers = json::object(), pending = json::object();
    for (const Question* q : questions_of_lab(lab)) {
        const Key key = q->compute(q->gpu ? gpu : nullptr, params);
        if (key.needs_gpu.empty())
            answers[q->id] = *key.value;
        else
            pending[q->id] = key.needs_gpu;
    }
    json out = {{"answers", answers}};
    if (!pending.empty()) out["needs_gpu"] = pending;
    return out;
}

}  // namespace stencil::labs
