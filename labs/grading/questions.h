// The labs' question bank. Every answer is computed when asked, never written down: from the
// model (analysis/), or, for a question about the student's GPU, from a results file that a GPU run
// wrote (gpu_results.h). A handout (labs/labN-*.md) names the ids; `stencil-lab lab key N` prints
// what this file computes and `stencil-lab lab check N FILE` grades against it (grade.h).
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "labs/grading/gpu_results.h"

namespace stencil::labs {

inline constexpr int kLabCount = 5;

enum class AnswerKind { number, choice, word };

// A wrong answer that a known slip produces: when the student's answer matches `value` (within
// the question's tolerance), `why` says which slip it was.
struct Hint {
    nlohmann::json value;
    std::string why;
};

// The answer of one question, as computed now.
struct Key {
    nlohmann::json value;       // null when it cannot be computed here (needs_gpu says why)
    std::string needs_gpu;      // "needs a GPU run: ..." for a GPU question without its figures
    std::vector<Hint> hints;
};

struct Question {
    std::string id;             // "l2.opb-t8": lab, then a short name
    int lab = 1;
    std::string text;           // the question, as the handout asks it
    AnswerKind kind = AnswerKind::number;
    double relative = 0;        // number: |given - key| <= max(absolute, relative |key|)
    double absolute = 0;
    std::vector<std::string> choices;  // choice: the accepted words
    bool gpu = false;           // answered from a GPU run's results file
    std::string source;         // where the key comes from, in words ("model: tiled T=8, r=1, fp32")
    std::function<Key(const GpuResults*)> compute;  // gpu questions get nullptr without --results
};

const std::vector<Question>& question_bank();
std::vector<const Question*> questions_of_lab(int lab);
const Question* find_question(const std::string& id);

}  // namespace stencil::labs
