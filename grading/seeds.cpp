#include "grading/seeds.h"

#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <random>
#include <sstream>

#include "core/error.h"
#include "core/sha256.h"

namespace stencil::grading {

namespace {

std::array<std::uint8_t, 32> digest_of(const std::string& label, const std::string& a, const std::string& b,
                                       const std::string& c) {
    Sha256 h;
    // Each part ends with a NUL byte: ("ab", "c") and ("a", "bc") are different inputs.
    for (const std::string* part : {&label, &a, &b, &c}) {
        h.update(*part);
        h.update(std::string_view("\0", 1));
    }
    return h.digest();
}

std::uint64_t first_u64(const std::array<std::uint8_t, 32>& d) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | d[size_t(i)];
    return v;
}

}  // namespace

std::string make_course_secret() {
    std::random_device rd;  // the system's random source (getrandom on Linux)
    std::string hex;
    for (size_t i = 0; i < kSecretBytes; ++i) hex += fmt::format("{:02x}", rd() & 0xff);
    return hex;
}

std::string parse_course_secret(const std::string& text, const std::string& origin) {
    std::string s;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) s += char(std::tolower(static_cast<unsigned char>(c)));
    if (s.size() != 2 * kSecretBytes)
        throw UserError(fmt::format("course secret {}: {} hex digits, not {} (a bundle's grading.json has one under "
                                    "\"secret\"; or write 64 hex digits, e.g. from `openssl rand -hex 32`)",
                                    origin, s.size(), 2 * kSecretBytes));
    for (char c : s)
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            throw UserError(fmt::format("course secret {}: '{}' is not a hex digit", origin, c));
    return s;
}

std::string read_course_secret(const std::filesystem::path& file) {
    std::ifstream f(file, std::ios::binary);
    if (!f) throw UserError(fmt::format("--secret-file {}: cannot be read", file.string()));
    std::stringstream ss;
    ss << f.rdbuf();
    return parse_course_secret(ss.str(), file.string());
}

GradingSeeds derive_seeds(const std::string& secret, const std::string& exercise_hash, const std::string& file_sha256) {
    return {first_u64(digest_of("stencil-lab visible", secret, exercise_hash, file_sha256)),
            first_u64(digest_of("stencil-lab hidden", secret, exercise_hash, file_sha256))};
}

std::string derived_uuid(const std::string& secret, const std::string& what) {
    std::array<std::uint8_t, 32> d = digest_of("stencil-lab uuid", secret, what, "");
    d[6] = std::uint8_t((d[6] & 0x0f) | 0x80);  // version 8: a custom (here name-based, SHA-256) UUID
    d[8] = std::uint8_t((d[8] & 0x3f) | 0x80);  // the RFC's variant
    std::string hex;
    for (size_t i = 0; i < 16; ++i) hex += fmt::format("{:02x}", d[i]);
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
           hex.substr(20);
}

}  // namespace stencil::grading
