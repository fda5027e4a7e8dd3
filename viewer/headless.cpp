#include "viewer/headless.h"

#include <cstdio>
#include <string>

#include "core/backend.h"
#include "core/error.h"
#include "viewer/core/report.h"

namespace stencil::viewer {

int run_headless_report() {
    std::fputs(headless_report().c_str(), stdout);
    std::string why;
    auto backend = make_backend("auto", &why);
    if (!backend) return 0;
    bool ok = true;
    try {
        std::fputs(headless_runs(*backend, 0, ok).c_str(), stdout);
    } catch (const UserError& e) {
        std::fprintf(stderr, "stencil-lab-viewer: %s\n", e.what());
        return 2;
    }
    return ok ? 0 : 1;
}

}  // namespace stencil::viewer
