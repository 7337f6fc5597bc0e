// The YAML folders compiled into the binary at build time (as schema/*.sql
// are), by gpuf_embed_yaml in CMakeLists.txt: the rule pack, rules/*.yaml,
// and the message catalogue, messages/*.yaml. A copied binary finds every
// known issue and wording without a folder beside it. LoadRules reads the
// rules for the folder name kBuiltinRules, BuiltinMessages() the wordings;
// a site's --rules and --messages folders add to them.
#ifndef GPUF_ANALYZER_RULES_BUILTIN_RULES_H_
#define GPUF_ANALYZER_RULES_BUILTIN_RULES_H_

#include <span>
#include <string_view>

namespace gpuf {

struct EmbeddedYamlFile {
  std::string_view name;  // "dp-no-devices-found.yaml"
  std::string_view text;
};

// Each in name order.
std::span<const EmbeddedYamlFile> BuiltinRuleFiles();
std::span<const EmbeddedYamlFile> BuiltinMessageFiles();

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_BUILTIN_RULES_H_
