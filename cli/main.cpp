// stencil-lab: the command-line front end. Every subcommand is a thin layer over the core
// (kernels/, core/, backends/, analysis/); see cli/cmd_*.cpp.
//
// `stencil-lab --version` prints core/version.h's string; `stencil-lab help [COMMAND]` is `--help`.
// Exit codes: 0 success (and --help); 1 the work ran and says no (a wrong result, a failed check);
// 2 a usage error or an input that cannot run, as one line `stencil-lab: <the rule>` on stderr
// before any work starts; 3 an internal error. Commands may document others (baseline --strict: 4).
#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <optional>
#include <sstream>

#include "cli/command.h"
#include "cli/help_sections.h"
#include "cli/suggest.h"
#include "core/backend_choice.h"
#include "core/error.h"
#include "core/version.h"
#include "kernels/versions.h"

namespace stencil::cli {

std::vector<RegisteredCommand>& command_registry() {
    static std::vector<RegisteredCommand> registry;
    return registry;
}

Command::Command(const char* name, int order, Setup setup) {
    command_registry().push_back({name, order, std::move(setup)});
}

CLI::Option* add_problem_option(CLI::App& cmd, std::string& problem, std::vector<Problem> handles) {
    std::string names;
    for (Problem p : handles) names += (names.empty() ? "" : ", ") + std::string(to_string(p));
    const std::string command = cmd.get_name();
    return cmd.add_option("--problem", problem, "which problem: " + names)
        ->check(CLI::Validator(
            [names, handles, command](std::string& s) -> std::string {
                const auto p = parse_problem(s);
                if (!p) return fmt::format("--problem must be one of {} (got '{}')", problem_names(), s);
                if (std::find(handles.begin(), handles.end(), *p) == handles.end())
                    return fmt::format("--problem {}: `{}` covers {} only", s, command, names);
                return {};
            },
            "PROBLEM"))
        ->capture_default_str();
}

CLI::Option* add_problem_option(CLI::App& cmd, std::vector<Problem> handles) {
    static std::deque<std::string> storage;  // one per command, alive as long as the app
    storage.emplace_back(to_string(Problem::star3d));
    return add_problem_option(cmd, storage.back(), std::move(handles));
}

CLI::Option* add_backend_option(CLI::App& cmd, std::string& backend, const std::string& help) {
    return cmd.add_option("--backend", backend, help)
        ->transform(CLI::Validator(
            [](std::string& s) -> std::string {
                const auto choice = parse_backend_choice(s);
                if (!choice) return fmt::format("--backend must be {} (got '{}')", kBackendChoices, s);
                s = to_string(*choice);  // "gpu" becomes "cuda"
                return {};
            },
            "auto|cuda|cpu"))
        ->capture_default_str();
}

std::string int_range_error(const std::string& name, const std::string& text, long long lo, long long hi,
                            const std::string& why) {
    const std::string tail = fmt::format("(got '{}'){}{}", text, why.empty() ? "" : ": ", why);
    errno = 0;
    char* end = nullptr;
    const bool digits = !text.empty() && text.find_first_not_of("+-0123456789") == std::string::npos &&
                        text.find_first_of("0123456789") != std::string::npos;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (!digits || end != text.c_str() + text.size())
        return fmt::format("{} must be a whole number between {} and {} {}", name, lo, hi, tail);
    if (errno == ERANGE || v < lo || v > hi) return fmt::format("{} must be between {} and {} {}", name, lo, hi, tail);
    return {};
}

bool option_given(const CLI::App& app, const char* name) {
    const CLI::Option* o = app.get_option_no_throw(name);
    return o && o->count() > 0;
}
template <class T>
T given_or(const CLI::App& app, const char* name, T fallback) {
    return option_given(app, name) ? app.get_option(name)->as<T>() : fallback;
}
int option_or(const CLI::App& app, const char* name, int fallback) { return given_or(app, name, fallback); }
std::uint64_t option_or(const CLI::App& app, const char* name, std::uint64_t fallback) {
    return given_or(app, name, fallback);
}
std::string option_or(const CLI::App& app, const char* name, const std::string& fallback) {
    return given_or(app, name, fallback);
}

CLI::Option* add_int_option(CLI::App& cmd, const std::string& names, int& value, int lo, int hi,
                            const std::string& help, const std::string& why) {
    CLI::Option* opt = cmd.add_option(names, value, help);
    const std::string name = opt->get_name();
    // A transform, so the parser converts the canonical decimal (CLI11 alone would read "010" as
    // octal and let "-1" through for unsigned types).
    opt->transform(CLI::Validator(
        [name, lo, hi, why](std::string& s) -> std::string {
            if (auto e = int_range_error(name, s, lo, hi, why); !e.empty()) return e;
            s = std::to_string(std::strtoll(s.c_str(), nullptr, 10));
            return {};
        },
        fmt::format("INT in {}..{}", lo, hi)));
    return opt;
}

bool parse_seed(const std::string& text, std::uint64_t& seed) {
    std::string s = text;
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);  // a JSON string
    if (s.empty() || s.find_first_of("+- \t") != std::string::npos) return false;
    errno = 0;
    char* end = nullptr;
    const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const unsigned long long v = std::strtoull(s.c_str(), &end, hex ? 16 : 10);
    if (errno == ERANGE || end != s.c_str() + s.size()) return false;
    seed = v;
    return true;
}

CLI::Option* add_seed_option(CLI::App& cmd, std::uint64_t& seed, const std::string& help) {
    return cmd.add_option("--seed", seed, help)
        ->transform(CLI::Validator(
            [](std::string& s) -> std::string {
                std::uint64_t v = 0;
                if (!parse_seed(s, v))
                    return fmt::format("--seed must be a whole number between 0 and 2^64 - 1, decimal or 0x hex "
                                       "(got '{}')",
                                       s);
                s = std::to_string(v);
                return {};
            },
            "UINT64"))
        ->capture_default_str();
}

void check_output_file(const std::string& path, const std::string& option) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (path.empty()) throw UserError(fmt::format("{} needs a file name", option));
    const fs::path p(path);
    // Permissions alone do not tell (root, read-only mounts, /proc): the file is opened for writing,
    // without truncating an existing one; a new one is created and removed again.
    const auto st = fs::status(p, ec);
    if (fs::exists(st)) {
        if (fs::is_directory(st)) throw UserError(fmt::format("{} {}: is a folder, not a file", option, path));
        if (fs::is_character_file(st)) return;  // /dev/null, a terminal
        if (!fs::is_regular_file(st))
            throw UserError(fmt::format("{} {}: exists and is not a regular file", option, path));
        const int fd = ::open(p.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) throw UserError(fmt::format("{} {}: cannot be written: {}", option, path, std::strerror(errno)));
        ::close(fd);
        return;
    }
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec))
        throw UserError(fmt::format("{} {}: the folder {} does not exist", option, path, dir.string()));
    const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) throw UserError(fmt::format("{} {}: cannot be written: {}", option, path, std::strerror(errno)));
    ::close(fd);
    ::unlink(p.c_str());
}

namespace {

std::string command_list() {
    std::vector<RegisteredCommand> r = command_registry();
    std::sort(r.begin(), r.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
    std::string s;
    for (const auto& c : r) s += (s.empty() ? "" : ", ") + c.name;
    return s;
}

// "did you mean 'X'? " when a name is near `got`, else nothing.
std::string did_you_mean(std::string_view got, const std::vector<std::string>& names) {
    const auto near = closest_name(got, names);
    return near ? fmt::format("did you mean '{}'? ", *near) : std::string();
}

// The first option on the command line that `sub` does not have ("--kernal"), named with the
// closest one it has. Checked before CLI11 parses: CLI11 reports a missing required option first,
// which hid the typo that caused it ("run --kernal tiled" said "--kernel is required").
std::optional<std::string> unknown_option(const CLI::App& sub, int argc, char** argv) {
    std::vector<std::string> names;
    for (const CLI::Option* o : sub.get_options())
        for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    const CLI::App* top = sub.get_parent();
    bool value_next = false;  // the previous word was an option that takes a value
    for (int i = 2; i < argc; ++i) {
        const std::string w = argv[i];
        if (w == "--") break;  // the rest are positionals
        const bool long_form = w.size() > 2 && w.rfind("--", 0) == 0;
        const bool short_form = w.size() == 2 && w[0] == '-' && std::isalpha(static_cast<unsigned char>(w[1]));
        if (!long_form && !short_form) {
            value_next = false;
            continue;
        }
        if (value_next) {  // a value that looks like an option: the option's own check says what is wrong
            value_next = false;
            continue;
        }
        const std::string name = w.substr(0, w.find('='));
        const CLI::Option* o = sub.get_option_no_throw(name);
        if (!o && top) o = top->get_option_no_throw(name);  // --help-all
        if (!o) {
            const auto near = closest_name(name, names);
            return fmt::format("unknown option '{}'{}", name, near ? fmt::format(" (did you mean '{}'?)", *near) : "");
        }
        value_next = o->get_type_size_max() > 0 && name.size() == w.size();
    }
    return std::nullopt;
}

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

// CLI11's messages, as one line that names the rule (the pointer to `stencil-lab CMD --help`
// that follows names the command).
std::string usage_message(const CLI::ParseError& e, const CLI::App* sub) {
    std::string m = e.what();
    if (dynamic_cast<const CLI::ValidationError*>(&e)) {
        // "NAME: NAME must be ..." (our validators name the option themselves).
        const auto colon = m.find(": ");
        if (colon != std::string::npos && m.compare(colon + 2, colon, m, 0, colon) == 0) return m.substr(colon + 2);
        return m;
    }
    if (dynamic_cast<const CLI::RequiredError*>(&e)) {
        if (starts_with(m, "A subcommand") || starts_with(m, "Requires at least"))
            return "a command is required (one of " + command_list() + ")";
        return m;  // "--kernel is required"
    }
    if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
        const auto colon = m.find(": ");
        // CLI11 lists them last first.
        std::vector<std::string> words;
        std::istringstream in(colon == std::string::npos ? m : m.substr(colon + 2));
        for (std::string w; in >> w;) words.insert(words.begin(), w);
        std::string args;
        for (const auto& w : words) args += (args.empty() ? "" : " ") + w;
        if (!sub) return fmt::format("unknown command or option '{}' (commands: {})", args, command_list());
        return fmt::format("unknown option or extra argument '{}'", args);
    }
    if (dynamic_cast<const CLI::ExcludesError*>(&e)) {
        const auto at = m.find(" excludes ");
        if (at != std::string::npos)
            return fmt::format("{} and {} cannot be used together", m.substr(0, at), m.substr(at + 10));
        return m;
    }
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
        const auto colon = m.find(": ");
        const std::string name = colon == std::string::npos ? "" : m.substr(0, colon);
        if (m.find(" missing") != std::string::npos) return fmt::format("{} needs a value", name);
        if (m.find("At Most") != std::string::npos) return fmt::format("{} is given more than once", name);
        return m;
    }
    if (dynamic_cast<const CLI::ConversionError*>(&e)) {
        // "Could not convert: NAME = VALUE" (a flag given a value it cannot read, mostly).
        const std::string prefix = "Could not convert: ";
        std::string name = m.substr(0, m.find(':')), value;
        if (starts_with(m, prefix)) {
            const auto eq = m.find(" = ");
            name = m.substr(prefix.size(), eq == std::string::npos ? std::string::npos : eq - prefix.size());
            if (eq != std::string::npos) value = m.substr(eq + 3);
        }
        const CLI::Option* opt = sub ? sub->get_option_no_throw(name) : nullptr;
        if ((opt && opt->get_expected_max() == 0) || m.find("Should be true/false") != std::string::npos ||
            m.find("too many inputs for a flag") != std::string::npos)
            return fmt::format("{} is a flag and takes no value{}", name,
                               value.empty() ? "" : fmt::format(" (got '{}')", value));
        return fmt::format("{}: cannot read '{}'", name, value);
    }
    return m;
}

// The contract is one line: a message that carries a newline (a hostile path, a tool's log)
// is flattened.
std::string one_line(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return s;
}

// `stencil-lab --version` and `stencil-lab help [COMMAND]`, answered before the commands parse
// anything: printed (code 0), or the usage error's line.
struct EarlyAnswer {
    int code = 0;
    std::string error;
};

EarlyAnswer version_or_help(CLI::App& app, int argc, char** argv) {
    if (std::string(argv[1]) != "help") {
        if (argc > 2) return {2, fmt::format("--version takes nothing after it (got '{}')", argv[2])};
        fmt::print("stencil-lab {}\n", stencil::stencil_lab_version());
        return {};
    }
    if (argc == 2) {
        fmt::print("{}", app.help());
        return {};
    }
    if (argc > 3) return {2, "help takes one command at most: stencil-lab help [COMMAND]"};
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        if (sub->get_name() == argv[2]) {
            fmt::print("{}", sub->help());
            return {};
        }
    return {2, fmt::format("help: unknown command '{}' ({}one of {})", argv[2],
                           did_you_mean(argv[2], split_names(command_list())), command_list())};
}

}  // namespace
}  // namespace stencil::cli

int main(int argc, char** argv) {
    using namespace stencil::cli;
    CLI::App app{"stencil-lab: 3D stencil kernels from the textbook, on the GPU and on a CPU backend"};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "help for every command");
    app.footer("Exit codes: 0 ok, 1 the work says no (a wrong result, a failed check), 2 a usage error "
               "(one line on stderr), 3 an internal error. `stencil-lab help COMMAND` is COMMAND's help; "
               "`stencil-lab --version` names this build.");

    auto registry = command_registry();
    std::sort(registry.begin(), registry.end(),
              [](const auto& a, const auto& b) { return a.order < b.order; });
    std::vector<std::pair<CLI::App*, std::function<int()>>> commands;
    for (auto& c : registry) {
        CLI::App* sub = app.add_subcommand(c.name);
        commands.emplace_back(sub, c.setup(*sub));
    }
    arrange_help_sections(app);
    auto usage_error = [](const std::string& line, const std::string& sub) {
        fmt::print(stderr, "stencil-lab: {} (see stencil-lab {}--help)\n", one_line(line),
                   sub.empty() ? "" : sub + " ");
        return 2;
    };
    // The first word names the command: say so when it does not (CLI11 would report a missing
    // subcommand first).
    if (argc < 2) return usage_error("a command is required (one of " + command_list() + ")", "");
    const std::string first = argv[1];
    if (first == "--version" || first == "-V" || first == "help") {
        const EarlyAnswer a = version_or_help(app, argc, argv);
        return a.error.empty() ? a.code : usage_error(a.error, "");
    }
    if (first[0] == '-' && first != "--help" && first != "-h" && first != "--help-all")
        return usage_error(fmt::format("unknown option '{}': the command comes first (one of {})", first,
                                       command_list()),
                           "");
    if (first[0] != '-') {
        bool known = false;
        for (auto& [sub, run] : commands) known = known || sub->get_name() == argv[1];
        if (!known)
            return usage_error(fmt::format("unknown command '{}' ({}one of {})", argv[1],
                                           did_you_mean(argv[1], split_names(command_list())), command_list()),
                               "");
        for (auto& [sub, run] : commands)
            if (sub->get_name() == argv[1])
                if (auto why = unknown_option(*sub, argc, argv)) return usage_error(*why, sub->get_name());
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help
        const CLI::App* sub = nullptr;
        for (auto& [s, run] : commands)
            if (s->parsed()) sub = s;
        return usage_error(usage_message(e, sub), sub ? sub->get_name() : "");
    }
    try {
        for (auto& [sub, run] : commands)
            if (sub->parsed()) return run();
    } catch (const stencil::UserError& e) {
        fmt::print(stderr, "stencil-lab: {}\n", one_line(e.what()));
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "stencil-lab: internal error: {}\n", one_line(e.what()));
        return 3;
    }
    return 1;
}
