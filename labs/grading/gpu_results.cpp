#include "labs/grading/gpu_results.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace stencil::labs {
namespace {

using nlohmann::json;

std::optional<double> number_at(const json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nullopt;
    return j[key].get<double>();
}

// A run record of either writer: `run --json` keeps everything at the top, the sweep nests the
// run's own record under "run" and the counters under "measured".
std::optional<GpuRun> run_from(const json& rec) {
    if (!rec.is_object() || !rec.contains("kernel") || !rec["kernel"].is_string()) return std::nullopt;
    const json& run = rec.contains("run") && rec["run"].is_object() ? rec["run"] : rec;
    if (run.value("backend", std::string()) != "cuda") return std::nullopt;
    if (!run.value("timed", true)) return std::nullopt;
    const bool ok = rec.contains("check") && rec["check"].is_object() ? rec["check"].value("ok", false)
                                                                     : run.value("ok", false);
    if (!ok) return std::nullopt;  // a wrong result has no bandwidth worth grading against
    GpuRun r;
    r.kernel = rec["kernel"].get<std::string>();
    r.tile = rec.value("tile", run.value("tile", 0));
    r.precision = rec.value("precision", std::string("f32"));
    r.radius = rec.value("radius", 1);
    for (const char* side : {"nx", "ny", "nz"}) r.n = std::max<long long>(r.n, run.value(side, 0LL));
    const auto gbps = number_at(rec, "gbps");
    const auto ratio = number_at(rec, "copy_ratio");
    if (!gbps || !ratio) return std::nullopt;
    r.gbps = *gbps;
    r.copy_ratio = *ratio;
    if (auto regs = number_at(run, "registers")) r.registers = int(*regs);
    if (rec.contains("measured") && rec["measured"].contains("levels"))
        for (const json& level : rec["measured"]["levels"])
            if (level.value("level", std::string()) == "DRAM" && level.value("measured", false))
                r.dram_opb_read = number_at(level, "opb_read");
    return r;
}

std::string device_of(const json& rec) {
    if (rec.contains("device") && rec["device"].is_string()) return rec["device"].get<std::string>();
    if (rec.contains("run") && rec["run"].is_object()) return device_of(rec["run"]);
    return {};
}

}  // namespace

const GpuRun* GpuResults::find(const std::string& kernel, int tile, const std::string& precision, int radius) const {
    const GpuRun* best = nullptr;
    for (const GpuRun& r : runs)
        if (r.kernel == kernel && r.tile == tile && r.precision == precision && r.radius == radius &&
            (!best || r.n > best->n))
            best = &r;
    return best;
}

GpuResults load_gpu_results(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw UserError(fmt::format("--results {}: cannot be read", path));
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::vector<json> records;
    GpuResults out;
    out.path = path;
    const json whole = json::parse(text, nullptr, false);
    if (!whole.is_discarded()) {
        if (whole.is_object() && whole.contains("results") && whole["results"].is_array()) {
            records = whole["results"].get<std::vector<json>>();
            out.fma_gflops = number_at(whole, "fma_gflops");
            out.copy_gbps = number_at(whole, "copy_gbps");
            if (whole.contains("device") && whole["device"].is_string()) out.device = whole["device"];
        } else if (whole.is_array()) {
            records = whole.get<std::vector<json>>();
        } else {
            records.push_back(whole);
        }
    } else {  // JSON lines: one run object per line
        std::istringstream lines(text);
        std::string line;
        int number = 0;
        while (std::getline(lines, line)) {
            ++number;
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
            json j = json::parse(line, nullptr, false);
            if (j.is_discarded())
                throw UserError(fmt::format("--results {}: line {} is not JSON (expected a sweep's results.json or "
                                            "`stencil-lab run --json` output)",
                                            path, number));
            records.push_back(std::move(j));
        }
    }
    for (const json& rec : records)
        if (auto r = run_from(rec)) {
            out.runs.push_back(*r);
            if (out.device.empty()) out.device = device_of(rec);
        }
    if (out.runs.empty())
        throw UserError(fmt::format("--results {}: no timed CUDA run with a passing check in it (expected a "
                                    "sweep's results.json or `stencil-lab run --json` output from a GPU)",
                                    path));
    return out;
}

}  // namespace stencil::labs
