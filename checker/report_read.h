// A saved check report read back: what `stencil-lab check --json` (to_json, checker.h) wrote for
// one submission becomes the CheckResult it was made from, so that a front end can show a check
// without running it again (the viewer's `--check-report`: a TA opens a student's report, a
// lecture shows a prepared one).
//
// It reads the report's own format and nothing else: a field of the wrong type, an unknown verdict
// or a batch document is a UserError naming what is wrong. What the JSON does not keep stays as
// the report says it: a failing test's output line is "race: finding 1", as printed.
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "checker/checker.h"

namespace stencil::checker {

CheckResult check_result_from_json(const nlohmann::json& j);

// The report in the file at `path`; UserError ("FILE: not a check report: ...") when it cannot
// be read or is not one.
CheckResult read_check_report(const std::string& path);

}  // namespace stencil::checker
