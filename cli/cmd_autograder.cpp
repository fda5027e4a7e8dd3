// `stencil-lab autograder make|run|rubric`: grading where courses grade (grading/).
//
//   autograder make --platform gradescope|prairielearn|classroom (--exercise E [--rubric F] |
//                   --lab N --course C [--results R]) --out DIR [--backend B] [--secret-file F]
//                   [--image NAME] [--stencil-lab-on-path]
//       the platform's bundle in DIR (grading/bundle.h), written whole or not at all; refused from a
//       build tree (no stencil-lab to ship) or with an install tree the platform cannot run.
//       --secret-file: the course secret (grading/seeds.h) read from F, or a new one written there
//   autograder run --platform P --config grading.json [--root R] [--item ITEM]
//       what the bundle's scripts run for each submission: find it in the platform's layout under
//       R (default $STENCIL_LAB_PLATFORM_ROOT or the platform's own root), grade it, write the
//       platform's results file; with --item (GitHub Classroom) exit 0 only when that item earned
//       all its points
//   autograder rubric --exercise E
//       the default rubric, to edit and pass back with --rubric
// Bad input (an unknown platform, exercise or rubric key, points that do not add up, an out folder
// that cannot be written) is one line and exit 2 before anything is written.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "checker/exercises.h"
#include "cli/command.h"
#include "core/error.h"
#include "core/install_layout.h"
#include "core/sha256.h"
#include "grading/bundle.h"
#include "grading/job.h"
#include "grading/platform_results.h"
#include "grading/seeds.h"
#include "labs/grading/questions.h"

namespace stencil::cli {
namespace {

namespace fs = std::filesystem;
using namespace stencil::grading;
using json = nlohmann::json;

struct AutograderArgs {
    std::string action;
    std::string platform;
    std::string exercise;
    int lab = 0;
    std::string rubric;
    std::string course;
    std::string results;
    std::string out;
    std::string config;
    std::string root;
    std::string item;
    std::string backend = "auto";
    std::string secret_file;
    std::string image;
    bool stencil_lab_on_path = false;
};

// The course secret: read from --secret-file when that file exists, else made now (and written
// there, readable by its owner only, once the bundle is made: a refused make writes nothing).
std::string course_secret(const AutograderArgs& a, bool& write_it) {
    std::error_code ec;
    write_it = !a.secret_file.empty() && !fs::exists(a.secret_file, ec);
    if (!a.secret_file.empty() && !write_it) return read_course_secret(a.secret_file);
    if (write_it && ::access(fs::absolute(a.secret_file).parent_path().c_str(), W_OK) != 0)
        throw UserError(fmt::format("--secret-file {}: its folder cannot be written", a.secret_file));
    return make_course_secret();
}

void write_secret(const std::string& file, const std::string& secret) {
    const fs::path tmp = file + ".tmp";
    std::error_code ec;
    {
        std::ofstream f(tmp, std::ios::trunc);
        f << secret << "\n";
        if (!f) throw UserError(fmt::format("--secret-file {}: cannot be written", file));
    }
    fs::permissions(tmp, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, ec);
    fs::rename(tmp, file, ec);
    if (ec) throw UserError(fmt::format("--secret-file {}: cannot be written ({})", file, ec.message()));
}

Platform platform_of(const std::string& s) {
    if (s.empty()) throw UserError("autograder: --platform is required (one of " + platform_names() + ")");
    const auto p = parse_platform(s);
    if (!p) throw UserError(fmt::format("unknown platform '{}'; one of: {}", s, platform_names()));
    return *p;
}

// What the bundle grades, from the options: an exercise and its rubric, or a lab and its course.
JobConfig job_of(const AutograderArgs& a) {
    JobConfig c;
    if (a.lab != 0) {
        if (!a.exercise.empty() || !a.rubric.empty())
            throw UserError("autograder make: give --exercise (with --rubric) or --lab (with --course), not both");
        if (a.course.empty())
            throw UserError(fmt::format("autograder make --lab {}: --course FILE is required (the instructor's course "
                                        "file: stencil-lab lab course --out FILE)", a.lab));
        c.kind = JobConfig::Kind::lab;
        c.lab = a.lab;
        c.course = labs::load_course(a.course);
        if (!a.results.empty()) c.gpu_results = "gpu-results.json";
        return c;
    }
    if (a.exercise.empty())
        throw UserError("autograder make: --exercise E (one of " + checker::exercise_names() + ") or --lab N is required");
    if (!checker::find_exercise(a.exercise))
        throw UserError(fmt::format("unknown exercise '{}'; one of: {}", a.exercise, checker::exercise_names()));
    if (!a.course.empty() || !a.results.empty()) throw UserError("autograder make: --course and --results go with --lab");
    c.rubric = a.rubric.empty() ? default_rubric(a.exercise) : load_rubric(a.rubric, a.exercise);
    if (a.backend != "auto" && a.backend != "cpu" && a.backend != "cuda" && a.backend != "gpu")
        throw UserError(fmt::format("--backend must be auto, cuda or cpu (got '{}')", a.backend));
    c.backend = a.backend == "gpu" ? "cuda" : a.backend;
    return c;
}

int make(const AutograderArgs& a) {
    const Platform p = platform_of(a.platform);
    BundleRequest req;
    req.platform = p;
    req.config = job_of(a);
    req.out = a.out;
    if (a.out.empty()) throw UserError("autograder make: --out DIR is required");
    if (!a.results.empty()) {
        labs::load_gpu_results(a.results);  // refused now, not on the platform
        req.gpu_results = fs::path(a.results);
    }
    req.install_tree = install_prefix();
    req.stencil_lab_on_path = a.stencil_lab_on_path;
    req.data = data_dir(STENCIL_LAB_SOURCE_TREE);
    if (!a.image.empty()) {
        if (p != Platform::prairielearn) throw UserError("autograder make: --image goes with --platform prairielearn");
        req.image = checked_image_name(a.image);
    }
    bool write_it = false;
    req.config.secret = course_secret(a, write_it);
    req.secret_origin = a.secret_file;
    const BundleReport rep = make_bundle(req);
    if (write_it) write_secret(a.secret_file, req.config.secret);
    std::cout << fmt::format("{} bundle for {} in {}:\n", to_string(p),
                             req.config.kind == JobConfig::Kind::lab ? fmt::format("lab {}", req.config.lab)
                                                                     : req.config.rubric.exercise,
                             a.out);
    for (const auto& f : rep.files) std::cout << "  " << f << "\n";
    for (const auto& n : rep.notes) std::cout << "  next: " << n << "\n";
    return 0;
}

// GitHub Classroom: one step per item, each its own process. The first grades; the others read
// its results when the submission has not changed since.
int classroom_item(const PlatformLayout& where, const JobConfig& config, const std::string& item) {
    json results;
    const Found f = find_job_submission(where.submission, config);
    std::error_code ec;
    if (fs::exists(where.results, ec) && f.problem.empty()) {
        std::ifstream in(where.results);
        results = json::parse(in, nullptr, false);
        if (results.is_discarded() || results.value("submission_sha256", "") != file_sha256_hex(f.path)) results = nullptr;
    }
    if (results.is_null()) {
        run_job(Platform::classroom, where, config);
        std::ifstream in(where.results);
        results = json::parse(in);
    }
    std::cout << results.value("output", "");
    if (!results["items"].contains(item)) {
        if (!results.value("gradable", true)) return 1;  // nothing to grade: every step fails
        throw UserError(fmt::format("--item {}: not an item of this job (its items: {})", item, [&] {
            std::string s;
            for (const auto& [k, v] : results["items"].items()) s += (s.empty() ? "" : ", ") + k;
            return s;
        }()));
    }
    const json& it = results["items"][item];
    for (const auto& line : it["lines"]) std::cout << line.get<std::string>() << "\n";
    const double got = it["points"].get<double>(), max = it["max_points"].get<double>();
    std::cout << fmt::format("{}: {:g} of {:g} points\n", item, got, max);
    return got + 1e-9 >= max ? 0 : 1;
}

int run(const AutograderArgs& a) {
    const Platform p = platform_of(a.platform);
    if (a.config.empty()) throw UserError("autograder run: --config grading.json is required (the bundle has one)");
    const JobConfig config = load_job_config(a.config);
    const PlatformLayout where = layout(p, a.root.empty() ? default_root(p) : fs::path(a.root));
    if (!a.item.empty()) {
        if (p != Platform::classroom) throw UserError("autograder run: --item goes with --platform classroom");
        return classroom_item(where, config, a.item);
    }
    const JobOutcome out = run_job(p, where, config);
    std::cout << out.score.output;
    std::cout << fmt::format("{:g} of {:g} points; results in {}\n", std::round(out.score.points * 100) / 100,
                             out.score.max_points, where.results.string());
    return 0;
}

int rubric(const AutograderArgs& a) {
    if (a.exercise.empty()) throw UserError("autograder rubric: --exercise E is required");
    std::cout << to_json(default_rubric(a.exercise)).dump(2) << "\n";
    return 0;
}

const Command autograder_command("autograder", 85, [](CLI::App& app) -> std::function<int()> {
    app.description("grade where courses grade: make a Gradescope, PrairieLearn or GitHub Classroom bundle; run one "
                    "job as the bundle does; print the default rubric");
    auto a = std::make_shared<AutograderArgs>();
    app.add_option("action", a->action, "make, run or rubric")
        ->check(CLI::Validator(
            [](std::string& s) -> std::string {
                if (s == "make" || s == "run" || s == "rubric") return {};
                return fmt::format("action must be make, run or rubric (got '{}')", s);
            },
            "make|run|rubric"));
    app.add_option("--platform", a->platform, "gradescope, prairielearn or classroom");
    app.add_option("--exercise,-e", a->exercise, "the exercise graded: " + checker::exercise_names());
    add_int_option(app, "--lab", a->lab, 1, labs::kLabCount, "a lab's answer sheet instead of an exercise, 1..5");
    app.add_option("--rubric", a->rubric, "make: the rubric (default: `autograder rubric --exercise E`)");
    app.add_option("--course", a->course, "make --lab: the instructor's course file (lab course --out makes one)");
    app.add_option("--results", a->results, "make --lab: a GPU run's results for the GPU questions");
    app.add_option("--out", a->out, "make: the bundle's folder (new, or empty)");
    app.add_option("--secret-file", a->secret_file, "make: the course secret's file (reused when it exists, else a new "
                                                    "secret is written there): the same grades and PrairieLearn UUID "
                                                    "across makes and terms");
    app.add_option("--image", a->image, "make --platform prairielearn: the grader image's name (info.json, Dockerfile)");
    app.add_flag("--stencil-lab-on-path", a->stencil_lab_on_path,
                 "make: ship no stencil-lab; the grading box has its own on PATH (an image you build yourself)");
    app.add_option("--config", a->config, "run: the bundle's grading.json");
    app.add_option("--root", a->root, "run: the platform's root (default $STENCIL_LAB_PLATFORM_ROOT or its own)");
    app.add_option("--item", a->item, "run --platform classroom: the workflow step's item; exit 0 when it earned all "
                                      "its points");
    add_backend_option(app, a->backend, "make: where the bundle runs kernels (auto: the GPU when the box has one)");
    add_problem_option(app);
    app.parse_complete_callback([a] {
        if (a->action.empty())
            throw CLI::ValidationError("action", "action is required: autograder make, run or rubric");
    });
    return [a] {
        if (a->action == "make") return make(*a);
        if (a->action == "run") return run(*a);
        return rubric(*a);
    };
});

}  // namespace
}  // namespace stencil::cli
