// The labs' question bank. Every answer is computed when asked, never written down: from the
// model (analysis/), or, for a question about the student's GPU, from a results file that a GPU run
// wrote (gpu_results.h). A handout (labs/labN-*.md) names the ids; `stencil-lab lab key N` prints
// what this file computes and `stencil-lab lab check N FILE` grades against it (grade.h).
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/json_value.h"
#include "labs/grading/gpu_results.h"

namespace stencil::labs {

inline constexpr int kLabCount = 5;

enum class AnswerKind { number, choice, word };

// The values some questions are asked at (a tile, a radius, a block's side): a course's secret
// picks them (course.h), so that the public model and last year's answers do not hand out this
// course's key; without a course they are the handouts' own (`fallback`). A question's text names
// them in braces ("a {T3}^3 input tile"); `stencil-lab lab params N --course FILE` prints them
// for the students.
struct ParamSpec {
    std::string name;          // "T3"
    int lab = 1;
    int fallback = 0;          // the handout's value
    std::vector<int> options;  // what a course may draw (the fallback among them)
    std::string meaning;       // "the side of the 3D tile in l2.halo-3d"
};
const std::vector<ParamSpec>& param_specs();

struct LabParams {
    std::map<std::string, int> values;
    int get(const std::string& name) const;  // a name the bank does not define is a logic error
};
LabParams default_params(int lab);

// A wrong answer that a known slip produces: when the student's answer matches `value` (within
// the question's tolerance), `why` says which slip it was.
struct Hint {
    JsonValue value;
    std::string why;
};

// The answer of one question, as computed now.
struct Key {
    JsonValue value;            // null when it cannot be computed here (needs_gpu says why)
    std::string needs_gpu;      // "needs a GPU run: ..." for a GPU question without its figures
    std::vector<Hint> hints;
};

struct Question {
    std::string id;             // "l2.opb-t8": lab, then a short name
    int lab = 1;
    std::string text;           // the question, as the handout asks it ({NAME}: a course parameter)
    AnswerKind kind = AnswerKind::number;
    double relative = 0;        // number: |given - key| <= max(absolute, relative |key|)
    double absolute = 0;
    std::vector<std::string> choices;  // choice: the accepted words
    bool gpu = false;           // answered from a GPU run's results file
    std::string source;         // where the key comes from, in words ("model: tiled T=8, r=1, fp32")
    std::function<Key(const GpuResults*, const LabParams&)> compute;  // gpu questions get nullptr without --results
};

const std::vector<Question>& question_bank();
std::vector<const Question*> questions_of_lab(int lab);
const Question* find_question(const std::string& id);
// The question's text with the course's parameters in place of {NAME}.
std::string question_text(const Question& q, const LabParams& params);
std::string with_params(std::string text, const LabParams& params);  // the same for any text (`source`)

}  // namespace stencil::labs
