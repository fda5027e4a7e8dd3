// What an ELF binary needs from the machine it runs on, read from the file itself (no readelf on a
// grading box, and none is needed): the shared libraries of its dynamic section (DT_NEEDED) and
// the symbol versions it requires of each (.gnu.version_r: GLIBC_2.34, GLIBCXX_3.4.29, ...).
// `autograder make` checks the install tree it ships with it (tree_check.h).
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace stencil::grading {

struct ElfNeeds {
    std::vector<std::string> libraries;                     // DT_NEEDED, in order
    std::map<std::string, std::set<std::string>> versions;  // library -> version names it requires
};

// The needs of a 64-bit little-endian ELF file, or nullopt with `why` set (not ELF, truncated, a
// 32-bit or big-endian file, no dynamic section: a static binary needs nothing and gives empty
// needs, not an error).
std::optional<ElfNeeds> read_elf_needs(const std::filesystem::path& file, std::string& why);

// "2.34" of "GLIBC_2.34" when `name` is PREFIX_x.y[.z]; nullopt for others (GLIBC_PRIVATE).
std::optional<std::vector<int>> version_of(const std::string& name, const std::string& prefix);

// The highest version among `names` with that prefix (empty when none), e.g. {2, 34}.
std::vector<int> highest_version(const std::set<std::string>& names, const std::string& prefix);
std::string version_text(const std::vector<int>& v);  // "2.34"

}  // namespace stencil::grading
