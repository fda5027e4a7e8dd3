// Which stencil-lab this is: the project's version (the VERSION file) and, where the build was
// configured from a git checkout, its commit ("0.1.0+g1a2b3c4", ".dirty" after it when the checkout had
// changes). Made when the build is configured (core/version.cpp.in), so it names the commit the
// build was configured at. `stencil-lab --version` prints it; check --json, batch CSVs and every
// platform results file record it, so a grade says which build gave it.
#pragma once

namespace stencil {

const char* stencil_lab_version();

}  // namespace stencil
