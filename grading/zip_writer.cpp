#include "grading/zip_writer.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"

namespace stencil::grading {

namespace fs = std::filesystem;

namespace {

// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as ZIP's APPNOTE specifies.
const std::array<std::uint32_t, 256>& crc_table() {
    static const auto table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    return table;
}

std::uint32_t crc32(const std::vector<char>& data) {
    std::uint32_t c = 0xFFFFFFFFu;
    for (char ch : data) c = crc_table()[(c ^ static_cast<unsigned char>(ch)) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

struct Out {
    std::ofstream f;
    std::uint64_t at = 0;
    void u16(std::uint16_t v) { bytes({char(v & 0xFF), char(v >> 8)}); }
    void u32(std::uint32_t v) { bytes({char(v & 0xFF), char((v >> 8) & 0xFF), char((v >> 16) & 0xFF), char(v >> 24)}); }
    void bytes(std::initializer_list<char> b) { raw(b.begin(), b.size()); }
    void raw(const char* p, size_t n) {
        f.write(p, static_cast<std::streamsize>(n));
        at += n;
    }
};

struct Entry {
    std::string name;
    std::uint32_t crc = 0, size = 0, compressed = 0, offset = 0, mode = 0;
    std::uint16_t method = 0;  // 0 stored, 8 deflated
};

// Raw deflate (no zlib header: ZIP's method 8). The binaries of an install tree are mostly CUDA
// fat binaries, which shrink to a quarter.
std::vector<char> deflated(const std::vector<char>& data) {
    z_stream z{};
    if (deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK) throw UserError("zlib: cannot start deflate");
    std::vector<char> out(deflateBound(&z, uLong(data.size())));
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = uInt(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    const int rc = deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    if (rc != Z_STREAM_END) throw UserError("zlib: deflate did not finish");
    return out;
}

constexpr std::uint16_t kDosTime = 0, kDosDate = (0 << 9) | (1 << 5) | 1;  // 1980-01-01 00:00

}  // namespace

void write_zip(const fs::path& folder, const fs::path& zip) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
        if (it->is_regular_file()) files.push_back(it->path());
    if (ec) throw UserError(fmt::format("cannot list {}: {}", folder.string(), ec.message()));
    std::sort(files.begin(), files.end());
    Out out;
    out.f.open(zip, std::ios::binary | std::ios::trunc);
    if (!out.f) throw UserError(fmt::format("cannot write {}", zip.string()));
    std::vector<Entry> entries;
    for (const fs::path& p : files) {
        std::ifstream in(p, std::ios::binary);
        std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.eof() && !in) throw UserError(fmt::format("cannot read {}", p.string()));
        if (data.size() >= 0xFFFFFFFFull || out.at >= 0xFFFFFFFFull)
            throw UserError(fmt::format("{}: too large for a ZIP without its 64-bit extension", p.string()));
        struct stat st {};
        ::stat(p.c_str(), &st);
        std::vector<char> packed = deflated(data);
        const bool deflate = packed.size() < data.size();
        if (!deflate) packed = data;
        Entry e{fs::relative(p, folder).generic_string(), crc32(data), std::uint32_t(data.size()),
                std::uint32_t(packed.size()), std::uint32_t(out.at), std::uint32_t(st.st_mode & 0777),
                std::uint16_t(deflate ? 8 : 0)};
        out.u32(0x04034b50);  // local file header
        out.u16(20), out.u16(0), out.u16(e.method), out.u16(kDosTime), out.u16(kDosDate);
        out.u32(e.crc), out.u32(e.compressed), out.u32(e.size);
        out.u16(std::uint16_t(e.name.size())), out.u16(0);
        out.raw(e.name.data(), e.name.size());
        out.raw(packed.data(), packed.size());
        entries.push_back(std::move(e));
    }
    const std::uint64_t directory = out.at;
    for (const Entry& e : entries) {
        out.u32(0x02014b50);           // central directory header
        out.u16((3 << 8) | 20);        // made by: Unix, so the permissions below count
        out.u16(20), out.u16(0), out.u16(e.method), out.u16(kDosTime), out.u16(kDosDate);
        out.u32(e.crc), out.u32(e.compressed), out.u32(e.size);
        out.u16(std::uint16_t(e.name.size())), out.u16(0), out.u16(0), out.u16(0), out.u16(0);
        out.u32((0100000u | e.mode) << 16);  // a regular file and its mode
        out.u32(e.offset);
        out.raw(e.name.data(), e.name.size());
    }
    const std::uint64_t directory_size = out.at - directory;
    out.u32(0x06054b50);  // end of central directory
    out.u16(0), out.u16(0), out.u16(std::uint16_t(entries.size())), out.u16(std::uint16_t(entries.size()));
    out.u32(std::uint32_t(directory_size)), out.u32(std::uint32_t(directory)), out.u16(0);
    out.f.flush();
    if (!out.f) throw UserError(fmt::format("cannot write {}", zip.string()));
}

}  // namespace stencil::grading
