// The `samples:` list of a rule file: each sample names what it expects and
// carries its evidence inline (logs, rows, artifacts) or points at a bundle.
// Times in inline logs are written "[T] text", T being seconds after the
// sample epoch (2027-01-01T00:00:00Z) or an RFC 3339 time; "@T" in a row
// column ending in _ns or _us means the same instant in that unit.
#ifndef GPUF_ANALYZER_RULES_SAMPLE_PARSER_H_
#define GPUF_ANALYZER_RULES_SAMPLE_PARSER_H_

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "analyzer/rules/rule.h"
#include "formats/yaml_reader.h"

namespace gpuf {

inline constexpr int64_t kSampleEpochNs = 1798761600LL * 1000000000LL;  // 2027-01-01T00:00:00Z

// "12.5" -> epoch + 12.5 s; "2026-11-18T03:18:17Z" -> that instant.
std::optional<int64_t> SampleTimeNs(std::string_view text);

// False after recording the first problem in `reader`.
bool ReadSamples(YamlReader& reader, const YAML::Node& node, std::vector<RuleSample>* out);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_SAMPLE_PARSER_H_
