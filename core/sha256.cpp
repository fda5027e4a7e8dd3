// SHA-256 as FIPS 180-4 defines it (sha256.h). Section numbers below are the standard's.
//
// The constants are derived, not typed: H(0) is the first 32 bits of the fractional parts of the
// square roots of the first 8 primes (5.3.3), K the same of the cube roots of the first 64 primes
// (4.2.2). Exact integer roots at compile time leave no table to mistype; the NIST test vectors
// in tests/core/test_sha256.cpp check the result.
#include "core/sha256.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace stencil {

namespace {

using u128 = unsigned __int128;

constexpr std::array<std::uint32_t, 64> first_primes() {
    std::array<std::uint32_t, 64> p{};
    std::size_t n = 0;
    for (std::uint32_t c = 2; n < p.size(); ++c) {
        bool prime = true;
        for (std::size_t i = 0; i < n && p[i] * p[i] <= c; ++i)
            if (c % p[i] == 0) prime = false;
        if (prime) p[n++] = c;
    }
    return p;
}

// The largest x with x^k <= v (binary search: x stays below 2^37 for every use here).
constexpr u128 integer_root(u128 v, int k) {
    u128 lo = 0, hi = u128(1) << 37;
    while (lo < hi) {
        const u128 mid = (lo + hi + 1) / 2;
        u128 power = 1;
        for (int i = 0; i < k; ++i) power *= mid;
        if (power <= v) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

// floor(p^(1/k) * 2^32) = the integer k-th root of p * 2^(32k); its low 32 bits are the first 32
// bits of the fractional part.
constexpr std::uint32_t fraction_bits(std::uint32_t p, int k) {
    return static_cast<std::uint32_t>(integer_root(u128(p) << (32 * k), k));
}

constexpr std::array<std::uint32_t, 64> kRoundConstants = [] {
    std::array<std::uint32_t, 64> k{};
    const auto primes = first_primes();
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = fraction_bits(primes[i], 3);
    return k;
}();

constexpr std::array<std::uint32_t, 8> kInitialHash = [] {
    std::array<std::uint32_t, 8> h{};
    const auto primes = first_primes();
    for (std::size_t i = 0; i < h.size(); ++i) h[i] = fraction_bits(primes[i], 2);
    return h;
}();

// Spot checks against the values printed in FIPS 180-4 (the first and last of each).
static_assert(kInitialHash[0] == 0x6a09e667u && kInitialHash[7] == 0x5be0cd19u);
static_assert(kRoundConstants[0] == 0x428a2f98u && kRoundConstants[63] == 0xc67178f2u);

constexpr std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

// 4.1.2
constexpr std::uint32_t ch(std::uint32_t x, std::uint32_t y, std::uint32_t z) { return (x & y) ^ (~x & z); }
constexpr std::uint32_t maj(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
    return (x & y) ^ (x & z) ^ (y & z);
}
constexpr std::uint32_t big_sigma0(std::uint32_t x) { return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22); }
constexpr std::uint32_t big_sigma1(std::uint32_t x) { return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25); }
constexpr std::uint32_t small_sigma0(std::uint32_t x) { return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3); }
constexpr std::uint32_t small_sigma1(std::uint32_t x) { return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10); }

}  // namespace

Sha256::Sha256() : h_(kInitialHash) {}

// 6.2.2: one 512-bit block (big-endian words).
void Sha256::compress(const std::uint8_t* block) {
    std::uint32_t w[64];
    for (int t = 0; t < 16; ++t)
        w[t] = std::uint32_t(block[4 * t]) << 24 | std::uint32_t(block[4 * t + 1]) << 16 |
               std::uint32_t(block[4 * t + 2]) << 8 | std::uint32_t(block[4 * t + 3]);
    for (int t = 16; t < 64; ++t)
        w[t] = small_sigma1(w[t - 2]) + w[t - 7] + small_sigma0(w[t - 15]) + w[t - 16];

    std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4], f = h_[5], g = h_[6], h = h_[7];
    for (int t = 0; t < 64; ++t) {
        const std::uint32_t t1 = h + big_sigma1(e) + ch(e, f, g) + kRoundConstants[t] + w[t];
        const std::uint32_t t2 = big_sigma0(a) + maj(a, b, c);
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h_[0] += a;
    h_[1] += b;
    h_[2] += c;
    h_[3] += d;
    h_[4] += e;
    h_[5] += f;
    h_[6] += g;
    h_[7] += h;
}

void Sha256::update(const void* data, std::size_t size) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    total_bytes_ += size;
    if (block_used_ > 0) {  // fill the waiting block first
        const std::size_t take = std::min(size, block_.size() - block_used_);
        std::memcpy(block_.data() + block_used_, p, take);
        block_used_ += take;
        p += take;
        size -= take;
        if (block_used_ < block_.size()) return;
        compress(block_.data());
        block_used_ = 0;
    }
    for (; size >= 64; p += 64, size -= 64) compress(p);
    std::memcpy(block_.data(), p, size);
    block_used_ = size;
}

void Sha256::update(std::string_view bytes) { update(bytes.data(), bytes.size()); }

// 5.1.1: a 1 bit, zeros up to 448 bits mod 512, then the message's length in bits (64-bit,
// big-endian).
std::array<std::uint8_t, 32> Sha256::digest() {
    if (!finished_) {
        const std::uint64_t bits = total_bytes_ * 8;
        const std::uint8_t one = 0x80;
        update(&one, 1);
        const std::uint8_t zero = 0;
        while (block_used_ != 56) update(&zero, 1);
        std::uint8_t length[8];
        for (int i = 0; i < 8; ++i) length[i] = static_cast<std::uint8_t>(bits >> (56 - 8 * i));
        update(length, 8);
        finished_ = true;
    }
    std::array<std::uint8_t, 32> out{};
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<std::uint8_t>(h_[i] >> (24 - 8 * j));
    return out;
}

std::string Sha256::hex_digest() {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s;
    for (std::uint8_t byte : digest()) {
        s += kHex[byte >> 4];
        s += kHex[byte & 15];
    }
    return s;
}

std::string sha256_hex(std::string_view bytes) {
    Sha256 h;
    h.update(bytes);
    return h.hex_digest();
}

std::string file_sha256_hex(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return sha256_hex(bytes.str());
}

}  // namespace stencil
