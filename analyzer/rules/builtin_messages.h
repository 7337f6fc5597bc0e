// The built-in message catalogue, messages/*.yaml, compiled into the binary
// at build time as the rules are (builtin_rules.h).
#ifndef GPUF_ANALYZER_RULES_BUILTIN_MESSAGES_H_
#define GPUF_ANALYZER_RULES_BUILTIN_MESSAGES_H_

#include <span>
#include <string_view>

namespace gpuf {

struct BuiltinMessageFile {
  std::string_view name;  // "nvml.yaml"
  std::string_view text;
};

// In name order.
std::span<const BuiltinMessageFile> BuiltinMessageFiles();

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_BUILTIN_MESSAGES_H_
