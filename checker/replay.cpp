// replay_failing_run (replay.h): the evidence's case and run found again, written into a folder of
// their own with the request's one case and one run, the runner asked to replay it, its answer put
// into the evidence.
#include "checker/replay.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>

#include "checker/causes.h"
#include "checker/diagnostics.h"
#include "checker/effective_stencil.h"
#include "checker/explain.h"
#include "checker/field_exercises.h"
#include "checker/process.h"
#include "checker/run_plan.h"

namespace stencil::checker {

namespace {

bool write_bytes(const std::string& path, const Cells& c) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(static_cast<const char*>(c.data()), static_cast<std::streamsize>(c.bytes()));
    return bool(f);
}

// A barrier some threads never reached because they returned (the engine's exit_before_barrier):
// the replay finds the branch that took them away.
bool returned_before_barrier(Verdict v, const Evidence& ev) {
    return v == Verdict::race && ev.race && ev.message.find("has already returned") != std::string::npos;
}

// The verdicts whose evidence the checked runs could not locate (the parent found the bad cell, a
// thread returned before a barrier), and with --explain every verdict with a bad output or a race.
bool wants_replay(Verdict v, const Evidence& ev, bool explain) {
    if (returned_before_barrier(v, ev)) return true;
    switch (v) {
        case Verdict::wrong_result:
        case Verdict::unwritten:
        case Verdict::boundary_modified: return ev.first_bad.has_value();
        // (on the CPU a store to in[] is the engine's diagnostic, with its statement: nothing to replay)
        case Verdict::input_modified: return ev.first_bad.has_value() && ev.sources.empty();
        case Verdict::race: return ev.first_bad.has_value() || (explain && ev.race.has_value());
        default: return false;
    }
}

// The block and thread that compute output cell c along one axis by the exercise's geometry: naive
// blocks cover T cells, a halo tile's OUT_TILE_DIM with its threads shifted by r; a block one thread
// deep along z marches along it.
std::pair<int, int> owner(const Exercise& ex, int tile, int c, unsigned threads) {
    if (threads <= 1) return {c / std::max(1, out_tile_dim(ex, tile)), 0};
    const int step = std::max(1, out_tile_dim(ex, tile));
    return {c / step, c % step + (tile_has_halo(ex) ? ex.radius : 0)};
}

// What one replay needs, whatever the problem: the case (its one run), how its files are written,
// its arrays' extents, the written array with the bad cell, and the cell's owner when known.
struct ReplayCase {
    CaseSpec spec;
    std::function<bool(const std::string&)> write_files;  // into the folder given
    GridDims dims;
    int buffer = 1;
    std::string buffer_name = "out";
    std::optional<std::pair<Int3, Int3>> owner;  // (block, thread)
};

// The replay's question: the bad cell and its neighbours along each axis with more than one cell,
// and its owner; or a race's reading thread.
ReplaySpec replay_spec(const Evidence& ev, const ReplayCase& rc, bool explain) {
    ReplaySpec spec;
    // (the slice also says whether the bad cell depends on a never-stored shared read: a cause)
    spec.explain = explain || ev.first_bad.has_value();
    const GridDims g = rc.dims;
    auto element = [g](int x, int y, int z) { return ((long long)z * g.ny + y) * g.nx + x; };
    if (ev.first_bad) {
        const auto& b = *ev.first_bad;
        spec.cells.push_back({rc.buffer, element(b.x, b.y, b.z), {0, 0, 0}});
        const int c[3] = {b.x, b.y, b.z};
        const int extent[3] = {g.nx, g.ny, g.nz};
        for (int axis = 0; axis < 3; ++axis)
            for (int d : {-1, 1}) {
                int m[3] = {c[0], c[1], c[2]};
                m[axis] += d;
                if (m[axis] < 0 || m[axis] >= extent[axis]) continue;
                Int3 step{0, 0, 0};
                step[(size_t)axis] = -d;
                spec.cells.push_back({rc.buffer, element(m[0], m[1], m[2]), step});
            }
        if (rc.owner) {
            spec.block = rc.owner->first;
            spec.thread = rc.owner->second;
        }
        return spec;
    }
    // A race found by the engine: the slice of the output the reading thread stored.
    spec.cells.push_back({rc.buffer, -1, {0, 0, 0}});
    if (ev.race && ev.message.find("has already returned") != std::string::npos) {
        // the thread that returned: the guarded branch it took before the store it never made
        spec.explain = true;
        spec.block = Int3{ev.race->block[0], ev.race->block[1], ev.race->block[2]};
        spec.thread = Int3{ev.race->thread_b[0], ev.race->thread_b[1], ev.race->thread_b[2]};
        return spec;
    }
    for (const SourceRef& s : ev.sources)
        if (s.role == "load" && s.block && s.thread) {
            spec.block = *s.block;
            spec.thread = *s.thread;
        }
    return spec;
}

// The evidence's words for the writer of the bad cell, or for the stores that never reached it.
void add_writer_sources(Verdict v, Evidence& ev, const ReplayOutcome& r, const std::string& buffer) {
    if (r.writers.empty() || (v == Verdict::race && !ev.first_bad)) return;
    const CellWriter& w = r.writers[0];
    if (w.stored) {
        ev.sources.push_back(source_ref(w.at, v == Verdict::boundary_modified ? "wrote the boundary cell"
                                              : v == Verdict::input_modified  ? "wrote " + buffer + "[]"
                                              : v == Verdict::race            ? "wrote the cell that differs"
                                                                              : "wrote the bad cell",
                                        w.block, w.thread));
    } else {
        std::vector<int> seen;
        for (const SourceAt& at : r.buffer_stores) {
            if (std::find(seen.begin(), seen.end(), at.line) != seen.end()) continue;
            seen.push_back(at.line);
            ev.sources.push_back(source_ref(at, "store to " + buffer + "[] that never ran for this cell", std::nullopt,
                                            std::nullopt));
        }
        if (seen.empty()) ev.message += "; no statement of the kernel stores into " + buffer + "[]";
    }
    if (!ev.line && !ev.sources.empty())
        ev.line = SourceLine{ev.sources[0].file, ev.sources[0].line, ev.sources[0].instruction};
}

}  // namespace

namespace {

// The arrays the exercise's stencil reads and writes, by the kernel's parameter names.
std::pair<std::string, std::string> stencil_arrays(const Exercise& ex) {
    std::pair<std::string, std::string> names{"in", "out"};
    if (ex.is_data())
        for (const DataParam& p : ex.data->kernel.params) {
            if (p.role == ParamRole::input) names.first = p.name;
            if (p.role == ParamRole::output) names.second = p.name;
        }
    return names;
}

// Whether a term of the traced sum holds a __constant__ read the trace could not name.
bool reads_unnamed_constant(const ReplayOutcome& rep) {
    for (const SumTermOutcome& t : rep.terms)
        for (const std::string& o : t.others)
            if (o.find("__constant__ read") != std::string::npos) return true;
    return false;
}

// --explain for a verdict the engine's diagnostic decided (a store to in[], out of bounds, a crash, a
// timeout, a race no output shows): the statements it names are the slice, each the wrong step.
void explain_from_sources(Evidence& ev) {
    for (const SourceRef& s : ev.sources) {
        std::string who;
        if (s.thread)
            who = fmt::format(" by thread ({}, {}, {})", (*s.thread)[0], (*s.thread)[1], (*s.thread)[2]);
        if (s.thread && s.block) who += fmt::format(" of block ({}, {}, {})", (*s.block)[0], (*s.block)[1], (*s.block)[2]);
        ev.explain.push_back({fmt::format("{} at line {}{} ({})", s.role, s.line, who, s.instruction), s});
    }
}

// The replay of `rc` in a runner of its own, its answer put into the evidence.
void replay(Verdict verdict, Evidence& ev, std::vector<std::string>& warnings, const ReplayInputs& in,
            const ReplayCase& rc) {
    const std::string dir = in.work + "/replay";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !rc.write_files(dir)) return;
    Request req = in.request;
    req.mode = RunnerMode::cpu;
    req.count.reset();
    req.timing.reset();
    req.trace.reset();
    req.cases = {rc.spec};
    req.replay = replay_spec(ev, rc, in.opt.explain);
    {
        std::ofstream f(dir + "/request.json", std::ios::trunc);
        f << nlohmann::json(req).dump(1);
        if (!f) return;
    }
    ChildLimits lim;
    lim.wall_seconds = in.opt.compile_seconds + in.opt.time_limit_s + 30;
    lim.address_space_bytes = in.opt.memory_limit_mb << 20;
    lim.file_bytes = 4LL << 30;
    lim.stop = in.opt.stop;
    const ChildResult child = run_child({in.runner, "request.json"}, lim, dir);
    const ResultFile result = read_result_file(dir + "/result.json");
    if (!child.ok() || !result.ok() || !result.result.replay) return;  // the verdict stands without it
    const ReplayOutcome& rep = *result.result.replay;
    if (returned_before_barrier(verdict, ev)) {
        ev.cause = std::string(cause_name(Cause::barrier_divergent));
        for (const SliceLinkOutcome& l : rep.slice) {
            if (l.kind != SliceLinkKind::skipped || l.at.line <= 0) continue;
            const Int3 block{ev.race->block[0], ev.race->block[1], ev.race->block[2]};
            const SourceRef at = source_ref(l.at, "the branch that took it away from the barrier", block, l.thread);
            ev.sources.push_back(at);
            ev.message += fmt::format(" (thread {} left at the condition at {}:{}: a return or a branch before "
                                      "__syncthreads() must be taken by all the block's threads or by none)",
                                      index_text(l.thread), at.file, at.line);
            if (in.opt.explain) {
                explain_from_sources(ev);
                ev.explain.back().text = fmt::format("thread {} took the branch at line {} that returns before the "
                                                     "barrier (the condition there was true for it)",
                                                     index_text(l.thread), at.line);
            }
            break;
        }
        return;
    }
    add_writer_sources(verdict, ev, rep, rc.buffer_name);

    // The first bad output's value as a stencil beside the exercise's (star3d: the star's layout; a
    // stencil written as data: its points). Not where a weight was read at an index the trace cannot
    // name (a __constant__ array indexed by a register): its terms would look like no stencil at all.
    std::optional<EffectiveStencil> stencil;
    const StencilShape shape = exercise_stencil(in.ex);
    const auto [input, output] = stencil_arrays(in.ex);
    if (!shape.empty() && ev.first_bad && rc.buffer_name == output && !reads_unnamed_constant(rep))
        stencil = effective_stencil(rep, StencilInput{shape, {ev.first_bad->x, ev.first_bad->y, ev.first_bad->z},
                                                      rc.dims, input, rc.buffer_name, in.arrays});
    ExplainContext ctx{in.ex, ev.n, in.arrays, rc.dims, rc.buffer_name};
    ctx.stencil = stencil ? &*stencil : nullptr;
    const ExplainedSlice s = explain_slice(rep, verdict, ev, ctx);
    if (s.cause_kind) ev.cause = std::string(cause_name(*s.cause_kind));
    if (in.opt.explain) {
        ev.explain = s.steps;
        if (stencil) ev.stencil = stencil->view;
        // the statement that holds the mistake, among the finding's statements
        if (s.cause && s.stencil_cause)
            ev.sources.push_back(*s.cause);
    }
    if (s.unstored_shared_read && s.cause) {
        // The read of a never-stored shared cell is this output's cause, not a harmless warning.
        for (std::string& w : warnings)
            if (w.find("no thread had stored") != std::string::npos)
                w = fmt::format("{}: the first bad output depends on such a read ({}:{})",
                                w.substr(0, w.find(" (harmless")), s.cause->file, s.cause->line);
        ev.sources.push_back(*s.cause);
    }
}

}  // namespace

void replay_failing_run(Verdict verdict, Evidence& ev, std::vector<std::string>& warnings, const ReplayInputs& in) {
    if (!in.ex.is_star3d() || !wants_replay(verdict, ev, in.opt.explain)) {
        if (in.opt.explain && ev.explain.empty()) explain_from_sources(ev);
        return;
    }
    std::optional<std::pair<size_t, size_t>> found;
    for (size_t c = 0; c < in.cases.size() && !found; ++c)
        if (in.cases[c].n == ev.n)
            for (size_t r = 0; r < in.cases[c].runs.size() && !found; ++r)
                if (run_label(in.cases[c].runs[r], r) == ev.run) found = std::pair{c, r};
    if (!found) return;
    const TestCase& tc = in.cases[found->first];
    ReplayCase rc;
    rc.spec = case_spec(tc, 0);
    rc.spec.runs = {tc.runs[found->second]};
    rc.write_files = [&tc](const std::string& dir) {
        return write_bytes(dir + "/case0.in", tc.input) && write_bytes(dir + "/case0.out", tc.output);
    };
    rc.dims = {tc.n, tc.n, tc.n};
    rc.buffer = verdict == Verdict::input_modified ? 0 : 1;
    rc.buffer_name = verdict == Verdict::input_modified ? "in" : "out";
    if (ev.first_bad) {
        const int c[3] = {ev.first_bad->x, ev.first_bad->y, ev.first_bad->z};
        Int3 block{}, thread{};
        for (int axis = 0; axis < 3; ++axis) {
            const auto [b, t] = owner(in.ex, in.tile, c[axis], tc.launch.block[axis]);
            block[(size_t)axis] = b;
            thread[(size_t)axis] = t;
        }
        rc.owner = std::pair{block, thread};
    }
    replay(verdict, ev, warnings, in, rc);
}

void replay_failing_field_run(Verdict verdict, Evidence& ev, std::vector<std::string>& warnings,
                              const ReplayInputs& in, const std::vector<FieldCase>& cases) {
    if (!wants_replay(verdict, ev, in.opt.explain)) {
        if (in.opt.explain && ev.explain.empty()) explain_from_sources(ev);
        return;
    }
    for (size_t c = 0; c < cases.size(); ++c) {
        if (cases[c].n != ev.n) continue;
        for (size_t r = 0; r < cases[c].runs.size(); ++r) {
            if (run_label(cases[c].runs[r], r) != ev.run) continue;
            const FieldCase& fc = cases[c];
            ReplayCase rc;
            rc.spec = field_case_spec(fc, 0);
            rc.spec.runs = {fc.runs[r]};
            rc.write_files = [&fc](const std::string& dir) {
                try {
                    write_field_case_files(fc, 0, dir);
                    return true;
                } catch (const std::exception&) {
                    return false;
                }
            };
            rc.dims = fc.dims;
            // the written array whose cell the evidence names ("E[]: 3 of 361 cells ...")
            rc.buffer = -1;
            for (size_t b = 0; b < fc.buffers.size(); ++b)
                if (!fc.buffers[b].read_only && ev.message.find(fc.buffers[b].name + "[]: ") != std::string::npos) {
                    rc.buffer = int(b);
                    rc.buffer_name = fc.buffers[b].name;
                }
            if (rc.buffer < 0 && ev.first_bad) return;
            if (rc.buffer < 0)  // a race: the first written array
                for (size_t b = 0; b < fc.buffers.size() && rc.buffer < 0; ++b)
                    if (!fc.buffers[b].read_only) rc.buffer = int(b), rc.buffer_name = fc.buffers[b].name;
            replay(verdict, ev, warnings, in, rc);
            return;
        }
    }
}

}  // namespace stencil::checker
