#include "chain/plugin_since_start.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>

#include "common/text_lines.h"
#include "formats/cri_log.h"
#include "formats/plugin_wording.h"

namespace gpuf {

namespace {

struct Line {
  int64_t time_ns = 0;
  std::string text;
};

// One run of the plugin: when it started and what it wrote since.
struct Run {
  int64_t start_ns = 0;
  std::vector<Line> lines;
};

void AddContainerRun(std::string_view text, int64_t boot_start_ns, std::vector<Run>& runs) {
  Run run;
  for (auto& record : ParseCriLog(text).records) {
    if (record.time_ns < boot_start_ns) continue;
    if (run.lines.empty()) run.start_ns = record.time_ns;
    run.lines.push_back({record.time_ns, std::move(record.message)});
  }
  if (!run.lines.empty()) runs.push_back(std::move(run));
}

// The journal of the plugin's unit: PID 1's "Started ..." begins a run.
void AddJournalRuns(std::string_view text, int64_t boot_start_ns, std::vector<Run>& runs) {
  std::vector<Run> found;
  ForEachLine(text, [&](int, std::string_view json_line) {
    auto entry = nlohmann::json::parse(json_line, nullptr, false);
    if (entry.is_discarded() || !entry.is_object()) return;
    auto text_of = [&](const char* key) {
      auto it = entry.find(key);
      return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    int64_t time_ns = std::atoll(text_of("__REALTIME_TIMESTAMP").c_str()) * 1000;
    if (time_ns < boot_start_ns) return;
    std::string message = text_of("MESSAGE");
    if (text_of("_PID") == "1") {
      if (message.rfind("Started ", 0) == 0) found.push_back({time_ns, {}});
      return;
    }
    if (found.empty()) found.push_back({time_ns, {}});
    found.back().lines.push_back({time_ns, std::move(message)});
  });
  for (auto& run : found) runs.push_back(std::move(run));
}

}  // namespace

ChainFacts::Plugin ReadPluginSinceStart(const std::vector<PluginLogSource>& sources, int64_t boot_start_ns) {
  std::vector<Run> runs;
  for (const auto& source : sources) {
    if (source.format == PluginLogSource::Format::kJournalJson) {
      AddJournalRuns(source.text, boot_start_ns, runs);
    } else {
      AddContainerRun(source.text, boot_start_ns, runs);
    }
  }
  ChainFacts::Plugin plugin;
  const Run* last = nullptr;
  for (const auto& run : runs) {
    if (!last || run.start_ns >= last->start_ns) last = &run;
  }
  if (!last) return plugin;
  for (const auto& line : last->lines) {
    plugin.logged = true;
    PluginChainLine said = ClassifyPluginChainLine(line.text);
    switch (said.event) {
      case PluginChainEvent::kNvmlInitFailed:
        if (!plugin.nvml_failure) plugin.nvml_failure = said.message;
        break;
      case PluginChainEvent::kRegistered:
        plugin.registered_ns = std::max(plugin.registered_ns.value_or(line.time_ns), line.time_ns);
        ++plugin.healthy_signs;
        break;
      case PluginChainEvent::kServing:
        ++plugin.healthy_signs;
        break;
      case PluginChainEvent::kNone:
        break;
    }
  }
  return plugin;
}

}  // namespace gpuf
