// What the preprocessor keeps of a submission: the lines of `#if` / `#ifdef` / `#ifndef` /
// `#elif` / `#else` branches it removes are blanked, so that vetting (source.cpp) applies the
// contract to the text NVRTC compiles (a second `__global__` inside `#if 0` is not a kernel).
//
// Conditions are evaluated as the C++ preprocessor does, over the object-like macros the
// submission itself #defines before them: `defined`, integer literals, the arithmetic, relational
// and logical operators, `?:`. A condition that depends on what vetting cannot know (a name the
// harness defines, such as IN_TILE_DIM, a compiler's predefined `__` name, a function-like macro)
// keeps every branch of its chain: vetting then checks all of them, as it did before.
#pragma once
#include <functional>
#include <string>

namespace stencil::checker {

// `code`: the source with comments and literals blanked (source.h, blank_comments_and_literals),
// lines spliced. Returns it with every removed line's characters but its newline turned into
// spaces (positions, and so line numbers, unchanged); the conditional directives stay.
// `harness_defines(name)`: whether the harness defines `name` (its value is not known here).
std::string kept_by_preprocessor(const std::string& code, const std::function<bool(const std::string&)>& harness_defines);

}  // namespace stencil::checker
