#include "checker/diagnostics.h"

#include <fmt/format.h>

#include "checker/evaluate.h"

namespace stencil::checker {

using json = nlohmann::json;

namespace {

std::string idx(const json& a) {
    return fmt::format("({}, {}, {})", a[0].get<int>(), a[1].get<int>(), a[2].get<int>());
}

// " at stencil.cu:27 (st.shared.f32)", or "" when the engine did not know the line.
std::string at_line(const json& d) {
    const int line = d.value("line", -1);
    if (line <= 0) return "";
    std::string file = d.value("file", "");
    if (auto slash = file.rfind('/'); slash != std::string::npos) file = file.substr(slash + 1);
    const std::string ins = d.value("instruction", "");
    return fmt::format(" at {}{}{}", file.empty() ? "line " : file + ":", line, ins.empty() ? "" : " (" + ins + ")");
}

std::optional<SourceLine> source_line(const json& d) {
    const int line = d.value("line", -1);
    if (line <= 0) return std::nullopt;
    std::string file = d.value("file", "");
    if (auto slash = file.rfind('/'); slash != std::string::npos) file = file.substr(slash + 1);
    return SourceLine{file, line, d.value("instruction", "")};
}

// A global buffer's cell: "out[1234] (x=3, y=4, z=5)", "in[-1] (1 cell before its start)".
std::string global_cell(const std::string& buffer, long long e, int n) {
    const long long cells = (long long)n * n * n;
    if (e >= 0 && e < cells)
        return fmt::format("{}[{}] (x={}, y={}, z={})", buffer, e, e % n, (e / n) % n, e / ((long long)n * n));
    const long long away = e < 0 ? -e : e - cells + 1;
    return fmt::format("{}[{}] ({} {} {}; {}[] has N^3 = {} cells)", buffer, e, away,
                       away == 1 ? "cell" : "cells", e < 0 ? "before its start" : "past its end",
                       buffer, cells);
}

bool in_or_out(const json& d) {
    const std::string a = d.value("array", "");
    return d.value("space", "") == "global" && (a == "in" || a == "out");
}

// The cell a diagnostic names, as the student wrote it (a shared array's, or in[] / out[]).
std::string cell_of(const json& d, const DiagnosisContext& ctx) {
    const std::string array = d.value("array", "");
    if (d.value("space", "") == "shared")
        return shared_cell_name(ctx.arrays, array, d.value("offset", -1LL), d.value("elem_size", 0));
    return global_cell(array, d.value("element", -1LL), ctx.n);
}

void set_race(Evidence& ev, const json& d) {
    RaceEvidence r;
    for (int a = 0; a < 3; ++a) {
        r.block[a] = d["block"][a];
        r.thread_a[a] = d["thread_a"][a];
        r.thread_b[a] = d["thread_b"][a];
    }
    r.interval = d.value("interval", -1);
    r.message = ev.message;
    ev.race = r;
}

std::string race_message(const json& d, const DiagnosisContext& ctx) {
    const std::string op_a = d.value("op_a", "access"), op_b = d.value("op_b", "access");
    const std::string head = fmt::format("in block {}, barrier interval {}: thread {} {} and thread {}",
                                         idx(d["block"]), d.value("interval", -1), idx(d["thread_a"]),
                                         op_a, idx(d["thread_b"]));
    if (d.value("space", "") == "shared")
        return fmt::format("shared-memory race {} {} of {} with no __syncthreads() between them{}", head,
                           op_b, cell_of(d, ctx), at_line(d));
    const bool other_block = d.contains("block_b") && d["block_b"] != d["block"];
    return fmt::format("global-memory race on {} {}{} {}{}{}", cell_of(d, ctx), head,
                       other_block ? " of block " + idx(d["block_b"]) : "", op_b,
                       other_block ? ": blocks of one launch are not ordered"
                                   : " with no __syncthreads() between them",
                       at_line(d));
}

// The engine's own sentence, with the student's line when it does not say it already.
std::string engine_message(const json& d) {
    std::string m = d.value("message", d.value("kind", ""));
    const auto line = source_line(d);
    if (line && m.find(fmt::format("{}:{}", line->file, line->line)) == std::string::npos) m += at_line(d);
    return m;
}

}  // namespace

Diagnosis diagnose(const json& d, const Evidence& base, const DiagnosisContext& ctx) {
    const std::string kind = d.value("kind", "");
    Diagnosis g;
    g.evidence = base;
    Evidence& ev = g.evidence;
    ev.line = source_line(d);
    std::string what;
    if (kind == "out_of_bounds") {
        const std::string op = d.value("op_a", "access");
        const bool named = in_or_out(d) || (d.value("space", "") == "shared" && !d.value("array", "").empty());
        // A store to a named buffer is what a guard zone catches on the GPU; a load out of
        // bounds, or a store through a pointer into nothing, faults there (or reads garbage).
        g.verdict = op == "store" && named ? Verdict::out_of_bounds_write : Verdict::crash;
        what = named ? fmt::format("out-of-bounds {} of {} by block {}, thread {}{}", op, cell_of(d, ctx),
                                   idx(d["block"]), idx(d["thread_a"]), at_line(d))
                     : engine_message(d);  // the address, in no buffer: the engine says which
        g.fatal = true;
    } else if (kind == "race") {
        g.verdict = Verdict::race;
        what = race_message(d, ctx);
    } else if (kind == "divergent_barrier" || kind == "exit_before_barrier") {
        g.verdict = Verdict::race;  // a synchronization error: see checker.h
        what = engine_message(d);
        g.fatal = true;
    } else if (kind == "input_write") {
        g.verdict = Verdict::input_modified;
        const long long e = d.value("element", -1LL);
        const int n = ctx.n;
        if (e >= 0 && e < (long long)n * n * n) {
            const int x = int(e % n), y = int((e / n) % n), z = int(e / ((long long)n * n));
            ev.first_bad = BadCellEvidence{x, y, z, 0, 0, 0, classify_cell(ctx.ex, ctx.tile, n, x, y, z),
                                           "in[] written (read-only)"};
        }
        what = fmt::format("a store to {} by block {}, thread {}{}: in[] is read-only, even a value "
                           "restored later is visible to other threads",
                           cell_of(d, ctx), idx(d["block"]), idx(d["thread_a"]), at_line(d));
    } else if (kind == "timeout") {
        // The block's instruction budget: an endless loop, or a spin-wait on another thread.
        g.verdict = Verdict::timeout;
        what = engine_message(d);
        g.fatal = true;
    } else if (kind == "uninitialized_shared_read") {
        what = engine_message(d);
    } else {
        g.verdict = Verdict::crash;
        what = engine_message(d);
        g.fatal = true;
    }
    ev.message = base.message + what;
    if (g.verdict == Verdict::race) set_race(ev, d);
    return g;
}

}  // namespace stencil::checker
