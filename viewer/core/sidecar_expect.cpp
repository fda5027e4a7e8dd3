#include "viewer/core/sidecar_expect.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

namespace stencil::viewer {

bool check_expect(const nlohmann::json& j, const std::string& e, std::string* why) {
    // The first operator in the text; among operators at one place the longest (">=" before "=").
    size_t at = std::string::npos;
    std::string op;
    for (const char* o : {">=", "<=", "=", "~"}) {
        const size_t p = e.find(o);
        if (p != std::string::npos && (at == std::string::npos || p < at)) at = p, op = o;
    }
    if (at == std::string::npos || at == 0 || e[0] != '/') {
        *why = "bad --expect '" + e + "' (/POINTER=V, /POINTER>=N, /POINTER<=N, /POINTER~TEXT)";
        return false;
    }
    const std::string ptr = e.substr(0, at), want = e.substr(at + op.size());
    nlohmann::json v;
    try {
        v = j.at(nlohmann::json::json_pointer(ptr));
    } catch (const std::exception&) {
        *why = ptr + ": not in the sidecar (the panel did not draw it)";
        return false;
    }
    const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
    bool ok = false;
    if (op == "=") ok = text == want;
    else if (op == "~") ok = text.find(want) != std::string::npos;
    else if (op == ">=") ok = v.is_number() && v.get<double>() >= std::atof(want.c_str());
    else ok = v.is_number() && v.get<double>() <= std::atof(want.c_str());
    if (!ok) *why = ptr + " is " + text.substr(0, 300) + ", expected " + op + " " + want;
    return ok;
}

}  // namespace stencil::viewer
