// `stencil-lab exercise list|validate DIR|new DIR --from NAME`: an exercise is a folder of data
// (checker/exercises.h); these are the instructor's commands for one.
//
//   list               the built-in exercises (name, problem, summary) and where their folders are
//   validate DIR|NAME  checker/validate_exercise.h's steps, one line each; exit 0 only when all hold
//   new DIR --from E   a new folder to start from: a copy of exercise E's files, written whole or not
//                      at all (a temporary folder beside DIR, renamed into place)
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>

#include "checker/data_exercise.h"
#include "checker/exercise_spec.h"
#include "checker/exercises.h"
#include "checker/validate_exercise.h"
#include "cli/command.h"
#include "core/error.h"

namespace stencil::cli {
namespace {

namespace fs = std::filesystem;
using checker::Exercise;

struct ExerciseArgs {
    std::string action, target, from;
    std::string backend = "auto";
    bool json = false;
};

std::string what_it_is(const Exercise& ex) {
    if (ex.is_data())
        return fmt::format("{}D {} stencil ({} points, r = {}), {}", ex.data->stencil.dims, ex.data->stencil.shape,
                           ex.data->stencil.points.size(), ex.radius, to_string(ex.precision));
    return fmt::format("{} {}{}, {}", to_string(ex.problem), ex.version,
                       ex.problem == Problem::star3d ? fmt::format(" r = {}", ex.radius) : "", to_string(ex.precision));
}

int list(const ExerciseArgs& a) {
    nlohmann::json rows = nlohmann::json::array();
    std::string text;
    for (const Exercise& ex : checker::exercises()) {
        rows.push_back({{"name", ex.name}, {"folder", ex.display}, {"what", what_it_is(ex)}, {"summary", ex.summary},
                        {"spec_sha256", checker::exercise_spec_hash(ex)}});
        text += fmt::format("{:<20} {:<40} {}\n", ex.name, what_it_is(ex), ex.summary);
    }
    if (a.json) std::cout << nlohmann::json{{"exercises", rows}}.dump(2) << "\n";
    else std::cout << text << "\nAn exercise folder works wherever a name does (check --exercise DIR); "
                              "`stencil-lab exercise new DIR --from tiled` starts one.\n";
    return 0;
}

int validate(const ExerciseArgs& a) {
    const Exercise* ex = checker::find_exercise(a.target);
    if (!ex) throw UserError(fmt::format("exercise validate {}: no such exercise or folder (one of: {})", a.target,
                                         checker::exercise_names()));
    checker::ValidateOptions o;
    o.backend = a.backend;
    if (!a.json)
        o.on_step = [](const checker::ValidationStep& s) {
            fmt::print("{} {}: {}\n", s.ok ? "ok  " : "FAIL", s.what, s.detail);
            std::fflush(stdout);
        };
    const checker::Validation v = checker::validate_exercise(*ex, o);
    if (a.json) {
        nlohmann::json steps = nlohmann::json::array();
        for (const auto& s : v.steps) steps.push_back({{"what", s.what}, {"ok", s.ok}, {"detail", s.detail}});
        std::cout << nlohmann::json{{"exercise", ex->id}, {"valid", v.ok()}, {"steps", steps},
                                    {"budget", v.budget ? nlohmann::json(*v.budget) : nlohmann::json(nullptr)}}
                         .dump(2)
                  << "\n";
    } else {
        fmt::print("{}: {}\n", ex->display, v.ok() ? "valid" : "NOT valid (fix the FAIL lines above)");
    }
    return v.ok() ? 0 : 2;
}

int make_new(const ExerciseArgs& a) {
    const Exercise* from = checker::find_exercise(a.from);
    if (!from) throw UserError(fmt::format("--from {}: no such exercise (one of: {})", a.from, checker::exercise_names()));
    const fs::path dir(a.target);
    std::error_code ec;
    if (fs::exists(dir, ec) && !(fs::is_directory(dir, ec) && fs::is_empty(dir, ec)))
        throw UserError(fmt::format("exercise new {}: exists and is not an empty folder (nothing was written)", a.target));
    const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
    if (!fs::is_directory(parent, ec))
        throw UserError(fmt::format("exercise new {}: the folder {} does not exist", a.target, parent.string()));
    std::string tmpl = (parent / ".exercise-new-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw UserError(fmt::format("exercise new {}: cannot write in {}", a.target, parent.string()));
    const fs::path tmp(tmpl);
    fs::copy(from->folder, tmp, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
    if (!ec && fs::exists(dir)) fs::remove(dir, ec);
    if (!ec) fs::rename(tmp, dir, ec);
    if (ec) {
        fs::remove_all(tmp);
        throw UserError(fmt::format("exercise new {}: {} (nothing was written)", a.target, ec.message()));
    }
    fmt::print("{}: a copy of {} ({}). Next: edit {} (the spec), README.md, stencil.cu, solution.cu and wrong/, "
               "then `stencil-lab exercise validate {}`.\n",
               a.target, from->display, what_it_is(*from), checker::kExerciseSpecFile, a.target);
    return 0;
}

const Command exercise_cmd("exercise", 62, [](CLI::App& app) -> std::function<int()> {
    app.description("exercises as folders of data: list, validate DIR, new DIR --from NAME");
    auto a = std::make_shared<ExerciseArgs>();
    app.add_option("action", a->action, "list, validate or new")
        ->check(CLI::Validator(
            [](std::string& s) -> std::string {
                if (s == "list" || s == "validate" || s == "new") return {};
                return fmt::format("action must be list, validate or new (got '{}')", s);
            },
            "list|validate|new"));
    app.add_option("folder", a->target, "validate: an exercise folder (or a built-in's name); new: the folder to create");
    app.add_option("--from", a->from, "new: the exercise to copy (a built-in's name or a folder)");
    app.add_flag("--json", a->json, "list, validate: print a JSON object");
    add_backend_option(app, a->backend, "validate: auto (the CPU engine, and the GPU too when one is here), cuda, cpu");
    add_problem_option(app);
    app.parse_complete_callback([a] {
        if (a->action.empty()) throw CLI::ValidationError("action", "action is required: exercise list, validate DIR or new DIR --from NAME");
        if (a->action != "list" && a->target.empty())
            throw CLI::ValidationError("folder", fmt::format("exercise {} needs a folder", a->action));
        if (a->action == "list" && !a->target.empty())
            throw CLI::ValidationError("folder", "exercise list takes no folder");
        if (a->action == "new" && a->from.empty())
            throw CLI::ValidationError("--from", "exercise new needs --from NAME (the exercise to start from, e.g. tiled)");
        if (a->action != "new" && !a->from.empty()) throw CLI::ValidationError("--from", "--from goes with exercise new");
    });
    return [a] {
        if (a->action == "list") return list(*a);
        if (a->action == "validate") return validate(*a);
        return make_new(*a);
    };
});

}  // namespace
}  // namespace stencil::cli
