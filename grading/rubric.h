// A rubric: how many points a check earns, which tests a student sees, what goes on the
// leaderboard. One rubric per exercise, in a JSON file the instructor edits; `stencil-lab
// autograder rubric --exercise E` prints the default to start from.
//
//   {
//     "exercise": "naive",
//     "total": 100,
//     "points": "whole",
//     "hidden_sizes": {"drawn_from_seed": true, "above": 64},
//     "items": {
//       "visible": {"points": 40, "visibility": "visible"},
//       "hidden":  {"points": 30, "visibility": "after_due_date"},
//       "loads":   {"points": 10, "visibility": "visible"},
//       "clean":   {"points": 10, "visibility": "visible"},
//       "time":    {"points": 10, "visibility": "visible", "full_at_ratio": 1.1,
//                   "zero_at_ratio": 3.0, "without_gpu": "rescale"}
//     },
//     "leaderboard": ["loads_per_output", "time_ratio"]
//   }
//
// Items (every one may be left out, with its points):
//   visible  correctness on the sizes a student can know: split evenly over those sizes, each
//            size's share earned when that size passes (a kernel right on some sizes gets those)
//   hidden   the same over the hidden sizes: those drawn from the check's seed and those above
//            `hidden_sizes.above` (the checker's large cases). A rule, not a list: whatever sizes
//            a checker version runs, each is either visible or hidden
//   loads    a pass whose global loads per output are within the exercise's budget
//   clean    a pass with no warning (over budget, uninitialised shared reads, printf past its cap)
//   time     on a GPU, the median time against the lab's kernel: all points up to `full_at_ratio`,
//            none from `zero_at_ratio`, linear between. Without a GPU: "rescale" leaves the item
//            out and scales the others up to the total, "zero" gives 0 of its points
// Points: "whole" (the default: every share a whole point) or "hundredths" (shares of 0.01): the
// total is split in whole units and the shares' maxima add up to it exactly (points.h).
// Visibility: visible, hidden, after_due_date, after_published (Gradescope's words; PrairieLearn
// and GitHub Classroom show every test). Leaderboard columns: loads_per_output (ascending) and
// time_ratio (ascending, GPU only).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace stencil::grading {

enum class ItemKind { visible, hidden, loads, clean, time };
inline constexpr ItemKind kItemKinds[] = {ItemKind::visible, ItemKind::hidden, ItemKind::loads, ItemKind::clean,
                                          ItemKind::time};
const char* to_string(ItemKind k);

enum class Visibility { visible, hidden, after_due_date, after_published };
const char* to_string(Visibility v);

enum class LeaderboardColumn { loads_per_output, time_ratio };
const char* to_string(LeaderboardColumn c);

struct Item {
    ItemKind kind = ItemKind::visible;
    double points = 0;
    Visibility visibility = Visibility::visible;
};

struct TimeRule {
    double full_at_ratio = 1.1;   // student / lab at or below this: every point
    double zero_at_ratio = 3.0;   // at or above this: none
    bool rescale_without_gpu = true;
};

struct Rubric {
    std::string exercise;
    double total = 100;
    bool hundredths = false;      // "points": "hundredths"; else whole points
    bool hidden_drawn = true;     // sizes drawn from the seed are hidden
    int hidden_above = 64;        // sizes above this are hidden
    std::vector<Item> items;      // in kItemKinds order, only those the rubric has
    TimeRule time;
    std::vector<LeaderboardColumn> leaderboard;

    const Item* item(ItemKind k) const;
    // Whether a test of size `n` is hidden (drawn: the size came from the check's seed).
    bool hidden_size(int n, bool drawn) const;
};

// The file an exercise folder may hold its own rubric in (beside exercise.toml).
inline constexpr const char* kExerciseRubricFile = "rubric.json";

// The rubric of an exercise: its folder's rubric.json when it has one, else the default (throws
// UserError for an unknown exercise, and for a rubric.json that is wrong, naming the file).
Rubric default_rubric(const std::string& exercise);

// Reads and checks a rubric: unknown keys, values of the wrong type, unknown visibility or
// leaderboard names, negative points, points that do not add up to `total`, an unknown exercise,
// or one other than `exercise` when that is given: UserError, one line naming the file and the key.
Rubric parse_rubric(const nlohmann::json& j, const std::string& origin, const std::string& exercise = "");
Rubric load_rubric(const std::string& path, const std::string& exercise = "");

nlohmann::json to_json(const Rubric& r);

}  // namespace stencil::grading
