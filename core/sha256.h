// SHA-256 (FIPS 180-4), written for the lab's disk caches: an entry's file name is the digest of
// everything that affects what the entry holds. A 64-bit hash would let two keys share a name
// often enough to matter across a class's machines; with 256 bits a collision is not a concern,
// and the caches still compare the full key stored in the entry.
//
// Streaming: update() any number of times, then hex_digest() or digest() once. Not for secrets
// (no constant-time guarantees are needed or given).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace stencil {

class Sha256 {
public:
    Sha256();
    void update(std::string_view bytes);
    void update(const void* data, std::size_t size);
    // The 32-byte digest; the object is finished afterwards (a further update is a logic error).
    std::array<std::uint8_t, 32> digest();
    // The digest as 64 lowercase hex digits.
    std::string hex_digest();

private:
    void compress(const std::uint8_t* block);

    std::array<std::uint32_t, 8> h_;
    std::array<std::uint8_t, 64> block_{};
    std::size_t block_used_ = 0;   // bytes waiting in block_
    std::uint64_t total_bytes_ = 0;
    bool finished_ = false;
};

// One call: the hex digest of `bytes`.
std::string sha256_hex(std::string_view bytes);
// The hex digest of a file's bytes (of no bytes when it cannot be read): a submission's identity.
std::string file_sha256_hex(const std::string& path);

}  // namespace stencil
