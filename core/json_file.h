// A JSON file a user gave (a rubric, a course file, a grading config, an answer sheet), read whole:
// a file that cannot be read or does not parse is one line, a UserError naming it.
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace stencil {

// `what` names the file in the message ("rubric" -> "rubric R.json: not JSON (byte 12)"; empty:
// the path alone); `expected` is appended to the parse error ("; expected {...}").
nlohmann::json read_json_file(const std::string& path, const std::string& what, const std::string& expected = {});

}  // namespace stencil
