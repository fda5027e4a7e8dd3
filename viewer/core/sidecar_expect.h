// The screenshot tests' facts: one --expect of tests/viewer/image_check.cpp, checked against the
// sidecar JSON a screenshot wrote (what its panels drew).
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace stencil::viewer {

// "/json/pointer=value" (the value's JSON text, or the string itself), "/pointer>=number",
// "/pointer<=number", or "/pointer~text" (the value's JSON text contains text). False, with *why
// (one line), when the fact does not hold, the pointer is missing or the expectation is malformed.
bool check_expect(const nlohmann::json& sidecar, const std::string& expect, std::string* why);

}  // namespace stencil::viewer
