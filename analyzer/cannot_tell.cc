#include "analyzer/cannot_tell.h"

#include <re2/re2.h>

#include <algorithm>
#include <map>

#include "analyzer/capture_commands.h"

namespace gpuf {

namespace {

// "journal.kernel (not collected)", "plugin.log (timed_out)": the names in a
// rule run's reason or a finding's missing-evidence line.
std::vector<std::string> ArtifactsIn(const std::string& text) {
  static const RE2 name(R"(([a-z0-9_]+\.[a-z0-9_*]+) \()");
  std::vector<std::string> out;
  re2::StringPiece input(text);
  std::string found;
  while (RE2::FindAndConsume(&input, name, &found)) {
    if (std::find(out.begin(), out.end(), found) == out.end()) out.push_back(found);
  }
  return out;
}

void AddOnce(std::vector<std::string>& to, const std::string& what) {
  if (std::find(to.begin(), to.end(), what) == to.end()) to.push_back(what);
}

}  // namespace

std::vector<CannotTell> ComputeCannotTell(const std::vector<RuleRun>& runs, const std::vector<Finding>& findings) {
  // Keyed by the alternatives, as the engine printed them.
  std::map<std::vector<std::string>, CannotTell> by_capture;
  auto each_entry = [](const std::string& text, auto&& with) {
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find("; ", start);
      std::vector<std::string> alternatives = ArtifactsIn(text.substr(start, end - start));
      if (!alternatives.empty()) with(alternatives);
      if (end == std::string::npos) break;
      start = end + 2;
    }
  };
  for (const auto& run : runs) {
    if (run.outcome != "skipped" || run.reason.rfind("missing: ", 0) != 0) continue;
    each_entry(run.reason, [&](const std::vector<std::string>& a) { AddOnce(by_capture[a].rules, run.rule_id); });
  }
  for (const auto& f : findings) {
    for (const auto& line : f.missing_evidence) {
      if (line.rfind("not available: ", 0) != 0) continue;
      each_entry(line, [&](const std::vector<std::string>& a) { AddOnce(by_capture[a].would_confirm, f.rule_id); });
    }
  }
  std::vector<CannotTell> out;
  for (auto& [captures, c] : by_capture) {
    c.captures = captures;
    c.command = CaptureCommand(captures.front());
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(), [](const CannotTell& a, const CannotTell& b) {
    if (a.would_confirm.empty() != b.would_confirm.empty()) return !a.would_confirm.empty();
    return a.rules.size() + a.would_confirm.size() > b.rules.size() + b.would_confirm.size();
  });
  return out;
}

}  // namespace gpuf
