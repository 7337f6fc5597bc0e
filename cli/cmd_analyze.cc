#include <cstdio>
#include <iostream>

#include "analyzer/analysis.h"
#include "analyzer/database.h"
#include "analyzer/loader.h"
#include "analyzer/render_text.h"
#include "analyzer/report.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/exit_codes.h"

namespace gpuf {

int RunAnalyze(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics analyze BUNDLE [options]\n\n"
      "Loads a bundle into SQLite and reports the GPU chain. Runs offline, anywhere.\n\noptions");
  options.add_options()
      ("bundle", po::value<std::string>(), "bundle to analyze (tar.zst)")
      ("db", po::value<std::string>(), "keep the SQLite database in this file (schema: schema/*.sql)")
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
  if (!parsed->values.count("bundle")) {
    return ReportFailure("analyze", Status::InvalidArgument("no bundle given", "usage: gpuforensics analyze BUNDLE"));
  }
  const std::string bundle = parsed->values["bundle"].as<std::string>();
  const std::string db_path = parsed->values.count("db") ? parsed->values["db"].as<std::string>() : ":memory:";
  auto db = Database::Create(db_path);
  if (!db.ok()) return ReportFailure("analyze", db.status());
  auto loaded = AnalyzeBundle(bundle, *db);
  if (!loaded.ok()) {
    if (db_path != ":memory:") std::remove(db_path.c_str());  // nothing half-written is left behind
    return ReportFailure("analyze", loaded.status());
  }
  auto report = BuildReport(*db, *loaded, bundle);
  if (!report.ok()) return ReportFailure("analyze", report.status());
  auto zone = DisplayZone::Parse(parsed->values["tz"].as<std::string>(), report->node_zone);
  if (!zone.ok()) return ReportFailure("analyze", zone.status());
  std::fputs(RenderText(*report, *zone).c_str(), stdout);
  return kExitOk;
}

}  // namespace gpuf
