// What ptxas gave each function of a cubin, read from the ELF itself (cubin_resources.h).
#include "core/cubin_resources.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace stencil {

namespace {

// Little-endian reads, bounds-checked (a truncated or foreign file gets a sentence, not a crash).
struct Bytes {
    std::span<const unsigned char> b;
    template <class T>
    T at(std::size_t off) const {
        if (off > b.size() || b.size() - off < sizeof(T)) throw std::runtime_error("cubin: truncated ELF");
        T v;
        std::memcpy(&v, b.data() + off, sizeof(T));
        return v;
    }
};

struct Section {
    std::uint32_t name, type, link;
    std::uint64_t offset, size, entsize;
};

// ELF and the CUDA extensions used here.
constexpr std::uint32_t kSymtab = 2;       // SHT_SYMTAB
constexpr std::uint8_t kFormatSval = 0x04; // EIFMT_SVAL: a 16-bit size, then that many bytes
constexpr std::uint8_t kRegcount = 0x2f;   // EIATTR_REGCOUNT: (symbol index, registers)
constexpr std::uint8_t kFrameSize = 0x11;  // EIATTR_FRAME_SIZE: (symbol index, bytes)

std::string c_string(const Bytes& in, std::uint64_t off) {
    std::string s;
    while (off < in.b.size() && in.b[off]) s += char(in.b[off++]);
    return s;
}

}  // namespace

std::map<std::string, CubinResources> cubin_resources(std::span<const unsigned char> elf) {
    const Bytes in{elf};
    if (elf.size() < 64 || std::memcmp(elf.data(), "\x7f" "ELF", 4) != 0) throw std::runtime_error("cubin: not an ELF file");
    if (elf[4] != 2 || elf[5] != 1) throw std::runtime_error("cubin: not a little-endian ELF64 file");
    const auto shoff = in.at<std::uint64_t>(0x28);
    const auto shentsize = in.at<std::uint16_t>(0x3a), shnum = in.at<std::uint16_t>(0x3c),
               shstrndx = in.at<std::uint16_t>(0x3e);
    if (shentsize < 64 || shstrndx >= shnum) throw std::runtime_error("cubin: malformed section table");
    std::vector<Section> sections(shnum);
    for (int i = 0; i < shnum; ++i) {
        const std::uint64_t h = shoff + std::uint64_t(i) * shentsize;
        sections[i] = {in.at<std::uint32_t>(h), in.at<std::uint32_t>(h + 4), in.at<std::uint32_t>(h + 40),
                       in.at<std::uint64_t>(h + 24), in.at<std::uint64_t>(h + 32), in.at<std::uint64_t>(h + 56)};
    }
    const auto section_name = [&](const Section& s) { return c_string(in, sections[shstrndx].offset + s.name); };

    // Symbol index -> name, from the symbol table and its string table.
    std::vector<std::string> symbols;
    for (const Section& s : sections) {
        if (s.type != kSymtab || s.entsize < 24 || s.link >= sections.size()) continue;
        const Section& strtab = sections[s.link];
        for (std::uint64_t off = 0; off + 24 <= s.size; off += s.entsize)
            symbols.push_back(c_string(in, strtab.offset + in.at<std::uint32_t>(s.offset + off)));
    }

    // Attributes: a format byte, an attribute byte, then a 16-bit value, or for EIFMT_SVAL a
    // 16-bit size and that many bytes. REGCOUNT's and FRAME_SIZE's payload is (symbol index,
    // value), 32 bits each.
    std::map<std::string, CubinResources> counts;
    bool any_regcount = false;
    for (const Section& s : sections) {
        if (!section_name(s).starts_with(".nv.info")) continue;
        for (std::uint64_t off = 0; off + 4 <= s.size;) {
            const auto format = in.at<std::uint8_t>(s.offset + off), attribute = in.at<std::uint8_t>(s.offset + off + 1);
            const auto value = in.at<std::uint16_t>(s.offset + off + 2);
            if (format == kFormatSval) {
                if ((attribute == kRegcount || attribute == kFrameSize) && value == 8) {
                    const auto sym = in.at<std::uint32_t>(s.offset + off + 4);
                    const auto v = in.at<std::uint32_t>(s.offset + off + 8);
                    if (sym >= symbols.size()) throw std::runtime_error("cubin: an attribute names no symbol");
                    if (attribute == kRegcount) {
                        counts[symbols[sym]].registers = int(v);
                        any_regcount = true;
                    } else {
                        counts[symbols[sym]].frame_bytes = v;
                    }
                }
                off += 4 + value;
            } else {
                off += 4;
            }
        }
    }
    if (!any_regcount) throw std::runtime_error("cubin: no EIATTR_REGCOUNT attribute (no kernel?)");
    return counts;
}

}  // namespace stencil
