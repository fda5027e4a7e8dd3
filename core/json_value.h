// A JSON value held by a struct whose header stays free of nlohmann/json.hpp. json_fwd.hpp
// declares nlohmann::json but not its size, so a member cannot be one by value; this box holds it
// on the heap with value semantics (copies are deep). Reading or building the value needs
// nlohmann/json.hpp, included by the .cpp files that do.
#pragma once
#include <memory>
#include <type_traits>

#include <nlohmann/json_fwd.hpp>

namespace stencil {

class JsonValue {
public:
    JsonValue();  // null
    JsonValue(const nlohmann::json& v);
    JsonValue(nlohmann::json&& v);
    // Anything nlohmann::json converts from (a number, a string, nullptr, an initializer's
    // object), so that aggregates holding a JsonValue initialise as they would with a json. The
    // defaulted J makes the conversion depend on the template: it is compiled only where used,
    // by a .cpp that includes json.hpp.
    template <class T, class J = nlohmann::json>
        requires(!std::is_same_v<std::remove_cvref_t<T>, JsonValue> && !std::is_same_v<std::remove_cvref_t<T>, J>)
    JsonValue(T&& v) : JsonValue(J(std::forward<T>(v))) {}
    JsonValue(const JsonValue& other);
    JsonValue(JsonValue&& other);
    JsonValue& operator=(const JsonValue& other);
    JsonValue& operator=(JsonValue&& other) noexcept;
    ~JsonValue();
    static JsonValue object();  // {}

    nlohmann::json& operator*() { return *value_; }
    const nlohmann::json& operator*() const { return *value_; }
    nlohmann::json* operator->() { return value_.get(); }
    const nlohmann::json* operator->() const { return value_.get(); }

private:
    std::unique_ptr<nlohmann::json> value_;  // never empty, a moved-from box included
};

}  // namespace stencil
