#include "checker/diagnostics.h"

#include <fmt/format.h>

#include <algorithm>

#include "checker/causes.h"
#include "checker/evaluate.h"

namespace stencil::checker {

namespace {

// " at stencil.cu:27 (st.shared.f32)", or "" when the engine did not know the line.
std::string at_line(const EngineDiagnostic& d) {
    if (d.line <= 0) return "";
    const std::string file = base_name(d.file);
    return fmt::format(" at {}{}{}", file.empty() ? "line " : file + ":", d.line,
                       d.instruction.empty() ? "" : " (" + d.instruction + ")");
}

std::optional<SourceLine> source_line(const EngineDiagnostic& d) {
    if (d.line <= 0) return std::nullopt;
    return SourceLine{base_name(d.file), d.line, d.instruction};
}

// The statements a diagnostic names: the faulting (or later) access, and a race's other access;
// a race's store first.
std::vector<SourceRef> sources_of(const EngineDiagnostic& d) {
    std::vector<SourceRef> v;
    std::string role;
    switch (d.kind) {
        case DiagnosticKind::race: role = std::string(to_string(d.op_a)); break;
        case DiagnosticKind::out_of_bounds: role = "out-of-bounds " + std::string(to_string(d.op_a)); break;
        case DiagnosticKind::input_write: role = "store to " + d.array + "[]"; break;
        case DiagnosticKind::timeout: role = "spinning"; break;
        case DiagnosticKind::divergent_barrier:
        case DiagnosticKind::exit_before_barrier: role = "barrier"; break;
        case DiagnosticKind::uninitialized_shared_read: role = "load of a shared cell no thread stored"; break;
        case DiagnosticKind::kernel_exception: role = "crashed"; break;
    }
    if (d.line > 0) v.push_back(source_ref({d.file, d.line, d.instruction}, role, d.block, d.thread_a));
    if (d.kind == DiagnosticKind::race && d.other.line > 0) {
        SourceRef o = source_ref(d.other, std::string(to_string(d.op_b)), d.block_b, d.thread_b);
        if (d.op_b != AccessOp::load && d.op_a == AccessOp::load) v.insert(v.begin(), o);
        else v.push_back(o);
    }
    return v;
}

GridDims dims_of(const DiagnosisContext& ctx) {
    return ctx.dims.nx > 0 ? ctx.dims : GridDims{ctx.n, ctx.n, ctx.n};
}

// A global buffer's cell: "out[1234] (x=3, y=4, z=5)", "in[-1] (1 cell before its start)".
std::string global_cell(const std::string& buffer, long long e, const DiagnosisContext& ctx) {
    const GridDims g = dims_of(ctx);
    const long long cells = g.cells();
    if (e >= 0 && e < cells) {
        if (g.nz == 1) return fmt::format("{}[{}] (x={}, y={})", buffer, e, e % g.nx, e / g.nx);
        return fmt::format("{}[{}] (x={}, y={}, z={})", buffer, e, e % g.nx, (e / g.nx) % g.ny,
                           e / ((long long)g.nx * g.ny));
    }
    const std::string extent = ctx.dims.nx > 0 ? fmt::format("{}x{}x{}", g.nx, g.ny, g.nz) : "N^3";
    // An index past 2^31 in a buffer of fewer cells is, most often, a negative index the student's
    // unsigned arithmetic wrapped (unsigned N makes `(i - 2) * N * N` unsigned): the student wrote
    // the signed one, and a GPU reads 16 GiB past the start.
    constexpr long long k32 = 1LL << 32;
    if (e >= k32 / 2 && e < k32 && cells < k32 / 2) {
        const long long signed_e = e - k32;
        return fmt::format("{}[{}] ({} {} before {}[0], a negative index that unsigned arithmetic wrapped to {}[{}]; "
                           "{}[] has {} = {} cells)",
                           buffer, signed_e, -signed_e, -signed_e == 1 ? "cell" : "cells", buffer, buffer, e, buffer,
                           extent, cells);
    }
    const long long away = e < 0 ? -e : e - cells + 1;
    if (e < 0)
        return fmt::format("{}[{}] ({} {} before {}[0]; {}[] has {} = {} cells)", buffer, e, away,
                           away == 1 ? "cell" : "cells", buffer, buffer, extent, cells);
    return fmt::format("{}[{}] ({} {} past its end; {}[] has {} = {} cells)", buffer, e, away,
                       away == 1 ? "cell" : "cells", buffer, extent, cells);
}

// One of the kernel's arrays (not a pointer into nothing).
bool named_buffer(const EngineDiagnostic& d, const DiagnosisContext& ctx) {
    if (d.space != MemorySpace::global) return false;
    if (ctx.buffers.empty()) return d.array == "in" || d.array == "out";
    return std::find(ctx.buffers.begin(), ctx.buffers.end(), d.array) != ctx.buffers.end();
}

// The cell a diagnostic names, as the student wrote it (a shared array's, or in[] / out[]).
std::string cell_of(const EngineDiagnostic& d, const DiagnosisContext& ctx) {
    if (d.space == MemorySpace::shared) return shared_cell_name(ctx.arrays, d.array, d.offset, d.elem_size);
    return global_cell(d.array, d.element, ctx);
}

void set_race(Evidence& ev, const EngineDiagnostic& d) {
    RaceEvidence r;
    for (int a = 0; a < 3; ++a) {
        r.block[a] = d.block[a];
        r.thread_a[a] = d.thread_a[a];
        r.thread_b[a] = d.thread_b[a];
    }
    r.interval = d.interval;
    r.message = ev.message;
    ev.race = r;
}

std::string race_message(const EngineDiagnostic& d, const DiagnosisContext& ctx) {
    const std::string head = fmt::format("in block {}, barrier interval {}: thread {} {} and thread {}",
                                         index_text(d.block), d.interval, index_text(d.thread_a), to_string(d.op_a),
                                         index_text(d.thread_b));
    const std::string other = d.other.line > 0 ? fmt::format("; thread {}'s {} is at {}:{}{}", index_text(d.thread_b),
                                                              to_string(d.op_b), base_name(d.other.file), d.other.line,
                                                              d.other.instruction.empty() ? "" : " (" + d.other.instruction + ")")
                                                : "";
    if (d.space == MemorySpace::shared)
        return fmt::format("shared-memory race {} {} of {} with no __syncthreads() between them{}{}", head,
                           to_string(d.op_b), cell_of(d, ctx), at_line(d), other);
    const bool other_block = d.block_b != d.block;
    return fmt::format("global-memory race on {} {}{} {}{}{}", cell_of(d, ctx), head,
                       other_block ? " of block " + index_text(d.block_b) : "", to_string(d.op_b),
                       other_block ? ": blocks of one launch are not ordered"
                                   : " with no __syncthreads() between them",
                       at_line(d) + other);
}

// The engine's own sentence, with the student's line when it does not say it already.
std::string engine_message(const EngineDiagnostic& d) {
    std::string m = d.message.empty() ? std::string(to_string(d.kind)) : d.message;
    const auto line = source_line(d);
    if (line && m.find(fmt::format("{}:{}", line->file, line->line)) == std::string::npos) m += at_line(d);
    return m;
}

// The cause (causes.h) each kind of diagnostic is.
std::optional<Cause> cause_of_kind(const EngineDiagnostic& d, Verdict v) {
    switch (d.kind) {
        case DiagnosticKind::out_of_bounds:
            return d.op_a == AccessOp::load ? Cause::out_of_bounds_load : Cause::out_of_bounds_store;
        case DiagnosticKind::race:
            if (d.space != MemorySpace::shared) return Cause::race_global;
            // a store and a load of one cell in one barrier interval: the barrier between them is missing
            return (d.op_a == AccessOp::load) != (d.op_b == AccessOp::load) ? Cause::barrier_missing : Cause::race_shared;
        case DiagnosticKind::divergent_barrier:
        case DiagnosticKind::exit_before_barrier: return Cause::barrier_divergent;
        case DiagnosticKind::input_write: return Cause::input_written;
        case DiagnosticKind::timeout: return Cause::timeout;
        default: return v == Verdict::pass ? std::nullopt : default_cause(v, Evidence{});
    }
}

}  // namespace

std::string index_text(const Int3& a) { return fmt::format("({}, {}, {})", a[0], a[1], a[2]); }

std::string base_name(std::string_view path) {
    const size_t slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

SourceRef source_ref(const SourceAt& at, std::string role, std::optional<Int3> block, std::optional<Int3> thread) {
    SourceRef r;
    r.file = base_name(at.file);
    r.line = at.line;
    r.instruction = at.instruction;
    r.role = std::move(role);
    r.block = block;
    r.thread = thread;
    return r;
}

Diagnosis diagnose(const EngineDiagnostic& d, const Evidence& base, const DiagnosisContext& ctx) {
    Diagnosis g;
    g.evidence = base;
    Evidence& ev = g.evidence;
    ev.line = source_line(d);
    std::string what;
    switch (d.kind) {
        case DiagnosticKind::out_of_bounds: {
            const bool named = named_buffer(d, ctx) || (d.space == MemorySpace::shared && !d.array.empty());
            // A store to a named buffer is what a guard zone catches on the GPU; a load out of
            // bounds, or a store through a pointer into nothing, faults there (or reads garbage).
            g.verdict = d.op_a == AccessOp::store && named ? Verdict::out_of_bounds_write : Verdict::crash;
            what = named ? fmt::format("out-of-bounds {} of {} by block {}, thread {}{}", to_string(d.op_a),
                                       cell_of(d, ctx), index_text(d.block), index_text(d.thread_a), at_line(d))
                         : engine_message(d);  // the address, in no buffer: the engine says which
            g.fatal = true;
            break;
        }
        case DiagnosticKind::race:
            g.verdict = Verdict::race;
            what = race_message(d, ctx);
            break;
        case DiagnosticKind::divergent_barrier:
        case DiagnosticKind::exit_before_barrier:
            g.verdict = Verdict::race;  // a synchronization error: see checker.h
            what = engine_message(d);
            g.fatal = true;
            break;
        case DiagnosticKind::input_write: {
            g.verdict = Verdict::input_modified;
            const long long e = d.element;
            const GridDims g = dims_of(ctx);
            if (e >= 0 && e < g.cells()) {
                const int x = int(e % g.nx), y = int((e / g.nx) % g.ny), z = int(e / ((long long)g.nx * g.ny));
                const CellClass cell = ctx.classify ? ctx.classify(x, y, z) : classify_cell(ctx.ex, ctx.tile, ctx.n, x, y, z);
                ev.first_bad = BadCellEvidence{x, y, z, 0, 0, 0, cell, d.array + "[] written (read-only)"};
            }
            what = fmt::format("a store to {} by block {}, thread {}{}: {}[] is read-only, even a value "
                               "restored later is visible to other threads",
                               cell_of(d, ctx), index_text(d.block), index_text(d.thread_a), at_line(d), d.array);
            break;
        }
        case DiagnosticKind::timeout:
            // The block's instruction budget: an endless loop, or a spin-wait on another thread.
            g.verdict = Verdict::timeout;
            what = engine_message(d);
            g.fatal = true;
            break;
        case DiagnosticKind::uninitialized_shared_read:
            what = engine_message(d);
            break;
        case DiagnosticKind::kernel_exception:
            g.verdict = Verdict::crash;
            what = engine_message(d);
            g.fatal = true;
            break;
    }
    ev.message = base.message + what;
    ev.sources = sources_of(d);
    if (const auto c = cause_of_kind(d, g.verdict)) ev.cause = std::string(cause_name(*c));
    if (g.verdict == Verdict::race) set_race(ev, d);
    return g;
}

}  // namespace stencil::checker
