// The pieces of the text report (report.cpp) that the platform results (grading/score.cpp) print
// the same way: a finding's line with its statements and hint, a statement, what a size is called.
#pragma once
#include <string>

#include "checker/checker.h"

namespace stencil::checker {

// "N", "n" (cardiac2d) or "my" (the derivative): what the exercise's sizes are called.
std::string size_name(const CheckResult& r);

// "at tiled.cu:15 (load, ld.shared.f32) by thread (2, 2, 2) of block (0, 0, 0)"
std::string source_text(const SourceRef& s);

// "hint 2 of exercises/tiled/README.md: <its text>"; empty when the finding has no hint.
std::string hint_line(const CheckResult& r, const Finding& f);

// On the GPU path, for a finding that names no statement: that the GPU path cannot name its line,
// and that --backend cpu can. Empty otherwise (the CPU backend, compile errors, a finding with lines).
std::string line_unknown_note(const CheckResult& r, const Finding& f);

// A finding's lines: "<indent>race at <where>: <message>", then its statements, the note above
// and its hint, each a line further in. `where` ("N = 3, 5 (2 of 11 sizes)") may be empty. A hint
// an earlier finding printed (`hint_said`) is named without its text again.
std::string finding_text(const CheckResult& r, const Finding& f, const std::string& indent, const std::string& where,
                         bool hint_said = false);

// Whether finding `k`'s hint is one an earlier finding of `r` has.
bool hint_said_before(const CheckResult& r, size_t k);

// "N = 3, 5 (2 of 11 sizes)": where a finding appeared; empty for a finding of no size.
std::string finding_sizes(const CheckResult& r, const Finding& f);

// Every finding on one line ("race at N = 3, 5 (all 2 sizes): ...; wrong_result at ..."): a
// batch's CSV row. The evidence's message when there is no finding.
std::string findings_line(const CheckResult& r);

// The SHA-256 of the checked file's bytes as they are now (empty when it is not a readable file):
// what a results file, a batch row and --json name as the graded submission.
std::string submission_sha256(const CheckResult& r);

}  // namespace stencil::checker
