// What the preprocessor keeps of a submission: the lines of `#if` / `#ifdef` / `#ifndef` /
// `#elif` / `#else` branches it removes are blanked, so that vetting (source.cpp) applies the
// contract to the text NVRTC compiles (a second `__global__` inside `#if 0` is not a kernel).
//
// Conditions are evaluated as the C++ preprocessor does, over the object-like macros the
// submission itself #defines (or #undefs) before them: `defined`, signed integer literals, the
// arithmetic, relational and logical operators, `?:`, `true` and `false`. A condition that depends
// on anything else (a name the submission did not define: the harness's IN_TILE_DIM, a name NVRTC
// predefines, or none; a function-like macro; an unsigned literal) keeps every branch of its
// chain: vetting then checks all of them, as it did before. Dropping a branch NVRTC compiles would
// let what vetting refuses through unseen, so only what is certain is dropped.
#pragma once
#include <string>

namespace stencil::checker {

// `code`: the source with comments and literals blanked (source.h, blank_comments_and_literals),
// lines spliced. Returns it with every removed line's characters but its newline turned into
// spaces (positions, and so line numbers, unchanged); the conditional directives stay.
std::string kept_by_preprocessor(const std::string& code);

}  // namespace stencil::checker
