// Each subcommand of `stencil-lab` lives in its own cli/cmd_<name>.cpp and registers itself here
// with a static Command object; main.cpp only builds the CLI11 app from the registry.
//
// The contract of every command (README, "The command line"): a usage error (unknown option or
// command, a missing or malformed value, options that conflict, a number out of its range) is one
// line `stencil-lab: <the rule>` on stderr and exit 2, before any work starts. The helpers below
// give every numeric option its range at parse time, with the cap in the message.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernels/versions.h"

// CLI11 stays in the .cpp files that build options: these declarations are all a caller needs.
namespace CLI {
class App;
class Option;
}  // namespace CLI

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

// --backend auto|cuda|cpu, shared by every command ("gpu" is accepted for cuda).
CLI::Option* add_backend_option(CLI::App& cmd, std::string& backend,
                                const std::string& help = "where kernels run: auto (the GPU if usable), cuda, cpu");

// --problem P (default star3d), shared by every command: which problem (kernels/catalog.h).
// `handles`: the problems this command does something for; another problem's name is a usage
// error naming what the command covers (never star3d's work under another problem's name).
// Without `problem`, the value is checked and kept by the option itself.
CLI::Option* add_problem_option(CLI::App& cmd, std::string& problem,
                                std::vector<Problem> handles = {std::begin(kProblems), std::end(kProblems)});
CLI::Option* add_problem_option(CLI::App& cmd, std::vector<Problem> handles = {Problem::star3d});

// ---- numbers: parsed and range-checked by the parser ----------------------------------------

// The caps (run-away inputs are refused with the cap in the message).
inline constexpr int kMaxReps = 10000;      // timed launches
inline constexpr int kMaxWarmup = 1000;     // untimed launches
inline constexpr int kMaxTile = 1024;       // a CUDA block has at most 1024 threads: no T above
inline constexpr int kMaxExplainTile = 64;  // model --explain-invalid: twice the largest tile any kernel runs
inline constexpr int kMaxSide = 1 << 20;    // a grid side (kernels/versions.h, grid_error)

// A whole number in [lo, hi] (decimal; no fraction, no trailing text). Out of range or malformed:
// "NAME must be between LO and HI (got 'TEXT')" (+ `why` when given), a usage error.
std::string int_range_error(const std::string& name, const std::string& text, long long lo, long long hi,
                            const std::string& why = "");
CLI::Option* add_int_option(CLI::App& cmd, const std::string& names, int& value, int lo, int hi,
                            const std::string& help, const std::string& why = "");

// Whether option `name` ("--steps") of `app` was given on the command line (false for an option
// the command does not have).
bool option_given(const CLI::App& app, const char* name);
// Option `name`'s value as given, else `fallback`.
int option_or(const CLI::App& app, const char* name, int fallback);
std::uint64_t option_or(const CLI::App& app, const char* name, std::uint64_t fallback);
std::string option_or(const CLI::App& app, const char* name, const std::string& fallback);

// 64-bit seeds: decimal or 0x hex, 0 .. 2^64 - 1 (JSON prints them as decimal strings, which
// are accepted back as they are). Returns false for anything else (a sign, text, overflow).
bool parse_seed(const std::string& text, std::uint64_t& seed);
CLI::Option* add_seed_option(CLI::App& cmd, std::uint64_t& seed, const std::string& help);

// An output file the command writes at the end: checked before the work starts (an existing
// regular file that may be written, or a new name in a writable folder); nothing is created or
// truncated. Throws UserError naming `option`.
void check_output_file(const std::string& path, const std::string& option);

}  // namespace stencil::cli
