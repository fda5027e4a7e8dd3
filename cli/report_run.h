// How `stencil-lab run` (and any command that prints one RunReport) shows a run to people.
#pragma once
#include <string>

#include "core/run.h"

namespace stencil::cli {

std::string bytes_text(double b);                      // "1.5 MiB"
std::string request_title(const LaunchRequest& r);    // the kernel, its tile, radius, precision and grid
std::string format_run_report(const RunReport& rep);  // the lines `stencil-lab run` prints

}  // namespace stencil::cli
