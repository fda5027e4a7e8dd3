#include "checker/shared_size.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

namespace stencil::checker {

namespace {

template <class T>
bool read_at(const std::string& bytes, size_t off, T& out) {
    if (off > bytes.size() || bytes.size() - off < sizeof(T)) return false;
    std::memcpy(&out, bytes.data() + off, sizeof(T));
    return true;
}

// The students' arrays only: not the backend's own thread-locals, not initialisation guards, not
// the SharedName objects the translation unit adds to name the arrays (source.cpp).
bool is_shared_array(const char* name) {
    return std::strncmp(name, "_ZN4simt", 8) != 0 && std::strncmp(name, "_ZGV", 4) != 0 &&
           std::strstr(name, "stencil_shared_name_") == nullptr;
}

}  // namespace

long long static_shared_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    const std::string b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    Elf64_Ehdr eh;
    if (!read_at(b, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr))
        return -1;
    std::vector<Elf64_Shdr> sh(eh.e_shnum);
    for (size_t i = 0; i < sh.size(); ++i)
        if (!read_at(b, eh.e_shoff + i * sizeof(Elf64_Shdr), sh[i])) return -1;
    // .symtab has the local symbols (a function's static locals); .dynsym would not.
    for (const auto& s : sh) {
        if (s.sh_type != SHT_SYMTAB || s.sh_link >= sh.size() || s.sh_entsize != sizeof(Elf64_Sym))
            continue;
        const Elf64_Shdr& strtab = sh[s.sh_link];
        long long total = 0;
        for (size_t k = 0; k < s.sh_size / sizeof(Elf64_Sym); ++k) {
            Elf64_Sym sym;
            if (!read_at(b, s.sh_offset + k * sizeof(Elf64_Sym), sym)) return -1;
            if (ELF64_ST_TYPE(sym.st_info) != STT_TLS || sym.st_shndx == SHN_UNDEF) continue;
            if (sym.st_name >= strtab.sh_size || strtab.sh_offset + sym.st_name >= b.size()) continue;
            const char* name = b.c_str() + strtab.sh_offset + sym.st_name;
            if (is_shared_array(name)) total += static_cast<long long>(sym.st_size);
        }
        return total;
    }
    return -1;
}

}  // namespace stencil::checker
