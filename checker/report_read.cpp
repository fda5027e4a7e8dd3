// Reading back what to_json (report.cpp) writes, field for field in the same order.
#include "checker/report_read.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>

#include "core/error.h"

namespace stencil::checker {

using json = nlohmann::json;

namespace {

// report.cpp writes a NaN or an infinity as a string.
double number_of(const json& v) {
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
        if (s == "Inf") return std::numeric_limits<double>::infinity();
        if (s == "-Inf") return -std::numeric_limits<double>::infinity();
        throw UserError("a number is \"" + s + "\"");
    }
    return v.get<double>();
}

Verdict verdict_of(const json& v) {
    const std::string s = v.get<std::string>();
    if (auto verdict = parse_verdict(s)) return *verdict;
    throw UserError("unknown verdict \"" + s + "\"");
}

CellClass cell_of(const std::string& s) {
    for (CellClass c : {CellClass::boundary, CellClass::next_to_boundary, CellClass::tile_edge, CellClass::halo,
                        CellClass::tile_interior})
        if (s == to_string(c)) return c;
    throw UserError("unknown cell class \"" + s + "\"");
}

std::optional<std::array<int, 3>> triple_of(const json& v) {
    if (v.is_null()) return std::nullopt;
    return v.get<std::array<int, 3>>();
}

SourceRef source_of(const json& j) {
    SourceRef s;
    s.file = j.at("source_file").get<std::string>();
    s.line = j.at("source_line").get<int>();
    s.instruction = j.at("instruction").get<std::string>();
    s.role = j.at("role").get<std::string>();
    s.block = triple_of(j.at("block"));
    s.thread = triple_of(j.at("thread"));
    return s;
}

std::vector<SourceRef> sources_of(const json& a) {
    std::vector<SourceRef> v;
    for (const json& s : a) v.push_back(source_of(s));
    return v;
}

void copy3(const json& a, int (&to)[3]) {
    const auto t = a.get<std::array<int, 3>>();
    for (int i = 0; i < 3; ++i) to[i] = t[size_t(i)];
}

Evidence evidence_of(const json& ev) {
    Evidence e;
    e.message = ev.at("message").get<std::string>();
    e.n = ev.value("n", 0);
    e.run = ev.value("run", std::string());
    e.bad_cells = ev.value("bad_cells", 0LL);
    if (ev.contains("first_bad")) {
        const json& b = ev["first_bad"];
        BadCellEvidence c;
        c.x = b.at("x").get<int>(), c.y = b.at("y").get<int>(), c.z = b.at("z").get<int>();
        c.expected = number_of(b.at("expected"));
        c.got = number_of(b.at("got"));
        c.bound = b.at("bound").get<double>();
        c.cell = cell_of(b.at("cell").get<std::string>());
        c.what = b.at("what").get<std::string>();
        e.first_bad = c;
    }
    e.slice_map = ev.value("slice_map", std::string());
    if (ev.contains("race")) {
        const json& x = ev["race"];
        RaceEvidence r;
        copy3(x.at("block"), r.block);
        r.interval = x.at("barrier_interval").get<int>();
        copy3(x.at("thread_a"), r.thread_a);
        copy3(x.at("thread_b"), r.thread_b);
        r.message = x.at("message").get<std::string>();
        e.race = r;
    }
    if (ev.contains("source")) {
        const json& s = ev["source"];
        e.line = SourceLine{s.at("file").get<std::string>(), s.at("line").get<int>(), s.at("instruction").get<std::string>()};
    }
    e.sources = sources_of(ev.at("sources"));
    for (const json& sj : ev.at("explain")) {
        ExplainStep st;
        st.text = sj.at("text").get<std::string>();
        if (!sj.at("source_file").is_null()) {
            SourceRef at;
            at.file = sj["source_file"].get<std::string>();
            at.line = sj.at("source_line").get<int>();
            st.at = at;
        }
        e.explain.push_back(st);
    }
    e.cause = ev.value("cause", std::string());
    if (ev.contains("stencil")) {
        const json& st = ev["stencil"];
        EffectiveStencilView v;
        v.kernel = st.at("kernel").get<std::string>();
        v.exercise = st.at("exercise").get<std::string>();
        for (const json& t : st.at("terms"))
            v.terms.push_back({t.at("text").get<std::string>(), t.at("line").get<int>(), t.at("wrong").get<bool>()});
        v.differences = st.at("differences").get<std::vector<std::string>>();
        v.lines = st.at("lines").get<std::vector<int>>();
        e.stencil = v;
    }
    e.compiler_output = ev.value("compiler_output", std::string());
    e.child_output = ev.value("child_output", std::string());
    return e;
}

}  // namespace

CheckResult check_result_from_json(const json& j) {
    if (!j.is_object() || !j.contains("verdict") || !j.contains("evidence"))
        throw UserError(j.is_object() && j.contains("results")
                            ? "a batch's document (check --batch --json), not one submission's report"
                            : "no verdict and evidence: not what check --json writes");
    try {
        CheckResult r;
        r.verdict = verdict_of(j.at("verdict"));
        r.file = j.at("file").get<std::string>();
        r.exercise = j.at("exercise").get<std::string>();
        if (j.contains("exercise_hash") && j["exercise_hash"].is_string()) r.exercise_hash = j["exercise_hash"].get<std::string>();
        r.tile = j.at("tile").get<int>();
        r.backend = j.at("backend").get<std::string>();
        r.seed = std::stoull(j.at("seed").get<std::string>());
        r.sizes = j.at("sizes").get<std::vector<int>>();
        r.drawn_sizes = j.at("drawn_sizes").get<std::vector<int>>();
        if (!j.at("smallest_failing_size").is_null()) r.smallest_failing_size = j["smallest_failing_size"].get<int>();
        r.seconds = j.at("seconds").get<double>();
        for (const json& fj : j.at("findings")) {
            Finding f;
            f.verdict = verdict_of(fj.at("verdict"));
            f.message = fj.at("message").get<std::string>();
            f.sizes = fj.at("sizes").get<std::vector<int>>();
            f.hint = fj.at("hint").get<int>();
            f.hint_text = fj.value("hint_text", std::string());
            f.sources = sources_of(fj.at("sources"));
            f.cause = fj.value("cause", std::string());
            r.findings.push_back(f);
        }
        r.evidence = evidence_of(j.at("evidence"));
        for (const json& tj : j.at("tests"))
            r.tests.push_back({tj.at("name").get<std::string>(), tj.at("passed").get<bool>(),
                               tj.at("output").get<std::string>(), tj.at("size").get<int>(), tj.value("finding", 0)});
        r.warnings = j.at("warnings").get<std::vector<std::string>>();
        if (j.contains("timing")) {
            const json& t = j["timing"];
            r.timing = Timing{t.at("n").get<int>(), t.at("reps").get<int>(), t.at("student_ms").get<double>(),
                              t.at("reference_ms").get<double>(), t.at("ratio").get<double>(),
                              t.at("reference").get<std::string>()};
        }
        if (j.contains("loads")) {
            const json& l = j["loads"];
            LoadCount c;
            c.n = l.at("n").get<int>();
            c.loads_per_output = l.at("loads_per_output").get<double>();
            c.budget = l.at("budget").get<double>();
            c.within_budget = l.at("within_budget").get<bool>();
            c.source = l.at("source").get<std::string>();
            if (l.contains("lab_loads_per_output")) c.lab_loads_per_output = l["lab_loads_per_output"].get<double>();
            r.loads = c;
        }
        return r;
    } catch (const json::exception& e) {
        throw UserError(std::string("a field is missing or of the wrong type (") + e.what() + ")");
    } catch (const std::logic_error& e) {  // stoull: the seed is not a number
        throw UserError(std::string("the seed is not a number (") + e.what() + ")");
    }
}

CheckResult read_check_report(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UserError(path + ": cannot be read");
    json j = json::parse(in, nullptr, false);
    if (j.is_discarded()) throw UserError(path + ": not a check report: not JSON");
    try {
        return check_result_from_json(j);
    } catch (const UserError& e) {
        throw UserError(path + ": not a check report: " + e.what());
    }
}

}  // namespace stencil::checker
