#include "cli/exit_status_docs.h"

#include <algorithm>

#include "common/exit_codes.h"

namespace gpuf {

namespace {

// kExitFindings says "the command ran and what it found is bad"; what that is differs by command.
struct FindingsMeaning {
  std::string_view command;
  std::string_view ok;
  std::string_view findings;
};

constexpr FindingsMeaning kFindings[] = {
    {"analyze", "nothing at medium severity or above", "a finding at medium severity or above"},
    {"verify", "every member matches the manifest", "a member is missing or does not match the manifest"},
    {"watch", "the GPU chain is healthy", "the GPU chain is broken (captured now or before)"},
    {"rules", "list: every rule loads; lint: no problem; test: every sample gives what it says",
     "a rule does not load, lint found a problem, or a sample failed"},
    {"kubectl gpuforensics collect", "every node was collected and its bundle verified",
     "a node was not collected (stderr says why, node by node)"},
};

const FindingsMeaning* FindingsFor(std::string_view program, std::string_view command) {
  const std::string full = program == "gpuforensics" ? std::string(command)
                                                     : std::string(program) + " " + std::string(command);
  for (const auto& f : kFindings) {
    if (f.command == full) return &f;
  }
  return nullptr;
}

}  // namespace

std::vector<ExitStatusDoc> ExitStatuses(std::string_view program, std::string_view command) {
  std::vector<ExitStatusDoc> out;
  const FindingsMeaning* findings = FindingsFor(program, command);
  if (command.empty() && program == "gpuforensics") {
    out = {{kExitOk, "done (analyze: nothing at medium severity or above)"},
           {kExitFindings, "analyze: a finding at medium or above; verify: a member does not match the manifest; "
                           "watch: the chain is broken; rules: a rule or sample failed"}};
  } else if (findings) {
    out = {{kExitOk, std::string(findings->ok)}, {kExitFindings, std::string(findings->findings)}};
  } else {
    out = {{kExitOk, "done"}};
  }
  const bool plugin = program != "gpuforensics";
  out.push_back({kExitBadInput, plugin ? "no node matches --selector"
                                       : "the input is not usable (one line on stderr says why)"});
  out.push_back({kExitUsage, "bad command line"});
  out.push_back({kExitInternal, "internal error"});
  out.push_back({kExitIoError, plugin ? "--output-dir is not a directory that can be written"
                                      : "the output could not be written"});
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.code < b.code; });
  return out;
}

}  // namespace gpuf
