#include "tests/json_schema_check.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "tests/test_support.h"

namespace gpuf::test {

namespace {

using nlohmann::json;

bool HasType(const json& value, const json& type) {
  return (type == "object" && value.is_object()) || (type == "array" && value.is_array()) ||
         (type == "string" && value.is_string()) || (type == "integer" && value.is_number_integer()) ||
         (type == "number" && value.is_number()) || (type == "boolean" && value.is_boolean()) ||
         (type == "null" && value.is_null());
}

void Validate(const json& root, const json& schema, const json& value, const std::string& where) {
  if (schema.contains("$ref")) {
    std::string ref = schema["$ref"];  // "#/$defs/name"
    Validate(root, root["$defs"][ref.substr(ref.rfind('/') + 1)], value, where);
  }
  if (schema.contains("type")) {
    json types = schema["type"].is_array() ? schema["type"] : json::array({schema["type"]});
    bool ok = std::any_of(types.begin(), types.end(), [&](const json& t) { return HasType(value, t); });
    CHECK_MESSAGE(ok, where << " = " << value.dump() << " is not of type " << schema["type"].dump());
    if (!ok) return;
  }
  if (schema.contains("const")) CHECK_MESSAGE(value == schema["const"], where << " != " << schema["const"]);
  if (schema.contains("enum")) {
    const json& allowed = schema["enum"];
    CHECK_MESSAGE(std::find(allowed.begin(), allowed.end(), value) != allowed.end(),
                  where << " = " << value.dump() << " is not one of " << allowed.dump());
  }
  if (schema.contains("required") && value.is_object()) {
    for (const auto& key : schema["required"]) {
      CHECK_MESSAGE(value.contains(key.get<std::string>()), where << " lacks " << key);
    }
  }
  if (schema.contains("properties") && value.is_object()) {
    for (const auto& [key, sub] : value.items()) {
      if (schema["properties"].contains(key)) {
        Validate(root, schema["properties"][key], sub, where + "." + key);
      } else {
        CHECK_MESSAGE(schema.value("additionalProperties", true) != false, where << " has undocumented " << key);
      }
    }
  }
  if (schema.contains("items") && value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) {
      Validate(root, schema["items"], value[i], where + "[" + std::to_string(i) + "]");
    }
  }
}

}  // namespace

void CheckAgainstSchema(const json& document, const std::string& schema_path, const std::string& where) {
  json schema = json::parse(ReadFile(SourcePath(schema_path)), nullptr, false);
  REQUIRE_MESSAGE(!schema.is_discarded(), schema_path << " is not JSON");
  Validate(schema, schema, document, where);
}

}  // namespace gpuf::test
