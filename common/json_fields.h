// Fields of JSON from outside (bundles, captures, map and state files) read
// without exceptions: nlohmann's value() throws when a field has another
// type, and operator[] on a const object is undefined for a missing key.
#ifndef GPUF_COMMON_JSON_FIELDS_H_
#define GPUF_COMMON_JSON_FIELDS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "common/json_bytes.h"

namespace gpuf {

// The field's string, or "" when `object` is not an object, lacks the field or holds another type there.
inline std::string StringField(const nlohmann::json& object, std::string_view key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// As StringField, for the project's own files, where bytes that are not
// UTF-8 are written as an array of byte values (common/json_bytes.h).
inline std::string BytesField(const nlohmann::json& object, std::string_view key) {
  auto it = object.find(key);
  if (it == object.end()) return std::string();
  return BytesFromJson(*it).value_or(std::string());
}

// The field's integer, or `fallback` as StringField.
inline int64_t IntField(const nlohmann::json& object, std::string_view key, int64_t fallback) {
  auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<int64_t>() : fallback;
}

}  // namespace gpuf

#endif  // GPUF_COMMON_JSON_FIELDS_H_
