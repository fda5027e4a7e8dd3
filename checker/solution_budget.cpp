#include "checker/solution_budget.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "checker/checker.h"
#include "core/disk_cache.h"
#include "core/error.h"

namespace stencil::checker {

namespace {

// The solution's loads per output at tile T: the disk cache's entry for this content and tile, or a
// check of the solution (count_only: no budget of its own, so this cannot recurse).
double solution_count(const Exercise& ex, int tile) {
    const auto solution = ex.folder / "solution.cu";
    const std::string file = ex.display + "/solution.cu";
    const std::string key = fmt::format("solution loads per output\nexercise {}\ntile {}\n", exercise_spec_hash(ex), tile);
    const DiskCache cache = DiskCache::for_kind("budgets");
    if (const auto hit = cache.get(key)) {
        try {
            return std::stod(*hit);
        } catch (const std::exception&) {
        }
    }
    if (!std::filesystem::is_regular_file(solution)) {
        // A shipped copy of the exercise (a grading bundle) carries its solution's counts, not the
        // solution: kSolutionCountsFile, written when the bundle was made.
        std::ifstream f(ex.folder / kSolutionCountsFile);
        if (f) {
            try {
                const nlohmann::json j = nlohmann::json::parse(f);
                if (j.contains(std::to_string(tile))) return j.at(std::to_string(tile)).get<double>();
            } catch (const std::exception&) {
                throw UserError(fmt::format("{}/{}: not a JSON object of tile -> loads per output", ex.display, kSolutionCountsFile));
            }
            throw UserError(fmt::format("{}/{} has no count for T = {} (the bundle was made for its tiles only)", ex.display,
                                        kSolutionCountsFile, tile));
        }
        throw UserError(fmt::format("{}: no such file ({} takes its load budget from the solution: [budget] from = "
                                    "\"solution\"; give loads = N instead where the solution is not shipped)",
                                    file, ex.spec_file));
    }
    CheckOptions o;
    o.exercise = ex.id;
    o.tile = tile;
    o.backend = "cpu";
    o.seed = 1;
    o.quick = true;
    o.large_case = false;
    o.timing = false;
    o.count_only = true;
    const CheckResult r = check_submission(solution.string(), o);
    if (r.verdict != Verdict::pass || !r.loads)
        throw UserError(fmt::format("{}: the solution {} ({}), so it gives no load budget", file,
                                    r.verdict == Verdict::pass ? "passes but its loads were not counted"
                                                               : std::string("gets ") + to_string(r.verdict),
                                    r.evidence.message.substr(0, r.evidence.message.find('\n'))));
    cache.put(key, fmt::format("{:.17g}", r.loads->loads_per_output));
    return r.loads->loads_per_output;
}

}  // namespace

std::string solution_counts_json(const Exercise& ex, const std::vector<int>& tiles) {
    nlohmann::json j = nlohmann::json::object();
    for (int t : tiles) j[std::to_string(t)] = solution_count(ex, t);
    return j.dump(1) + "\n";
}

double data_budget(const Exercise& ex, int tile) {
    if (ex.budget.loads_per_output) return *ex.budget.loads_per_output;
    static std::mutex m;
    static std::map<std::pair<std::string, int>, double> known;
    {
        std::lock_guard lock(m);
        if (auto it = known.find({ex.id, tile}); it != known.end()) return it->second;
    }
    const double b = ex.budget.factor * solution_count(ex, tile);
    std::lock_guard lock(m);
    known[{ex.id, tile}] = b;
    return b;
}

std::string budget_source(const Exercise& ex) {
    if (ex.budget.loads_per_output) return fmt::format("{} loads per output, {}", *ex.budget.loads_per_output, ex.spec_file);
    const std::string factor = ex.budget.factor == 1 ? "" : fmt::format(" x {}", ex.budget.factor);
    if (ex.is_data() || ex.budget.from_solution) return fmt::format("the solution's count{}, {}", factor, ex.spec_file);
    return fmt::format("the lab's {} kernel's count{}", ex.version, factor);
}

}  // namespace stencil::checker
