// A check scored by a rubric: the tests a platform shows (one per size of the visible and hidden
// items, one per other item), their points, the leaderboard's values and the text for the
// student. Platform files (platform_results.h) are written from a Score, never from a verdict.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "grading/rubric.h"

namespace stencil::grading {

struct ScoredTest {
    std::string name;       // "visible: N=13 (13^3 cells; ...)", "loads per output"
    ItemKind item = ItemKind::visible;
    double points = 0, max_points = 0;
    bool passed = false;
    Visibility visibility = Visibility::visible;
    std::string output;     // one line or a few: why it passed or failed
    std::string group;      // the GitHub Classroom step it belongs to; empty: the item's name
};

struct LeaderboardEntry {
    std::string name;       // the column's name (rubric.h)
    double value = 0;
    bool ascending = true;  // smaller is better
};

// What graded: a results file records it (grading/platform_results.h).
struct GradeRecord {
    std::string exercise, exercise_hash;  // the exercise and its content's SHA-256 (checker/exercises.h)
    std::uint64_t seed = 0;               // the visible seed only: the hidden one is never written
    std::string submission_sha256;
};

struct Score {
    bool gradable = true;   // false: nothing of the submission could be judged (it does not
                            // compile, there is none): PrairieLearn charges no attempt for it
    double points = 0, max_points = 0;  // max_points is the rubric's total
    std::vector<ScoredTest> tests;
    std::vector<LeaderboardEntry> leaderboard;
    std::string output;     // for the student: the verdict, visible evidence, warnings, the seed
    double seconds = 0;
    GradeRecord record;
};

// The check's points under the rubric. A size's test is hidden by the rubric's rule
// (Rubric::hidden_size); a submission right on some sizes earns those sizes' shares. Every item
// but the hidden one is judged on the visible sizes, on every backend ("loads", "clean", the time
// and the leaderboard from the counts and timing the checker measured whatever the hidden sizes
// gave; warnings about the grading machine's GPU left out), and the output names no hidden size,
// verdict or seed: a kernel failing only hidden sizes reads, before the due date, as one that
// passes. A course's own exercise folder is named by its name, not the grading machine's path.
Score score_check(const Rubric& rubric, const checker::CheckResult& r);

// A submission that could not be checked at all (none, several, unreadable, the grading box out of
// memory or time): every item at 0 with `why`, the output saying it. `gradable` as for a Score.
Score score_failure(const Rubric& rubric, const std::string& why, bool gradable);

}  // namespace stencil::grading
