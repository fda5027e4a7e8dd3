#include "viewer/core/png_file.h"

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace stencil::viewer {

namespace {

void put_u32(std::vector<unsigned char>& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<unsigned char>(v >> shift));
}

// A chunk: its length, type and data, then the CRC of type and data.
void put_chunk(std::vector<unsigned char>& out, const char (&type)[5], const unsigned char* data, std::size_t n) {
    put_u32(out, static_cast<std::uint32_t>(n));
    const std::size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data, data + n);
    const uLong crc = crc32(0L, out.data() + start, static_cast<uInt>(out.size() - start));
    put_u32(out, static_cast<std::uint32_t>(crc));
}

}  // namespace

bool write_png(const std::string& path, int w, int h, const unsigned char* rgba) {
    if (w <= 0 || h <= 0) return false;
    const std::size_t row = std::size_t(w) * 4;
    // Each row: its filter byte (1, Sub), then each byte less the byte 4 before it (0 left of x = 0).
    std::vector<unsigned char> raw((row + 1) * std::size_t(h));
    for (int y = 0; y < h; ++y) {
        const unsigned char* in = rgba + row * std::size_t(y);
        unsigned char* out = raw.data() + (row + 1) * std::size_t(y);
        out[0] = 1;
        for (std::size_t i = 0; i < row; ++i) out[1 + i] = static_cast<unsigned char>(in[i] - (i >= 4 ? in[i - 4] : 0));
    }
    uLongf packed_size = compressBound(static_cast<uLong>(raw.size()));
    std::vector<unsigned char> packed(packed_size);
    if (compress2(packed.data(), &packed_size, raw.data(), static_cast<uLong>(raw.size()), Z_BEST_SPEED) != Z_OK)
        return false;

    std::vector<unsigned char> file = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::vector<unsigned char> header;
    put_u32(header, static_cast<std::uint32_t>(w));
    put_u32(header, static_cast<std::uint32_t>(h));
    header.insert(header.end(), {8, 6, 0, 0, 0});  // 8 bits a channel, RGBA, deflate, filtered rows, no interlace
    put_chunk(file, "IHDR", header.data(), header.size());
    put_chunk(file, "IDAT", packed.data(), packed_size);
    put_chunk(file, "IEND", nullptr, 0);

    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    const bool written = std::fwrite(file.data(), 1, file.size(), f) == file.size();
    return std::fclose(f) == 0 && written;
}

}  // namespace stencil::viewer
