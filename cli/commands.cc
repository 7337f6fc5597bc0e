#include "cli/commands.h"

#include "cli/suggest.h"

namespace gpuf {

namespace {

constexpr Command kCommands[] = {
    {"collect", kCollectHelp, RunCollect},
    {"watch", kWatchHelp, RunWatch},
    {"analyze", "load a bundle into SQLite and report what it shows about the GPU chain", RunAnalyze},
    {"redact", kRedactHelp, RunRedact},
    {"verify", kVerifyHelp, RunVerify},
    {"timeline", "print the node's merged boot timeline (text, jsonl for Timesketch, csv)", RunTimeline},
    {"diff", "compare two bundles: versions, plugin deployment, intervals, GPU counts, findings, recovery", RunDiff},
    {"sql", "run one read-only SQL query against a bundle or a kept database", RunSql},
    {"fleet", "summarise a fleet database: nodes by finding, component version, key interval", RunFleet},
    {"import", "convert a sos report, nvidia-bug-report, must-gather or saved outputs into a bundle", RunImport},
    {"rules", "list, lint and test the known-issue rules (rules/*.yaml), or run them on a bundle", RunRulesCommand},
    {"completion", "print a bash, zsh or fish completion script for gpuforensics", RunCompletion},
};

}  // namespace

std::span<const Command> Commands() { return kCommands; }

std::string_view SuggestCommand(std::string_view typo) {
  std::vector<std::string> names;
  for (const auto& c : kCommands) names.emplace_back(c.name);
  std::string best = ClosestName(typo, names);
  for (const auto& c : kCommands) {
    if (c.name == best) return c.name;
  }
  return {};
}

}  // namespace gpuf
