#include "grading/rubric.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include "checker/exercises.h"
#include "core/error.h"
#include "core/json_file.h"

namespace stencil::grading {

using json = nlohmann::json;

const char* to_string(ItemKind k) {
    switch (k) {
        case ItemKind::visible: return "visible";
        case ItemKind::hidden: return "hidden";
        case ItemKind::loads: return "loads";
        case ItemKind::clean: return "clean";
        case ItemKind::time: return "time";
    }
    return "?";
}

const char* to_string(Visibility v) {
    switch (v) {
        case Visibility::visible: return "visible";
        case Visibility::hidden: return "hidden";
        case Visibility::after_due_date: return "after_due_date";
        case Visibility::after_published: return "after_published";
    }
    return "?";
}

const char* to_string(LeaderboardColumn c) {
    switch (c) {
        case LeaderboardColumn::loads_per_output: return "loads_per_output";
        case LeaderboardColumn::time_ratio: return "time_ratio";
    }
    return "?";
}

const Item* Rubric::item(ItemKind k) const {
    for (const Item& i : items)
        if (i.kind == k) return &i;
    return nullptr;
}

bool Rubric::hidden_size(int n, bool drawn) const { return (hidden_drawn && drawn) || n > hidden_above; }

Rubric default_rubric(const std::string& exercise) {
    const checker::Exercise* ex = checker::find_exercise(exercise);
    if (!ex) throw UserError(fmt::format("unknown exercise '{}'; one of: {}", exercise, checker::exercise_names()));
    // An exercise folder may carry its own rubric beside its spec: the course's, moved with it.
    // Its "exercise" is the folder wherever the folder is (a bundle moves it), so it may be left out.
    if (const auto own = ex->folder / kExerciseRubricFile; std::filesystem::is_regular_file(own)) {
        json j = read_json_file(own.string(), "rubric");
        if (j.is_object()) j["exercise"] = ex->id;
        return parse_rubric(j, ex->display + "/" + kExerciseRubricFile, exercise);
    }
    Rubric r;
    r.exercise = checker::find_exercise(exercise)->id;
    r.items = {{ItemKind::visible, 40, Visibility::visible},
               {ItemKind::hidden, 30, Visibility::after_due_date},
               {ItemKind::loads, 10, Visibility::visible},
               {ItemKind::clean, 10, Visibility::visible},
               {ItemKind::time, 10, Visibility::visible}};
    r.leaderboard = {LeaderboardColumn::loads_per_output, LeaderboardColumn::time_ratio};
    return r;
}

namespace {

// One line naming the file and the key: what an instructor needs to fix the rubric.
[[noreturn]] void bad(const std::string& origin, const std::string& key, const std::string& why) {
    throw UserError(fmt::format("rubric {}: {}: {}", origin, key, why));
}

template <class Enum, size_t N>
Enum parse_name(const json& v, const Enum (&all)[N], const std::string& origin, const std::string& key) {
    std::string list;
    for (Enum e : all) list += (list.empty() ? "" : ", ") + std::string(to_string(e));
    if (!v.is_string()) bad(origin, key, "must be one of " + list);
    for (Enum e : all)
        if (v.get<std::string>() == to_string(e)) return e;
    bad(origin, key, fmt::format("'{}' is not one of {}", v.get<std::string>(), list));
}

constexpr Visibility kVisibilities[] = {Visibility::visible, Visibility::hidden, Visibility::after_due_date,
                                        Visibility::after_published};
constexpr LeaderboardColumn kColumns[] = {LeaderboardColumn::loads_per_output, LeaderboardColumn::time_ratio};

double number(const json& v, const std::string& origin, const std::string& key, double lo) {
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo)
        bad(origin, key, fmt::format("must be a number of at least {:g}", lo));
    return v.get<double>();
}

void only_keys(const json& obj, std::initializer_list<const char*> keys, const std::string& origin,
               const std::string& where) {
    if (!obj.is_object()) bad(origin, where, "must be an object");
    for (const auto& [k, v] : obj.items()) {
        bool known = false;
        std::string list;
        for (const char* key : keys) {
            known = known || k == key;
            list += (list.empty() ? "" : ", ") + std::string(key);
        }
        if (!known) bad(origin, where.empty() ? k : where + "." + k, "unknown key (known: " + list + ")");
    }
}

}  // namespace

Rubric parse_rubric(const json& j, const std::string& origin, const std::string& exercise) {
    only_keys(j, {"exercise", "total", "points", "hidden_sizes", "items", "leaderboard"}, origin, "");
    if (!j.contains("exercise") || !j["exercise"].is_string()) bad(origin, "exercise", "required, a name");
    const std::string ex = j["exercise"].get<std::string>();
    if (!checker::find_exercise(ex))
        bad(origin, "exercise", fmt::format("unknown exercise '{}'; one of: {}", ex, checker::exercise_names()));
    if (!exercise.empty() && checker::find_exercise(ex) != checker::find_exercise(exercise))
        bad(origin, "exercise", fmt::format("the rubric is for '{}', not '{}'", ex, exercise));
    Rubric r;
    r.exercise = checker::find_exercise(ex)->id;
    if (j.contains("total")) r.total = number(j["total"], origin, "total", 0);
    if (r.total <= 0) bad(origin, "total", "must be positive");
    if (j.contains("points")) {
        const json& u = j["points"];
        if (!u.is_string() || (u != "whole" && u != "hundredths")) bad(origin, "points", "must be whole or hundredths");
        r.hundredths = u == "hundredths";
    }
    const double unit = r.hundredths ? 0.01 : 1.0;
    // Points in whole units, so that every share is one too and the shares add up exactly.
    const auto in_units = [&](double v, const std::string& key) {
        if (std::fabs(v / unit - std::round(v / unit)) > 1e-6)
            bad(origin, key, fmt::format("{:g} is not a whole number of {} (set \"points\": \"hundredths\" for "
                                         "shares of 0.01)", v, r.hundredths ? "hundredths" : "points"));
    };
    in_units(r.total, "total");
    if (j.contains("hidden_sizes")) {
        const json& h = j["hidden_sizes"];
        only_keys(h, {"drawn_from_seed", "above"}, origin, "hidden_sizes");
        if (h.contains("drawn_from_seed")) {
            if (!h["drawn_from_seed"].is_boolean()) bad(origin, "hidden_sizes.drawn_from_seed", "must be true or false");
            r.hidden_drawn = h["drawn_from_seed"].get<bool>();
        }
        if (h.contains("above")) {
            if (!h["above"].is_number_integer() || h["above"].get<long long>() < 0)
                bad(origin, "hidden_sizes.above", "must be a whole number of at least 0");
            r.hidden_above = int(std::min<long long>(h["above"].get<long long>(), 1 << 20));
        }
    }
    if (!j.contains("items")) bad(origin, "items", "required (visible, hidden, loads, clean, time)");
    const json& items = j["items"];
    only_keys(items, {"visible", "hidden", "loads", "clean", "time"}, origin, "items");
    double sum = 0;
    for (ItemKind k : kItemKinds) {
        if (!items.contains(to_string(k))) continue;
        const std::string where = std::string("items.") + to_string(k);
        const json& it = items[to_string(k)];
        if (k == ItemKind::time)
            only_keys(it, {"points", "visibility", "full_at_ratio", "zero_at_ratio", "without_gpu"}, origin, where);
        else
            only_keys(it, {"points", "visibility"}, origin, where);
        Item item;
        item.kind = k;
        if (!it.contains("points")) bad(origin, where + ".points", "required");
        item.points = number(it["points"], origin, where + ".points", 0);
        in_units(item.points, where + ".points");
        if (it.contains("visibility")) item.visibility = parse_name(it["visibility"], kVisibilities, origin, where + ".visibility");
        if (k == ItemKind::time) {
            if (it.contains("full_at_ratio")) r.time.full_at_ratio = number(it["full_at_ratio"], origin, where + ".full_at_ratio", 0);
            if (it.contains("zero_at_ratio")) r.time.zero_at_ratio = number(it["zero_at_ratio"], origin, where + ".zero_at_ratio", 0);
            if (r.time.zero_at_ratio <= r.time.full_at_ratio)
                bad(origin, where + ".zero_at_ratio", "must be above full_at_ratio");
            if (it.contains("without_gpu")) {
                const json& w = it["without_gpu"];
                if (!w.is_string() || (w != "rescale" && w != "zero")) bad(origin, where + ".without_gpu", "must be rescale or zero");
                r.time.rescale_without_gpu = w == "rescale";
            }
        }
        sum += item.points;
        r.items.push_back(item);
    }
    if (std::fabs(sum - r.total) > 1e-9 * std::max(1.0, r.total))
        bad(origin, "items", fmt::format("the points add up to {:g}, not to the total {:g}", sum, r.total));
    if (j.contains("leaderboard")) {
        if (!j["leaderboard"].is_array()) bad(origin, "leaderboard", "must be a list of column names");
        for (size_t i = 0; i < j["leaderboard"].size(); ++i)
            r.leaderboard.push_back(parse_name(j["leaderboard"][i], kColumns, origin, fmt::format("leaderboard[{}]", i)));
    }
    return r;
}

Rubric load_rubric(const std::string& path, const std::string& exercise) {
    return parse_rubric(read_json_file(path, "rubric"), path, exercise);
}

json to_json(const Rubric& r) {
    json items = json::object();
    for (const Item& i : r.items) {
        json it = {{"points", i.points}, {"visibility", to_string(i.visibility)}};
        if (i.kind == ItemKind::time) {
            it["full_at_ratio"] = r.time.full_at_ratio;
            it["zero_at_ratio"] = r.time.zero_at_ratio;
            it["without_gpu"] = r.time.rescale_without_gpu ? "rescale" : "zero";
        }
        items[to_string(i.kind)] = it;
    }
    json lb = json::array();
    for (auto c : r.leaderboard) lb.push_back(to_string(c));
    return {{"exercise", r.exercise},
            {"total", r.total},
            {"points", r.hundredths ? "hundredths" : "whole"},
            {"hidden_sizes", {{"drawn_from_seed", r.hidden_drawn}, {"above", r.hidden_above}}},
            {"items", items},
            {"leaderboard", lb}};
}

}  // namespace stencil::grading
