#include <cstdio>
#include <iostream>

#include "analyzer/analysis.h"
#include "analyzer/render/display_zone.h"
#include "analyzer/render/render_timeline.h"
#include "analyzer/report/node_zone.h"
#include "analyzer/timeline/timeline_view.h"
#include "cli/choice_value.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/pager.h"
#include "cli/progress_reporter.h"
#include "cli/terminal.h"
#include "common/exit_codes.h"
#include "common/terminal_text.h"

namespace gpuf {

namespace {

// Progress on stderr only when it is a terminal; erased before the timeline.
// A member that does not match the manifest is not evidence: its lines
// were printed with the rest, and this says which they are. True when any.
bool WarnOfDamage(const std::vector<IntegrityIssue>& issues) {
  if (issues.empty()) return false;
  std::fprintf(stderr,
               "gpuforensics timeline: warning: %zu members do not match the manifest; their lines above are not "
               "evidence:\n",
               issues.size());
  for (const auto& issue : issues) {
    std::fprintf(stderr, "  %s: %s\n", TerminalSafe(issue.member).c_str(), issue.problem.c_str());
  }
  return true;
}

Result<LoadResult> PrepareWithProgress(const std::string& bundle, Database& db, Preparation what) {
  ProgressReporter progress(StderrIsTerminal());
  return PrepareBundle(bundle, db, progress.Callback(), what);
}

}  // namespace

int RunTimeline(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics timeline BUNDLE [options]\n\n"
      "Prints the node's merged boot timeline: the milestones of the GPU chain by\n"
      "default, every timestamped event with --all.\n\noptions");
  options.add_options()
      ("bundle", po::value<std::string>()->value_name("BUNDLE"), "bundle (tar.zst)")
      ("all", "every event, not only the milestones")
      ("format", ChoiceOf({"text", "jsonl", "csv"})->value_name("FORMAT")->default_value("text"), "text | jsonl | csv")
      ("tz", po::value<std::string>()->value_name("TZ")->default_value("UTC"),
       "zone for text output: UTC, +HH:MM, node (the node's own zone), or a zone name")
      ("no-pager", "on a terminal, print the timeline instead of paging it ($GPUFORENSICS_PAGER, $PAGER or less)");
  po::positional_options_description positional;
  positional.add("bundle", 1);
  auto parsed = ParseOptions("timeline", args, options, positional);
  if (!parsed.ok()) return ReportFailure("timeline", parsed.status());
  if (parsed->help) return PrintHelp("timeline", options, positional);
  const auto& v = parsed->values;
  if (!v.count("bundle")) {
    return ReportFailure("timeline", Status::InvalidArgument("no bundle given", "usage: gpuforensics timeline BUNDLE"));
  }
  const std::string format = v["format"].as<std::string>();
  auto db = Database::Create(kScratchDatabase);
  if (!db.ok()) return ReportFailure("timeline", db.status());
  const bool milestones_only = v.count("all") == 0;
  auto loaded = PrepareWithProgress(v["bundle"].as<std::string>(), *db,
                                    milestones_only ? Preparation::kMilestones : Preparation::kEverything);
  if (!loaded.ok()) return ReportFailure("timeline", loaded.status());
  auto zone = DisplayZone::Parse(v["tz"].as<std::string>(), NodeZoneName(*db, loaded->bundle_id));
  if (!zone.ok()) return ReportFailure("timeline", zone.status());
  // Written as read: the whole timeline of a big bundle is millions of lines.
  StartPager(!v.count("no-pager"));
  if (format == "csv") WriteStdout(kTimelineCsvHeader);
  Status read = ForEachTimelineRow(*db, loaded->bundle_id, milestones_only, [&](const TimelineRow& r) {
    WriteStdout(format == "jsonl" ? TimelineJsonLine(r)
                : format == "csv" ? TimelineCsvLine(r)
                                  : TerminalSafe(TimelineTextLine(r, *zone)));
    // A reader that went away (`| head`) ends the work, not only the writing.
    return std::ferror(stdout) ? Status::IoError("writing to stdout") : Status::Ok();
  });
  if (!read.ok() && !std::ferror(stdout)) return ReportFailure("timeline", read);
  return WarnOfDamage(loaded->integrity_issues) ? kExitIncomplete : kExitOk;
}

}  // namespace gpuf
