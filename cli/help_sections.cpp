#include "cli/help_sections.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <memory>
#include <sstream>
#include <vector>

namespace stencil::cli {

namespace {

struct Section {
    const char* title;
    std::vector<const char*> options;  // long names with their dashes; positionals by name
};

// The one table: the sections in the order --help prints them.
const std::vector<Section>& sections() {
    static const std::vector<Section> s = {
        {"What to run", {"--problem", "--kernel", "--kernels", "--tile", "--tiles", "--block", "--radius",
                         "--precision", "--steps", "--fuse", "--z-chunk", "--exercise", "file", "action", "lab"}},
        {"The grid", {"--size", "--nx", "--ny", "--nz"}},
        {"Where it runs", {"--backend", "--gpus", "--decompose", "--scaling", "--no-overlap", "--copy-mib"}},
        {"Checking and timing", {"--reps", "--warmup", "--no-time", "--seed", "--check-races", "--counters",
                                 "--convergence", "--time-limit", "--no-timing", "--sanitize", "--explain", "--strict", "--fresh",
                                 "--no-cache", "--cache"}},
        {"The texts' tables (model)", {"--bounds", "--registers", "--derivatives", "--ghost", "--explain-invalid",
                                       "--link-gbps", "--latency-us"}},
        {"Output", {"--json", "--out", "--json-file", "--csv", "--gradescope", "--batch", "--replot", "--no-plots",
                    "--results"}},
        {"Other options", {}},
        {"Help", {"--help", "--help-all"}},
    };
    return s;
}

// The option's first long name with its dashes, else its positional name.
std::string key_of(const CLI::Option* o) {
    if (!o->get_lnames().empty()) return "--" + o->get_lnames().front();
    return o->get_name();
}

// CLI11's help, with the option groups in the table's order (its make_groups is not virtual).
class SectionFormatter : public CLI::Formatter {
  public:
    std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
        if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
        std::stringstream out;
        out << make_description(app) << make_usage(app, name) << make_positionals(app);
        for (const auto& s : sections()) {  // each group begins with its own blank line
            const auto opts = app->get_options([&](const CLI::Option* o) {
                return o->get_group() == s.title && o->nonpositional();
            });
            if (!opts.empty()) out << make_group(s.title, false, opts);
        }
        out << make_subcommands(app, mode) << '\n' << make_footer(app);
        return out.str();
    }
};

void file_options(CLI::App& app, const std::shared_ptr<SectionFormatter>& f) {
    for (CLI::Option* o : app.get_options()) o->group(help_section(key_of(o)));
    app.formatter(f);  // a subcommand copied its parent's formatter when it was added
    for (CLI::App* sub : app.get_subcommands({})) file_options(*sub, f);
}

}  // namespace

std::string help_section(const std::string& long_name) {
    for (const auto& s : sections())
        if (std::find(s.options.begin(), s.options.end(), long_name) != s.options.end()) return s.title;
    return "Other options";
}

void arrange_help_sections(CLI::App& app) {
    file_options(app, std::make_shared<SectionFormatter>());
}

}  // namespace stencil::cli
