#include "core/json_value.h"

#include <nlohmann/json.hpp>

namespace stencil {

JsonValue::JsonValue() : value_(std::make_unique<nlohmann::json>()) {}
JsonValue::JsonValue(const nlohmann::json& v) : value_(std::make_unique<nlohmann::json>(v)) {}
JsonValue::JsonValue(nlohmann::json&& v) : value_(std::make_unique<nlohmann::json>(std::move(v))) {}
JsonValue::JsonValue(const JsonValue& other) : value_(std::make_unique<nlohmann::json>(*other.value_)) {}
// A move takes the value and leaves null behind, so that * on a moved-from box stays defined.
JsonValue::JsonValue(JsonValue&& other) : value_(std::make_unique<nlohmann::json>(std::move(*other.value_))) {}
JsonValue& JsonValue::operator=(const JsonValue& other) {
    *value_ = *other.value_;
    return *this;
}
JsonValue& JsonValue::operator=(JsonValue&& other) noexcept {
    *value_ = std::move(*other.value_);
    return *this;
}
JsonValue::~JsonValue() = default;
JsonValue JsonValue::object() { return JsonValue(nlohmann::json::object()); }

}  // namespace stencil
