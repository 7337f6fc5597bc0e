// The YAML folders compiled into the binary at build time (as schema/*.sql
// are), by gpuf_embed_yaml in CMakeLists.txt: the message catalogue,
// messages/*.yaml, here, and the rule pack, rules/*.yaml
// (analyzer/rules/builtin_rules.h). A copied binary finds every known
// wording and issue without a folder beside it; a site's --messages and
// --rules folders add to them.
#ifndef GPUF_FORMATS_EMBEDDED_YAML_H_
#define GPUF_FORMATS_EMBEDDED_YAML_H_

#include <span>
#include <string_view>

namespace gpuf {

struct EmbeddedYamlFile {
  std::string_view name;  // "nvml.yaml"
  std::string_view text;
};

// In name order.
std::span<const EmbeddedYamlFile> BuiltinMessageFiles();

}  // namespace gpuf

#endif  // GPUF_FORMATS_EMBEDDED_YAML_H_
