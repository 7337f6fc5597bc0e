// Reading `analyze --format json` reports in tests that cross components.
#ifndef GPUF_TESTS_REPORT_JSON_H_
#define GPUF_TESTS_REPORT_JSON_H_

#include <nlohmann/json.hpp>

#include <string_view>

namespace gpuf::test {

// The report's finding of `rule`, or nullptr when it has none.
inline const nlohmann::json* FindingOf(const nlohmann::json& report, std::string_view rule) {
  for (const auto& f : report["findings"]) {
    if (f["id"] == rule) return &f;
  }
  return nullptr;
}

}  // namespace gpuf::test

#endif  // GPUF_TESTS_REPORT_JSON_H_
