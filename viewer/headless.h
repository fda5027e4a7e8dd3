// --headless-report: the model table and a checked run of each kernel, printed without a display.
#pragma once

namespace stencil::viewer {
int run_headless_report();  // the exit code
}
