#include "checker/validate_exercise.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "checker/data_exercise.h"
#include "checker/solution_budget.h"
#include "core/error.h"

namespace stencil::checker {

namespace fs = std::filesystem;

bool Validation::ok() const {
    return !steps.empty() && std::all_of(steps.begin(), steps.end(), [](const ValidationStep& s) { return s.ok; });
}

namespace {

std::string trim(std::string s) {
    const auto a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::optional<std::vector<Verdict>> verdicts(const std::string& text, std::string& error) {
    std::vector<Verdict> out;
    size_t at = 0;
    while (at <= text.size()) {
        const size_t bar = std::min(text.find('|', at), text.size());
        const std::string word = trim(text.substr(at, bar - at));
        const auto v = parse_verdict(word);
        if (!v) return error = fmt::format("'{}' is not a verdict", word), std::nullopt;
        out.push_back(*v);
        at = bar + 1;
    }
    return out;
}

std::string first_line_of(const fs::path& p) {
    std::ifstream f(p);
    std::string line;
    std::getline(f, line);
    return line;
}

// One check of `file` with the validation's fixed seed (a validation is reproducible).
CheckResult check(const Exercise& ex, const fs::path& file, const std::string& backend, bool quick) {
    CheckOptions o;
    o.exercise = ex.id;
    o.backend = backend;
    o.seed = 1;
    o.quick = quick;
    o.timing = false;
    return check_submission(file.string(), o);
}

std::string outcome(const CheckResult& r) {
    std::string first = r.evidence.message.substr(0, r.evidence.message.find('\n'));
    return fmt::format("{} ({:.1f} s{})", to_string(r.verdict), r.seconds, first.empty() ? "" : ": " + first);
}

}  // namespace

std::optional<Expectation> parse_expectation(const std::string& first_line, std::string& error) {
    const std::string prefix = "// expect:";
    if (first_line.rfind(prefix, 0) != 0) {
        error = "its first line must name the verdict it must get: \"// expect: race\" (or \"// expect: race; gpu: race|wrong_result\")";
        return std::nullopt;
    }
    std::string rest = first_line.substr(prefix.size());
    std::string gpu_part;
    if (const size_t semi = rest.find(';'); semi != std::string::npos) {
        gpu_part = trim(rest.substr(semi + 1));
        rest = rest.substr(0, semi);
        if (gpu_part.rfind("gpu:", 0) != 0) return error = "after ';' write \"gpu: VERDICT|VERDICT\"", std::nullopt;
        gpu_part = gpu_part.substr(4);
    }
    Expectation e;
    const auto cpu = verdicts(rest, error);
    if (!cpu) return std::nullopt;
    if (cpu->size() != 1) return error = "name one verdict for the CPU engine (alternatives go after \"gpu:\")", std::nullopt;
    e.cpu = cpu->front();
    if (e.cpu == Verdict::pass) return error = "a wrong/ kernel must fail: \"pass\" is not a verdict it may get", std::nullopt;
    if (gpu_part.empty()) {
        e.gpu = {e.cpu};
    } else {
        const auto gpu = verdicts(gpu_part, error);
        if (!gpu) return std::nullopt;
        e.gpu = *gpu;
    }
    return e;
}

namespace {

// An exercise written as data: its stencil's model in the textbook's terms (analysis/general_stencil.h)
// at the budget's loads.
ValidationStep model_step(const Exercise& ex, double budget) {
    const analysis::GeneralStencilModel m = data_stencil_model(ex);
    return {"model", true, fmt::format("{} points, {} FLOP per output; OP/B {:.2f} at the budget's loads, {:.2f} at one "
                                       "load per output (each input loaded once)",
                                       m.points, m.flops_per_output, m.opb(budget), m.limit_opb())};
}

}  // namespace

Validation validate_exercise(const Exercise& ex, const ValidateOptions& opt) {
    Validation v;
    const auto add = [&](ValidationStep s) {
        if (opt.on_step) opt.on_step(s);
        v.steps.push_back(std::move(s));
    };
    add({ex.spec_file, true, fmt::format("read: {}{}", ex.summary, ex.hints.empty() ? "" : fmt::format(", {} hint(s) mapped", ex.hints.size()))});

    std::vector<std::string> backends{"cpu"};
    if (opt.backend == "cuda" || (opt.backend == "auto" && !cuda_unavailable_for_checker())) backends.push_back("cuda");
    if (opt.backend == "cuda" && cuda_unavailable_for_checker())
        throw UserError("--backend cuda: " + *cuda_unavailable_for_checker());

    const fs::path solution = ex.folder / "solution.cu";
    bool solution_passes = false;
    if (!fs::is_regular_file(solution)) {
        add({ex.display + "/solution.cu", false, "no such file: the instructor's solution is what validates the exercise"});
    } else {
        for (const std::string& b : backends) {
            const CheckResult r = check(ex, solution, b, false);
            const bool ok = r.verdict == Verdict::pass;
            solution_passes = b == "cpu" ? ok : solution_passes && ok;
            std::string detail = outcome(r);
            if (ok && r.loads) detail += fmt::format("; {:.3f} global loads per output at N={}", r.loads->loads_per_output, r.loads->n);
            add({fmt::format("{}/solution.cu on the {}", ex.display, b == "cpu" ? "CPU engine" : "GPU"), ok, detail});
            if (ok && r.loads && !r.loads->within_budget)
                add({"budget", false, fmt::format("the solution loads {:.3f} per output, over the budget of {:.3f} ({})",
                                                  r.loads->loads_per_output, r.loads->budget, budget_source(ex))});
            else if (ok && r.loads && b == "cpu") {
                add({"budget", true, fmt::format("{:.3f} global loads per output at N={} ({})", r.loads->budget, r.loads->n,
                                                 budget_source(ex))});
                v.budget = r.loads->budget;
                if (ex.is_data()) add(model_step(ex, r.loads->budget));
            }
        }
    }
    if (ex.is_data() && !solution_passes && !ex.budget.loads_per_output)
        add({"budget", false, "comes from the solution, which does not pass"});

    const fs::path skeleton = ex.folder / "stencil.cu";
    {
        const CheckResult r = check(ex, skeleton, "cpu", true);
        const bool ok = r.verdict != Verdict::pass && r.verdict != Verdict::compile_error;
        add({ex.display + "/stencil.cu (the skeleton)", ok,
             ok ? "compiles and does not pass: " + outcome(r)
                : r.verdict == Verdict::pass ? "passes: a student would have nothing to do"
                                             : "does not compile: " + outcome(r)});
    }

    std::vector<fs::path> wrong;
    if (fs::is_directory(ex.folder / "wrong"))
        for (const auto& e : fs::directory_iterator(ex.folder / "wrong"))
            if (e.is_regular_file() && e.path().extension() == ".cu") wrong.push_back(e.path());
    std::sort(wrong.begin(), wrong.end());
    for (const fs::path& w : wrong) {
        const std::string name = ex.display + "/wrong/" + w.filename().string();
        std::string error;
        const auto expect = parse_expectation(first_line_of(w), error);
        if (!expect) {
            add({name, false, name + ":1:1: " + error});
            continue;
        }
        for (const std::string& b : backends) {
            const CheckResult r = check(ex, w, b, false);
            const bool gpu = b == "cuda";
            const bool ok = gpu ? std::find(expect->gpu.begin(), expect->gpu.end(), r.verdict) != expect->gpu.end()
                                : r.verdict == expect->cpu;
            std::string want = to_string(expect->cpu);
            if (gpu) {
                want.clear();
                for (Verdict x : expect->gpu) want += (want.empty() ? "" : "|") + std::string(to_string(x));
            }
            add({fmt::format("{} on the {}", name, gpu ? "GPU" : "CPU engine"), ok,
                 ok ? outcome(r) : fmt::format("expected {}, got {}", want, outcome(r))});
        }
    }
    return v;
}

}  // namespace stencil::checker
