// `stencil-lab tune` (tune.h says what it does). Sections: the candidates; the cache; one trial;
// the ranking; run_tune.
#include "experiments/tune.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "analysis/model.h"
#include "core/error.h"

namespace stencil::experiments {

namespace fs = std::filesystem;
using json = nlohmann::json;

// ---- the candidates ---------------------------------------------------------------------------
std::vector<int> tune_tiles(KernelId kernel, int radius, Precision p, const DeviceLimits& lim) {
    std::vector<int> tiles;
    // Non-templated kernels (T is only the block edge) take any T; tune tries the same spread.
    // A version that fuses steps compares its tiles at the row's K: a tile too small for K halos is
    // left out (the third stage tries the other K at the best tile).
    for (int T : built_tiles())
        if (tile_is_built(kernel, T) && tile_fits(kernel, T, radius, bytes_of(p), lim) &&
            fuse_fits(kernel, T, radius, version(kernel).fused_steps))
            tiles.push_back(T);
    return tiles;
}

std::vector<TuneConfig> tune_configs(KernelId kernel, int radius, Precision p, const DeviceLimits& lim) {
    std::vector<TuneConfig> configs;
    for (int T : tune_tiles(kernel, radius, p, lim)) configs.push_back({T, std::nullopt});
    if (version(kernel).takes_block) {
        // A block-shaped request still names a tile (the row's default, unused by the launch).
        const int T = version(kernel).default_tile;
        for (const Dim3 b : kTuneBlocks)
            if (!block_error(kernel, b, lim)) configs.push_back({T, b});
    }
    return configs;
}

std::vector<TuneConfig> tune_chunk_configs(KernelId kernel, int tile, int radius, Precision p,
                                           const DeviceLimits& lim) {
    std::vector<TuneConfig> configs;
    if (version(kernel).z_chunk > 0 && tile_fits(kernel, tile, radius, bytes_of(p), lim))
        for (int z : kTuneZChunks)
            if (z != version(kernel).z_chunk) configs.push_back({tile, std::nullopt, z});
    return configs;
}

std::vector<TuneConfig> tune_fuse_configs(KernelId kernel, int tile, int z_chunk) {
    std::vector<TuneConfig> configs;
    const int max_k = shape_of(kernel).max_fused_steps;
    if (max_k <= 1) return configs;
    for (int K = 1; K <= max_k; ++K)
        if (K != version(kernel).fused_steps) configs.push_back({tile, std::nullopt, z_chunk, K});
    return configs;
}

namespace {
std::string config_label(int tile, const std::optional<Dim3>& block, int z_chunk, int fuse) {
    if (block) return fmt::format("block {}x{}x{}", block->x, block->y, block->z);
    std::string s = z_chunk ? fmt::format("T={} z-chunk {}", tile, z_chunk) : fmt::format("T={}", tile);
    return fuse ? s + fmt::format(" K={}", fuse) : s;
}
json block_json(const Dim3& b) { return json::array({b.x, b.y, b.z}); }
}  // namespace

std::string TuneConfig::label() const { return config_label(tile, block, z_chunk, fuse); }
// A trial of a version that fuses steps names its K, the row's too.
std::string TuneTrial::label() const { return config_label(tile, block, z_chunk, fuse ? fuse : steps > 1 ? steps : 0); }

// ---- the cache --------------------------------------------------------------------------------
json TuneTrial::to_json() const {
    json j = {{"tile", tile}, {"ok", ok}, {"check", check}, {"timed", timed},
              {"requested_bytes_per_output", requested_bytes_per_output},
              {"sectors_per_request", sectors_per_request}, {"from_cache", from_cache}};
    if (!skipped.empty()) j["skipped"] = skipped;
    if (block) j["block"] = block_json(*block);
    if (z_chunk) j["z_chunk"] = z_chunk;
    if (fuse) j["fuse"] = fuse;
    j["steps"] = steps;
    if (timed) {
        j["ms"] = {{"min", ms_min}, {"median", ms_median}, {"max", ms_max}};
        j["gbps"] = gbps;
        j["copy_ratio"] = copy_ratio;
    } else {
        j["ms"] = nullptr;  // unknown: nothing was timed
    }
    return j;
}

TuneTrial TuneTrial::from_json(const json& j) {
    TuneTrial t;
    t.tile = j.at("tile").get<int>();
    if (j.contains("block")) {
        const auto& b = j.at("block");
        t.block = Dim3{b.at(0).get<int>(), b.at(1).get<int>(), b.at(2).get<int>()};
    }
    t.z_chunk = j.value("z_chunk", 0);
    t.fuse = j.value("fuse", 0);
    t.steps = j.value("steps", 1);
    t.skipped = j.value("skipped", std::string());
    t.ok = j.at("ok").get<bool>();
    t.check = j.at("check").get<std::string>();
    t.timed = j.at("timed").get<bool>();
    t.requested_bytes_per_output = j.at("requested_bytes_per_output").get<double>();
    t.sectors_per_request = j.at("sectors_per_request").get<double>();
    if (t.timed) {
        t.ms_min = j.at("ms").at("min").get<double>();
        t.ms_median = j.at("ms").at("median").get<double>();
        t.ms_max = j.at("ms").at("max").get<double>();
        t.gbps = j.at("gbps").get<double>();
        t.copy_ratio = j.at("copy_ratio").get<double>();
    }
    return t;
}

namespace {

// The cache: {"tune_cache": 1, "entries": {"<key>": trial, ...}}.
struct Cache {
    std::string path;
    json entries = json::object();

    static Cache open(const std::string& path) {
        Cache c;
        c.path = path;
        if (path.empty() || !fs::exists(path)) return c;
        std::ifstream f(path);
        json j;
        try {
            f >> j;
        } catch (const json::exception&) {
            throw UserError(fmt::format("--cache {}: not a tune cache (not JSON); remove it or give another file", path));
        }
        if (!j.is_object() || j.value("tune_cache", 0) != 1 || !j.contains("entries") || !j["entries"].is_object())
            throw UserError(fmt::format("--cache {}: not a tune cache; remove it or give another file", path));
        c.entries = j["entries"];
        return c;
    }
    // Written whole, beside, then renamed: a tune killed mid-write leaves the previous cache.
    void save() const {
        if (path.empty()) return;
        const std::string tmp = path + ".tmp";
        {
            std::ofstream f(tmp, std::ios::trunc);
            f << json{{"tune_cache", 1}, {"entries", entries}}.dump(1) << "\n";
            if (!f) throw UserError("--cache " + path + ": cannot write " + tmp);
        }
        fs::rename(tmp, path);
    }
};

// The steps a trial's launch fuses: K for a version that fuses steps (the config's, or the row's),
// 1 for the others.
int trial_steps(KernelId kernel, const TuneConfig& c) {
    if (shape_of(kernel).max_fused_steps <= 1) return 1;
    return c.fuse ? c.fuse : version(kernel).fused_steps;
}

std::string cache_key(const Backend& backend, const TuneOptions& o, const TuneConfig& c) {
    const int steps = trial_steps(o.kernel, c);
    const std::string what = (c.block     ? fmt::format("B{}x{}x{}", c.block->x, c.block->y, c.block->z)
                              : c.z_chunk ? fmt::format("T{}Z{}", c.tile, c.z_chunk)
                                          : fmt::format("T{}", c.tile)) +
                             (steps > 1 || c.fuse ? fmt::format("K{}", steps) : std::string());
    return fmt::format("{}|{}|{}|r{}|{}|N{}|{}", backend.kind() == BackendKind::cuda ? "cuda" : "cpu",
                       backend.device().name, version(o.kernel).name, o.radius, to_string(o.precision), o.size, what);
}

// ---- one trial ----------------------------------------------------------------------------------
TuneTrial try_config(Backend& backend, const TuneOptions& o, const TuneConfig& c) {
    TuneTrial t;
    t.tile = c.tile;
    t.block = c.block;
    t.z_chunk = c.z_chunk;
    t.fuse = c.fuse;
    const int T = c.tile;
    const GridDims dims{o.size, o.size, o.size};
    LaunchRequest req;
    req.kernel = o.kernel;
    req.tile = T;
    req.radius = o.radius;
    req.precision = o.precision;
    req.dims = dims;
    req.block = c.block;
    req.z_chunk = c.z_chunk;
    // A version that fuses steps is timed on one launch of its K: K updates of every cell.
    if (shape_of(o.kernel).max_fused_steps > 1) req.steps = req.fuse = trial_steps(o.kernel, c);
    t.steps = req.steps;
    if (auto why = backend.cannot_run(req)) {
        t.skipped = *why;
        return t;
    }
    const double outputs = std::pow(double(o.size - 2 * o.radius), 3);
    const auto traffic = analysis::exact_grid_traffic(o.kernel, T, o.radius, o.precision, dims, req.steps, c.z_chunk);
    t.requested_bytes_per_output = outputs > 0 ? double(traffic.load_bytes) / outputs / req.steps : 0;
    t.sectors_per_request =
        analysis::warp_pattern(o.kernel, T, o.radius, o.precision, dims, c.block, c.z_chunk).sectors_per_request;
    RunOptions ro;
    ro.request = req;
    ro.seed = o.seed;
    ro.warmup = o.warmup;
    ro.reps = o.reps;
    ro.time = backend.kind() == BackendKind::cuda;  // the emulator's time ranks nothing
    const RunReport r = run_kernel(backend, ro);
    t.ok = r.ok;
    t.check = r.check_line();
    t.timed = r.timed;
    if (r.timed) {
        t.ms_min = r.ms.min;
        t.ms_median = r.ms.median;
        t.ms_max = r.ms.max;
        t.gbps = r.gbps;
        t.copy_ratio = r.copy_ratio;
    }
    return t;
}

// ---- the ranking --------------------------------------------------------------------------------
// Lower is better: the median time per step on a GPU; on the CPU the model's requested bytes per
// output and step, then its sectors per request.
bool better(const TuneTrial& a, const TuneTrial& b, bool timed) {
    if (timed) return a.ms_median / a.steps < b.ms_median / b.steps;
    if (a.requested_bytes_per_output != b.requested_bytes_per_output)
        return a.requested_bytes_per_output < b.requested_bytes_per_output;
    return a.sectors_per_request < b.sectors_per_request;
}

}  // namespace

json TuneResult::to_json() const {
    json tried_json = json::array();
    for (const auto& t : tried) tried_json.push_back(t.to_json());
    return {{"backend", backend},
            {"device", device},
            {"kernel", version(kernel).name},
            {"radius", radius},
            {"precision", std::string(stencil::to_string(precision))},
            {"size", size},
            {"timed", timed},
            {"ranking", ranking},
            {"best", best ? tried[*best].to_json() : json(nullptr)},
            {"tried", tried_json}};
}

// ---- run_tune -----------------------------------------------------------------------------------
TuneResult run_tune(Backend& backend, const TuneOptions& o) {
    const GridDims dims{o.size, o.size, o.size};
    if (auto e = grid_error(dims, o.radius)) throw UserError(*e);
    const std::vector<TuneConfig> configs = tune_configs(o.kernel, o.radius, o.precision, backend.limits());
    if (configs.empty())
        throw UserError(fmt::format("tune: {} has no configuration that runs at r = {} in {}", version(o.kernel).name,
                                    o.radius, to_string(o.precision)));
    Cache cache = Cache::open(o.cache_file);

    TuneResult res;
    res.backend = backend.kind() == BackendKind::cuda ? "cuda" : "cpu";
    res.device = backend.device().name;
    res.kernel = o.kernel;
    res.radius = o.radius;
    res.precision = o.precision;
    res.size = o.size;
    res.timed = backend.kind() == BackendKind::cuda;
    res.ranking = res.timed ? "the fastest median time of the configurations whose check passed"
                            : "no time was measured (the CPU backend is an emulator): the fewest requested bytes "
                              "per output in the model's exact count, then the fewest sectors per warp request; "
                              "every configuration was still checked against the reference";
    // Three stages: the tiles (and block shapes), then the z-chunks at the best tile of the first
    // stage (the row's default when none passed), then K at the best of both. The later stages'
    // counts are known before their tile is.
    const size_t chunks = std::size(kTuneZChunks) - 1;
    const bool chunked = version(o.kernel).z_chunk > 0;
    const size_t fuses = tune_fuse_configs(o.kernel, 0, 0).size();
    const int total = int(configs.size() + (chunked ? chunks : 0) + fuses);
    auto try_all = [&](const std::vector<TuneConfig>& stage) {
        for (const TuneConfig& c : stage) {
            if (o.progress)
                o.progress(int(res.tried.size()), total, fmt::format("{} {}", version(o.kernel).name, c.label()));
            const std::string key = cache_key(backend, o, c);
            if (!o.fresh && cache.entries.contains(key)) {
                TuneTrial t = TuneTrial::from_json(cache.entries[key]);
                t.from_cache = true;
                res.tried.push_back(t);
                continue;
            }
            res.tried.push_back(try_config(backend, o, c));
            cache.entries[key] = res.tried.back().to_json();
            cache.save();  // after every configuration: an interrupted tune resumes here
        }
        for (size_t i = 0; i < res.tried.size(); ++i) {
            const TuneTrial& t = res.tried[i];
            if (!t.ok || (res.timed && !t.timed)) continue;
            if (!res.best || better(t, res.tried[*res.best], res.timed)) res.best = i;
        }
    };
    try_all(configs);
    // The best so far (the row's default when none passed): where the next stage starts.
    auto best_tile = [&] { return res.best ? res.tried[*res.best].tile : version(o.kernel).default_tile; };
    if (chunked) try_all(tune_chunk_configs(o.kernel, best_tile(), o.radius, o.precision, backend.limits()));
    if (fuses) try_all(tune_fuse_configs(o.kernel, best_tile(), res.best ? res.tried[*res.best].z_chunk : 0));
    if (o.progress) o.progress(int(res.tried.size()), int(res.tried.size()), "done");
    return res;
}

}  // namespace stencil::experiments
