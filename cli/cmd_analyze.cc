#include <cstdio>
#include <iostream>

#include "analyzer/analysis.h"
#include "analyzer/database.h"
#include "analyzer/render_json.h"
#include "analyzer/render_text.h"
#include "analyzer/report.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/exit_codes.h"

namespace gpuf {

int RunAnalyze(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics analyze BUNDLE [options]\n\n"
      "Loads a bundle into SQLite, rebuilds the boot timeline, runs the known-issue\n"
      "rules and reports. Runs offline, anywhere. Exit status: 0 nothing at medium\n"
      "severity or above, 1 something at medium or above, 2 unusable input.\n\noptions");
  options.add_options()
      ("bundle", po::value<std::string>(), "bundle to analyze (tar.zst)")
      ("db", po::value<std::string>(), "keep the SQLite database in this file (schema: schema/*.sql)")
      ("rules", po::value<std::vector<std::string>>()->composing(),
       "a folder of site rules, in addition to the built-in pack (repeatable)")
      ("format", po::value<std::string>()->default_value("text"), "text | json (schema/report.schema.json)")
      ("tz", po::value<std::string>()->default_value("UTC"),
       "zone for times shown: UTC, +HH:MM, node (the node's own zone), or a zone name");
  po::positional_options_description positional;
  positional.add("bundle", 1);
  auto parsed = ParseOptions("analyze", args, options, positional);
  if (!parsed.ok()) return ReportFailure("analyze", parsed.status());
  if (parsed->help) {
    std::cout << options << "\n";
    return kExitOk;
  }
  const auto& v = parsed->values;
  if (!v.count("bundle")) {
    return ReportFailure("analyze", Status::InvalidArgument("no bundle given", "usage: gpuforensics analyze BUNDLE"));
  }
  const std::string format = v["format"].as<std::string>();
  if (format != "text" && format != "json") {
    return ReportFailure("analyze", Status::InvalidArgument("--format must be text or json"));
  }
  const std::string bundle = v["bundle"].as<std::string>();
  const std::string db_path = v.count("db") ? v["db"].as<std::string>() : kScratchDatabase;
  std::vector<std::string> rule_dirs = v.count("rules") ? v["rules"].as<std::vector<std::string>>()
                                                         : std::vector<std::string>{};
  auto db = Database::Create(db_path);
  if (!db.ok()) return ReportFailure("analyze", db.status());
  auto analysis = AnalyzeBundle(bundle, *db, rule_dirs);
  if (!analysis.ok()) {
    if (db_path != kScratchDatabase) std::remove(db_path.c_str());  // nothing half-written is left behind
    return ReportFailure("analyze", analysis.status());
  }
  auto report = BuildReport(*db, *analysis, bundle);
  if (!report.ok()) return ReportFailure("analyze", report.status());
  auto zone = DisplayZone::Parse(v["tz"].as<std::string>(), report->node_zone);
  if (!zone.ok()) return ReportFailure("analyze", zone.status());
  std::string out = format == "json" ? RenderJson(*report) : RenderText(*report, *zone);
  std::fputs(out.c_str(), stdout);
  return HasSeriousFinding(*report) ? kExitFindings : kExitOk;
}

}  // namespace gpuf
