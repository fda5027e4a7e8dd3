// SHA-256 (core/sha256.h) against the test vectors of FIPS 180-4's examples (NIST CSRC, "Example
// Algorithms": SHA256.pdf), and streaming against one-shot.
#include <catch2/catch.hpp>

#include <string>

#include "core/sha256.h"

using namespace stencil;

namespace {
struct Vector {
    std::string message;
    std::string digest;
};
}  // namespace

TEST_CASE("SHA-256 gives the NIST digests", "[sha256]") {
    const Vector v = GENERATE(
        Vector{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        Vector{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        // 448 bits: the padding no longer fits the block, a second block of padding follows.
        Vector{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
               "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        // 896 bits (FIPS 180-4's SHA-512 message, used by NIST for SHA-256 too).
        Vector{"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
               "mnopqrstnopqrstu",
               "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"});
    CAPTURE(v.message);
    REQUIRE(sha256_hex(v.message) == v.digest);
}

TEST_CASE("SHA-256 of one million 'a', fed in uneven pieces", "[sha256]") {
    // Pieces of 1, 63, 64, 65 and 7 bytes, in turn (200 bytes a round, 8 past a block): a block
    // starts at many offsets inside a piece.
    const std::string a(65, 'a');
    const std::size_t pieces[] = {1, 63, 64, 65, 7};
    Sha256 h;
    std::size_t fed = 0;
    for (std::size_t i = 0; fed + 65 <= 1000000; ++i) {
        const std::size_t piece = pieces[i % 5];
        h.update(std::string_view(a).substr(0, piece));
        fed += piece;
    }
    h.update(std::string(1000000 - fed, 'a'));
    REQUIRE(h.hex_digest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("SHA-256 streaming equals one shot at every split of a message", "[sha256]") {
    std::string message;
    for (int i = 0; i < 200; ++i) message += static_cast<char>(i * 7 + 3);
    const std::string whole = sha256_hex(message);
    int differing = 0;
    for (std::size_t split = 0; split <= message.size(); ++split) {
        Sha256 h;
        h.update(message.substr(0, split));
        h.update(message.substr(split));
        differing += h.hex_digest() != whole;
    }
    REQUIRE(differing == 0);
    // The digest is stable once taken, and raw bytes match the hex.
    Sha256 h;
    h.update(message);
    const auto raw = h.digest();
    REQUIRE(h.hex_digest() == whole);
    REQUIRE(raw[0] == std::stoi(whole.substr(0, 2), nullptr, 16));
}
