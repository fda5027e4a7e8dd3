#include "grading/elf_needs.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <sstream>

namespace stencil::grading {

namespace fs = std::filesystem;

namespace {

// Bounds-checked reads from the file's bytes: a truncated or hostile file gives `false`, never a
// read past the end.
struct Bytes {
    const std::string& b;
    template <class T>
    bool at(std::uint64_t off, T& out) const {
        if (off > b.size() || b.size() - off < sizeof(T)) return false;
        std::memcpy(&out, b.data() + off, sizeof(T));
        return true;
    }
    bool cstring(std::uint64_t off, std::string& out) const {
        if (off >= b.size()) return false;
        const void* nul = std::memchr(b.data() + off, 0, b.size() - off);
        if (!nul) return false;
        out.assign(b.data() + off, static_cast<const char*>(nul));
        return true;
    }
};

}  // namespace

std::optional<ElfNeeds> read_elf_needs(const fs::path& file, std::string& why) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        why = "cannot be read";
        return std::nullopt;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string data = ss.str();
    const Bytes b{data};
    Elf64_Ehdr eh;
    if (!b.at(0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
        why = "not an ELF file";
        return std::nullopt;
    }
    if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
        why = "not a 64-bit little-endian ELF file";
        return std::nullopt;
    }
    // The section headers: .dynamic (SHT_DYNAMIC) and .gnu.version_r (SHT_GNU_verneed), each with
    // its string table in sh_link.
    std::vector<Elf64_Shdr> sections(eh.e_shnum);
    for (size_t i = 0; i < sections.size(); ++i)
        if (eh.e_shentsize != sizeof(Elf64_Shdr) || !b.at(eh.e_shoff + i * sizeof(Elf64_Shdr), sections[i])) {
            why = "truncated section headers";
            return std::nullopt;
        }
    const auto strtab_of = [&](const Elf64_Shdr& s) -> const Elf64_Shdr* {
        return s.sh_link < sections.size() ? &sections[s.sh_link] : nullptr;
    };
    ElfNeeds needs;
    for (const Elf64_Shdr& s : sections) {
        const Elf64_Shdr* str = strtab_of(s);
        if (s.sh_type == SHT_DYNAMIC && str) {
            for (std::uint64_t off = s.sh_offset; off + sizeof(Elf64_Dyn) <= s.sh_offset + s.sh_size; off += sizeof(Elf64_Dyn)) {
                Elf64_Dyn d;
                if (!b.at(off, d)) break;
                if (d.d_tag == DT_NULL) break;
                std::string name;
                if (d.d_tag == DT_NEEDED && b.cstring(str->sh_offset + d.d_un.d_val, name)) needs.libraries.push_back(name);
            }
        }
        if (s.sh_type == SHT_GNU_verneed && str) {
            // A chain of Elf64_Verneed (one per library), each with a chain of Elf64_Vernaux.
            std::uint64_t off = s.sh_offset;
            for (size_t guard = 0; guard < 4096; ++guard) {
                Elf64_Verneed vn;
                if (!b.at(off, vn)) break;
                std::string lib;
                b.cstring(str->sh_offset + vn.vn_file, lib);
                std::uint64_t aux = off + vn.vn_aux;
                for (unsigned k = 0; k < vn.vn_cnt && k < 4096; ++k) {
                    Elf64_Vernaux va;
                    if (!b.at(aux, va)) break;
                    std::string version;
                    if (b.cstring(str->sh_offset + va.vna_name, version)) needs.versions[lib].insert(version);
                    if (va.vna_next == 0) break;
                    aux += va.vna_next;
                }
                if (vn.vn_next == 0) break;
                off += vn.vn_next;
            }
        }
    }
    return needs;
}

std::optional<std::vector<int>> version_of(const std::string& name, const std::string& prefix) {
    if (name.rfind(prefix + "_", 0) != 0) return std::nullopt;
    std::vector<int> v;
    std::stringstream ss(name.substr(prefix.size() + 1));
    std::string part;
    while (std::getline(ss, part, '.')) {
        if (part.empty() || part.size() > 6 || part.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
        v.push_back(std::stoi(part));
    }
    if (v.empty()) return std::nullopt;
    return v;
}

std::vector<int> highest_version(const std::set<std::string>& names, const std::string& prefix) {
    std::vector<int> best;
    for (const auto& n : names)
        if (auto v = version_of(n, prefix); v && *v > best) best = *v;
    return best;
}

std::string version_text(const std::vector<int>& v) {
    std::string s;
    for (int x : v) s += (s.empty() ? "" : ".") + std::to_string(x);
    return s;
}

}  // namespace stencil::grading
