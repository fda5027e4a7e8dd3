#include "viewer/core/results.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "core/error.h"

namespace stencil::viewer {

using nlohmann::json;

std::optional<KernelId> RunRecord::kernel_id() const {
    if (const auto* v = find_version(kernel)) return v->id;
    return std::nullopt;
}

namespace {
// The first of `keys` that `j` has as a number.
std::optional<double> number(const json& j, std::initializer_list<const char*> keys) {
    for (const char* k : keys) {
        auto it = j.find(k);
        if (it != j.end() && it->is_number()) return it->get<double>();
    }
    return std::nullopt;
}
std::optional<std::string> text(const json& j, std::initializer_list<const char*> keys) {
    for (const char* k : keys) {
        auto it = j.find(k);
        if (it != j.end() && it->is_string()) return it->get<std::string>();
    }
    return std::nullopt;
}
const json& sub(const json& j, const char* key) {
    static const json empty = json::object();
    auto it = j.find(key);
    return it != j.end() && it->is_object() ? *it : empty;
}
}  // namespace

json to_json(const RunRecord& r) {
    json j{{"kernel", r.kernel},
           {"tile", r.tile},
           {"radius", r.radius},
           {"precision", r.precision},
           {"dims", {r.dims.nx, r.dims.ny, r.dims.nz}},
           {"backend", r.backend},
           {"device", r.device},
           {"time_ms", {{"min", r.ms_min}, {"median", r.ms_median}, {"max", r.ms_max}}},
           {"effective_gbps", r.gbps},
           {"copy_gbps", r.copy_gbps},
           {"of_copy", r.of_copy},
           {"flops", r.flops},
           {"steps", r.steps},
           {"fused_steps", r.fused_steps}};
    if (r.checked) j["check"] = {{"ok", r.ok}, {"max_rel_err", r.max_rel_err}, {"bound", r.bound}};
    if (r.instructions_per_s > 0) j["emulated_instructions_per_s"] = r.instructions_per_s;
    if (!r.error.empty()) j["error"] = r.error;
    // Counters in the sweep's own shape, so read_counters() reads both files.
    json levels = json::array();
    auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    for (auto [name, l] : {std::pair<const char*, const RunRecord::Level*>{"requested", &r.requested},
                           {"L2", &r.l2}, {"DRAM", &r.dram}})
        if (l->read_bytes || !l->note.empty())
            levels.push_back({{"level", name}, {"read_bytes", opt(l->read_bytes)}, {"write_bytes", opt(l->write_bytes)},
                              {"opb_read", opt(l->opb_read)}, {"opb_read_write", opt(l->opb_rw)},
                              {"measured", l->read_bytes.has_value()}, {"source", l->source}, {"note", l->note}});
    if (!levels.empty() || r.sectors_per_request)
        j["measured"] = {{"flops", r.flops}, {"levels", levels}, {"sectors_per_request", opt(r.sectors_per_request)},
                         {"l1_global_load_sectors", opt(r.l1_sectors)}, {"l1_global_load_requests", opt(r.l1_requests)}};
    return j;
}

RunRecord record_from_json(const json& row) {
    RunRecord r;
    // A sweep row nests the run report under "run" (and the request under "request"); a
    // RunReport::to_json() object is flat. Read both.
    const json& j = row.contains("run") && row["run"].is_object() ? row["run"] : row;
    const json& req = row.contains("request") && row["request"].is_object() ? row["request"] : j;
    r.kernel = text(req, {"kernel", "version"}).value_or(text(j, {"kernel"}).value_or(text(row, {"kernel"}).value_or("naive")));
    r.tile = (int)number(req, {"tile", "T"}).value_or(number(row, {"tile"}).value_or(0));
    r.radius = (int)number(req, {"radius", "r"}).value_or(number(row, {"radius"}).value_or(1));
    r.precision = text(req, {"precision"}).value_or(text(row, {"precision"}).value_or("f32"));
    for (const json* o : {&row, &req, &j}) {
        if (auto nx = number(*o, {"nx"})) {
            r.dims = {(int)*nx, (int)number(*o, {"ny"}).value_or(*nx), (int)number(*o, {"nz"}).value_or(*nx)};
        }
        auto it = o->find("dims");  // ("grid" in a run report is the launch grid in blocks)
        if (it != o->end() && it->is_array() && it->size() == 3 && (*it)[0].is_number())
            r.dims = {(*it)[0].get<int>(), (*it)[1].get<int>(), (*it)[2].get<int>()};
        // A sweep row's "grid" is the grid in cells (its run report's "grid" is in blocks).
        it = o->find("grid");
        if (o == &row && row.contains("status") && it != o->end() && it->is_array() && it->size() == 3 &&
            (*it)[0].is_number())
            r.dims = {(*it)[0].get<int>(), (*it)[1].get<int>(), (*it)[2].get<int>()};
        if (auto n = number(*o, {"size", "n", "N"})) r.dims = {(int)*n, (int)*n, (int)*n};
    }
    r.backend = text(j, {"backend"}).value_or(text(row, {"backend"}).value_or("cpu"));
    r.device = text(j, {"device"}).value_or(text(sub(j, "device_info"), {"name"}).value_or(""));
    const json& t = j.contains("time_ms") && j["time_ms"].is_object() ? j["time_ms"] : j;
    r.ms_min = number(t, {"min", "ms_min"}).value_or(0);
    r.ms_median = number(t, {"median", "ms_median"}).value_or(0);
    r.ms_max = number(t, {"max", "ms_max"}).value_or(0);
    r.gbps = number(j, {"effective_gbps", "gbps"}).value_or(0);
    r.copy_gbps = number(j, {"copy_gbps"}).value_or(0);
    r.of_copy = number(j, {"of_copy", "copy_ratio"}).value_or(r.copy_gbps > 0 ? r.gbps / r.copy_gbps : 0);
    r.steps = std::max(1, (int)number(j, {"steps"}).value_or(1));
    r.fused_steps = std::clamp((int)number(j, {"fused_steps"}).value_or(1), 1, r.steps);
    r.flops = number(j, {"flops"}).value_or(0);
    if (r.flops == 0 && r.dims.nx > 0)  // the file's time is of all its steps
        r.flops = (double)std::max(0, r.dims.nx - 2 * r.radius) * std::max(0, r.dims.ny - 2 * r.radius) *
                  std::max(0, r.dims.nz - 2 * r.radius) * (12.0 * r.radius + 1) * r.steps;
    if (j.contains("check") && j["check"].is_object()) {
        const json& chk = j["check"];
        r.checked = true;
        r.ok = chk.value("ok", false);
        r.max_rel_err = number(chk, {"max_rel_err"}).value_or(0);
        r.bound = number(chk, {"bound"}).value_or(0);
    } else if (j.contains("ok") && j["ok"].is_boolean()) {
        r.checked = true;
        r.ok = j["ok"].get<bool>();
        r.max_rel_err = number(j, {"max_rel_err"}).value_or(0);
        if (!r.ok) r.error = text(j, {"check"}).value_or("check failed");
    }
    if (r.bound == 0) r.bound = number(j, {"error_bound_gamma"}).value_or(0);  // bench/peers.py
    r.instructions_per_s = number(j, {"emulated_instructions_per_s"}).value_or(0);
    if (auto e = text(j, {"error"})) r.error = *e;
    if (auto e = text(row, {"skipped"}); e && !e->empty()) r.error = *e;
    read_counters(row, r);
    return r;
}

void read_counters(const json& row, RunRecord& r) {
    const json& m = sub(row, "measured");
    if (auto f = number(m, {"flops"}); f && *f > 0) r.flops = *f;
    auto it = m.find("levels");
    if (it != m.end() && it->is_array()) {
        for (const json& e : *it) {
            if (!e.is_object()) continue;
            const std::string name = text(e, {"level"}).value_or("");
            RunRecord::Level* l = name == "requested" ? &r.requested : name == "L2" ? &r.l2 : name == "DRAM" ? &r.dram
                                                                                                               : nullptr;
            if (!l) continue;
            l->source = text(e, {"source"}).value_or("");
            l->note = text(e, {"note"}).value_or("");
            // Measured: the file says so ("measured": true), or (older files, no such key) its
            // source is not the model's. The model's counts are the model, not a measurement.
            const auto flag = e.find("measured");
            const bool measured = flag != e.end() && flag->is_boolean() ? flag->get<bool>()
                                                                        : l->source.rfind("model", 0) != 0;
            if (!measured) {
                if (l->note.empty()) l->note = l->source.empty() ? "not measured" : l->source;
                continue;
            }
            l->read_bytes = number(e, {"read_bytes"});
            l->write_bytes = number(e, {"write_bytes"});
            l->opb_read = number(e, {"opb_read", "opb"});
            l->opb_rw = number(e, {"opb_read_write", "opb_rw"});
        }
    }
    r.sectors_per_request = number(m, {"sectors_per_request"});
    r.l1_sectors = number(m, {"l1_global_load_sectors", "l1_sectors"});
    r.l1_requests = number(m, {"l1_global_load_requests", "l1_requests"});
    // The flat "counters" object of older files (read bytes only).
    const json& c = sub(row, "counters");
    if (!r.l2.read_bytes) r.l2.read_bytes = number(c, {"l2_bytes", "l2_read_bytes"});
    if (!r.dram.read_bytes) r.dram.read_bytes = number(c, {"dram_bytes", "dram_read_bytes"});
    if (!r.sectors_per_request) r.sectors_per_request = number(c, {"sectors_per_request"});
}

std::optional<double> level_opb_read(const RunRecord::Level& l, double flops) {
    if (l.opb_read && *l.opb_read > 0) return l.opb_read;
    if (l.read_bytes && *l.read_bytes > 0 && flops > 0) return flops / *l.read_bytes;
    return std::nullopt;
}

std::optional<double> level_opb_rw(const RunRecord::Level& l, double flops) {
    if (l.opb_rw && *l.opb_rw > 0) return l.opb_rw;
    if (l.read_bytes && l.write_bytes && *l.read_bytes + *l.write_bytes > 0 && flops > 0)
        return flops / (*l.read_bytes + *l.write_bytes);
    return std::nullopt;
}

ResultsFile parse_results(const json& j) {
    ResultsFile f;
    const json* list = nullptr;
    if (j.is_array()) list = &j;
    else if (j.is_object()) {
        for (const char* k : {"results", "runs", "points"})
            if (j.contains(k) && j[k].is_array()) list = &j[k];
        f.device = text(j, {"device"}).value_or(text(sub(j, "device"), {"name"}).value_or(""));
        f.copy_gbps = number(j, {"copy_gbps"});
        f.fma_gflops = number(j, {"fma_gflops"});
        f.fma_note = text(j, {"fma_note"}).value_or("");
        if (!list && j.contains("kernel")) {
            f.runs.push_back(record_from_json(j));
            return f;
        }
    }
    if (!list) throw UserError("not a results file: expected a list under \"results\" (stencil-lab sweep)");
    for (const auto& e : *list) {
        if (!e.is_object()) continue;
        RunRecord r = record_from_json(e);
        if (r.device.empty()) r.device = f.device;
        f.runs.push_back(std::move(r));
    }
    return f;
}

namespace {
// JSON lines (`stencil-lab run --json` appended to a file, bench/peers.py's .jsonl): one object a
// line, blank lines allowed, read as the list of those objects. Nothing when a line is not an
// object, so the caller reports the file's own JSON error.
std::optional<json> json_lines(const std::string& text) {
    json list = json::array();
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        json row = json::parse(line, nullptr, false);
        if (!row.is_object()) return std::nullopt;
        list.push_back(std::move(row));
    }
    if (list.empty()) return std::nullopt;
    return list;
}
}  // namespace

ResultsFile load_results(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw UserError("cannot open " + path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    json j;
    try {
        j = json::parse(text);
    } catch (const std::exception& e) {
        auto lines = json_lines(text);
        if (!lines) throw UserError(fmt::format("{} is not valid JSON: {}", path, e.what()));
        j = std::move(*lines);
    }
    ResultsFile f;
    try {
        f = parse_results(j);
    } catch (const std::exception& e) {  // a field of the wrong type, or not a results file: name the file
        throw UserError(fmt::format("{}: {}", path, e.what()));
    }
    f.path = path;
    for (auto& r : f.runs) r.origin = path;
    return f;
}

void save_results(const std::string& path, const ResultsFile& f) {
    json runs = json::array();
    for (const auto& r : f.runs) runs.push_back(to_json(r));
    json j{{"tool", "stencil-lab-viewer"}, {"device", f.device}, {"results", runs}};
    std::ofstream out(path);
    if (!out) throw UserError("cannot write " + path);
    out << j.dump(2) << "\n";
}

}  // namespace stencil::viewer
