#include "viewer/core/results.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

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
           {"flops", r.flops}};
    if (r.checked) j["check"] = {{"ok", r.ok}, {"max_rel_err", r.max_rel_err}};
    if (!r.error.empty()) j["error"] = r.error;
    json c = json::object();
    if (r.l2_bytes) c["l2_bytes"] = *r.l2_bytes;
    if (r.dram_bytes) c["dram_bytes"] = *r.dram_bytes;
    if (r.sectors_per_request) c["sectors_per_request"] = *r.sectors_per_request;
    if (r.requested_bytes) c["requested_bytes"] = *r.requested_bytes;
    if (!c.empty()) j["counters"] = c;
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
        if (it != o->end() && it->is_array() && it->size() == 3)
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
    r.flops = number(j, {"flops"}).value_or(0);
    if (r.flops == 0 && r.dims.nx > 0)
        r.flops = (double)std::max(0, r.dims.nx - 2 * r.radius) * std::max(0, r.dims.ny - 2 * r.radius) *
                  std::max(0, r.dims.nz - 2 * r.radius) * (12.0 * r.radius + 1);
    if (j.contains("check") && j["check"].is_object()) {
        const json& chk = j["check"];
        r.checked = true;
        r.ok = chk.value("ok", false);
        r.max_rel_err = number(chk, {"max_rel_err"}).value_or(0);
    } else if (j.contains("ok") && j["ok"].is_boolean()) {
        r.checked = true;
        r.ok = j["ok"].get<bool>();
        r.max_rel_err = number(j, {"max_rel_err"}).value_or(0);
        if (!r.ok) r.error = text(j, {"check"}).value_or("check failed");
    }
    if (auto e = text(j, {"error"})) r.error = *e;
    if (auto e = text(row, {"skipped"}); e && !e->empty()) r.error = *e;
    // Counters: wherever the file keeps them.
    for (const json* c : {&sub(row, "counters"), &sub(j, "counters"), &sub(row, "measured"), &row}) {
        if (!r.l2_bytes) r.l2_bytes = number(*c, {"l2_bytes", "l2_read_bytes", "lts_bytes"});
        if (!r.dram_bytes) r.dram_bytes = number(*c, {"dram_bytes", "dram_read_bytes"});
        if (!r.sectors_per_request) r.sectors_per_request = number(*c, {"sectors_per_request"});
        if (!r.requested_bytes) r.requested_bytes = number(*c, {"requested_bytes", "global_load_bytes"});
    }
    return r;
}

ResultsFile parse_results(const json& j) {
    ResultsFile f;
    const json* list = nullptr;
    if (j.is_array()) list = &j;
    else if (j.is_object()) {
        for (const char* k : {"results", "runs", "points"})
            if (j.contains(k) && j[k].is_array()) list = &j[k];
        f.device = text(j, {"device"}).value_or(text(sub(j, "device"), {"name"}).value_or(""));
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

ResultsFile load_results(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw UserError("cannot open " + path);
    json j;
    try {
        in >> j;
    } catch (const std::exception& e) {
        throw UserError(fmt::format("{} is not valid JSON: {}", path, e.what()));
    }
    ResultsFile f = parse_results(j);
    f.path = path;
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
