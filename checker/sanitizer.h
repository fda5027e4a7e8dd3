// compute-sanitizer on the GPU path (`check --sanitize`): on a pass, one mid-size case under
// memcheck, racecheck and synccheck; on a crash, the case that crashed under memcheck, whose
// report names the faulting line. Internal to stencil_checker (checker.cpp calls it).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "checker/checker.h"
#include "checker/evaluate.h"
#include "checker/protocol.h"

namespace stencil::checker {

// What a compute-sanitizer report says, in the checker's terms. The report is the tool's text
// (it has no other output the runner could read back): this is the one place that reads it.
enum class SanitizerFinding { none, invalid_global_write, other_error };
SanitizerFinding classify_sanitizer_report(std::string_view report);

// The statements of the student's file a memcheck report names: each error record ("Invalid
// __global__ write of size 4 bytes", then "at <function>+0x.. in FILE:LINE", or the older "at 0x..
// in FILE:LINE:function", then "by thread (x,y,z) in block (x,y,z)"), when the PTX had line info
// (NVRTC's -lineinfo) and FILE is the student's (`display`, as the #line directive named it).
// One per line and kind of access, with the first thread reported there.
std::vector<SourceRef> sanitizer_sources(std::string_view report, const std::string& display);

// "" when compute-sanitizer is not installed.
std::string find_sanitizer();

// Runs the sanitizer pass when it applies (GPU, --sanitize, a pass or a crash) and folds what it
// finds into `res`: its tests, and a verdict of its own (crash, race, out_of_bounds_write,
// timeout) when it reports errors. `req` is the check's request (one case of it is rerun);
// `sizes` the size each of its cases is known by (res.sizes).
void sanitize(CheckResult& res, const Request& req, const std::vector<int>& sizes,
              const std::string& runner, const std::string& work, const CheckOptions& opt);

}  // namespace stencil::checker
