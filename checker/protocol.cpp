// The request and result of protocol.h as JSON. Reading is strict: each field has the type its
// struct says (an integer is not a float, a count is not a string), an enum is one of its names,
// and the first field that does not fit is named with its path ("runs[2].diagnostics[0].block").
//
// Sections: [enum names]; [reading fields]; [request]; [result]; [versions and files].
#include "checker/protocol.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <limits>
#include <sstream>

namespace stencil::checker {

using json = nlohmann::json;

// ---- [enum names] -----------------------------------------------------------------------------
namespace {

template <class E>
struct Name {
    E value;
    std::string_view name;
};

constexpr Name<RunnerMode> kRunnerModes[] = {{RunnerMode::cpu, "cpu"},
                                             {RunnerMode::cuda, "cuda"},
                                             {RunnerMode::probe_cuda, "probe-cuda"},
                                             {RunnerMode::probe_sandbox, "probe-sandbox"}};
constexpr Name<Schedule> kSchedules[] = {{Schedule::in_order, "in_order"},
                                         {Schedule::reversed, "reversed"},
                                         {Schedule::random, "random"},
                                         {Schedule::repeat, "repeat"}};
constexpr Name<CompileStage> kCompileStages[] = {{CompileStage::nvrtc, "nvrtc"},
                                                 {CompileStage::load, "load"},
                                                 {CompileStage::limits, "limits"},
                                                 {CompileStage::memory, "memory"},
                                                 {CompileStage::contract, "contract"}};
constexpr Name<DiagnosticKind> kDiagnosticKinds[] = {
    {DiagnosticKind::race, "race"},
    {DiagnosticKind::uninitialized_shared_read, "uninitialized_shared_read"},
    {DiagnosticKind::divergent_barrier, "divergent_barrier"},
    {DiagnosticKind::exit_before_barrier, "exit_before_barrier"},
    {DiagnosticKind::out_of_bounds, "out_of_bounds"},
    {DiagnosticKind::kernel_exception, "kernel_exception"},
    {DiagnosticKind::timeout, "timeout"},
    {DiagnosticKind::input_write, "input_write"}};
constexpr Name<AccessOp> kAccessOps[] = {
    {AccessOp::load, "load"}, {AccessOp::store, "store"}, {AccessOp::atomic, "atomic"}};
constexpr Name<MemorySpace> kMemorySpaces[] = {{MemorySpace::global, "global"},
                                               {MemorySpace::shared, "shared"}};
constexpr Name<StopReason> kStopReasons[] = {{StopReason::instruction_budget, "instruction_budget"}};
constexpr Name<ArgKind> kArgKinds[] = {
    {ArgKind::buffer, "buffer"}, {ArgKind::i32, "i32"}, {ArgKind::u32, "u32"}, {ArgKind::real, "real"}};
constexpr Name<SliceLinkKind> kSliceLinkKinds[] = {
    {SliceLinkKind::stored, "stored"},           {SliceLinkKind::condition, "condition"},
    {SliceLinkKind::computed, "computed"},       {SliceLinkKind::rounded, "rounded"},
    {SliceLinkKind::loaded_global, "loaded_global"}, {SliceLinkKind::loaded_shared, "loaded_shared"},
    {SliceLinkKind::stored_by, "stored_by"},     {SliceLinkKind::stored_after, "stored_after"},
    {SliceLinkKind::never_stored, "never_stored"}, {SliceLinkKind::skipped, "skipped"},
    {SliceLinkKind::no_store, "no_store"}};

template <class E, size_t N>
std::string_view name_in(const Name<E> (&table)[N], E v) {
    for (const auto& e : table)
        if (e.value == v) return e.name;
    return "?";
}

template <class E, size_t N>
std::optional<E> parse_in(const Name<E> (&table)[N], std::string_view s) {
    for (const auto& e : table)
        if (e.name == s) return e.value;
    return std::nullopt;
}

template <class E, size_t N>
std::string names_of(const Name<E> (&table)[N]) {
    std::string s;
    for (const auto& e : table) s += (s.empty() ? "" : ", ") + std::string(e.name);
    return s;
}

}  // namespace

std::string_view to_string(RunnerMode v) { return name_in(kRunnerModes, v); }
std::string_view to_string(Schedule v) { return name_in(kSchedules, v); }
std::string_view to_string(CompileStage v) { return name_in(kCompileStages, v); }
std::string_view to_string(DiagnosticKind v) { return name_in(kDiagnosticKinds, v); }
std::string_view to_string(AccessOp v) { return name_in(kAccessOps, v); }
std::string_view to_string(MemorySpace v) { return name_in(kMemorySpaces, v); }
std::string_view to_string(StopReason v) { return name_in(kStopReasons, v); }
std::string_view to_string(ArgKind v) { return name_in(kArgKinds, v); }
std::string_view to_string(SliceLinkKind v) { return name_in(kSliceLinkKinds, v); }
std::optional<RunnerMode> parse_runner_mode(std::string_view s) { return parse_in(kRunnerModes, s); }
std::optional<Schedule> parse_schedule(std::string_view s) { return parse_in(kSchedules, s); }
std::optional<CompileStage> parse_compile_stage(std::string_view s) { return parse_in(kCompileStages, s); }
std::optional<DiagnosticKind> parse_diagnostic_kind(std::string_view s) { return parse_in(kDiagnosticKinds, s); }
std::optional<AccessOp> parse_access_op(std::string_view s) { return parse_in(kAccessOps, s); }
std::optional<MemorySpace> parse_memory_space(std::string_view s) { return parse_in(kMemorySpaces, s); }
std::optional<StopReason> parse_stop_reason(std::string_view s) { return parse_in(kStopReasons, s); }
std::optional<ArgKind> parse_arg_kind(std::string_view s) { return parse_in(kArgKinds, s); }
std::optional<SliceLinkKind> parse_slice_link_kind(std::string_view s) { return parse_in(kSliceLinkKinds, s); }

// ---- [reading fields] -------------------------------------------------------------------------
namespace {

// Where reading failed: the path is built on the way out ("runs[2]" + ".block").
struct FieldError {
    std::string path, reason;
};

[[noreturn]] void wrong(const char* what, const json& v) {
    throw FieldError{"", fmt::format("must be {}, is {}", what, v.type_name())};
}

void read(const json& v, bool& out) {
    if (!v.is_boolean()) wrong("true or false", v);
    out = v.get<bool>();
}
template <class Int>
void read_integer(const json& v, Int& out) {
    if (!v.is_number_integer()) wrong("an integer", v);
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<Int>::max()))
            throw FieldError{"", fmt::format("{} is out of range", u)};
        out = static_cast<Int>(u);
        return;
    }
    const auto s = v.get<std::int64_t>();
    bool fits = s >= 0 || std::numeric_limits<Int>::is_signed;
    if constexpr (std::numeric_limits<Int>::is_signed && sizeof(Int) < sizeof(std::int64_t))
        fits = s >= std::numeric_limits<Int>::min() && s <= std::numeric_limits<Int>::max();
    if (!fits) throw FieldError{"", fmt::format("{} is out of range", s)};
    out = static_cast<Int>(s);
}
void read(const json& v, int& out) { read_integer(v, out); }
void read(const json& v, long long& out) { read_integer(v, out); }
void read(const json& v, std::uint64_t& out) { read_integer(v, out); }
void read(const json& v, double& out) {
    if (!v.is_number()) wrong("a number", v);
    out = v.get<double>();
}
void read(const json& v, std::string& out) {
    if (!v.is_string()) wrong("a string", v);
    out = v.get<std::string>();
}
void read(const json& v, Int3& out) {
    if (!v.is_array() || v.size() != 3) throw FieldError{"", "must be 3 integers"};
    for (size_t a = 0; a < 3; ++a) read(v[a], out[a]);
}

template <class E, size_t N>
void read_enum(const json& v, E& out, const Name<E> (&table)[N]) {
    if (!v.is_string()) wrong("a string", v);
    const auto e = parse_in(table, v.get<std::string>());
    if (!e) throw FieldError{"", fmt::format("'{}' is not one of {}", v.get<std::string>(), names_of(table))};
    out = *e;
}
void read(const json& v, RunnerMode& out) { read_enum(v, out, kRunnerModes); }
void read(const json& v, Schedule& out) { read_enum(v, out, kSchedules); }
void read(const json& v, CompileStage& out) { read_enum(v, out, kCompileStages); }
void read(const json& v, DiagnosticKind& out) { read_enum(v, out, kDiagnosticKinds); }
void read(const json& v, AccessOp& out) { read_enum(v, out, kAccessOps); }
void read(const json& v, MemorySpace& out) { read_enum(v, out, kMemorySpaces); }
void read(const json& v, StopReason& out) { read_enum(v, out, kStopReasons); }
void read(const json& v, ArgKind& out) { read_enum(v, out, kArgKinds); }
void read(const json& v, SliceLinkKind& out) { read_enum(v, out, kSliceLinkKinds); }
void read(const json& v, Problem& out) {
    if (!v.is_string()) wrong("a string", v);
    const auto p = parse_problem(v.get<std::string>());
    if (!p) throw FieldError{"", "must be one of " + problem_names()};
    out = *p;
}
void read(const json& v, Precision& out) {
    if (!v.is_string()) wrong("a string", v);
    const auto p = parse_precision(v.get<std::string>());
    if (!p) throw FieldError{"", "must be f32 or f64"};
    out = *p;
}

// Structs: defined below, each through field() and optional_field().
void read(const json& v, RunSpec& out);
void read(const json& v, CaseSpec& out);
void read(const json& v, BufferSpec& out);
void read(const json& v, KernelArg& out);
void read(const json& v, ConstantSpec& out);
void read(const json& v, RunRef& out);
void read(const json& v, TimingSpec& out);
void read(const json& v, TraceSpec& out);
void read(const json& v, CellRef& out);
void read(const json& v, ReplaySpec& out);
void read(const json& v, SourceAt& out);
void read(const json& v, CellWriter& out);
void read(const json& v, SliceLinkOutcome& out);
void read(const json& v, TermCell& out);
void read(const json& v, SumTermOutcome& out);
void read(const json& v, ReplayOutcome& out);
void read(const json& v, CompileOutcome& out);
void read(const json& v, EngineDiagnostic& out);
void read(const json& v, RunOutcome& out);
void read(const json& v, LoadCounts& out);
void read(const json& v, TimingOutcome& out);

template <class T>
void read(const json& v, std::vector<T>& out) {
    if (!v.is_array()) wrong("an array", v);
    out.assign(v.size(), T{});
    for (size_t i = 0; i < v.size(); ++i) {
        try {
            read(v[i], out[i]);
        } catch (FieldError& e) {
            e.path = fmt::format("[{}]", i) + (e.path.empty() || e.path[0] == '[' ? "" : ".") + e.path;
            throw;
        }
    }
}

template <class T>
void read_at(const json& o, const char* key, T& out) {
    try {
        read(o.at(key), out);
    } catch (FieldError& e) {
        e.path = key + std::string(e.path.empty() || e.path[0] == '[' ? "" : ".") + e.path;
        throw;
    }
}

// A field every message has.
template <class T>
void field(const json& o, const char* key, T& out) {
    if (!o.is_object()) wrong("an object", o);
    if (!o.contains(key)) throw FieldError{key, "is missing"};
    read_at(o, key, out);
}

// A field that may be absent (or null): then nullopt.
template <class T>
void optional_field(const json& o, const char* key, std::optional<T>& out) {
    if (!o.is_object()) wrong("an object", o);
    if (!o.contains(key) || o[key].is_null()) {
        out.reset();
        return;
    }
    T v{};
    read_at(o, key, v);
    out = std::move(v);
}

// Writing: enums by name, optionals only when present.
template <class E>
std::string name(E e) {
    return std::string(to_string(e));
}
template <class T>
void put_optional(json& j, const char* key, const std::optional<T>& v) {
    if (v) j[key] = *v;
}

}  // namespace

// ---- [request] --------------------------------------------------------------------------------
void to_json(json& j, const RunSpec& r) {
    j = {{"schedule", name(r.schedule)}, {"block_order", name(r.block_order)}, {"seed", r.seed},
         {"checked", r.checked},          {"explore", r.explore}};
}
void to_json(json& j, const BufferSpec& b) {
    j = {{"name", b.name}, {"file", b.file}, {"cells", b.cells}, {"read_only", b.read_only}};
}
void to_json(json& j, const KernelArg& a) {
    j = {{"kind", name(a.kind)}, {"buffer", a.buffer}, {"value", a.value}};
}
void to_json(json& j, const ConstantSpec& c) { j = {{"name", c.name}, {"values", c.values}}; }
void to_json(json& j, const CaseSpec& c) {
    j = {{"n", c.n},       {"guard", c.guard}, {"buffers", c.buffers}, {"args", c.args},
         {"grid", c.grid}, {"block", c.block}, {"dynamic_shared_bytes", c.dynamic_shared_bytes},
         {"runs", c.runs}, {"check_block_stride", c.check_block_stride}};
}
void to_json(json& j, const RunRef& r) { j = {{"case", r.case_index}, {"run", r.run}}; }
void to_json(json& j, const TimingSpec& t) { j = {{"case", t.case_index}, {"reps", t.reps}}; }
void to_json(json& j, const TraceSpec& t) {
    j = {{"case", t.case_index}, {"run", t.run}, {"block", t.block}, {"file", t.file}};
}
void to_json(json& j, const CellRef& c) { j = {{"buffer", c.buffer}, {"element", c.element}, {"step", c.step}}; }
void to_json(json& j, const ReplaySpec& r) {
    j = {{"cells", r.cells}, {"explain", r.explain}};
    put_optional(j, "block", r.block);
    put_optional(j, "thread", r.thread);
}

void to_json(json& j, const Request& r) {
    j = {{"schema_version", r.schema_version},
         {"mode", name(r.mode)},
         {"exercise", r.exercise},
         {"problem", std::string(to_string(r.problem))},
         {"lab_kernel", r.lab_kernel},
         {"kernel_name", r.kernel_name},
         {"kernel_signature", r.kernel_signature},
         {"precision", std::string(to_string(r.precision))},
         {"radius", r.radius},
         {"tile", r.tile},
         {"display_name", r.display_name},
         {"source", r.source},
         {"constants", r.constants},
         {"workers", r.workers},
         {"cases", r.cases},
         {"compile_seconds", r.compile_seconds},
         {"compile_memory_bytes", r.compile_memory_bytes},
         {"time_limit", r.time_limit},
         {"printf_cap_bytes", r.printf_cap_bytes}};
    put_optional(j, "count", r.count);
    put_optional(j, "timing", r.timing);
    put_optional(j, "trace", r.trace);
    put_optional(j, "replay", r.replay);
}

namespace {

void read(const json& v, RunSpec& r) {
    field(v, "schedule", r.schedule);
    field(v, "block_order", r.block_order);
    field(v, "seed", r.seed);
    field(v, "checked", r.checked);
    field(v, "explore", r.explore);
}
void read(const json& v, BufferSpec& b) {
    field(v, "name", b.name);
    field(v, "file", b.file);
    field(v, "cells", b.cells);
    field(v, "read_only", b.read_only);
}
void read(const json& v, KernelArg& a) {
    field(v, "kind", a.kind);
    field(v, "buffer", a.buffer);
    field(v, "value", a.value);
}
void read(const json& v, ConstantSpec& c) {
    field(v, "name", c.name);
    field(v, "values", c.values);
}
void read(const json& v, CaseSpec& c) {
    field(v, "n", c.n);
    field(v, "guard", c.guard);
    field(v, "buffers", c.buffers);
    field(v, "args", c.args);
    field(v, "grid", c.grid);
    field(v, "block", c.block);
    field(v, "dynamic_shared_bytes", c.dynamic_shared_bytes);
    field(v, "runs", c.runs);
    field(v, "check_block_stride", c.check_block_stride);
    if (c.check_block_stride < 1) throw FieldError{"check_block_stride", "must be at least 1"};
    if (c.dynamic_shared_bytes < 0) throw FieldError{"dynamic_shared_bytes", "must not be negative"};
}
void read(const json& v, RunRef& r) {
    field(v, "case", r.case_index);
    field(v, "run", r.run);
}
void read(const json& v, TimingSpec& t) {
    field(v, "case", t.case_index);
    field(v, "reps", t.reps);
}
void read(const json& v, TraceSpec& t) {
    field(v, "case", t.case_index);
    field(v, "run", t.run);
    field(v, "block", t.block);
    field(v, "file", t.file);
}
void read(const json& v, CellRef& c) {
    field(v, "buffer", c.buffer);
    field(v, "element", c.element);
    field(v, "step", c.step);
}
void read(const json& v, ReplaySpec& r) {
    field(v, "cells", r.cells);
    field(v, "explain", r.explain);
    optional_field(v, "block", r.block);
    optional_field(v, "thread", r.thread);
}

void read(const json& v, Request& r) {
    field(v, "schema_version", r.schema_version);
    field(v, "mode", r.mode);
    field(v, "exercise", r.exercise);
    field(v, "problem", r.problem);
    field(v, "lab_kernel", r.lab_kernel);
    field(v, "kernel_name", r.kernel_name);
    field(v, "kernel_signature", r.kernel_signature);
    field(v, "precision", r.precision);
    field(v, "radius", r.radius);
    field(v, "tile", r.tile);
    field(v, "display_name", r.display_name);
    field(v, "source", r.source);
    field(v, "constants", r.constants);
    field(v, "workers", r.workers);
    field(v, "cases", r.cases);
    optional_field(v, "count", r.count);
    optional_field(v, "timing", r.timing);
    optional_field(v, "trace", r.trace);
    optional_field(v, "replay", r.replay);
    field(v, "compile_seconds", r.compile_seconds);
    field(v, "compile_memory_bytes", r.compile_memory_bytes);
    field(v, "time_limit", r.time_limit);
    field(v, "printf_cap_bytes", r.printf_cap_bytes);
}

}  // namespace

// ---- [result] ---------------------------------------------------------------------------------
void to_json(json& j, const CompileOutcome& c) {
    j = {{"ok", c.ok}, {"log", c.log}, {"seconds", c.seconds}};
    if (c.stage) j["stage"] = name(*c.stage);
}
void to_json(json& j, const SourceAt& a) { j = {{"file", a.file}, {"line", a.line}, {"instruction", a.instruction}}; }
void to_json(json& j, const CellWriter& w) {
    j = {{"stored", w.stored}, {"at", w.at}, {"block", w.block}, {"thread", w.thread}, {"stores", w.stores}};
}
void to_json(json& j, const SliceLinkOutcome& l) {
    j = {{"kind", name(l.kind)}, {"depth", l.depth},     {"at", l.at},         {"thread", l.thread},
         {"space", name(l.space)}, {"array", l.array}, {"offset", l.offset}, {"elem_size", l.elem_size},
         {"other_at", l.other_at}, {"lines", l.lines}, {"unordered", l.unordered}};
    put_optional(j, "loaded", l.loaded);
    put_optional(j, "other", l.other);
}
void to_json(json& j, const TermCell& c) {
    j = {{"array", c.array}, {"element", c.element}, {"line", c.line}, {"copy_lines", c.copy_lines},
         {"index_lines", c.index_lines}, {"move_lines", c.move_lines}, {"shared", c.shared},
         {"shared_offset", c.shared_offset}};
}
void to_json(json& j, const SumTermOutcome& t) {
    j = {{"factor", t.factor}, {"weights", t.weights}, {"cells", t.cells}, {"others", t.others}, {"line", t.line}};
}
void to_json(json& j, const ReplayOutcome& r) {
    j = {{"writers", r.writers}, {"buffer_stores", r.buffer_stores}, {"slice", r.slice}, {"terms", r.terms},
         {"terms_note", r.terms_note}};
    put_optional(j, "traced_block", r.traced_block);
}
void to_json(json& j, const EngineDiagnostic& d) {
    j = {{"kind", name(d.kind)},   {"message", d.message},   {"block", d.block},
         {"block_b", d.block_b},   {"thread_a", d.thread_a}, {"thread_b", d.thread_b},
         {"interval", d.interval}, {"op_a", name(d.op_a)},   {"op_b", name(d.op_b)},
         {"space", name(d.space)}, {"array", d.array},       {"offset", d.offset},
         {"elem_size", d.elem_size}, {"element", d.element}, {"site_a", d.site_a},
         {"site_b", d.site_b},     {"file", d.file},         {"line", d.line},
         {"instruction", d.instruction}, {"other", d.other}};
}
void to_json(json& j, const RunOutcome& r) {
    j = {{"case", r.case_index},
         {"run", r.run},
         {"ok", r.ok},
         {"seconds", r.seconds},
         {"instructions", r.instructions},
         {"races", r.races},
         {"uninitialized_shared_reads", r.uninitialized_shared_reads},
         {"diagnostics", r.diagnostics},
         {"printf_bytes", r.printf_bytes},
         {"printf_truncated", r.printf_truncated},
         {"state_changed", r.state_changed},
         {"clock_reads", r.clock_reads},
         {"approximate_results", r.approximate_results},
         {"mallocs_refused", r.mallocs_refused}};
    put_optional(j, "launch_error", r.launch_error);
}
void to_json(json& j, const LoadCounts& c) {
    j = {{"case", c.case_index}, {"global_loads", c.global_loads}, {"source", c.source}};
    put_optional(j, "lab_global_loads", c.lab_global_loads);
    put_optional(j, "lab_unavailable", c.lab_unavailable);
}
void to_json(json& j, const TimingOutcome& t) {
    j = {{"case", t.case_index},          {"reps", t.reps},
         {"student_ms", t.student_ms},    {"reference_ms", t.reference_ms},
         {"student_all", t.student_all},  {"reference_all", t.reference_all},
         {"mismatched_reps", t.mismatched_reps}, {"reference", t.reference}};
}

void to_json(json& j, const Result& r) {
    j = {{"schema_version", r.schema_version}, {"device", r.device}, {"runs", r.runs}};
    put_optional(j, "compile", r.compile);
    put_optional(j, "counts", r.counts);
    put_optional(j, "counts_unavailable", r.counts_unavailable);
    put_optional(j, "timing", r.timing);
    put_optional(j, "timing_unavailable", r.timing_unavailable);
    if (r.stopped) j["stopped"] = name(*r.stopped);
    put_optional(j, "replay", r.replay);
}

namespace {

void read(const json& v, CompileOutcome& c) {
    field(v, "ok", c.ok);
    optional_field(v, "stage", c.stage);
    field(v, "log", c.log);
    field(v, "seconds", c.seconds);
    if (!c.ok && !c.stage) throw FieldError{"stage", "is missing (a failed compile names its stage)"};
}
void read(const json& v, EngineDiagnostic& d) {
    field(v, "kind", d.kind);
    field(v, "message", d.message);
    field(v, "block", d.block);
    field(v, "block_b", d.block_b);
    field(v, "thread_a", d.thread_a);
    field(v, "thread_b", d.thread_b);
    field(v, "interval", d.interval);
    field(v, "op_a", d.op_a);
    field(v, "op_b", d.op_b);
    field(v, "space", d.space);
    field(v, "array", d.array);
    field(v, "offset", d.offset);
    field(v, "elem_size", d.elem_size);
    field(v, "element", d.element);
    field(v, "site_a", d.site_a);
    field(v, "site_b", d.site_b);
    field(v, "file", d.file);
    field(v, "line", d.line);
    field(v, "instruction", d.instruction);
    field(v, "other", d.other);
}
void read(const json& v, SourceAt& a) {
    field(v, "file", a.file);
    field(v, "line", a.line);
    field(v, "instruction", a.instruction);
}
void read(const json& v, CellWriter& w) {
    field(v, "stored", w.stored);
    field(v, "at", w.at);
    field(v, "block", w.block);
    field(v, "thread", w.thread);
    field(v, "stores", w.stores);
}
void read(const json& v, SliceLinkOutcome& l) {
    field(v, "kind", l.kind);
    field(v, "depth", l.depth);
    field(v, "at", l.at);
    field(v, "thread", l.thread);
    field(v, "space", l.space);
    field(v, "array", l.array);
    field(v, "offset", l.offset);
    field(v, "elem_size", l.elem_size);
    optional_field(v, "loaded", l.loaded);
    optional_field(v, "other", l.other);
    field(v, "other_at", l.other_at);
    field(v, "lines", l.lines);
    field(v, "unordered", l.unordered);
}
void read(const json& v, TermCell& c) {
    field(v, "array", c.array);
    field(v, "element", c.element);
    field(v, "line", c.line);
    field(v, "copy_lines", c.copy_lines);
    field(v, "index_lines", c.index_lines);
    field(v, "move_lines", c.move_lines);
    field(v, "shared", c.shared);
    field(v, "shared_offset", c.shared_offset);
}
void read(const json& v, SumTermOutcome& t) {
    field(v, "factor", t.factor);
    field(v, "weights", t.weights);
    field(v, "cells", t.cells);
    field(v, "others", t.others);
    field(v, "line", t.line);
}
void read(const json& v, ReplayOutcome& r) {
    field(v, "terms", r.terms);
    field(v, "terms_note", r.terms_note);
    field(v, "writers", r.writers);
    field(v, "buffer_stores", r.buffer_stores);
    optional_field(v, "traced_block", r.traced_block);
    field(v, "slice", r.slice);
}
void read(const json& v, RunOutcome& r) {
    field(v, "case", r.case_index);
    field(v, "run", r.run);
    field(v, "ok", r.ok);
    field(v, "seconds", r.seconds);
    field(v, "instructions", r.instructions);
    field(v, "races", r.races);
    field(v, "uninitialized_shared_reads", r.uninitialized_shared_reads);
    field(v, "diagnostics", r.diagnostics);
    field(v, "printf_bytes", r.printf_bytes);
    field(v, "printf_truncated", r.printf_truncated);
    field(v, "state_changed", r.state_changed);
    field(v, "clock_reads", r.clock_reads);
    field(v, "approximate_results", r.approximate_results);
    field(v, "mallocs_refused", r.mallocs_refused);
    optional_field(v, "launch_error", r.launch_error);
}
void read(const json& v, LoadCounts& c) {
    field(v, "case", c.case_index);
    field(v, "global_loads", c.global_loads);
    field(v, "source", c.source);
    optional_field(v, "lab_global_loads", c.lab_global_loads);
    optional_field(v, "lab_unavailable", c.lab_unavailable);
}
void read(const json& v, TimingOutcome& t) {
    field(v, "case", t.case_index);
    field(v, "reps", t.reps);
    field(v, "student_ms", t.student_ms);
    field(v, "reference_ms", t.reference_ms);
    field(v, "student_all", t.student_all);
    field(v, "reference_all", t.reference_all);
    field(v, "mismatched_reps", t.mismatched_reps);
    field(v, "reference", t.reference);
}

void read(const json& v, Result& r) {
    field(v, "schema_version", r.schema_version);
    field(v, "device", r.device);
    optional_field(v, "compile", r.compile);
    field(v, "runs", r.runs);
    optional_field(v, "counts", r.counts);
    optional_field(v, "counts_unavailable", r.counts_unavailable);
    optional_field(v, "timing", r.timing);
    optional_field(v, "timing_unavailable", r.timing_unavailable);
    optional_field(v, "stopped", r.stopped);
    optional_field(v, "replay", r.replay);
}

// ---- [versions and files] ---------------------------------------------------------------------

template <class Message>
Message parse_message(std::string_view text, const char* what) {
    const json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) throw ProtocolError(fmt::format("the {} is not JSON", what));
    // The version first: another version's fields may mean other things.
    int version = 0;
    try {
        field(j, "schema_version", version);
    } catch (const FieldError& e) {
        throw ProtocolError(fmt::format("the {}'s {}: {}", what, e.path.empty() ? "top level" : e.path, e.reason));
    }
    if (version != kSchemaVersion)
        throw SchemaMismatch(fmt::format("the {} is schema version {}, this build speaks version {} "
                                          "(stencil-lab and stencil-check-runner from different builds?)",
                                          what, version, kSchemaVersion));
    Message m;
    try {
        read(j, m);
    } catch (const FieldError& e) {
        throw ProtocolError(fmt::format("the {}'s {}: {}", what, e.path.empty() ? "top level" : e.path, e.reason));
    }
    return m;
}

}  // namespace

void from_json(const json& j, Request& r) { r = parse_request(j.dump()); }
void from_json(const json& j, Result& r) { r = parse_result(j.dump()); }

Request parse_request(std::string_view text) { return parse_message<Request>(text, "request"); }
Result parse_result(std::string_view text) { return parse_message<Result>(text, "result"); }

ResultFile result_file_from_text(std::string_view text) {
    ResultFile f;
    try {
        f.result = parse_result(text);
        f.status = ResultFile::Status::ok;
    } catch (const SchemaMismatch& e) {
        f.status = ResultFile::Status::wrong_version;
        f.problem = e.what();
    } catch (const ProtocolError& e) {
        f.status = ResultFile::Status::malformed;
        f.problem = e.what();
    }
    return f;
}

ResultFile read_result_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ResultFile f;
        f.problem = "no result.json";
        return f;
    }
    std::ostringstream s;
    s << in.rdbuf();
    return result_file_from_text(s.str());
}

}  // namespace stencil::checker
