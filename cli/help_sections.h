// `stencil-lab CMD --help` in sections (what to run, the grid, where it runs, checking and timing,
// output, the texts' tables), the same sections in the same order for every command, from one table
// of option names (help_sections.cpp): a command adds its options as before and main.cpp files
// them. An option the table does not name is listed under "Other options", never left out.
#pragma once
#include <string>

// CLI11 stays in the .cpp files that build options.
namespace CLI {
class App;
}  // namespace CLI

namespace stencil::cli {

// The section an option's long name ("--tile") belongs to ("Other options" when none names it).
std::string help_section(const std::string& long_name);

// Files every option of `app` and of its subcommands into its section, and sets a formatter that
// prints the sections in the table's order (CLI11 would print them in the order options were added).
void arrange_help_sections(CLI::App& app);

}  // namespace stencil::cli
