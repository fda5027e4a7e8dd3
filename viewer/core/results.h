// Run results as the runs panel keeps them, and the results JSON they are loaded from and saved
// to (the file `stencil-lab sweep` writes), so a sweep made on a remote GPU can be explored on a
// laptop. Reading is lenient: unknown keys are kept out, missing ones stay "not measured".
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/versions.h"

namespace stencil::viewer {

struct RunRecord {
    std::string kernel = "naive";
    int tile = 8, radius = 1;
    std::string precision = "f32";
    GridDims dims{64, 64, 64};
    std::string backend = "cpu";   // "cpu" | "cuda"
    std::string device;
    double ms_min = 0, ms_median = 0, ms_max = 0;
    double gbps = 0;               // effective: 2 * cells * bytes / median time
    double copy_gbps = 0;          // copy bandwidth measured in the same run
    double of_copy = 0;            // gbps / copy_gbps
    bool checked = false, ok = false;
    double max_rel_err = 0;
    std::string error;             // why it did not run / failed
    // GPU counters (ncu/CUPTI), absent on the CPU backend:
    std::optional<double> l2_bytes, dram_bytes, sectors_per_request;
    std::optional<double> requested_bytes;  // global load bytes the kernel asked for
    double flops = 0;                       // outputs x (12r + 1)

    std::optional<KernelId> kernel_id() const;
};

nlohmann::json to_json(const RunRecord& r);
RunRecord record_from_json(const nlohmann::json& j);

struct ResultsFile {
    std::string path;
    std::string device;
    std::vector<RunRecord> runs;
};
// Throws stencil::UserError with one line when the file cannot be read or is not results JSON.
ResultsFile load_results(const std::string& path);
ResultsFile parse_results(const nlohmann::json& j);
void save_results(const std::string& path, const ResultsFile& f);

}  // namespace stencil::viewer
