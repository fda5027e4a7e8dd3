// Queries on a decoded module (engine.h, ir.h): its entries, source files and symbols, the
// function a code address names, a variable's readable name.
#include <string>
#include <vector>

#include "backends/cpu/ptx/parser.h"

namespace ptx {

using parsing::demangle;

std::vector<EntryInfo> entries(const Module& m) { return m.entry_infos; }

const EntryInfo* find_entry(const Module& m, std::string_view name) {
    for (const auto& e : m.entry_infos)
        if (e.name == name) return &e;
    return nullptr;
}

std::vector<std::string> source_files(const Module& m) { return m.files; }

long long symbol_bytes(const Module& m, std::string_view symbol) {
    auto it = m.variable_index.find(std::string(symbol));
    return it == m.variable_index.end() ? -1 : m.variables[it->second].bytes;
}

std::string find_symbol(const Module& m, std::string_view suffix) {
    std::string found;
    int hits = 0;
    for (const auto& v : m.variables) {
        const std::string d = demangle(v.name);
        const std::string tail = "::" + std::string(suffix);
        if (v.name == suffix || d == suffix || (d.size() > tail.size() && d.compare(d.size() - tail.size(), tail.size(), tail) == 0)) {
            found = v.name;
            ++hits;
        }
    }
    return hits == 1 ? found : std::string();
}

int function_at(const Module& m, std::uint64_t address) {
    if ((address >> kSpaceShift) != (kCodeWindow >> kSpaceShift) || address % 16 != 0) return -1;
    const std::uint64_t k = (address - kCodeWindow) / 16;
    if (k == 0 || k > m.functions.size()) return -1;
    const Function& f = m.functions[(size_t)(k - 1)];
    return f.defined && !f.is_entry ? int(k - 1) : -1;
}

std::string demangled_variable_name(const std::string& mangled) {
    // Only a mangled name is demangled: the demangler reads a plain "c" (an extern "C" array, a
    // __constant__ outside any namespace) as the type char.
    if (mangled.rfind("_Z", 0) != 0) return mangled;
    std::string d = demangle(mangled);
    const auto pos = d.rfind("::");
    return pos == std::string::npos ? d : d.substr(pos + 2);
}

}  // namespace ptx
