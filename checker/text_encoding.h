// Whether a submission's bytes are text a compiler reads as the student meant: UTF-8 (ASCII
// included), with no NUL or stray control bytes. A UTF-8 byte-order mark is dropped (editors on
// Windows add one; it is no character of the program); other encodings are refused with the line
// of the first bad byte rather than handed to NVRTC, whose complaint about them is a mystery.
#pragma once
#include <optional>
#include <string>

namespace stencil::checker {

// The text without a leading UTF-8 byte-order mark (EF BB BF); line numbers are unchanged.
std::string strip_utf8_bom(std::string text);

// nullopt when `text` is UTF-8 text; otherwise one line, "FILE:LINE: what, and what to do":
// a UTF-16 or UTF-32 byte-order mark, a NUL byte, another control byte (not tab, newline,
// carriage return, form feed, vertical tab), or a byte sequence that is not UTF-8.
std::optional<std::string> encoding_problem(const std::string& text, const std::string& display_name);

}  // namespace stencil::checker
