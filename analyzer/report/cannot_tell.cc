#include "analyzer/report/cannot_tell.h"

#include <re2/re2.h>

#include <algorithm>
#include <map>

#include "common/artifacts.h"
#include "common/byte_pattern.h"

namespace gpuf {

namespace {

// Logical names matched by `pattern`'s first group, each once.
std::vector<std::string> NamesIn(const std::string& text, const RE2& pattern) {
  std::vector<std::string> out;
  re2::StringPiece input(text);
  std::string found;
  while (RE2::FindAndConsume(&input, pattern, &found)) {
    if (std::find(out.begin(), out.end(), found) == out.end()) out.push_back(found);
  }
  return out;
}

// "journal.kernel (not collected)", "plugin.log (timed_out)": the names in a
// rule run's reason or a finding's missing-evidence line.
std::vector<std::string> ArtifactsIn(const std::string& text) {
  static const RE2 name(R"(([a-z0-9_]+\.[a-z0-9_*]+) \()", BytePatternOptions());
  return NamesIn(text, name);
}

// The artifacts an undecided run names: "undecided: plugin.log whole (cut
// short) or plugin.crictl_logs; journal.kernel not captured, and it decides
// whether '...' holds". What a slice lacks, in parentheses, is left out: it
// may name units.
std::vector<std::string> UndecidedArtifactsIn(const std::string& entry) {
  std::string names = entry;
  static const RE2 gap(R"( whole \([^()]*\))", BytePatternOptions());
  RE2::GlobalReplace(&names, gap, "");
  static const RE2 name(R"(([a-z0-9_]+\.[a-z0-9_*]+))", BytePatternOptions());
  return NamesIn(names, name);
}

std::string UndecidedNeeds(const std::string& reason) {
  static constexpr std::string_view kHead = "undecided: ";
  size_t end = reason.find(" not captured, and it decides");
  if (reason.rfind(kHead, 0) != 0 || end == std::string::npos) return "";
  return reason.substr(kHead.size(), end - kHead.size());
}

void AddOnce(std::vector<std::string>& to, const std::string& what) {
  if (std::find(to.begin(), to.end(), what) == to.end()) to.push_back(what);
}

using NamesOf = std::vector<std::string> (*)(const std::string&);

// Calls `with` for each "; "-separated entry of `text` that names artifacts:
// the alternatives one entry accepts.
template <typename Fn>
void ForEachEntry(const std::string& text, NamesOf names_of, Fn&& with) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find("; ", start);
    std::vector<std::string> alternatives = names_of(text.substr(start, end - start));
    if (!alternatives.empty()) with(alternatives);
    if (end == std::string::npos) break;
    start = end + 2;
  }
}

}  // namespace

std::vector<CannotTell> ComputeCannotTell(const std::vector<RuleRun>& runs, const std::vector<Finding>& findings) {
  // Keyed by the alternatives, as the engine printed them.
  std::map<std::vector<std::string>, CannotTell> by_capture;
  for (const auto& run : runs) {
    if (run.outcome != RuleOutcome::kSkipped || run.reason.rfind("missing: ", 0) != 0) continue;
    ForEachEntry(run.reason, ArtifactsIn, [&](const auto& a) { AddOnce(by_capture[a].rules, run.rule_id); });
  }
  for (const auto& run : runs) {
    if (run.outcome != RuleOutcome::kUnknown) continue;
    ForEachEntry(UndecidedNeeds(run.reason), UndecidedArtifactsIn,
                 [&](const auto& a) { AddOnce(by_capture[a].rules, run.rule_id); });
  }
  for (const auto& f : findings) {
    for (const auto& line : f.missing_evidence) {
      if (line.rfind("not available: ", 0) != 0) continue;
      ForEachEntry(line, ArtifactsIn, [&](const auto& a) { AddOnce(by_capture[a].would_confirm, f.rule_id); });
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
