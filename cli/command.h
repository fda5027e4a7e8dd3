// Each subcommand of `stencil-lab` lives in its own cli/cmd_<name>.cpp and registers itself here
// with a static Command object; main.cpp only builds the CLI11 app from the registry.
#pragma once
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace stencil::cli {

struct Command {
    // Adds the subcommand and its options to `app`; the returned callback runs it and returns the
    // process's exit code. Options must be bound to storage that outlives the call (statics or a
    // struct owned by the closure).
    using Setup = std::function<std::function<int()>(CLI::App& app)>;

    Command(const char* name, int order, Setup setup);
};

struct RegisteredCommand {
    std::string name;
    int order;  // position in --help
    Command::Setup setup;
};
std::vector<RegisteredCommand>& command_registry();

// --backend auto|cuda|cpu, shared by every command that runs kernels.
void add_backend_option(CLI::App& cmd, std::string& backend);

}  // namespace stencil::cli
