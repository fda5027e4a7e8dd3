// `stencil-lab lab check N FILE [--results R] [--json]` and `stencil-lab lab key N [--results R]
// [--json]`: the labs grade themselves (labs/grading). `check` grades each answer of lab N's
// answer file with its tolerance, says why a wrong one is wrong, lists the missing ones; exit 0
// only when none is wrong or missing (questions about the GPU without --results are reported as
// waiting for a GPU run and do not count). `key` prints the key, computed now from the model and
// from the GPU results file; `--json` prints it as an answer file (`{"answers": {...}}`).
//
// The labs run nothing: --backend is accepted as by every command and changes nothing.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <optional>

#include "cli/command.h"
#include "core/error.h"
#include "labs/grading/grade.h"

namespace stencil::cli {
namespace {

using namespace stencil::labs;

struct LabArgs {
    std::string action;
    int lab = 0;
    std::string file;
    std::string results;
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

int lab_key(const LabArgs& a, const GpuResults* gpu) {
    const nlohmann::json key = answer_key(a.lab, gpu);
    if (a.json) {
        std::cout << key.dump(2) << "\n";
        return 0;
    }
    std::cout << fmt::format("lab {} key: computed from the model; {}\n", a.lab, figures_line(gpu));
    for (const Question* q : questions_of_lab(a.lab)) {
        const bool known = key["answers"].contains(q->id);
        std::cout << fmt::format("  {:<26} {:<12} {}\n", q->id,
                                 known ? value_text(key["answers"][q->id]) : "(GPU)", q->text);
        std::cout << fmt::format("  {:<26} {:<12} {}{}\n", "", "",
                                 known ? q->source : key["needs_gpu"][q->id].get<std::string>(),
                                 known && q->kind == AnswerKind::number ? ", " + tolerance_text(*q) : "");
    }
    return 0;
}

int lab_check(const LabArgs& a, const GpuResults* gpu) {
    const nlohmann::json answers = read_answer_file(a.file);
    const LabGrade g = grade_lab(a.lab, answers, gpu);
    if (a.json) {
        nlohmann::json items = nlohmann::json::array();
        for (const auto& x : g.answers)
            items.push_back({{"id", x.question->id}, {"verdict", to_string(x.verdict)}, {"given", x.given},
                             {"expected", x.expected}, {"why", x.why}, {"question", x.question->text}});
        std::cout << nlohmann::json{{"lab", g.lab},
                                    {"passed", g.passed()},
                                    {"right", g.count(Verdict::right)},
                                    {"wrong", g.count(Verdict::wrong)},
                                    {"missing", g.count(Verdict::missing)},
                                    {"needs_gpu", g.count(Verdict::needs_gpu)},
                                    {"unknown_ids", g.unknown_ids},
                                    {"answers", items}}
                         .dump(2)
                  << "\n";
        return g.passed() ? 0 : 1;
    }
    std::cout << fmt::format("lab {}: {} questions: {} right, {} wrong, {} missing, {} waiting for a GPU run; {}\n",
                             g.lab, g.answers.size(), g.count(Verdict::right), g.count(Verdict::wrong),
                             g.count(Verdict::missing), g.count(Verdict::needs_gpu), figures_line(gpu));
    for (const auto& x : g.answers) {
        switch (x.verdict) {
            case Verdict::right: std::cout << fmt::format("  right    {}\n", x.question->id); break;
            case Verdict::wrong: std::cout << fmt::format("  WRONG    {}: {}\n", x.question->id, x.why); break;
            case Verdict::missing:
                std::cout << fmt::format("  MISSING  {}: {}\n", x.question->id, x.question->text);
                break;
            case Verdict::needs_gpu:
                std::cout << fmt::format("  GPU      {}: {}\n", x.question->id, x.why);
                break;
        }
    }
    for (const auto& id : g.unknown_ids)
        std::cout << fmt::format("  UNKNOWN  {}: not a question of lab {} (`stencil-lab lab key {}` lists them)\n", id,
                                 g.lab, g.lab);
    std::cout << (g.passed() ? "passed\n" : "not passed\n");
    return g.passed() ? 0 : 1;
}

const Command lab_cmd("lab", 80, [](CLI::App& app) -> std::function<int()> {
    app.description("the labs grade themselves: check N FILE grades an answer file, key N prints the key");
    auto a = std::make_shared<LabArgs>();
    app.add_option("action", a->action, "check or key")
        ->check(CLI::Validator(
            [](std::string& s) -> std::string {
                if (s == "check" || s == "key") return {};
                return fmt::format("action must be check or key (got '{}')", s);
            },
            "check|key"));
    add_int_option(app, "lab", a->lab, 1, kLabCount, "which lab, 1..5");
    app.add_option("file", a->file, "the answer file, {\"answers\": {\"<id>\": value}} (check only)");
    app.add_option("--results", a->results,
                   "a GPU run's results (sweep results.json or run --json output) for the GPU questions");
    app.add_flag("--json", a->json, "check: the grades as JSON; key: an answer file");
    add_backend_option(app, a->backend, "accepted by every command; the labs run nothing");
    add_problem_option(app);
    app.parse_complete_callback([a] {
        if (a->action.empty())
            throw CLI::ValidationError("action", "action is required: lab check N FILE or lab key N");
        if (a->lab == 0) throw CLI::ValidationError("lab", fmt::format("lab {} needs the lab's number, 1..{}",
                                                                       a->action, kLabCount));
        if (a->action == "check" && a->file.empty())
            throw CLI::ValidationError("file", "lab check needs the answer file: lab check N FILE");
        if (a->action == "key" && !a->file.empty())
            throw CLI::ValidationError("file", fmt::format("lab key takes no file (got '{}')", a->file));
    });
    return [a] {
        std::optional<GpuResults> gpu;
        if (!a->results.empty()) gpu = load_gpu_results(a->results);
        const GpuResults* g = gpu ? &*gpu : nullptr;
        return a->action == "key" ? lab_key(*a, g) : lab_check(*a, g);
    };
});

}  // namespace
}  // namespace stencil::cli
