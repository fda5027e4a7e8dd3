// stencil-lab: the command-line front end. Every subcommand is a thin layer over the core
// (kernels/, core/, backends/, analysis/); see cli/cmd_*.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <exception>

#include "cli/command.h"
#include "core/error.h"

namespace stencil::cli {

std::vector<RegisteredCommand>& command_registry() {
    static std::vector<RegisteredCommand> registry;
    return registry;
}

Command::Command(const char* name, int order, Setup setup) {
    command_registry().push_back({name, order, std::move(setup)});
}

void add_backend_option(CLI::App& cmd, std::string& backend) {
    cmd.add_option("--backend", backend, "where kernels run: auto (the GPU if usable), cuda, cpu")
        ->check(CLI::IsMember({"auto", "cuda", "gpu", "cpu"}))
        ->capture_default_str();
}

}  // namespace stencil::cli

int main(int argc, char** argv) {
    using namespace stencil::cli;
    CLI::App app{"stencil-lab: 3D stencil kernels from the textbook, on the GPU and on a CPU backend"};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "help for every command");

    auto registry = command_registry();
    std::sort(registry.begin(), registry.end(),
              [](const auto& a, const auto& b) { return a.order < b.order; });
    std::function<int()> to_run;
    std::vector<std::pair<CLI::App*, std::function<int()>>> commands;
    for (auto& c : registry) {
        CLI::App* sub = app.add_subcommand(c.name);
        commands.emplace_back(sub, c.setup(*sub));
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);  // prints the message (and usage) and returns CLI11's non-zero code
    }
    try {
        for (auto& [sub, run] : commands)
            if (sub->parsed()) return run();
    } catch (const stencil::UserError& e) {
        fmt::print(stderr, "stencil-lab: {}\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "stencil-lab: internal error: {}\n", e.what());
        return 3;
    }
    return 1;
}
