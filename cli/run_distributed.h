// `stencil-lab run --decompose PXxPYxPZ`: the grid split over MPI ranks (cli/run_distributed.cpp,
// distributed/). cli/cmd_run.cpp owns `run`; it adds --decompose here and hands the parsed command
// over when it is given.
#pragma once

// CLI11 stays in the .cpp files that build options.
namespace CLI {
class App;
}  // namespace CLI

namespace stencil::cli {

// --decompose (in every build: a build without MPI says so when it is used).
void add_distributed_run_options(CLI::App& run);
bool distributed_run_requested(const CLI::App& run);

// Runs the parsed `run` command on this rank; returns the exit code (0 equal to the single domain,
// 1 not, 2 bad input on every rank).
int run_distributed(const CLI::App& run);

}  // namespace stencil::cli
