// `stencil-lab model --decompose PXxPYxPZ` (cli/model_decomposition.cpp): the decomposition model
// of analysis/decomposition.h, printed. cmd_model.cpp parses the options and hands them here.
#pragma once

// CLI11 stays in the .cpp files that build options.
namespace CLI {
class App;
}  // namespace CLI

namespace stencil::cli {

// --decompose, --link-gbps, --latency-us.
void add_decomposition_model_options(CLI::App& model);
bool decomposition_model_requested(const CLI::App& model);
// Halo bytes per rank against its sub-box, and the exchange time they predict; exit code 0.
// Bad input throws UserError (exit 2).
int model_decomposition(const CLI::App& model);

}  // namespace stencil::cli
