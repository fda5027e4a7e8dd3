// A grade that a regrade repeats: the course secret a bundle carries, and the check's two seeds
// derived from it, the exercise's content and the submitted file's content.
//
//   seed         = first 8 bytes of SHA-256("stencil-lab visible" 0 secret 0 exercise 0 file)
//   hidden_seed  = the same with "stencil-lab hidden"
//
// The same file under the same bundle draws the same sizes, weights and schedules; two files draw
// unrelated ones. The visible seed is shown to the student (`check --seed` reproduces the visible
// sizes); the hidden one needs the secret, which students never see on Gradescope (source/) or
// PrairieLearn (tests/). A bundle without a secret (GitHub Classroom: the template repository is
// the student's, so nothing in it is secret) derives both from the contents alone: still the same
// on a regrade, but the hidden draw is then reproducible by anyone.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

namespace stencil::grading {

inline constexpr size_t kSecretBytes = 32;

// 32 bytes from the system's random source, as 64 lowercase hex digits.
std::string make_course_secret();

// The secret in `text` (an instructor's file: 64 hex digits, surrounding white space allowed), or
// UserError naming `origin` and what is wrong.
std::string parse_course_secret(const std::string& text, const std::string& origin);
std::string read_course_secret(const std::filesystem::path& file);

struct GradingSeeds {
    std::uint64_t seed = 0;         // the visible sizes, the weights, the schedules: shown
    std::uint64_t hidden_seed = 0;  // the hidden sizes and their data: never shown
};

GradingSeeds derive_seeds(const std::string& secret, const std::string& exercise_hash, const std::string& file_sha256);

// A name-based UUID (RFC 9562 version 8 layout, from SHA-256) of `parts`: PrairieLearn's question
// UUID from the course secret and the exercise, the same on every make.
std::string derived_uuid(const std::string& secret, const std::string& what);

}  // namespace stencil::grading
