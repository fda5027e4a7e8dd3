#include "core/json_file.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "core/error.h"

namespace stencil {

nlohmann::json read_json_file(const std::string& path, const std::string& what, const std::string& expected) {
    const std::string name = what.empty() ? path : what + " " + path;
    std::ifstream in(path);
    if (!in) throw UserError(fmt::format("{}: cannot be read", name));
    std::stringstream ss;
    ss << in.rdbuf();
    try {
        return nlohmann::json::parse(ss.str());
    } catch (const nlohmann::json::parse_error& e) {
        // nlohmann's message names the byte; keep only that part, on one line.
        throw UserError(fmt::format("{}: not JSON (byte {}){}", name, e.byte, expected.empty() ? "" : "; " + expected));
    }
}

}  // namespace stencil
