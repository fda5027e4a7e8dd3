// What the bundle tests share: a temporary folder, a shell command with its output, the built
// stencil-lab first on PATH, the corpus's submissions, and an unzip of the stored archives
// grading/zip_writer.h writes (so no zip program is needed, and the archive's own bytes are read:
// each entry's size, CRC-32 and mode from the central directory).
#pragma once
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace grading_test {

namespace fs = std::filesystem;

inline std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

struct TempDir {
    fs::path path;
    TempDir() {
        std::string t = (fs::temp_directory_path() / "stencil-grading-test-XXXXXX").string();
        path = ::mkdtemp(t.data());
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

inline fs::path build_dir() {
    const char* v = std::getenv("STENCIL_LAB_BINARY_DIR");
    return v && *v ? fs::path(v) : fs::path(STENCIL_LAB_BINARY_DIR);
}

inline fs::path corpus(const std::string& f) {
    return fs::path(STENCIL_LAB_SOURCE_DIR) / "tests" / "checker" / "submissions" / f;
}

struct Shell {
    int code = -1;
    std::string out;  // stdout and stderr
};

// `bash -c CMD` with the build's stencil-lab first on PATH, output captured.
inline Shell sh(const std::string& cmd) {
    static int n = 0;
    const fs::path log = fs::temp_directory_path() / ("stencil-grading-sh-" + std::to_string(::getpid()) + "-" +
                                                      std::to_string(n++));
    const std::string full = "PATH='" + build_dir().string() + "':\"$PATH\" bash -c '" + [&] {
        std::string q;
        for (char c : cmd) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return q;
    }() + "' > '" + log.string() + "' 2>&1";
    const int status = std::system(full.c_str());
    Shell r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    r.out = slurp(log);
    fs::remove(log);
    return r;
}

inline nlohmann::json read_json(const fs::path& p) { return nlohmann::json::parse(slurp(p), nullptr, false); }

// Unpacks a stored (uncompressed) ZIP into `to`, permissions from the central directory.
inline std::map<std::string, unsigned> unzip(const fs::path& zip, const fs::path& to) {
    const std::string z = slurp(zip);
    auto u16 = [&](size_t at) { return std::uint32_t(std::uint8_t(z[at])) | std::uint32_t(std::uint8_t(z[at + 1])) << 8; };
    auto u32 = [&](size_t at) { return u16(at) | u16(at + 2) << 16; };
    size_t end = z.rfind(std::string("PK\x05\x06", 4));
    REQUIRE(end != std::string::npos);
    const size_t count = u16(end + 10);
    size_t at = u32(end + 16);
    std::map<std::string, unsigned> modes;
    for (size_t i = 0; i < count; ++i) {
        REQUIRE(u32(at) == 0x02014b50u);
        const std::uint32_t crc = u32(at + 16);
        const size_t packed = u32(at + 20), size = u32(at + 24), name_len = u16(at + 28), extra = u16(at + 30),
                     comment = u16(at + 32);
        const unsigned method = u16(at + 10), mode = (u32(at + 38) >> 16) & 0777;
        const size_t local = u32(at + 42);
        const std::string name = z.substr(at + 46, name_len);
        REQUIRE((method == 0 || method == 8));  // stored or deflated
        const size_t data = local + 30 + u16(local + 26) + u16(local + 28);
        std::string bytes(size, '\0');
        if (method == 0) {
            bytes = z.substr(data, size);
        } else {
            z_stream s{};
            REQUIRE(inflateInit2(&s, -15) == Z_OK);
            s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(z.data() + data));
            s.avail_in = uInt(packed);
            s.next_out = reinterpret_cast<Bytef*>(bytes.data());
            s.avail_out = uInt(size);
            const int rc = inflate(&s, Z_FINISH);
            inflateEnd(&s);
            REQUIRE(rc == Z_STREAM_END);
        }
        REQUIRE(::crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), uInt(bytes.size())) == crc);
        const fs::path out = to / name;
        fs::create_directories(out.parent_path());
        std::ofstream(out, std::ios::binary) << bytes;
        fs::permissions(out, fs::perms(mode), fs::perm_options::replace);
        modes[name] = mode;
        at += 46 + name_len + extra + comment;
    }
    return modes;
}

}  // namespace grading_test
