// The baseline's report: the verdict on the rule, the table for people, the JSON.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "experiments/baseline.h"

namespace stencil::experiments {


bool BaselineReport::all_checks_ok() const {
    return std::all_of(rows.begin(), rows.end(), [](const BaselineRow& r) { return r.checks_ok(); });
}

int BaselineReport::compared() const {
    return static_cast<int>(std::count_if(rows.begin(), rows.end(), [](const BaselineRow& r) { return r.compared(); }));
}

int BaselineReport::at_least_as_fast() const {
    return static_cast<int>(
        std::count_if(rows.begin(), rows.end(), [](const BaselineRow& r) { return r.at_least_as_fast(); }));
}

std::vector<std::string> BaselineReport::within_noise() const {
    std::vector<std::string> s;
    for (const auto& r : rows)
        if (r.within_noise()) s.push_back(fmt::format("{} ({:.3f})", r.config.label, r.lab_over_textbook));
    return s;
}

std::vector<std::string> BaselineReport::slower() const {
    std::vector<std::string> s;
    for (const auto& r : rows)
        if (r.slower()) s.push_back(fmt::format("{} ({:.3f})", r.config.label, r.lab_over_textbook));
    return s;
}

std::string BaselineReport::verdict_line() const {
    if (!options.time) return "not timed (--no-time): no verdict on speed";
    std::string s = fmt::format(
        "rule \"no kernel slower than the textbook listing\": the lab kernel's median time is at most the "
        "textbook's in {} of {} configurations",
        at_least_as_fast(), compared());
    auto list = [&](const char* what, const std::vector<std::string>& names) {
        s += fmt::format("; {}:", what);
        if (names.empty()) s += " none";
        for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : " ") + names[i];
    };
    list("slower median but faster in at least one round (noise)", within_noise());
    list("slower in every round", slower());
    int untimed = 0;
    for (const auto& r : rows)
        if (r.config.has_lab && !r.compared()) ++untimed;
    if (untimed) s += fmt::format("; {} not compared (a check failed)", untimed);
    return s;
}

namespace {
std::string dim3_text(Dim3 d) { return fmt::format("{}x{}x{}", d.x, d.y, d.z); }

std::string side_cells(const SideResult& s, bool timed) {
    if (!s.ran) return fmt::format("{:>44}", "-");
    if (!timed) return fmt::format("{:>44}", s.check.ok ? "(not timed)" : "(check FAILED)");
    return fmt::format("{:7.3f} {:7.3f} {:7.3f}  {:6.0f}  {:5.2f}  {:>4}", s.ms.min, s.ms.median, s.ms.max, s.gbps,
                       s.copy_ratio, s.registers);
}

nlohmann::json stats_json(const Stats& s) {
    return {{"min", s.min}, {"median", s.median}, {"max", s.max}, {"count", s.count}};
}

nlohmann::json side_json(const SideResult& s, bool timed) {
    if (!s.ran) return nullptr;
    nlohmann::json j{{"check_ok", s.check.ok},
                     {"check", s.check.summary()},
                     {"grid", dim3_text(s.grid)},
                     {"block", dim3_text(s.block)},
                     {"registers", s.registers}};
    if (timed) {
        j["ms"] = stats_json(s.ms);
        j["samples_ms"] = s.samples_ms;
        j["gbps"] = s.gbps;
        j["copy_ratio"] = s.copy_ratio;
    }
    return j;
}
}  // namespace

std::string BaselineReport::text() const {
    const int n = options.size;
    std::string s;
    s += "baseline: the textbook's listings (seed 000, as printed) against the lab's kernels, fp32, 7-point (r = 1)\n";
    s += fmt::format("device: {} (compute capability {}.{}); grid {}^3, seed {}\n", device, cc_major, cc_minor, n,
                     options.seed);
    s += "checks: every output against the fp64 reference, launched on a poisoned output (NaN inside, the input on "
         "the boundary)\n";
    if (options.time) {
        s += fmt::format("timing: {} warm-up launches each, then {} rounds of (L2 flush, textbook, L2 flush, lab), "
                         "CUDA events; GB/s = 2 x N^3 x 4 B / median\n",
                         options.warmup, options.reps);
        s += "lab / textbook: median textbook ms / median lab ms (> 1: the lab is faster); paired: the same ratio "
             "per round, min..max\n";
        s += fmt::format("copy (cudaMemcpy device to device, same run): {:.0f} GB/s median (min {:.0f}, max {:.0f})\n",
                         copy_gbps.median, copy_gbps.min, copy_gbps.max);
    }
    s += "\n";
    s += fmt::format("{:<20} | {:^44} | {:^44} | {:^22}\n", "", "textbook listing", "lab kernel", "lab / textbook");
    s += fmt::format("{:<20} | {:>7} {:>7} {:>7}  {:>6}  {:>5}  {:>4} | {:>7} {:>7} {:>7}  {:>6}  {:>5}  {:>4} | {:>6} {:>15}\n",
                     "configuration", "ms min", "median", "max", "GB/s", "copy", "regs", "ms min", "median", "max",
                     "GB/s", "copy", "regs", "median", "paired min..max");
    for (const auto& r : rows) {
        std::string ratio = fmt::format("{:>22}", "-");
        if (r.compared())
            ratio = fmt::format("{:>6.3f} {:>7.3f}..{:<6.3f}", r.lab_over_textbook, r.paired.min, r.paired.max);
        s += fmt::format("{:<20} | {} | {} | {}{}\n", r.config.label, side_cells(r.textbook, r.timed),
                         side_cells(r.lab, r.timed), ratio, r.slower() ? "  SLOWER" : r.within_noise() ? "  (noise)" : "");
    }
    s += "\n";
    for (const auto& r : rows) {
        if (!r.config.has_lab)
            s += fmt::format("{}: textbook only: the lab's backend launches its naive kernel on T^3 blocks "
                             "(LaunchRequest has no block shape)\n",
                             r.config.label);
        if (!r.textbook.check.ok)
            s += fmt::format("{}: textbook check {}\n", r.config.label, r.textbook.check.summary());
        if (r.lab.ran && !r.lab.check.ok) s += fmt::format("{}: lab check {}\n", r.config.label, r.lab.check.summary());
    }
    if (all_checks_ok()) s += fmt::format("checks: all {} outputs match the fp64 reference\n", [&] {
        int k = 0;
        for (const auto& r : rows) k += 1 + (r.lab.ran ? 1 : 0);
        return k;
    }());
    s += verdict_line() + "\n";
    return s;
}

nlohmann::json BaselineReport::to_json() const {
    nlohmann::json rows_j = nlohmann::json::array();
    for (const auto& r : rows) {
        nlohmann::json j{{"label", r.config.label},
                         {"kernel", version(r.config.kernel).name},
                         {"tile", r.config.tile},
                         {"textbook", side_json(r.textbook, r.timed)},
                         {"lab", side_json(r.lab, r.timed)},
                         {"timed", r.timed},
                         {"checks_ok", r.checks_ok()}};
        if (r.config.kernel == KernelId::naive) j["textbook_block"] = dim3_text(r.config.naive_block);
        if (r.compared()) {
            j["lab_over_textbook"] = r.lab_over_textbook;
            j["paired"] = stats_json(r.paired);
            j["slower"] = r.slower();
        }
        rows_j.push_back(std::move(j));
    }
    nlohmann::json j{{"device", device},
                     {"compute_capability", fmt::format("{}.{}", cc_major, cc_minor)},
                     {"size", options.size},
                     {"precision", "f32"},
                     {"radius", 1},
                     {"seed", options.seed},
                     {"warmup", options.warmup},
                     {"reps", options.reps},
                     {"timed", options.time},
                     {"bytes_per_launch", bytes},
                     {"all_checks_ok", all_checks_ok()},
                     {"rows", std::move(rows_j)},
                     {"compared", compared()},
                     {"at_least_as_fast", at_least_as_fast()},
                     {"within_noise", within_noise()},
                     {"slower", slower()},
                     {"verdict", verdict_line()}};
    if (options.time) j["copy_gbps"] = stats_json(copy_gbps);
    return j;
}

}  // namespace stencil::experiments
