#include "grading/bundle.h"

#include <fmt/format.h>
#include <stdlib.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "checker/exercises.h"
#include "checker/solution_budget.h"
#include "checker/validate_exercise.h"
#include "core/error.h"
#include "core/version.h"
#include "grading/markdown_html.h"
#include "grading/points.h"
#include "grading/seeds.h"
#include "grading/tree_check.h"
#include "grading/zip_writer.h"
#include "labs/grading/grade.h"

namespace stencil::grading {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// ---- [helpers] ----------------------------------------------------------------------------------

void write_file(const fs::path& p, const std::string& text, bool executable = false) {
    fs::create_directories(p.parent_path());
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f << text;
    f.close();
    if (!f) throw UserError(fmt::format("cannot write {}", p.string()));
    fs::permissions(p, executable ? fs::perms(0755) : fs::perms(0644), fs::perm_options::replace);
}

std::string read_file(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// The install tree's own files only (the prefix may be /usr/local): the CLI, the runner, bundled
// libraries and the data.
void copy_install_tree(const fs::path& prefix, const fs::path& to) {
    const auto opts = fs::copy_options::recursive | fs::copy_options::copy_symlinks;
    fs::create_directories(to / "bin");
    fs::copy(prefix / "bin" / "stencil-lab", to / "bin" / "stencil-lab", opts);
    for (const char* d : {"libexec/stencil-lab", "lib/stencil-lab", "share/stencil-lab"}) {
        std::error_code ec;
        if (!fs::exists(prefix / d, ec)) continue;
        fs::create_directories((to / d).parent_path());
        fs::copy(prefix / d, to / d, opts);
    }
}

// A course's own exercise folder (not a built-in, which every install tree has) goes into the
// bundle beside grading.json, without what students must never see: its solution and its wrong
// kernels. A budget counted from the solution travels as the solution's counts
// (checker/solution_budget.h). Returns the config to write there.
JobConfig ship_exercise(const BundleRequest& req, const fs::path& beside) {
    JobConfig config = req.config;
    if (config.kind != JobConfig::Kind::exercise) return config;
    const checker::Exercise* ex = checker::find_exercise(config.rubric.exercise);
    if (!ex || ex->builtin) return config;  // a built-in: in the shipped install tree
    const fs::path to = beside / "exercise" / ex->name;
    fs::create_directories(to);
    for (const auto& e : fs::recursive_directory_iterator(ex->folder)) {
        const fs::path rel = fs::relative(e.path(), ex->folder);
        const std::string top = rel.begin()->string();
        if (top == "solution.cu" || top == "wrong" || top == checker::kSolutionCountsFile) continue;
        if (e.is_directory()) fs::create_directories(to / rel);
        else if (e.is_regular_file()) fs::copy_file(e.path(), to / rel, fs::copy_options::overwrite_existing);
    }
    if (ex->budget.from_solution)
        write_file(to / checker::kSolutionCountsFile, checker::solution_counts_json(*ex, {checker::default_tile(*ex)}));
    config.exercise_folder = (fs::path("exercise") / ex->name).string();
    return config;
}

// The exercise as students and the question's UUID know it: a built-in's name, a course folder's
// name (not the path it was made from, which is the instructor's machine's and may be spelt
// several ways).
std::string exercise_name(const JobConfig& c) {
    if (c.kind == JobConfig::Kind::lab) return fmt::format("lab {}", c.lab);
    const checker::Exercise* ex = checker::find_exercise(c.rubric.exercise);
    return ex && !ex->builtin ? ex->name : c.rubric.exercise;
}

// A file of the graded exercise's folder (its README.md, its skeleton stencil.cu), or "" when it has
// none: the exercise's own folder (checker/exercises.h), else the data folder's copy.
std::string exercise_file(const BundleRequest& req, const std::string& name) {
    if (req.config.kind == JobConfig::Kind::lab) return "";
    std::error_code ec;
    if (const checker::Exercise* ex = checker::find_exercise(req.config.rubric.exercise)) {
        const fs::path folder = checker::exercise_folder(*ex);
        if (!folder.empty() && fs::is_regular_file(folder / name, ec)) return read_file(folder / name);
    }
    const fs::path copy = req.data / "exercises" / req.config.rubric.exercise / name;
    if (!req.data.empty() && fs::is_regular_file(copy, ec)) return read_file(copy);
    return "";
}

// What a student sees of a graded submission on the platform, for the bundle's README and make's
// output: the hidden tests are hidden only where the platform has a visibility for them.
std::string students_see(Platform p, const JobConfig& c) {
    if (c.kind == JobConfig::Kind::lab) return "every question's test, right or wrong (the values kept back unless the course is in practice mode)";
    const Item* hidden = c.rubric.item(ItemKind::hidden);
    switch (p) {
        case Platform::gradescope:
            return hidden ? fmt::format("the output (the verdict on the visible sizes, their findings, the seed that "
                                        "reproduces them) and the visible tests; the hidden tests (sizes drawn from "
                                        "the course secret) are shown {}; the total score counts their points (hide it in the "
                                        "assignment's settings until grades are published if that matters)",
                                        hidden->visibility == Visibility::after_due_date ? "after the due date"
                                        : hidden->visibility == Visibility::after_published ? "once grades are published"
                                        : hidden->visibility == Visibility::hidden ? "never" : "at once (the rubric makes them visible)")
                          : "the output and every test (the rubric has no hidden item)";
        case Platform::prairielearn:
            return hidden ? "every test, the hidden sizes included: PrairieLearn's external grader has no hidden tests "
                            "(their sizes still come from the course secret; leave the hidden item out of the rubric "
                            "(--rubric) to grade on the visible sizes only)"
                          : "every test (the rubric has no hidden item)";
        case Platform::classroom:
            return hidden ? "every step's output, the hidden sizes included: GitHub Classroom has no hidden tests, and "
                            "the template repository is the student's, so it carries no course secret (the sizes follow "
                            "from the exercise and the file alone: a student can reproduce them); leave the hidden item "
                            "out of the rubric (--rubric) to grade on the visible sizes only"
                          : "every step's output (the rubric has no hidden item)";
    }
    return "";
}

std::string bundle_readme(const BundleRequest& req, const std::string& what) {
    return fmt::format("# stencil-lab {} bundle: {}\n\nMade by `stencil-lab autograder make` (stencil-lab {}).\n\n"
                       "## What students see\n\n{}.\n\n## The course secret\n\n{}\n",
                       to_string(req.platform), exercise_name(req.config), stencil_lab_version(),
                       students_see(req.platform, req.config), what);
}

// NVRTC: the one part of the CUDA toolkit the binaries load, from an installed toolkit when the
// image has one, else from NVIDIA's apt repository
// (libnvrtc.so.13, ~110 MB, too large to carry in every bundle). The CUDA runtime is linked into
// them and libcuda is loaded only where a GPU is.
std::string install_nvrtc(const std::string& sudo) {
    // No `grep -q` after ldconfig and `|| true` after ls: under pipefail, a reader that stops early
    // or a glob that matches nothing would end setup.sh.
    return fmt::format(R"SH(if ! ldconfig -p | grep 'libnvrtc.so.13 ' > /dev/null; then
  # an image with the CUDA 13 toolkit has NVRTC already: put its folder on ld.so's list
  have=$(ls /usr/local/cuda*/targets/x86_64-linux/lib/libnvrtc.so.13 /usr/local/cuda*/lib64/libnvrtc.so.13 2> /dev/null | head -n 1 || true)
  if [ -n "$have" ]; then
    dirname "$have" | {0}tee /etc/ld.so.conf.d/stencil-lab-nvrtc.conf > /dev/null
    {0}ldconfig
  else
    . /etc/os-release
    case "$ID $VERSION_ID" in
      "ubuntu 22.04") repo=ubuntu2204 ;;
      "ubuntu 24.04") repo=ubuntu2404 ;;
      "debian 12") repo=debian12 ;;
      *) echo "setup: NVIDIA's packages are for Ubuntu 22.04 and 24.04 and Debian 12 (this is $PRETTY_NAME)"; exit 1 ;;
    esac
    {0}apt-get update -qq
    {0}apt-get install -y -qq --no-install-recommends ca-certificates wget > /dev/null
    wget -q "https://developer.download.nvidia.com/compute/cuda/repos/$repo/x86_64/cuda-keyring_1.1-1_all.deb"
    {0}dpkg -i cuda-keyring_1.1-1_all.deb > /dev/null && rm -f cuda-keyring_1.1-1_all.deb
    {0}apt-get update -qq
    {0}apt-get install -y -qq --no-install-recommends cuda-nvrtc-13-0 > /dev/null
    echo /usr/local/cuda-13.0/targets/x86_64-linux/lib | {0}tee /etc/ld.so.conf.d/stencil-lab-nvrtc.conf > /dev/null
    {0}ldconfig
  fi
fi
)SH", sudo);
}

// Where a script finds stencil-lab: the one on PATH (a test here, a box set up by hand), else the
// bundle's install tree.
std::string find_stencil_lab(const std::string& tree) {
    return fmt::format("LAB=$(command -v stencil-lab || true)\n[ -n \"$LAB\" ] || LAB=\"{}/bin/stencil-lab\"\n", tree);
}

// ---- [gradescope] -------------------------------------------------------------------------------

void gradescope(const BundleRequest& req, const fs::path& dir, BundleReport& rep) {
    const fs::path src = dir / "zip";
    write_file(src / "setup.sh", "#!/usr/bin/env bash\n"
               "# Gradescope runs this once, as root, while it builds the autograder's image (Ubuntu 22.04 or\n"
               "# 24.04): NVRTC from NVIDIA's apt repository; stencil-lab comes prebuilt in this zip\n"
               "# (stencil-lab/, an install tree that needs glibc 2.34 or later).\n"
               "set -euo pipefail\ncd \"$(dirname \"$0\")\"\n" + install_nvrtc("") +
               "if [ -x stencil-lab/bin/stencil-lab ]; then ln -sf \"$PWD/stencil-lab/bin/stencil-lab\" /usr/local/bin/stencil-lab; fi\n"
               "stencil-lab info  # the install tree starts here (glibc, NVRTC), or the image build fails now\n", true);
    write_file(src / "run_autograder", "#!/usr/bin/env bash\n"
               "# Gradescope runs this for every submission: the student's files are in ROOT/submission,\n"
               "# the results go to ROOT/results/results.json. ROOT is /autograder, or\n"
               "# $STENCIL_LAB_PLATFORM_ROOT (a test runs the bundle in a folder laid out the same way).\n"
               "ROOT=${STENCIL_LAB_PLATFORM_ROOT:-/autograder}\n" + find_stencil_lab("$ROOT/source/stencil-lab") +
               "mkdir -p \"$ROOT/results\"\nrm -f \"$ROOT/results/results.json\"\n"
               "\"$LAB\" autograder run --platform gradescope --config \"$ROOT/source/grading.json\" --root \"$ROOT\"\n"
               "rc=$?\n"
               "# Never a silent 0: when stencil-lab itself did not finish (killed for memory or time, or\n"
               "# missing), the results say so.\n"
               "if [ ! -s \"$ROOT/results/results.json\" ]; then\n"
               "  cat > \"$ROOT/results/results.json\" <<JSON\n"
               "{\"score\": 0, \"output\": \"The grader stopped before it wrote the results (exit code $rc; 137 means it was killed, usually for memory: the grading box may be too small). This is the grading machine, not your kernel: tell your instructor.\", \"tests\": [{\"name\": \"the grader ran\", \"score\": 0, \"max_score\": 0, \"status\": \"failed\", \"output\": \"exit code $rc\"}]}\n"
               "JSON\nfi\nexit 0\n", true);
    write_file(src / "grading.json", to_json(ship_exercise(req, src)).dump(2) + "\n");
    if (req.gpu_results) fs::copy_file(*req.gpu_results, src / "gpu-results.json");
    if (!req.install_tree.empty() && !req.stencil_lab_on_path) copy_install_tree(req.install_tree, src / "stencil-lab");
    write_zip(src, dir / "autograder.zip");
    fs::remove_all(src);
    write_file(dir / "README.md", bundle_readme(req, fmt::format(
        "grading.json (in the zip, under source/, which students never see) holds the course secret{}: the check's seeds "
        "follow from it, the exercise and the submitted file, so a regrade gives the same grade and the hidden sizes "
        "cannot be reproduced without it. Keep it with --secret-file FILE to grade the same way next term.",
        req.secret_origin.empty() ? "" : " (from " + req.secret_origin + ")")));
    rep.files.push_back("autograder.zip");
    rep.files.push_back("README.md");
    rep.notes.push_back("upload autograder.zip as the assignment's autograder (Ubuntu 22.04 or 24.04 base image)");
}

// ---- [prairielearn] -----------------------------------------------------------------------------

void prairielearn(const BundleRequest& req, const fs::path& dir, BundleReport& rep) {
    const bool lab = req.config.kind == JobConfig::Kind::lab;
    write_file(dir / "Dockerfile",
               "# The grader image for PrairieLearn's external grading: Ubuntu 24.04, NVRTC from NVIDIA's apt\n"
               "# repository, stencil-lab's install tree (stencil-lab/ beside this file). Grading jobs have no\n"
               "# network: everything is in the image.\n"
               "#   docker build -t " + req.image + " . && docker push " + req.image + "\n"
               "FROM ubuntu:24.04\n"
               "RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates wget \\\n"
               " && wget -q https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2404/x86_64/cuda-keyring_1.1-1_all.deb \\\n"
               " && dpkg -i cuda-keyring_1.1-1_all.deb && rm cuda-keyring_1.1-1_all.deb \\\n"
               " && apt-get update && apt-get install -y --no-install-recommends cuda-nvrtc-13-0 \\\n"
               " && echo /usr/local/cuda-13.0/targets/x86_64-linux/lib > /etc/ld.so.conf.d/stencil-lab-nvrtc.conf && ldconfig \\\n"
               " && apt-get purge -y wget && rm -rf /var/lib/apt/lists/*\n"
               "COPY stencil-lab /opt/stencil-lab\n"
               "ENV PATH=/opt/stencil-lab/bin:$PATH\n"
               "RUN stencil-lab info\n");
    rep.files.push_back("Dockerfile");
    if (!req.install_tree.empty() && !req.stencil_lab_on_path) {
        copy_install_tree(req.install_tree, dir / "stencil-lab");
        rep.files.push_back("stencil-lab/");
    }
    const fs::path q = dir / "question";
    json info = {{"uuid", question_uuid(req.config)},
                 {"title", "stencil-lab: " + exercise_name(req.config)},
                 {"topic", "Stencils"},
                 {"type", "v3"},
                 {"singleVariant", true},
                 {"gradingMethod", "External"},
                 {"externalGradingOptions",
                  {{"enabled", true},
                   {"image", req.image},
                   {"entrypoint", "/grade/tests/run.sh"},
                   {"timeout", 180}}}};
    write_file(q / "info.json", info.dump(2) + "\n");
    const std::string file = lab ? "answers.json" : "stencil.cu";
    const std::string editor = lab ? "<pl-file-upload file-names=\"answers.json\"></pl-file-upload>"
                                   : "<pl-file-editor file-name=\"stencil.cu\" ace-mode=\"ace/mode/c_cpp\" "
                                     "source-file-name=\"stencil.cu\"></pl-file-editor>";
    // The statement itself (the exercise's README), not a pointer to a handout the question lacks.
    const std::string statement = exercise_file(req, "README.md");
    const std::string intro =
        lab ? fmt::format("<p>Lab {}: write your answers into answers.json under the questions' ids and upload it; it "
                          "is graded by stencil-lab.</p>\n", req.config.lab)
            : fmt::format("<p>Write {} in the editor below; it is graded by stencil-lab's checker.</p>\n", file);
    write_file(q / "question.html",
               fmt::format("<pl-question-panel>\n{}{}</pl-question-panel>\n\n{}\n\n"
                           "<pl-submission-panel>\n  <pl-external-grader-results></pl-external-grader-results>\n"
                           "  <pl-file-preview></pl-file-preview>\n</pl-submission-panel>\n",
                           intro, markdown_to_html(statement), editor));
    if (const std::string skeleton = exercise_file(req, "stencil.cu"); !lab && !skeleton.empty())
        write_file(q / "stencil.cu", skeleton);
    write_file(q / "tests" / "grading.json", to_json(ship_exercise(req, q / "tests")).dump(2) + "\n");
    if (req.gpu_results) fs::copy_file(*req.gpu_results, q / "tests" / "gpu-results.json");
    write_file(q / "tests" / "run.sh", "#!/usr/bin/env bash\n"
               "# PrairieLearn's entry point: the student's files are in ROOT/student, the results go to\n"
               "# ROOT/results/results.json. ROOT is /grade, or $STENCIL_LAB_PLATFORM_ROOT.\n"
               "ROOT=${STENCIL_LAB_PLATFORM_ROOT:-/grade}\n" + find_stencil_lab("/opt/stencil-lab") +
               "mkdir -p \"$ROOT/results\"\nrm -f \"$ROOT/results/results.json\"\n"
               "\"$LAB\" autograder run --platform prairielearn --config \"$ROOT/tests/grading.json\" --root \"$ROOT\"\n"
               "rc=$?\n"
               "# Never a silent 0: a grader that did not finish is not the student's fault (no attempt charged).\n"
               "if [ ! -s \"$ROOT/results/results.json\" ]; then\n"
               "  cat > \"$ROOT/results/results.json\" <<JSON\n"
               "{\"gradable\": false, \"score\": 0, \"message\": \"The grader stopped before it wrote the results (exit code $rc; 137 means it was killed, usually for memory).\", \"format_errors\": \"the grading machine failed, not your submission: tell your instructor\"}\n"
               "JSON\nfi\nexit 0\n", true);
    rep.files.push_back("question/");
    write_file(dir / "README.md", bundle_readme(req, fmt::format(
        "question/tests/grading.json (the question's tests/, which PrairieLearn keeps from students) holds the course "
        "secret{}. The question's UUID follows from it and the exercise: make the bundle again with the same "
        "--secret-file and the UUID stays the same, as PrairieLearn requires.",
        req.secret_origin.empty() ? "" : " (from " + req.secret_origin + ")")));
    rep.files.push_back("README.md");
    rep.notes.push_back(fmt::format("docker build -t {0} DIR && docker push {0}; copy question/ into your course's "
                                    "questions/", req.image));
}

// ---- [classroom] --------------------------------------------------------------------------------

std::string step_id(const std::string& item) {
    std::string id;
    for (char c : item) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
    return id;
}

void classroom(const BundleRequest& req, const fs::path& dir, BundleReport& rep) {
    const bool lab = req.config.kind == JobConfig::Kind::lab;
    const fs::path ours = dir / ".stencil-lab";
    JobConfig config = ship_exercise(req, ours);
    config.secret.clear();  // the repository is the student's: nothing in it is secret
    write_file(ours / "grading.json", to_json(config).dump(2) + "\n");
    write_file(ours / "README.md", bundle_readme(req, "none: the template repository becomes each student's own, so "
                                                      "grading.json carries no secret; the check's seeds follow from "
                                                      "the exercise and the submitted file (a regrade gives the same "
                                                      "grade)."));
    if (req.gpu_results) fs::copy_file(*req.gpu_results, ours / "gpu-results.json");
    if (!req.install_tree.empty() && !req.stencil_lab_on_path) copy_install_tree(req.install_tree, ours / "stencil-lab");
    write_file(ours / "setup.sh", "#!/usr/bin/env bash\n"
               "# The workflow's first step runs this on GitHub's Ubuntu runner: NVRTC from NVIDIA's apt\n"
               "# repository; stencil-lab is in .stencil-lab/stencil-lab (an install tree).\n"
               "set -euo pipefail\n" + install_nvrtc("sudo "), true);
    write_file(ours / "grade", "#!/usr/bin/env bash\n"
               "# One autograding step: `.stencil-lab/grade ITEM` exits 0 when ITEM earned all its points. The\n"
               "# first step checks the submission; the others read its results (.stencil-lab/results.json).\n"
               "cd \"$(dirname \"$0\")/..\"\n" + find_stencil_lab("$PWD/.stencil-lab/stencil-lab") +
               "exec \"$LAB\" autograder run --platform classroom --config .stencil-lab/grading.json --root . --item \"$1\"\n",
               true);
    std::string yaml =
        "# GitHub Classroom's autograding: one step per rubric item (or per question of a lab), each\n"
        "# worth its points when `.stencil-lab/grade ITEM` exits 0. Made by `stencil-lab autograder make`.\n"
        "name: Autograding Tests\n'on':\n- push\n- repository_dispatch\npermissions:\n  checks: write\n"
        "  actions: read\n  contents: read\njobs:\n  run-autograding-tests:\n    runs-on: ubuntu-latest\n"
        "    if: github.actor != 'github-classroom[bot]'\n    steps:\n    - name: Checkout code\n"
        "      uses: actions/checkout@v4\n";
    const auto steps = classroom_steps(req.config, bool(req.gpu_results));
    std::string env, runners;
    for (size_t i = 0; i < steps.size(); ++i) {
        const ClassroomStep& s = steps[i];
        yaml += fmt::format("    - name: {}\n      id: {}\n      uses: classroom-resources/autograding-command-grader@v1\n"
                            "      with:\n        test-name: {}\n{}        command: .stencil-lab/grade {}\n"
                            "        timeout: 10\n        max-score: {:g}\n",
                            s.item, s.id, s.item, i == 0 ? "        setup-command: bash .stencil-lab/setup.sh\n" : "",
                            s.item, s.points);
        std::string upper;
        for (char c : s.id) upper += char(std::toupper(static_cast<unsigned char>(c)));
        env += fmt::format("        {}_RESULTS: \"${{{{steps.{}.outputs.result}}}}\"\n", upper, s.id);
        runners += (runners.empty() ? "" : ",") + s.id;
    }
    yaml += "    - name: Autograding Reporter\n      uses: classroom-resources/autograding-grading-reporter@v1\n"
            "      env:\n" + env + "      with:\n        runners: " + runners + "\n";
    write_file(dir / ".github" / "workflows" / "classroom.yml", yaml);
    if (lab) {
        json answers = json::object();
        const labs::LabParams params = labs::course_params(req.config.lab, &req.config.course);
        std::string sheet = fmt::format("# Lab {}: your questions\n\nWrite your answers into answers.json under their "
                                        "ids; every push is graded.\n\n", req.config.lab);
        for (const labs::Question* q : labs::questions_of_lab(req.config.lab)) {
            answers[q->id] = nullptr;
            sheet += fmt::format("- `{}`{}: {}\n", q->id, q->gpu ? " (GPU)" : "", labs::question_text(*q, params));
        }
        write_file(dir / "answers.json", json{{"answers", answers}}.dump(2) + "\n");
        write_file(dir / "QUESTIONS.md", sheet);
    } else {
        if (const std::string t = exercise_file(req, "stencil.cu"); !t.empty()) write_file(dir / "stencil.cu", t);
        if (const std::string t = exercise_file(req, "README.md"); !t.empty()) write_file(dir / "README.md", t);
    }
    rep.files.push_back(".github/workflows/classroom.yml");
    rep.files.push_back(".stencil-lab/");
    rep.notes.push_back("push DIR as the assignment's template repository (GitHub Classroom runs "
                        ".github/workflows/classroom.yml on every push)");
}

// The out folder: a new name in a folder that exists and can be written, or an empty folder.
void check_out(const fs::path& out) {
    std::error_code ec;
    if (out.empty()) throw UserError("--out needs a folder");
    if (fs::exists(out, ec)) {
        if (!fs::is_directory(out, ec)) throw UserError(fmt::format("--out {}: exists and is not a folder", out.string()));
        if (!fs::is_empty(out, ec)) throw UserError(fmt::format("--out {}: exists and is not empty", out.string()));
    }
    const fs::path parent = fs::absolute(out).parent_path();
    if (!fs::is_directory(parent, ec))
        throw UserError(fmt::format("--out {}: the folder {} does not exist", out.string(), parent.string()));
    if (::access(parent.c_str(), W_OK) != 0)
        throw UserError(fmt::format("--out {}: the folder {} cannot be written", out.string(), parent.string()));
}

}  // namespace

std::vector<ClassroomStep> classroom_steps(const JobConfig& config, bool with_gpu_results) {
    std::vector<ClassroomStep> steps;
    if (config.kind == JobConfig::Kind::lab) {
        for (const labs::Question* q : labs::questions_of_lab(config.lab))
            if (!q->gpu || with_gpu_results) steps.push_back({step_id(q->id), q->id, 1});
        return steps;
    }
    // GitHub's runners have no GPU: a rubric that rescales without one scales the other items up,
    // in whole units that add up to the total (points.h), as the results' items do.
    const Rubric& r = config.rubric;
    const std::vector<long long> units = item_units(r, r.time.rescale_without_gpu);
    for (size_t k = 0; k < r.items.size(); ++k) {
        const Item& i = r.items[k];
        if (units[k] <= 0 || (i.kind == ItemKind::time && r.time.rescale_without_gpu)) continue;
        steps.push_back({to_string(i.kind), to_string(i.kind), to_points(r, units[k])});
    }
    return steps;
}

std::string question_uuid(const JobConfig& config) {
    const std::string what = "prairielearn question: " + exercise_name(config);
    return derived_uuid(config.secret, what);
}

std::string checked_image_name(const std::string& image) {
    bool ok = !image.empty() && image.size() <= 255 && std::isalnum(static_cast<unsigned char>(image[0]));
    for (char c : image)
        ok = ok && (std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
                    std::string_view("._-/:@").find(c) != std::string_view::npos);
    if (!ok)
        throw UserError(fmt::format("--image '{}': not a Docker image name (lowercase letters, digits and ._-/:@, e.g. "
                                    "yourname/stencil-lab-grader:2026)", image));
    return image;
}

// A course's own exercise must validate before it is shipped (checker/validate_exercise.h); the
// built-ins are validated by the project's CI.
void check_exercise_valid(const JobConfig& config) {
    if (config.kind != JobConfig::Kind::exercise) return;
    const checker::Exercise* ex = checker::find_exercise(config.rubric.exercise);
    if (!ex || ex->builtin) return;
    checker::ValidateOptions o;
    o.backend = "cpu";
    const checker::Validation v = checker::validate_exercise(*ex, o);
    for (const checker::ValidationStep& s : v.steps)
        if (!s.ok)
            throw UserError(fmt::format("autograder make: the exercise {} does not validate ({}: {}); `stencil-lab exercise "
                                        "validate {}` lists every step (nothing was written)",
                                        ex->display, s.what, s.detail.substr(0, s.detail.find('\n')), ex->id));
}

BundleReport make_bundle(const BundleRequest& req) {
    check_out(req.out);
    if (req.install_tree.empty() && !req.stencil_lab_on_path)
        throw UserError("autograder make: this stencil-lab runs from a build tree, so the bundle would have no stencil-lab "
                        "to run; make it with an installed one (cmake --preset grading && cmake --build --preset grading "
                        "&& cmake --install build-grading --prefix DIR --component grading, then DIR/bin/stencil-lab "
                        "autograder make ...), or pass --stencil-lab-on-path for a grading box that has its own");
    if (!req.install_tree.empty() && !req.stencil_lab_on_path)
        if (const std::string why = tree_problem(req.install_tree, req.platform); !why.empty())
            throw UserError(fmt::format("autograder make: the install tree {} cannot run on {}: {}; install one from "
                                        "the grading preset (cmake --preset grading && cmake --build --preset grading "
                                        "&& cmake --install build-grading --prefix DIR --component grading)",
                                        req.install_tree.string(), to_string(req.platform), why));
    check_exercise_valid(req.config);
    const fs::path out = fs::absolute(req.out);
    std::string tmpl = (out.parent_path() / fmt::format(".{}.tmp-XXXXXX", out.filename().string())).string();
    if (!::mkdtemp(tmpl.data())) throw UserError(fmt::format("--out {}: cannot create a folder beside it", req.out.string()));
    const fs::path tmp = tmpl;
    BundleReport rep;
    try {
        switch (req.platform) {
            case Platform::gradescope: gradescope(req, tmp, rep); break;
            case Platform::prairielearn: prairielearn(req, tmp, rep); break;
            case Platform::classroom: classroom(req, tmp, rep); break;
        }
        fs::permissions(tmp, fs::perms(0755), fs::perm_options::replace);
        std::error_code ec;
        if (fs::exists(out, ec)) fs::remove(out);  // empty (check_out)
        fs::rename(tmp, out);
    } catch (const fs::filesystem_error& e) {
        std::error_code ec;
        fs::remove_all(tmp, ec);
        throw UserError(fmt::format("--out {}: {}", req.out.string(), e.code().message()));
    } catch (...) {
        std::error_code ec;
        fs::remove_all(tmp, ec);
        throw;
    }
    if (req.stencil_lab_on_path)
        rep.notes.push_back("no stencil-lab was copied (--stencil-lab-on-path): the grading box must have one on PATH");
    rep.notes.push_back("students will see " + students_see(req.platform, req.config));
    if (req.platform != Platform::classroom)
        rep.notes.push_back(req.secret_origin.empty()
                                ? "a new course secret is in the bundle's grading.json (\"secret\"): to grade the same way "
                                  "next time (the same grades, the same PrairieLearn UUID), pass --secret-file FILE (a "
                                  "new FILE gets the secret written into it, an existing one is reused)"
                                : fmt::format("the course secret is in {}: pass --secret-file {} again to grade the same "
                                              "way (the same grades, the same PrairieLearn UUID)",
                                              req.secret_origin, req.secret_origin));
    return rep;
}

}  // namespace stencil::grading
