// results.csv and results.json of a sweep, and the folder they go in.
#include "experiments/sweep_output.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "experiments/sweep_plots.h"

namespace stencil::experiments {

namespace fs = std::filesystem;
using namespace analysis;

namespace {

nlohmann::json num(std::optional<double> v) {
    return v && std::isfinite(*v) ? nlohmann::json(*v) : nlohmann::json(nullptr);
}
std::string csvnum(std::optional<double> v) {
    return v && std::isfinite(*v) ? fmt::format("{:.6g}", *v) : std::string();
}
std::string csvtext(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}
std::string status(const SweepRow& r) {
    if (!r.skipped.empty()) return "skipped";
    if (!r.run) return "not run";
    if (r.run->cancelled) return "cancelled";
    return r.run->ok ? "ok" : "check failed";
}
// Integer counts (bytes, sectors, requests, FLOPs) are written as integers, exactly; ratios with
// 6 significant digits. A counter value is a whole number; should one not be, it is written as is.
std::string csvint(std::optional<double> v) {
    if (!v || !std::isfinite(*v)) return std::string();
    if (*v == std::floor(*v) && std::fabs(*v) < 9.0e15) return fmt::format("{}", (long long)*v);
    return fmt::format("{}", *v);  // shortest exact round trip
}
}  // namespace

nlohmann::json to_json(const SweepRow& r) {
    nlohmann::json j;
    const auto& q = r.request;
    j["kernel"] = version(q.kernel).name;
    j["tile"] = q.tile;
    j["radius"] = q.radius;
    j["precision"] = std::string(to_string(q.precision));
    j["grid"] = {q.dims.nx, q.dims.ny, q.dims.nz};
    j["status"] = status(r);
    if (!r.skipped.empty()) {
        j["skipped"] = r.skipped;
        return j;
    }
    const Model& m = r.model;
    j["model"] = {
        {"flops_per_point", m.flops_per_point},
        {"loads_per_block", m.loads_per_block},
        {"outputs_per_block", m.outputs_per_block},
        {"opb", m.opb},
        {"opb_textbook", m.opb_textbook},
        {"opb_limit", m.opb_limit},
        {"halo_fraction", m.halo.fraction},
        {"smem_bytes", m.smem_bytes},
        {"threads_per_block", m.threads_per_block},
        {"sectors_per_request", r.model_sectors_per_request},
        {"grid_load_bytes", r.exact.load_bytes},
        {"grid_store_bytes", r.exact.store_bytes},
        {"grid_flops", r.exact.flops},
        {"grid_opb", r.exact.opb},
    };
    if (r.measured) {
        nlohmann::json lv = nlohmann::json::array();
        for (const auto& l : r.measured->levels) {
            nlohmann::json e = {{"level", l.level},
                                {"read_bytes", num(l.read_bytes)},
                                {"write_bytes", num(l.write_bytes)},
                                {"opb_read", num(l.opb)},
                                {"opb_read_write", num(l.opb_rw)},
                                {"measured", l.measured},
                                {"source", l.source},
                                {"note", l.note}};
            if (l.model_read_bytes) {
                e["model_read_bytes"] = num(l.model_read_bytes);
                e["model_write_bytes"] = num(l.model_write_bytes);
            }
            lv.push_back(e);
        }
        const auto& mm = *r.measured;
        j["measured"] = {{"flops", mm.flops},
                         {"flops_source", mm.flops_source},
                         {"levels", lv},
                         // flat copies for readers that look for these names (the viewer)
                         {"requested_bytes", num(mm.level("requested").read_bytes)},
                         {"l2_read_bytes", num(mm.level("L2").read_bytes)},
                         {"dram_read_bytes", num(mm.level("DRAM").read_bytes)},
                         {"l1_global_load_sectors", num(mm.l1_sectors)},
                         {"l1_global_load_requests", num(mm.l1_requests)},
                         {"sectors_per_request", num(mm.sectors_per_request)}};
    }
    if (r.run) {
        j["check"] = {{"ok", r.run->ok}, {"line", r.run->check_line()}};
        j["run"] = r.run->to_json();
        j["time_ms"] = {{"min", r.run->ms.min}, {"median", r.run->ms.median}, {"max", r.run->ms.max}};
        j["gbps"] = r.run->gbps;
        j["gflops"] = r.run->gflops;
        j["copy_gbps"] = r.run->copy_gbps;
        j["copy_ratio"] = r.run->copy_ratio;
    }
    return j;
}

nlohmann::json to_json(const SweepResult& s) {
    nlohmann::json j;
    j["backend"] = s.backend;
    j["device"] = s.device;
    j["grid"] = {s.dims.nx, s.dims.ny, s.dims.nz};
    j["radius"] = s.radius;
    j["precision"] = std::string(to_string(s.precision));
    j["copy_gbps"] = s.copy_gbps;
    j["fma_gflops"] = num(s.fma_gflops);
    j["fma_note"] = s.fma_note;
    j["plots"] = s.plots_note;
    if (s.backend == "cpu")
        j["note"] = "CPU backend: times are the PTX engine's, not a GPU's; L2/DRAM levels need "
                    "the GPU's counters";
    j["results"] = nlohmann::json::array();
    for (const auto& r : s.rows) j["results"].push_back(to_json(r));
    return j;
}

// 6 significant digits. A counter value is a whole number; should one not be, it is written as is.
std::string csv_header() {
    return "kernel,tile,radius,precision,nx,ny,nz,status,check,flops_per_point,loads_per_block,"
           "outputs_per_block,model_opb,model_opb_textbook,model_opb_limit,halo_fraction,"
           "smem_bytes,threads_per_block,model_requests,model_sectors,model_sectors_per_request,"
           "grid_load_bytes,grid_store_bytes,grid_flops,flops,requested_source,requested_read_bytes,"
           "requested_write_bytes,requested_opb,requested_opb_rw,l2_read_bytes,l2_write_bytes,"
           "l2_opb,l2_opb_rw,dram_read_bytes,dram_write_bytes,dram_opb,dram_opb_rw,l1_global_load_sectors,"
           "l1_global_load_requests,measured_sectors_per_request,time_ms_min,time_ms_median,"
           "time_ms_max,gbps,gflops,copy_gbps,copy_ratio,note";
}

std::string csv_line(const SweepRow& r) {
    const auto& q = r.request;
    std::string s = fmt::format("{},{},{},{},{},{},{},{},", version(q.kernel).name, q.tile, q.radius,
                                to_string(q.precision), q.dims.nx, q.dims.ny, q.dims.nz, status(r));
    s += (r.run ? csvtext(r.run->check_line()) : std::string()) + ",";
    if (!r.skipped.empty()) {
        const std::string head = csv_header();
        s += std::string(size_t(std::count(head.begin(), head.end(), ',') - 9), ',');
        return s + csvtext(r.skipped);
    }
    const Model& m = r.model;
    s += fmt::format("{},{},{},{},{},{},{},{},{},", m.flops_per_point, m.loads_per_block,
                     m.outputs_per_block, csvnum(m.opb), csvnum(m.opb_textbook),
                     csvnum(m.opb_limit), csvnum(m.halo.fraction), m.smem_bytes,
                     m.threads_per_block);
    s += fmt::format("{},{},{},{},{},{},", r.model_requests ? std::to_string(r.model_requests) : "",
                     r.model_requests ? std::to_string(r.model_sectors) : "",
                     r.model_requests ? csvnum(r.model_sectors_per_request) : "", r.exact.load_bytes,
                     r.exact.store_bytes, r.exact.flops);
    auto lv = [&](const char* name) -> const LevelMetric* {
        return r.measured ? &r.measured->level(name) : nullptr;
    };
    auto get = [](const LevelMetric* l, std::optional<double> LevelMetric::*f) {
        return l ? l->*f : std::nullopt;
    };
    const LevelMetric *req = lv("requested"), *l2 = lv("L2"), *dram = lv("DRAM");
    s += csvint(r.measured ? std::optional<double>(r.measured->flops) : std::nullopt) + ",";
    s += (req ? csvtext(req->source) : std::string()) + ",";
    s += fmt::format("{},{},{},{},", csvint(get(req, &LevelMetric::read_bytes)),
                     csvint(get(req, &LevelMetric::write_bytes)), csvnum(get(req, &LevelMetric::opb)),
                     csvnum(get(req, &LevelMetric::opb_rw)));
    for (const LevelMetric* l : {l2, dram})
        s += fmt::format("{},{},{},{},", csvint(get(l, &LevelMetric::read_bytes)),
                         csvint(get(l, &LevelMetric::write_bytes)), csvnum(get(l, &LevelMetric::opb)),
                         csvnum(get(l, &LevelMetric::opb_rw)));
    s += fmt::format("{},{},{},", csvint(r.measured ? r.measured->l1_sectors : std::nullopt),
                     csvint(r.measured ? r.measured->l1_requests : std::nullopt),
                     csvnum(r.measured ? r.measured->sectors_per_request : std::nullopt));
    if (r.run && r.run->timed)
        s += fmt::format("{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.4g},", r.run->ms.min,
                         r.run->ms.median, r.run->ms.max, r.run->gbps, r.run->gflops,
                         r.run->copy_gbps, r.run->copy_ratio);
    else
        s += ",,,,,,,";
    std::string note;
    if (r.measured) note = r.measured->level("DRAM").note;
    if (r.run && !r.run->ok) note = r.run->check_line();
    return s + csvtext(note);
}

void write_sweep_outputs(SweepResult& s, const std::string& dir, bool plots) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw UserError(fmt::format("cannot create {}: {}", dir, ec.message()));
    const fs::path d(dir);
    s.files.clear();

    std::string csv = csv_header() + "\n";
    for (const auto& r : s.rows) csv += csv_line(r) + "\n";
    write_text_file(d / "results.csv", csv);
    s.files.push_back("results.csv");

    // The plots are drawn from the JSON document itself, as `sweep --replot` draws them later.
    nlohmann::json doc = to_json(s);
    if (!plots) {
        s.plots_note = "plots not requested";
    } else {
        PlotOutcome p = write_plots(doc, (d / "plots").string());
        for (const auto& f : p.files) s.files.push_back("plots/" + f);
        s.plots_note = p.note;
        s.plot_failures = p.failures;
    }
    doc["plots"] = s.plots_note;
    write_text_file(d / "results.json", doc.dump(2) + "\n");
    s.files.push_back("results.json");
}

}  // namespace stencil::experiments
