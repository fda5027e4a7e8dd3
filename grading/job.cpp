#include "grading/job.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "checker/checker.h"
#include "checker/contract.h"
#include "checker/exercises.h"
#include "core/error.h"
#include "core/json_file.h"
#include "core/sha256.h"
#include "grading/box.h"
#include "grading/platform_results.h"
#include "grading/seeds.h"
#include "labs/grading/grade.h"

namespace stencil::grading {

namespace fs = std::filesystem;
using json = nlohmann::json;

JobConfig parse_job_config(const json& j, const std::string& origin) {
    const auto bad = [&](const std::string& key, const std::string& why) {
        throw UserError(fmt::format("grading config {}: {}: {}", origin, key, why));
    };
    if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string()) bad("kind", "required: exercise or lab");
    JobConfig c;
    const std::string kind = j["kind"].get<std::string>();
    if (kind == "exercise") {
        for (const auto& [k, v] : j.items())
            if (k != "kind" && k != "rubric" && k != "backend" && k != "secret" && k != "exercise_folder")
                bad(k, "unknown key (known: kind, rubric, backend, secret, exercise_folder)");
        if (!j.contains("rubric")) bad("rubric", "required");
        c.rubric = parse_rubric(j["rubric"], origin + " (rubric)");
        if (j.contains("backend")) {
            if (!j["backend"].is_string()) bad("backend", "must be auto, cuda or cpu");
            c.backend = j["backend"].get<std::string>();
        }
        if (j.contains("secret")) {
            if (!j["secret"].is_string()) bad("secret", "must be 64 hex digits");
            c.secret = parse_course_secret(j["secret"].get<std::string>(), origin);
        }
    } else if (kind == "lab") {
        c.kind = JobConfig::Kind::lab;
        for (const auto& [k, v] : j.items())
            if (k != "kind" && k != "lab" && k != "course" && k != "results")
                bad(k, "unknown key (known: kind, lab, course, results)");
        if (!j.contains("lab") || !j["lab"].is_number_integer() || j["lab"].get<int>() < 1 ||
            j["lab"].get<int>() > labs::kLabCount)
            bad("lab", fmt::format("required, 1..{}", labs::kLabCount));
        c.lab = j["lab"].get<int>();
        if (!j.contains("course")) bad("course", "required (the instructor's course file)");
        c.course = labs::parse_course(j["course"], origin + " (course)");
        if (j.contains("results")) {
            if (!j["results"].is_string()) bad("results", "must be a file name");
            c.gpu_results = j["results"].get<std::string>();
        }
    } else {
        bad("kind", fmt::format("'{}' is not exercise or lab", kind));
    }
    return c;
}

JobConfig load_job_config(const fs::path& path) {
    json j = read_json_file(path.string(), "grading config");
    // An exercise folder shipped beside grading.json: the rubric's exercise is that folder, wherever
    // the platform put the bundle (its name in the file is only where it was made).
    std::string folder;
    if (j.is_object() && j.contains("exercise_folder")) {
        if (!j["exercise_folder"].is_string() || j["exercise_folder"].get<std::string>().empty() ||
            fs::path(j["exercise_folder"].get<std::string>()).is_absolute())
            throw UserError(fmt::format("grading config {}: exercise_folder: a folder relative to it", path.string()));
        folder = j["exercise_folder"].get<std::string>();
        if (j.contains("rubric") && j["rubric"].is_object())
            j["rubric"]["exercise"] = (fs::absolute(path).parent_path() / folder).lexically_normal().string();
    }
    JobConfig c = parse_job_config(j, path.string());
    c.exercise_folder = folder;
    return c;
}

json to_json(const JobConfig& c) {
    if (c.kind == JobConfig::Kind::exercise) {
        json j = {{"kind", "exercise"}, {"rubric", to_json(c.rubric)}, {"backend", c.backend}};
        if (!c.secret.empty()) j["secret"] = c.secret;
        if (!c.exercise_folder.empty()) {
            j["exercise_folder"] = c.exercise_folder;
            j["rubric"]["exercise"] = c.exercise_folder;  // where it was made means nothing on the platform
        }
        return j;
    }
    json j = {{"kind", "lab"}, {"lab", c.lab}, {"course", labs::to_json(c.course)}};
    if (!c.gpu_results.empty()) j["results"] = c.gpu_results;
    return j;
}

namespace {

// Whether `text` defines or names the kernel: its name followed by '(' (white space allowed).
bool has_kernel(const std::string& text, const std::string& kernel) {
    for (size_t p = text.find(kernel); p != std::string::npos; p = text.find(kernel, p + 1)) {
        const bool starts = p == 0 || !(std::isalnum(static_cast<unsigned char>(text[p - 1])) || text[p - 1] == '_');
        size_t q = p + kernel.size();
        while (q < text.size() && std::isspace(static_cast<unsigned char>(text[q]))) ++q;
        if (starts && q < text.size() && text[q] == '(') return true;
    }
    return false;
}

std::string listed(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
    return s;
}

// A submission folder is the student's: bounded, so that a huge tree costs a line, not a hang.
constexpr size_t kMaxEntries = 10000;
constexpr uintmax_t kMaxCandidateBytes = 4u << 20;

}  // namespace

Found find_submission(const fs::path& folder, const std::string& extension, const std::string& preferred,
                      const std::string& kernel) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        return {{}, fmt::format("no submission: the folder {} does not exist", folder.string())};
    std::vector<fs::path> found;  // relative to `folder`
    std::vector<std::string> zips;
    size_t entries = 0;
    fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        if (++entries > kMaxEntries)
            return {{}, fmt::format("the submission has more than {} files and folders: submit the {} file only",
                                    kMaxEntries, extension)};
        const fs::path& p = it->path();
        const std::string name = p.filename().string();
        if (name.empty() || name[0] == '.') {
            if (it->is_directory(ec)) it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file(ec)) continue;
        std::string ext = p.extension().string();
        for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
        if (ext == ".zip") zips.push_back(p.lexically_relative(folder).string());
        else if (ext == extension) found.push_back(p.lexically_relative(folder));
    }
    std::sort(found.begin(), found.end());
    std::sort(zips.begin(), zips.end());
    if (!zips.empty())
        return {{}, fmt::format("{} is a zip archive: submit the {} file itself (or its folder), not an archive",
                                listed(zips), extension)};
    if (found.size() == 1) return {folder / found[0], ""};
    if (found.empty())
        return {{}, fmt::format("no submission: submit one {} file ({} is what the handout names)", extension, preferred)};
    std::vector<std::string> names;
    for (const auto& p : found) names.push_back(p.string());
    if (!kernel.empty()) {
        std::vector<fs::path> with;
        for (const auto& p : found) {
            if (fs::file_size(folder / p, ec) > kMaxCandidateBytes || ec) continue;
            std::ifstream in(folder / p, std::ios::binary);
            std::stringstream ss;
            ss << in.rdbuf();
            if (has_kernel(ss.str(), kernel)) with.push_back(p);
        }
        if (with.size() == 1) return {folder / with[0], ""};
        if (with.size() > 1) {
            for (const auto& p : with)
                if (p.filename() == preferred) return {folder / p, ""};
            std::vector<std::string> w;
            for (const auto& p : with) w.push_back(p.string());
            return {{}, fmt::format("{} {} files submitted ({}), {} of them with the kernel {} ({}): submit one, or name "
                                    "the graded one {}", found.size(), extension, listed(names), with.size(), kernel,
                                    listed(w), preferred)};
        }
    }
    for (const auto& p : found)
        if (p.filename() == preferred) return {folder / p, ""};
    return {{}, fmt::format("{} {} files submitted ({}){}: submit one, or name the graded one {}", found.size(), extension,
                            listed(names), kernel.empty() ? "" : fmt::format(", none with the kernel {}", kernel),
                            preferred)};
}

Found find_job_submission(const fs::path& folder, const JobConfig& config) {
    if (config.kind == JobConfig::Kind::lab) return find_submission(folder, ".json", "answers.json");
    const checker::Exercise* ex = checker::find_exercise(config.rubric.exercise);
    return find_submission(folder, ".cu", "stencil.cu", ex ? checker::kernel_contract(*ex).kernel : "");
}

namespace {

std::string file_sha256(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return sha256_hex(ss.str());
}

// A check killed or out of time on a box too small for it is the box's doing, not the student's:
// the results say so.
void note_small_box(Score& s, const checker::CheckResult& r, const BoxLimits& box) {
    const bool killed = r.verdict == checker::Verdict::crash &&
                        r.evidence.message.find("signal 9") != std::string::npos;
    const bool out_of_time = r.verdict == checker::Verdict::timeout;
    const bool small = (box.memory_bytes > 0 && box.memory_bytes < kCheckNeedsBytes) || (box.cpus > 0 && box.cpus < 0.5);
    if ((killed || out_of_time) && (small || killed))
        s.output = fmt::format("note: the grading box has {}; a check needs about {} MB and half a core for up to a "
                               "minute. A run killed or out of time here may be the box, not the kernel: ask your "
                               "instructor to regrade on a larger box.\n",
                               box.describe(), kCheckNeedsBytes >> 20) + s.output;
}

}  // namespace

Score score_lab(int lab, const fs::path& sheet, const labs::Course& course, const std::optional<std::string>& gpu_results) {
    Score s;
    std::optional<labs::GpuResults> gpu;
    if (gpu_results) gpu = labs::load_gpu_results(*gpu_results);
    json answers;
    try {
        answers = labs::read_answer_file(sheet.string());
    } catch (const UserError& e) {
        s.gradable = false;
        s.output = std::string(e.what()) + "\n";
        return s;
    }
    const labs::LabGrade g = labs::grade_lab(lab, answers, gpu ? &*gpu : nullptr, labs::course_params(lab, &course));
    for (const auto& a : g.answers) {
        if (a.verdict == labs::Verdict::needs_gpu) continue;
        const bool right = a.verdict == labs::Verdict::right;
        s.tests.push_back({a.question->id, ItemKind::visible, right ? 1.0 : 0.0, 1.0, right, Visibility::visible,
                           right ? "right" : (course.practice ? a.detail : a.why), a.question->id});
        s.max_points += 1;
        s.points += right ? 1 : 0;
    }
    s.output = fmt::format("lab {}: {} right, {} wrong, {} missing of {} graded questions\n", lab,
                           g.count(labs::Verdict::right), g.count(labs::Verdict::wrong), g.count(labs::Verdict::missing),
                           s.tests.size());
    for (const auto& id : g.unknown_ids)
        s.output += fmt::format("  {}: not a question of lab {} (the handout lists them)\n", id, lab);
    return s;
}

JobOutcome run_job(Platform p, const PlatformLayout& where, const JobConfig& config) {
    JobOutcome out;
    const bool lab = config.kind == JobConfig::Kind::lab;
    const Found f = find_job_submission(where.submission, config);
    if (!f.problem.empty()) {
        // Nothing to grade is the student's to fix, and costs them no attempt.
        out.score = lab ? Score{} : score_failure(config.rubric, f.problem, false);
        out.score.gradable = false;
        if (lab) out.score.output = f.problem + "\n";
    } else {
        out.submission = f.path.string();
        out.submission_sha256 = file_sha256(f.path);
        if (lab) {
            std::optional<std::string> results;
            if (!config.gpu_results.empty()) results = (where.source / config.gpu_results).string();
            out.score = score_lab(config.lab, f.path, config.course, results);
        } else {
            const BoxLimits box = read_box_limits();
            checker::CheckOptions opt;
            opt.exercise = config.rubric.exercise;
            opt.backend = config.backend;
            // The engine's threads follow the box's CPUs (a quota of half a core: one). Its memory is
            // the box's to limit (a cgroup counts what is resident; the runner's own address-space
            // limit would count reservations, which NVRTC and threads make freely).
            if (box.cpus > 0) opt.workers = std::max(1, int(box.cpus));
            try {
                const checker::Exercise* ex = checker::find_exercise(config.rubric.exercise);
                if (!ex) throw UserError(fmt::format("unknown exercise '{}'", config.rubric.exercise));
                const GradingSeeds seeds = derive_seeds(config.secret, checker::exercise_spec_hash(*ex), out.submission_sha256);
                opt.seed = seeds.seed;
                opt.hidden_seed = seeds.hidden_seed;
                const checker::CheckResult r = checker::check_submission(f.path.string(), opt);
                out.score = score_check(config.rubric, r);
                note_small_box(out.score, r, box);
            } catch (const UserError& e) {
                out.score = score_failure(config.rubric, fmt::format("the grader could not check {}: {}",
                                                                     f.path.filename().string(), e.what()), false);
            }
        }
    }
    out.score.record.submission_sha256 = out.submission_sha256;
    if (!lab && out.score.record.exercise.empty()) out.score.record.exercise = config.rubric.exercise;
    write_results_file(where.results, results_for(p, out.score, out.submission_sha256));
    return out;
}

}  // namespace stencil::grading
