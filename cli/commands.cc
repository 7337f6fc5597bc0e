#include "cli/commands.h"

#include <algorithm>

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
};

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::span<const Command> Commands() { return kCommands; }

std::string_view SuggestCommand(std::string_view typo) {
  std::string_view best;
  size_t best_distance = 3;  // farther than two edits is not a typo
  for (const auto& c : kCommands) {
    if (!typo.empty() && c.name.substr(0, typo.size()) == typo) return c.name;
    size_t d = EditDistance(typo, c.name);
    if (d < best_distance) {
      best_distance = d;
      best = c.name;
    }
  }
  return best;
}

}  // namespace gpuf
