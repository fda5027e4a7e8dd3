// Grading a student's answer file against the keys of one lab (questions.h), and the key itself
// in the answer file's own format, so that `lab key N --json > a.json; lab check N a.json` passes.
//
// Answer file: {"answers": {"<id>": value}}, value a number (or a string holding one: "13/28",
// "58%"), or a word for choice and word questions. Other top-level keys are ignored.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "labs/grading/gpu_results.h"
#include "labs/grading/questions.h"

namespace stencil::labs {

enum class Verdict { right, wrong, missing, needs_gpu };
const char* to_string(Verdict v);

struct GradedAnswer {
    const Question* question = nullptr;
    Verdict verdict = Verdict::missing;
    JsonValue given;     // null when missing
    JsonValue expected;  // null for a GPU question without its figures
    std::string why;          // wrong: what is wrong in words (and the slip, when known), never the
                              // expected value; needs_gpu: what to run
    std::string detail;       // the same with the expected value and the tolerance: for the
                              // instructor, and for students only in practice mode (course.h)
};

struct LabGrade {
    int lab = 0;
    std::vector<GradedAnswer> answers;    // in the bank's order
    std::vector<std::string> unknown_ids; // ids in the file that are not this lab's questions
    int count(Verdict v) const;
    // Every question right, or waiting for a GPU run; no id the lab does not have.
    bool passed() const;
};

// The "answers" object of an answer file; throws UserError (one line) for a file that cannot be
// read, is not JSON, or has no "answers" object.
nlohmann::json read_answer_file(const std::string& path);

// Throws UserError for a lab outside 1..kLabCount. `params`: the course's (course.h), or the
// handouts' values (default_params).
LabGrade grade_lab(int lab, const nlohmann::json& answers, const GpuResults* gpu, const LabParams& params);

// {"answers": {id: key}} for the questions that can be answered here, and "needs_gpu": {id: why}
// for the others (absent when none).
nlohmann::json answer_key(int lab, const GpuResults* gpu, const LabParams& params);

// "within 1%", "exactly", "within +- 0.3": the question's tolerance in words.
std::string tolerance_text(const Question& q);

}  // namespace stencil::labs
