// What an imported input cannot tell, and the capture that would decide it.
//
// A rule that could not run names the artifacts it lacked ("missing:
// journal.kernel (not collected)"); a finding names those that would have
// confirmed it ("not available: config.containerd (not collected)"). Grouped
// by artifact, with the command that captures it (common/artifacts.h), this
// is the report's "cannot tell" list: which capture decides which check.
#ifndef GPUF_ANALYZER_REPORT_CANNOT_TELL_H_
#define GPUF_ANALYZER_REPORT_CANNOT_TELL_H_

#include <string>
#include <vector>

#include "analyzer/rules/finding.h"

namespace gpuf {

struct CannotTell {
  std::vector<std::string> captures;       // logical artifacts, any one of which will do: {"plugin.log", "plugin.crictl_logs"}
  std::string command;                     // how to capture the first by hand
  std::vector<std::string> rules;          // checks that could not run without it
  std::vector<std::string> would_confirm;  // findings it would confirm or rule out
};

// Captures that would confirm a finding first, then the most waited for;
// alternatives a rule accepts ("plugin.log or plugin.crictl_logs") stay one
// entry. Never fails.
std::vector<CannotTell> ComputeCannotTell(const std::vector<RuleRun>& runs, const std::vector<Finding>& findings);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_REPORT_CANNOT_TELL_H_
