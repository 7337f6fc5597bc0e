// What a rule may name as evidence (requires, optional, log:, samples): a
// logical artifact of common/artifacts.h, a prefix of such names
// ("journal.*"), or an artifact group ("plugin_logs") that stands for its
// members. Anything else is an error of the rule file, so a misspelled
// name fails `rules lint` instead of quietly reading nothing.
#ifndef GPUF_ANALYZER_RULES_RULE_ARTIFACTS_H_
#define GPUF_ANALYZER_RULES_RULE_ARTIFACTS_H_

#include <yaml-cpp/yaml.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/yaml_reader.h"

namespace gpuf {

// Appends what `name` stands for to *out (a group's members, in order) and
// returns ""; or returns the problem, one line, with the nearest known name:
//   unknown artifact 'plugin.logs' in log; did you mean 'plugin.log'?
//   unknown artifact group 'plugin_log' in requires; did you mean 'plugin_logs'?
std::string ExpandRuleArtifact(std::string_view name, std::string_view where, std::vector<std::string>* out);

// One name or a list of names (log:), expanded into *out. False after
// recording the first problem in `reader`, at the offending name.
bool ReadRuleArtifacts(YamlReader& reader, const YAML::Node& node, std::string_view what,
                       std::vector<std::string>* out);

// A list whose items are a name or a list of names, any one of which
// satisfies the item (requires, optional); each item expanded.
bool ReadRuleArtifactGroups(YamlReader& reader, const YAML::Node& node, std::string_view what,
                            std::vector<std::vector<std::string>>* out);

// "; did you mean 'x'?" for the nearest of `candidates` within two edits
// of `word` (as ninja suggests a tool); "" when none is that near.
std::string DidYouMean(std::string_view word, std::span<const std::string_view> candidates);

// A sample's artifact: one name, with an optional "[instance]"; "" when
// known, else the problem as above.
std::string CheckSampleArtifact(std::string_view name, std::string_view where);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RULE_ARTIFACTS_H_
