#include "kube/triage_verdict.h"

#include <re2/re2.h>

#include "chain/chain_steps.h"
#include "common/byte_pattern.h"
#include "common/terminal_text.h"
#include "common/text_lines.h"

namespace gpuf {

std::string TriageVerdict(std::string_view collect_stderr) {
  static const RE2 step(R"(^  ([^:]+):\s+(\S+)(?: \((.*)\))?$)", BytePatternOptions());
  int steps = 0, unknown = 0;
  std::string broken;
  ForEachLine(collect_stderr, [&](int, std::string_view line) {
    std::string name, word, detail;
    if (!RE2::FullMatch(line, step, &name, &word, &detail)) return;
    std::optional<StepStatus> status = Parse<StepStatus>(word);
    if (!status) return;
    ++steps;
    unknown += status == StepStatus::kUnknown;
    if (status == StepStatus::kFailed && broken.empty()) broken = "BROKEN at " + name + (detail.empty() ? "" : " (" + detail + ")");
  });
  if (steps == 0) return "";
  // What a step saw is the node's bytes: shown, never sent to the terminal raw.
  if (!broken.empty()) return TerminalSafe(broken);
  return unknown == 0 ? "every step ok" : "no step failed (" + std::to_string(unknown) + " unknown)";
}

}  // namespace gpuf
