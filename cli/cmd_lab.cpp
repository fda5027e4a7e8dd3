// `stencil-lab lab check N FILE`, `lab key N --course C`, `lab params N [--course C]` and
// `lab course --out C`: the labs grade themselves (labs/grading), with the key the instructor's.
//
// check   grades each answer of lab N's answer file with its tolerance, says in words why a wrong
//         one is wrong (the slip, when known) without the expected value, lists the missing ones;
//         exit 0 only when none is wrong or missing (questions about the GPU without --results
//         wait for a GPU run and do not count). With the instructor's course file (--course) the
//         course's parameters are graded; a course file with "practice": true also shows the
//         expected values.
// key     prints the key, computed now from the model and from the GPU results file, at the
//         course's parameters: it needs the instructor's course file. `--json` prints it as an
//         answer file (`{"answers": {...}}`).
// params  the sheet for the students: each question at the course's parameters (no answers).
// course  writes a new course file with a fresh secret (never over an existing file).
//
// The labs run nothing: --backend is accepted as by every command and changes nothing.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/command.h"
#include "core/error.h"
#include "labs/grading/course.h"
#include "labs/grading/grade.h"

namespace stencil::cli {
namespace {

using namespace stencil::labs;

struct LabArgs {
    std::string action;
    int lab = 0;
    std::string file;
    std::string results;
    std::string course;
    std::string out;
    std::string name;
    bool json = false;
    std::string backend = "auto";
};

std::string value_text(const nlohmann::json& v) {
    if (v.is_number_integer()) return std::to_string(v.get<long long>());
    if (v.is_number()) return fmt::format("{:.6g}", v.get<double>());
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

std::string figures_line(const GpuResults* gpu) {
    return gpu ? fmt::format("GPU figures from {}{}", gpu->path, gpu->device.empty() ? "" : " (" + gpu->device + ")")
               : "GPU questions wait for --results FILE (a GPU run's results)";
}

std::string params_line(int lab, const Course* course) {
    const LabParams p = course_params(lab, course);
    std::string s;
    for (const auto& [name, value] : p.values) s += fmt::format("{}{} = {}", s.empty() ? "" : ", ", name, value);
    if (s.empty()) return "";
    return fmt::format("; parameters {} ({})", s, course ? "the course's" : "the handout's");
}

int lab_key(const LabArgs& a, const GpuResults* gpu, const Course* course) {
    if (!course)
        throw UserError(fmt::format("lab key {} prints the instructor's key: give the course file, lab key {} --course "
                                    "FILE (`stencil-lab lab course --out FILE` makes one)", a.lab, a.lab));
    const LabParams params = course_params(a.lab, course);
    const nlohmann::json key = answer_key(a.lab, gpu, params);
    if (a.json) {
        std::cout << key.dump(2) << "\n";
        return 0;
    }
    std::cout << fmt::format("lab {} key: computed from the model{}; {}\n", a.lab, params_line(a.lab, course),
                             figures_line(gpu));
    for (const Question* q : questions_of_lab(a.lab)) {
        const bool known = key["answers"].contains(q->id);
        std::cout << fmt::format("  {:<26} {:<12} {}\n", q->id,
                                 known ? value_text(key["answers"][q->id]) : "(GPU)", question_text(*q, params));
        std::cout << fmt::format("  {:<26} {:<12} {}{}\n", "", "",
                                 known ? with_params(q->source, params) : key["needs_gpu"][q->id].get<std::string>(),
                                 known && q->kind == AnswerKind::number ? ", " + tolerance_text(*q) : "");
    }
    return 0;
}

int lab_params(const LabArgs& a, const Course* course) {
    const LabParams params = course_params(a.lab, course);
    if (a.json) {
        nlohmann::json j = {{"lab", a.lab}, {"parameters", params.values}, {"questions", nlohmann::json::object()}};
        for (const Question* q : questions_of_lab(a.lab)) j["questions"][q->id] = question_text(*q, params);
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::cout << fmt::format("lab {}: your questions{}\n", a.lab, params_line(a.lab, course));
    for (const Question* q : questions_of_lab(a.lab))
        std::cout << fmt::format("  {:<26} {}{}\n", q->id, q->gpu ? "GPU: " : "", question_text(*q, params));
    return 0;
}

int lab_check(const LabArgs& a, const GpuResults* gpu, const Course* course) {
    const nlohmann::json answers = read_answer_file(a.file);
    const LabGrade g = grade_lab(a.lab, answers, gpu, course_params(a.lab, course));
    // The expected values are the instructor's: shown only when the course file allows practice.
    const bool practice = course && course->practice;
    if (a.json) {
        nlohmann::json items = nlohmann::json::array();
        for (const auto& x : g.answers) {
            nlohmann::json item = {{"id", x.question->id}, {"verdict", to_string(x.verdict)}, {"given", *x.given},
                                   {"why", practice ? x.detail : x.why}, {"question", x.question->text}};
            if (practice) item["expected"] = *x.expected;
            items.push_back(item);
        }
        std::cout << nlohmann::json{{"lab", g.lab},
                                    {"passed", g.passed()},
                                    {"right", g.count(Verdict::right)},
                                    {"wrong", g.count(Verdict::wrong)},
                                    {"missing", g.count(Verdict::missing)},
                                    {"needs_gpu", g.count(Verdict::needs_gpu)},
                                    {"practice", practice},
                                    {"unknown_ids", g.unknown_ids},
                                    {"answers", items}}
                         .dump(2)
                  << "\n";
        return g.passed() ? 0 : 1;
    }
    std::cout << fmt::format("lab {}: {} questions: {} right, {} wrong, {} missing, {} waiting for a GPU run; {}{}\n",
                             g.lab, g.answers.size(), g.count(Verdict::right), g.count(Verdict::wrong),
                             g.count(Verdict::missing), g.count(Verdict::needs_gpu), figures_line(gpu),
                             params_line(a.lab, course));
    for (const auto& x : g.answers) {
        switch (x.verdict) {
            case Verdict::right: std::cout << fmt::format("  right    {}\n", x.question->id); break;
            case Verdict::wrong:
                std::cout << fmt::format("  WRONG    {}: {}\n", x.question->id, practice ? x.detail : x.why);
                break;
            case Verdict::missing:
                std::cout << fmt::format("  MISSING  {}: {}\n", x.question->id,
                                         question_text(*x.question, course_params(a.lab, course)));
                break;
            case Verdict::needs_gpu:
                std::cout << fmt::format("  GPU      {}: {}\n", x.question->id, x.why);
                break;
        }
    }
    for (const auto& id : g.unknown_ids)
        std::cout << fmt::format("  UNKNOWN  {}: not a question of lab {} (the handout and `stencil-lab lab params {}` "
                                 "list them)\n", id, g.lab, g.lab);
    std::cout << (g.passed() ? "passed\n" : "not passed\n");
    return g.passed() ? 0 : 1;
}

// A new course file, never over an existing one (that would lose the secret a course's keys
// come from): created exclusively, written whole.
int lab_course(const LabArgs& a) {
    if (a.out.empty()) throw UserError("lab course needs --out FILE (the instructor's course file)");
    const int fd = ::open(a.out.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        throw UserError(fmt::format("--out {}: cannot be created: {}{}", a.out, std::strerror(errno),
                                    errno == EEXIST ? " (a course file is never overwritten: its secret makes the keys)"
                                                    : ""));
    const std::string text = to_json(new_course(a.name)).dump(2) + "\n";
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (!ok) {
        ::unlink(a.out.c_str());
        throw UserError(fmt::format("--out {}: cannot be written", a.out));
    }
    std::cout << fmt::format("wrote {}: keep it from the students; hand out `stencil-lab lab params N --course {}`\n",
                             a.out, a.out);
    return 0;
}

const Command lab_cmd("lab", 80, [](CLI::App& app) -> std::function<int()> {
    app.description("the labs grade themselves: check N FILE grades an answer file; key N --course C prints the "
                    "instructor's key; params N the questions at the course's values; course --out C a course file");
    auto a = std::make_shared<LabArgs>();
    app.add_option("action", a->action, "check, key, params or course")
        ->check(CLI::Validator(
            [](std::string& s) -> std::string {
                if (s == "check" || s == "key" || s == "params" || s == "course") return {};
                return fmt::format("action must be check, key, params or course (got '{}')", s);
            },
            "check|key|params|course"));
    add_int_option(app, "lab", a->lab, 1, kLabCount, "which lab, 1..5");
    app.add_option("file", a->file, "the answer file, {\"answers\": {\"<id>\": value}} (check only)");
    app.add_option("--results", a->results,
                   "a GPU run's results (sweep results.json or run --json output) for the GPU questions");
    app.add_option("--course", a->course, "the instructor's course file (lab course --out makes one)");
    app.add_option("--out", a->out, "course: the new course file");
    app.add_option("--name", a->name, "course: the course's name, for the record");
    app.add_flag("--json", a->json, "check: the grades as JSON; key: an answer file; params: the sheet as JSON");
    add_backend_option(app, a->backend, "accepted by every command; the labs run nothing");
    add_problem_option(app);
    app.parse_complete_callback([a] {
        if (a->action.empty())
            throw CLI::ValidationError("action", "action is required: lab check N FILE, lab key N --course C, lab "
                                                 "params N or lab course --out C");
        if (a->action == "course") {
            if (a->lab != 0 || !a->file.empty())
                throw CLI::ValidationError("lab", "lab course takes no lab number or file: lab course --out FILE");
            return;
        }
        if (a->lab == 0) throw CLI::ValidationError("lab", fmt::format("lab {} needs the lab's number, 1..{}",
                                                                       a->action, kLabCount));
        if (a->action == "check" && a->file.empty())
            throw CLI::ValidationError("file", "lab check needs the answer file: lab check N FILE");
        if (a->action != "check" && !a->file.empty())
            throw CLI::ValidationError("file", fmt::format("lab {} takes no file (got '{}')", a->action, a->file));
        if (!a->out.empty()) throw CLI::ValidationError("--out", "--out goes with lab course");
    });
    return [a] {
        if (a->action == "course") return lab_course(*a);
        std::optional<Course> course;
        if (!a->course.empty()) course = load_course(a->course);
        const Course* c = course ? &*course : nullptr;
        if (a->action == "params") return lab_params(*a, c);
        std::optional<GpuResults> gpu;
        if (!a->results.empty()) gpu = load_gpu_results(a->results);
        const GpuResults* g = gpu ? &*gpu : nullptr;
        return a->action == "key" ? lab_key(*a, g, c) : lab_check(*a, g, c);
    };
});

}  // namespace
}  // namespace stencil::cli
