#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>

#include "analyzer/database.h"
#include "analyzer/fleet/fleet_load.h"
#include "analyzer/fleet/fleet_queries.h"
#include "analyzer/render/render_fleet.h"
#include "cli/choice_value.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/exit_codes.h"
#include "common/file_io.h"
#include "common/json_bytes.h"
#include "common/terminal_text.h"
#include "common/work_dir.h"

namespace gpuf {

namespace {

// A SQLite file given as the fleet database must be one: an analysis
// database opens, but holds none of the fleet's tables. (What is no SQLite
// file at all - a bundle, a FIFO - is taken as a bundle to analyze.)
Status CheckFleetFile(const std::string& path) {
  if (DatabaseKindOf(path) == DatabaseKind::kAnalysis) {
    return Status::BadInput("'" + path + "' is a gpuforensics analysis database, not a fleet database",
                            "write one with: gpuforensics analyze --db FLEET.sqlite BUNDLE BUNDLE...");
  }
  return Status::Ok();
}

// `fleet B1 B2 ...`: the bundles analyzed into a fleet database of its own,
// removed when the summary is printed. Bundles that cannot be analyzed are
// said on stderr, as analyze --db says them.
struct ScratchFleet {
  WorkDir dir;
  std::string db_path;
  size_t not_loaded = 0;
};

Result<ScratchFleet> AnalyzeIntoScratchFleet(const std::vector<std::string>& bundles) {
  ScratchFleet fleet;
  GPUF_ASSIGN_OR_RETURN(fleet.dir, WorkDir::Create("", "gpuforensics-fleet-"));
  fleet.db_path = fleet.dir / "fleet.sqlite";
  GPUF_ASSIGN_OR_RETURN(FleetLoadResult loaded, LoadFleet(fleet.db_path, {.bundles = bundles}));
  for (const auto& error : loaded.not_loaded) {
    std::fprintf(stderr, "gpuforensics fleet: not analyzed: %s\n", error.message.c_str());
  }
  fleet.not_loaded = loaded.not_loaded.size();
  return fleet;
}

}  // namespace

int RunFleet(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics fleet FLEET.sqlite [options]\n"
      "gpuforensics fleet BUNDLE BUNDLE... [options]\n\n"
      "Summarises a fleet database written by 'gpuforensics analyze --db FLEET.sqlite\n"
      "B1 B2 ...': nodes by finding (most severe first), by failed chain step, by\n"
      "component version, and the spread of the key intervals of the boot at capture.\n"
      "Given bundles instead, analyzes them into a fleet database of its own first and\n"
      "removes it after. Tables: schema/fleet/.\n\noptions");
  options.add_options()
      ("db", po::value<std::vector<std::string>>()->value_name("FLEET.sqlite|BUNDLE..."),
       "fleet database, or bundles to analyze")
      ("within", po::value<double>()->value_name("SECONDS")->default_value(2.0),
       "seconds: count nodes whose interval is between 0 and this (e.g. plugin start after driver load)")
      ("nodes", po::value<std::string>()->value_name("RULE"), "instead of the summary, list the nodes with a finding of this rule id")
      ("format", ChoiceOf({"text", "json"})->value_name("FORMAT")->default_value("text"),
       "text | json (schema/fleet.schema.json; with --nodes, an array of node names)");
  po::positional_options_description positional;
  positional.add("db", -1);
  auto parsed = ParseOptions("fleet", args, options, positional);
  if (!parsed.ok()) return ReportFailure("fleet", parsed.status());
  if (parsed->help) return PrintHelp("fleet", options, positional);
  const auto& v = parsed->values;
  if (!v.count("db")) {
    return ReportFailure("fleet", Status::InvalidArgument("no fleet database given",
                                                          "usage: gpuforensics fleet FLEET.sqlite"));
  }
  const std::string format = v["format"].as<std::string>();
  const auto inputs = v["db"].as<std::vector<std::string>>();
  std::string path = inputs[0];
  std::optional<ScratchFleet> scratch;
  if (inputs.size() > 1 || !IsSqliteFile(path)) {
    auto analyzed = AnalyzeIntoScratchFleet(inputs);
    if (!analyzed.ok()) return ReportFailure("fleet", analyzed.status());
    scratch.emplace(std::move(*analyzed));
    path = scratch->db_path;
  } else if (Status usable = CheckFleetFile(path); !usable.ok()) {
    return ReportFailure("fleet", usable);
  }
  auto db = Database::OpenReadOnly(path);
  if (!db.ok()) return ReportFailure("fleet", db.status());
  if (v.count("nodes")) {
    auto nodes = FleetNodesWithFinding(*db, v["nodes"].as<std::string>());
    if (!nodes.ok()) return ReportFailure("fleet", nodes.status());
    if (format == "json") {
      WriteStdout(DumpJson(nlohmann::json(*nodes), -1, NonUtf8::kEscaped) + "\n");
    } else {
      for (const auto& node : *nodes) WriteStdout(TerminalSafe(node) + "\n");
    }
    return scratch && scratch->not_loaded > 0 ? kExitBadInput : kExitOk;
  }
  auto summary = SummarizeFleet(*db, v["within"].as<double>());
  if (!summary.ok()) return ReportFailure("fleet", summary.status());
  WriteStdout(format == "json" ? RenderFleetJson(*summary) : TerminalSafe(RenderFleetText(*summary)));
  if (scratch && scratch->not_loaded > 0) return kExitBadInput;
  return summary->with_gaps > 0 ? kExitIncomplete : kExitOk;
}

}  // namespace gpuf
