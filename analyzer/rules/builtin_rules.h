// The built-in rule pack, rules/*.yaml, compiled into the binary at build
// time (as schema/*.sql are): a copied binary finds every known issue
// without a rules folder beside it. LoadRules reads it for the folder name
// kBuiltinRules; a site's --rules folders add to it.
#ifndef GPUF_ANALYZER_RULES_BUILTIN_RULES_H_
#define GPUF_ANALYZER_RULES_BUILTIN_RULES_H_

#include <span>
#include <string_view>

namespace gpuf {

struct BuiltinRuleFile {
  std::string_view name;  // "dp-no-devices-found.yaml"
  std::string_view text;
};

// In name order.
std::span<const BuiltinRuleFile> BuiltinRuleFiles();

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_BUILTIN_RULES_H_
