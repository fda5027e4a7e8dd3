#include "labs/grading/course.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <fstream>
#include <random>
#include <sstream>

#include "core/error.h"
#include "core/json_file.h"
#include "core/sha256.h"

namespace stencil::labs {

using json = nlohmann::json;

Course new_course(const std::string& name) {
    std::random_device rd;
    std::string secret;
    for (int i = 0; i < 4; ++i) secret += fmt::format("{:08x}", rd());
    return Course{name, secret, false};
}

Course parse_course(const json& j, const std::string& origin) {
    const auto bad = [&](const std::string& key, const std::string& why) {
        throw UserError(fmt::format("course file {}: {}: {}", origin, key, why));
    };
    if (!j.is_object()) bad("(top)", "must be an object {\"secret\": ..., \"practice\": false}");
    for (const auto& [k, v] : j.items())
        if (k != "course" && k != "secret" && k != "practice") bad(k, "unknown key (known: course, secret, practice)");
    Course c;
    if (j.contains("course")) {
        if (!j["course"].is_string()) bad("course", "must be a name");
        c.name = j["course"].get<std::string>();
    }
    if (!j.contains("secret") || !j["secret"].is_string()) bad("secret", "required: 32 or more hex digits");
    c.secret = j["secret"].get<std::string>();
    if (c.secret.size() < 32) bad("secret", "must be 32 or more hex digits");
    for (char ch : c.secret)
        if (!std::isxdigit(static_cast<unsigned char>(ch))) bad("secret", "must be hex digits only");
    if (j.contains("practice")) {
        if (!j["practice"].is_boolean()) bad("practice", "must be true or false");
        c.practice = j["practice"].get<bool>();
    }
    return c;
}

Course load_course(const std::string& path) {
    return parse_course(read_json_file(path, "course file"), path);
}

json to_json(const Course& c) { return {{"course", c.name}, {"secret", c.secret}, {"practice", c.practice}}; }

LabParams course_params(int lab, const Course* course) {
    LabParams p = default_params(lab);
    if (!course) return p;
    for (const ParamSpec& s : param_specs()) {
        if (s.lab != lab) continue;
        // A keyed digest per (lab, parameter): one parameter tells nothing about another, or about
        // another course's.
        const std::string d = sha256_hex(fmt::format("stencil-lab course parameter:{}:{}:{}", course->secret, lab, s.name));
        const unsigned long long pick = std::stoull(d.substr(0, 12), nullptr, 16);
        p.values[s.name] = s.options[pick % s.options.size()];
    }
    return p;
}

}  // namespace stencil::labs
