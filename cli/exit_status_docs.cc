#include "cli/exit_status_docs.h"

#include "common/exit_codes.h"

namespace gpuf {

namespace {

// kubectl-gpuforensics drives kubectl over many nodes: its statuses mean
// other things than gpuforensics' and are listed here, once.
std::vector<ExitStatusDoc> KubectlPluginStatuses(std::string_view command) {
  std::vector<ExitStatusDoc> out = {{kExitOk, command == "collect" ? "every node was collected and its bundle verified"
                                                                   : "done"}};
  if (command == "collect") out.push_back({kExitFindings, "a node was not collected (stderr says why, node by node)"});
  out.push_back({kExitBadInput, "no node matches --selector"});
  out.push_back({kExitUsage, "bad command line"});
  out.push_back({kExitInternal, "internal error"});
  out.push_back({kExitIoError, "--output-dir is not a directory that can be written"});
  return out;
}

}  // namespace

std::vector<ExitStatusDoc> ExitStatuses(std::string_view program, std::string_view command) {
  if (program != "gpuforensics") return KubectlPluginStatuses(command);
  std::vector<ExitStatusDoc> out;
  for (const auto& row : ExitStatuses()) {
    if (!AppliesTo(row, command)) continue;
    std::string meaning(row.meaning);
    if (command.empty() && row.commands != "*") meaning += " (" + std::string(row.commands) + ")";
    out.push_back({row.code, meaning});
  }
  return out;
}

}  // namespace gpuf
