// The check panel's progress line, without ImGui: "size 2 of 4 (N = 17): case 1 N=17 run 0
// in_order" from the checker's progress (checker/progress.h), "cancelling..." once Cancel was
// pressed, and the bar's fraction.
#pragma once
#include <string>

#include "checker/progress.h"

namespace stencil::viewer {

std::string check_status_text(const checker::CheckProgress& p, bool stopping);
float check_fraction(const checker::CheckProgress& p);  // 0 before the first case; k of n: (k - 1) / n

}  // namespace stencil::viewer
