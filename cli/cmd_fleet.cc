#include <cstdio>
#include <iostream>
#include <string>

#include "analyzer/database.h"
#include "analyzer/fleet_summary.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/exit_codes.h"

namespace gpuf {

namespace {

// OpenReadOnly reads any file and fails only at the first query, as an
// internal error; a bundle given by mistake is the user's input.
bool LooksLikeSqlite(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return true;  // let OpenReadOnly say why it cannot be opened
  char magic[16] = {};
  size_t n = std::fread(magic, 1, sizeof magic, f);
  std::fclose(f);
  return n == sizeof magic && std::string(magic, 15) == "SQLite format 3";
}

std::string FormatSummary(const FleetSummary& s) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "fleet: %lld bundles, %lld analyzed, from %lld nodes\n",
                static_cast<long long>(s.bundles), static_cast<long long>(s.analyzed),
                static_cast<long long>(s.nodes));
  out += line;

  out += "\nnodes by finding\n";
  if (s.findings.empty()) out += "  (none)\n";
  for (const auto& f : s.findings) {
    std::snprintf(line, sizeof line, "  %6lld  %-8s  %s\n", static_cast<long long>(f.nodes), f.severity.c_str(),
                  f.rule_id.c_str());
    out += line;
  }

  out += "\nnodes by chain step not ok (failed, unknown)\n";
  if (s.steps.empty()) out += "  (every step ok on every node)\n";
  for (const auto& step : s.steps) {
    std::snprintf(line, sizeof line, "  %2lld  %-34s %6lld failed  %6lld unknown\n",
                  static_cast<long long>(step.step_number), step.step_name.c_str(),
                  static_cast<long long>(step.failed_nodes), static_cast<long long>(step.unknown_nodes));
    out += line;
  }

  out += "\nnodes by component version\n";
  for (const auto& v : s.versions) {
    std::snprintf(line, sizeof line, "  %-28s %-24s %6lld\n", v.component.c_str(), v.version.c_str(),
                  static_cast<long long>(v.nodes));
    out += line;
  }

  std::snprintf(line, sizeof line,
                "\nintervals of the boot at capture (nodes; negative: order reversed; within: 0 to %g s)\n",
                s.within_seconds);
  out += line;
  std::snprintf(line, sizeof line, "  %-42s %6s %8s %7s %10s %10s %10s\n", "interval", "nodes", "negative", "within",
                "min s", "median s", "max s");
  out += line;
  for (const auto& i : s.intervals) {
    std::snprintf(line, sizeof line, "  %-42s %6lld %8lld %7lld %10.3f %10.3f %10.3f\n", i.name.c_str(),
                  static_cast<long long>(i.nodes), static_cast<long long>(i.negative),
                  static_cast<long long>(i.within), i.min_seconds, i.median_seconds, i.max_seconds);
    out += line;
  }
  return out;
}

}  // namespace

int RunFleet(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics fleet FLEET.sqlite [options]\n\n"
      "Summarises a fleet database written by 'gpuforensics analyze --db FLEET.sqlite\n"
      "B1 B2 ...': nodes by finding, by failed chain step, by component version, and\n"
      "the spread of the key intervals of the boot at capture. Tables: schema/fleet/.\n\noptions");
  options.add_options()
      ("db", po::value<std::string>(), "fleet database")
      ("within", po::value<double>()->default_value(2.0),
       "seconds: count nodes whose interval is between 0 and this (e.g. plugin start after driver load)")
      ("nodes", po::value<std::string>(), "instead of the summary, list the nodes with a finding of this rule id");
  po::positional_options_description positional;
  positional.add("db", 1);
  auto parsed = ParseOptions("fleet", args, options, positional);
  if (!parsed.ok()) return ReportFailure("fleet", parsed.status());
  if (parsed->help) {
    std::cout << options << "\n";
    return kExitOk;
  }
  const auto& v = parsed->values;
  if (!v.count("db")) {
    return ReportFailure("fleet", Status::InvalidArgument("no fleet database given",
                                                          "usage: gpuforensics fleet FLEET.sqlite"));
  }
  const std::string path = v["db"].as<std::string>();
  if (!LooksLikeSqlite(path)) {
    return ReportFailure("fleet", Status::BadInput("'" + path + "' is not a SQLite database",
                                                   "write one with: gpuforensics analyze --db FLEET.sqlite BUNDLE BUNDLE..."));
  }
  auto db = Database::OpenReadOnly(path);
  if (!db.ok()) return ReportFailure("fleet", db.status());
  if (v.count("nodes")) {
    auto nodes = FleetNodesWithFinding(*db, v["nodes"].as<std::string>());
    if (!nodes.ok()) return ReportFailure("fleet", nodes.status());
    for (const auto& node : *nodes) std::printf("%s\n", node.c_str());
    return kExitOk;
  }
  auto summary = SummarizeFleet(*db, v["within"].as<double>());
  if (!summary.ok()) return ReportFailure("fleet", summary.status());
  std::fputs(FormatSummary(*summary).c_str(), stdout);
  return kExitOk;
}

}  // namespace gpuf
