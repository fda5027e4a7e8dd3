// The instructor's course file: what makes a lab's key the instructor's. It holds a secret from
// which each lab's parameters are drawn (questions.h: ParamSpec), so the key of this course is not
// the key of the handouts' public values nor of another course, and says whether students may
// practise (see the expected values when they check their answers locally).
//
//   {"course": "CS 508, spring", "secret": "<32 hex digits>", "practice": false}
//
// `stencil-lab lab course --out FILE` writes one; the instructor keeps it out of the students'
// hands (it goes into the autograder bundle, `autograder make --lab N --course FILE`) and gives
// them `stencil-lab lab params N --course FILE`'s sheet. `practice: true` makes a file that may
// be handed out: `lab check` then prints the expected values.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "labs/grading/questions.h"

namespace stencil::labs {

struct Course {
    std::string name;
    std::string secret;     // hex digits, at least 32
    bool practice = false;  // students may see expected values
};

Course new_course(const std::string& name);  // a fresh secret from std::random_device
// Throws UserError (one line naming the file and the key) for an unreadable file, not JSON, an
// unknown key, a secret that is not 32+ hex digits, a `practice` that is not true or false.
Course load_course(const std::string& path);
Course parse_course(const nlohmann::json& j, const std::string& origin);
nlohmann::json to_json(const Course& c);

// Lab `lab`'s parameters in this course: each drawn from its options by the secret; the
// handouts' values without a course.
LabParams course_params(int lab, const Course* course);

}  // namespace stencil::labs
