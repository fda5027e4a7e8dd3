// `stencil-lab run --problem derivative`: text 004's derivative kernels (cli/run_derivative.cpp).
// cli/cmd_run.cpp owns the `run` command and its shared options; it adds the derivative's own
// option here and hands the parsed command over when --problem derivative is given.
#pragma once

// CLI11 stays in the .cpp files that build options.
namespace CLI {
class App;
}  // namespace CLI

namespace stencil::cli {

// --convergence (the dx^8 order measured on the kernel's own fp64 output).
void add_derivative_run_options(CLI::App& run);

// Runs the parsed `run` command for --problem derivative; returns the exit code (0 checked, 1 a
// wrong result). Throws UserError (exit 2) for bad input, before any work starts.
int run_derivative(const CLI::App& run);

}  // namespace stencil::cli
