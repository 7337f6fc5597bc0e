// The rule pack, rules/*.yaml, compiled into the binary at build time the
// way the message catalogue is (formats/embedded_yaml.h). LoadRules reads
// it for the folder name kBuiltinRules; a site's --rules folder adds to it.
#ifndef GPUF_ANALYZER_RULES_BUILTIN_RULES_H_
#define GPUF_ANALYZER_RULES_BUILTIN_RULES_H_

#include <span>

#include "formats/embedded_yaml.h"

namespace gpuf {

// In name order.
std::span<const EmbeddedYamlFile> BuiltinRuleFiles();

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_BUILTIN_RULES_H_
