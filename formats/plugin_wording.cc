#include "formats/plugin_wording.h"

#include <re2/re2.h>

#include <memory>
#include <utility>
#include <vector>

#include "common/byte_pattern.h"

namespace gpuf {

namespace {

struct Wording {
  PluginChainEvent event;
  const char* pattern;
};

constexpr Wording kWordings[] = {
    {PluginChainEvent::kRegistered, kPluginRegisteredPattern},
    {PluginChainEvent::kRegistered, kPluginRegisteredV08Pattern},
    {PluginChainEvent::kServing, kPluginServingPattern},
    {PluginChainEvent::kServing, kPluginServingV08Pattern},
    {PluginChainEvent::kNvmlInitFailed, kPluginNvmlFailedPattern},
    {PluginChainEvent::kNvmlInitFailed, kPluginNvmlFailedV017Pattern},
    {PluginChainEvent::kNvmlInitFailed, kPluginNonNvmlPlatformPattern},
    {PluginChainEvent::kNvmlInitFailed, kPluginNvmlNotDetectedPattern},
    {PluginChainEvent::kRegistered, kGkePluginRegisteredPattern},
    {PluginChainEvent::kServing, kGkePluginServingPattern},
    {PluginChainEvent::kNvmlInitFailed, kGkePluginNvmlFailedPattern},
};

}  // namespace

PluginChainLine ClassifyPluginChainLine(std::string_view line) {
  // Compiled once; a line is matched anywhere, behind whatever header it has.
  static const std::vector<std::pair<PluginChainEvent, std::unique_ptr<RE2>>> compiled = [] {
    std::vector<std::pair<PluginChainEvent, std::unique_ptr<RE2>>> res;
    for (const auto& w : kWordings) {
      res.emplace_back(w.event, std::make_unique<RE2>(std::string("(") + w.pattern + ")", BytePatternOptions()));
    }
    return res;
  }();
  for (const auto& [event, re] : compiled) {
    re2::StringPiece match;
    if (RE2::PartialMatch(line, *re, &match)) {
      std::string_view rest = line.substr(static_cast<size_t>(match.data() - line.data()));
      while (!rest.empty() && (rest.back() == '\r' || rest.back() == '\n')) rest.remove_suffix(1);
      return {event, event == PluginChainEvent::kNvmlInitFailed ? std::string(rest) : std::string()};
    }
  }
  return {};
}

}  // namespace gpuf
