// Checks a JSON document against one of our schemas (schema/*.schema.json),
// as doctest CHECKs that name the path of each mismatch. Covers the parts of
// JSON Schema those files use: type, const, enum, required, properties,
// additionalProperties: false, items and local $ref.
#ifndef GPUF_TESTS_JSON_SCHEMA_CHECK_H_
#define GPUF_TESTS_JSON_SCHEMA_CHECK_H_

#include <nlohmann/json.hpp>
#include <string>

namespace gpuf::test {

// `schema_path` is relative to the source tree ("schema/diff.schema.json");
// `where` names the document in messages.
void CheckAgainstSchema(const nlohmann::json& document, const std::string& schema_path, const std::string& where);

}  // namespace gpuf::test

#endif  // GPUF_TESTS_JSON_SCHEMA_CHECK_H_
