// The report's summary of a check: what each failing test case found, grouped into distinct
// findings (checker.h: Finding) with every size each appeared at, and the smallest failing case,
// whose evidence the report shows. Internal to stencil_checker (checker.cpp assembles the result
// with it; the report and the platform results read CheckResult::findings).
#pragma once
#include <string>
#include <vector>

#include "checker/checker.h"

namespace stencil::checker {

// One failing test case's worst finding, as the judge decided it (evaluate.h: Findings).
struct CaseFinding {
    Verdict verdict = Verdict::pass;
    Evidence evidence;
    int size = 0;  // the case's size (TestRecord::size)
};

// The message without the size and the run it was seen at ("N=13 in_order schedule: " or
// "n=17 (19x19 with ghosts): " before it): what stays the same from size to size.
std::string without_size_and_run(const Evidence& ev);

// The lines a compile error names ("FILE.cu:LINE: error: ..." in the tidied compiler output, or
// the vetting's "FILE.cu:LINE: <why>"), at most eight, each once: a compile error's statements.
std::vector<SourceRef> compiler_sources(const std::string& compiler_output);

// The statements a finding names: Evidence::sources, or where those are not filled, the compiler's
// lines of a compile error, or the one line an engine diagnostic carries (Evidence::line), with the
// race's block and first thread.
std::vector<SourceRef> sources_of(const Evidence& ev);

// What makes two cases' findings the same finding: the verdict, the statements named (Evidence::
// sources and Evidence::line) and the message once its size, run and numbers are taken out (a
// race on tile[2][2][1] at N = 3 and on tile[6][6][5] at N = 131, both at line 15, are one).
std::string finding_key(Verdict v, const Evidence& ev);

// A finding's cause (causes.h): the one a step named (Evidence::cause), else the verdict's default.
std::string cause_of(Verdict v, const Evidence& ev);

// One Finding per distinct finding, in the order they are reported: the check's verdict first,
// then by priority, then by the first size they appeared at. Each carries the message and the
// sources of its smallest size, every size it appeared at, in test order, and the exercise's hint
// for it (hints.h; its text is left to summarise, which reads the README).
std::vector<Finding> summarise_cases(const std::vector<CaseFinding>& cases, const std::string& exercise);

// Makes res.evidence the smallest failing case's of res.verdict (its slice map, block and cell at
// that size), not the first tested one's. Before the steps that add to the evidence (--sanitize).
void take_smallest_counterexample(CheckResult& res, const std::vector<CaseFinding>& cases);

// Fills res.findings, res.smallest_failing_size and each TestRecord's finding from `cases`, with
// each finding's hint and its text (hints.h). A verdict no case carries (a compile error, the
// child's end, a sanitizer's or the timing's verdict) is a finding of its own, from res.evidence,
// and comes first; the verdict's finding at res.evidence's size takes res.evidence's sources (a
// step after the judgement, a replay or the sanitizer, may have found them). After every step
// that may change the verdict or the evidence.
void summarise(CheckResult& res, const std::vector<CaseFinding>& cases);

// The sizes of res.tests that passed, in test order (checks of no size, like a sanitizer's, left out).
std::vector<int> passed_sizes(const CheckResult& res);

// "3, 5, 9 (3 of 11 sizes)", "3, 5, ..., 131 (all 11 sizes)": a finding's sizes against the
// check's, for people.
std::string size_list(const std::vector<int>& sizes, const std::vector<int>& tested);

}  // namespace stencil::checker
