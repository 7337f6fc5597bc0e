#include <cstdio>
#include <iostream>
#include <optional>

#include "analyzer/analysis.h"
#include "analyzer/database.h"
#include "analyzer/render/render_explain.h"
#include "analyzer/render/render_html.h"
#include "analyzer/render/render_json.h"
#include "analyzer/render/render_markdown.h"
#include "analyzer/render/render_text.h"
#include "analyzer/report/build_report.h"
#include "cli/choice_value.h"
#include "cli/commands.h"
#include "cli/fleet_load_cli.h"
#include "cli/options.h"
#include "cli/pager.h"
#include "cli/progress_reporter.h"
#include "cli/terminal.h"
#include "common/exit_codes.h"
#include "common/file_io.h"
#include "common/terminal_text.h"
#include "formats/message_catalogue.h"
#include "importer/bundle_repack.h"
#include "importer/import_source.h"

namespace gpuf {

namespace {

std::string RenderReport(const std::string& format, const Report& report, const DisplayZone& zone) {
  if (format == "json") return RenderJson(report);
  if (format == "markdown") return TerminalSafe(RenderMarkdown(report, zone));
  if (format == "html") return RenderHtml(report, zone);
  const TextStyle style = StdoutTextStyle();
  return TerminalSafe(RenderText(report, zone, style), style.color ? RendererColours::kKeep : RendererColours::kDrop);
}

// A --rules folder without a rule file is most often a wrong path: say so,
// since the built-in pack still runs and the report looks whole.
void WarnOfEmptyRuleFolders(const std::vector<std::string>& rule_dirs) {
  for (const auto& dir : rule_dirs) {
    auto files = ListFolder(dir, ".yaml");
    if (files.ok() && files->empty()) {
      std::fprintf(stderr, "gpuforensics analyze: warning: --rules '%s' holds no rule files (*.yaml)\n", dir.c_str());
    }
  }
}

// Progress on stderr only when it is a terminal; erased before the report.
Result<Analysis> AnalyzeWithProgress(const std::string& bundle, Database& db, const std::vector<std::string>& rule_dirs) {
  ProgressReporter progress(StderrIsTerminal());
  return AnalyzeBundle(bundle, db, rule_dirs, progress.Callback());
}

}  // namespace

int RunAnalyze(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics analyze BUNDLE... [options]\n\n"
      "Loads a bundle into SQLite, rebuilds the boot timeline, runs the known-issue\n"
      "rules and reports. Runs offline, anywhere.\n\noptions");
  options.add_options()
      ("bundle", po::value<std::string>()->value_name("BUNDLE"), "bundle to analyze (tar.zst), or a sos report, nvidia-bug-report log, "
       "must-gather or folder of saved outputs (docs/inputs.md)")
      ("db", po::value<std::string>()->value_name("FILE"),
       "keep the SQLite database in this file (schema: schema/*.sql; default: a private temporary file in $TMPDIR, "
       "deleted when analyze ends)")
      ("rules", po::value<std::vector<std::string>>()->value_name("DIR")->composing(),
       "a folder of site rules, in addition to the built-in pack (repeatable)")
      ("messages", po::value<std::vector<std::string>>()->value_name("DIR")->composing(),
       "a folder of site wordings (messages/*.yaml format), added to the built-in catalogue (repeatable)")
      ("format", ChoiceOf({"text", "json", "markdown", "html"})->value_name("FORMAT")->default_value("text"),
       "text | json (schema/report.schema.json) | markdown (incident summary) | html (one self-contained page)")
      ("tz", po::value<std::string>()->value_name("TZ")->default_value("UTC"),
       "zone for times shown: UTC, +HH:MM, node (the node's own zone), or a zone name")
      ("explain", po::value<std::string>()->value_name("RULE"),
       "instead of the report: why RULE did or did not fire (each selection true, false or unknown with its rows "
       "or the missing capture, each outcome tried, the confidence steps)")
      ("no-pager", "on a terminal, print the report instead of paging it ($GPUFORENSICS_PAGER, $PAGER or less)");
  options.add_options()
      ("more-bundles", po::value<std::vector<std::string>>()->value_name("BUNDLE..."),
       "further bundles: with --db, all go to one fleet database (schema/fleet/, gpuforensics fleet)")
      ("jobs", po::value<unsigned>()->value_name("N")->default_value(0), "fleet database: bundles analyzed at once (0: one per CPU)");
  po::positional_options_description positional;
  positional.add("bundle", 1);
  positional.add("more-bundles", -1);
  auto parsed = ParseOptions("analyze", args, options, positional);
  if (!parsed.ok()) return ReportFailure("analyze", parsed.status());
  if (parsed->help) return PrintHelp("analyze", options, positional);
  const auto& v = parsed->values;
  if (!v.count("bundle")) {
    return ReportFailure("analyze", Status::InvalidArgument("no bundle given", "usage: gpuforensics analyze BUNDLE"));
  }
  const std::string format = v["format"].as<std::string>();
  if (v.count("explain") && !v["format"].defaulted()) {
    return ReportFailure("analyze", Status::InvalidArgument("--explain prints text; --format shapes the report"));
  }
  const std::string bundle = v["bundle"].as<std::string>();
  const std::string db_path = v.count("db") ? v["db"].as<std::string>() : kScratchDatabase;
  std::vector<std::string> rule_dirs = v.count("rules") ? v["rules"].as<std::vector<std::string>>()
                                                         : std::vector<std::string>{};
  WarnOfEmptyRuleFolders(rule_dirs);
  if (v.count("messages")) {
    Status used = UseMessageFolders(v["messages"].as<std::vector<std::string>>());
    if (!used.ok()) return ReportFailure("analyze", used);
  }
  if (v.count("more-bundles")) {
    if (!v["format"].defaulted() || !v["tz"].defaulted() || v.count("explain")) {
      return ReportFailure("analyze", Status::InvalidArgument(
                                          "--format, --tz and --explain are about one bundle, not a fleet database",
                                          "summarise the fleet with: gpuforensics fleet FLEET.sqlite [--format json]"));
    }
    std::vector<std::string> bundles = {bundle};
    for (const auto& more : v["more-bundles"].as<std::vector<std::string>>()) bundles.push_back(more);
    return RunFleetLoad(bundles, v.count("db") ? db_path : "", rule_dirs, v["jobs"].as<unsigned>());
  }
  // Before anything is read: a wrong --db is refused at once, and only a
  // whole analysis is published there.
  std::optional<DatabaseOutput> kept;
  if (v.count("db")) {
    auto output = DatabaseOutput::Begin(db_path, DatabaseKind::kAnalysis);
    if (!output.ok()) return ReportFailure("analyze", output.status());
    kept.emplace(std::move(*output));
  }
  auto input = ResolveInput(bundle);  // another tool's capture is imported to a private temporary bundle
  if (!input.ok()) return ReportFailure("analyze", input.status());
  if (input->kind() == kRepackedBundleKind) {
    std::fprintf(stderr, "gpuforensics analyze: %s is a gpuforensics bundle re-packed; reading its members against "
                 "its manifest\n", bundle.c_str());
  } else if (input->imported()) {
    std::fprintf(stderr, "gpuforensics analyze: %s is input of kind %s; importing it\n", bundle.c_str(), input->kind().c_str());
  }
  auto db = Database::Create(kept ? kept->write_path() : db_path);
  if (!db.ok()) return ReportFailure("analyze", db.status());
  auto analysis = AnalyzeWithProgress(input->bundle_path(), *db, rule_dirs);
  if (!analysis.ok()) return ReportFailure("analyze", analysis.status());
  if (v.count("explain")) {
    auto text = RenderExplanation(analysis->rules, v["explain"].as<std::string>());
    if (!text.ok()) return ReportFailure("analyze", Status::InvalidArgument(text.status().message()));
    if (kept) {
      Status published = kept->Publish();
      if (!published.ok()) return ReportFailure("analyze", published);
    }
    StartPager(!v.count("no-pager"));
    WriteStdout(TerminalSafe(*text));  // its rows are strangers' log lines
    return kExitOk;
  }
  auto report = BuildReport(*db, *analysis, bundle);
  if (!report.ok()) return ReportFailure("analyze", report.status());
  auto zone = DisplayZone::Parse(v["tz"].as<std::string>(), report->node_zone);
  if (!zone.ok()) return ReportFailure("analyze", zone.status());
  if (kept) {
    Status published = kept->Publish();
    if (!published.ok()) return ReportFailure("analyze", published);
  }
  const std::string text = RenderReport(format, *report, *zone);
  StartPager(!v.count("no-pager"));
  WriteStdout(text);
  return AnalysisExitStatus(*report);
}

}  // namespace gpuf
