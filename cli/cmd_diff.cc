#include <cstdio>
#include <iostream>

#include "analyzer/diff/bundle_diff.h"
#include "analyzer/render/render_diff.h"
#include "cli/choice_value.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/pager.h"
#include "common/exit_codes.h"
#include "common/terminal_text.h"

namespace gpuf {

int RunDiff(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics diff A B [options]\n\n"
      "Analyzes two bundles and prints what differs between them: component versions,\n"
      "how the device plugin is deployed and configured, the intervals of the boot at\n"
      "capture, the GPUs seen at each step of the chain, the chain verdict, the\n"
      "device-plugin sockets and the findings. For two bundles of the same node\n"
      "(equal machine-id), A before B, it checks the recovery: was the plugin\n"
      "container really recreated, did it register, did allocatable come back.\n"
      "Two bundles always differ: the comparison exits 0 whatever it found, and 3\n"
      "when a bundle has members missing or not matching its manifest.\n\noptions");
  options.add_options()
      ("bundle-a", po::value<std::string>()->value_name("A"), "the first bundle (before)")
      ("bundle-b", po::value<std::string>()->value_name("B"), "the second bundle (after)")
      ("format", ChoiceOf({"text", "json", "markdown"})->value_name("FORMAT")->default_value("text"), "text | json (schema/diff.schema.json) | markdown")
      ("all", "also list the facts that are the same (text, markdown; json always has them)")
      ("tz", po::value<std::string>()->value_name("TZ")->default_value("UTC"),
       "zone for times in text and markdown: UTC, +HH:MM, node (A's zone), or a zone name")
      ("no-pager", "on a terminal, print the comparison instead of paging it ($GPUFORENSICS_PAGER, $PAGER or less)");
  po::positional_options_description positional;
  positional.add("bundle-a", 1).add("bundle-b", 1);
  auto parsed = ParseOptions("diff", args, options, positional);
  if (!parsed.ok()) return ReportFailure("diff", parsed.status());
  if (parsed->help) return PrintHelp("diff", options, positional);
  const auto& v = parsed->values;
  if (!v.count("bundle-a") || !v.count("bundle-b")) {
    return ReportFailure("diff", Status::InvalidArgument("two bundles needed", "usage: gpuforensics diff A B"));
  }
  const std::string format = v["format"].as<std::string>();
  const std::string tz = v["tz"].as<std::string>();
  if (tz != "node") {  // a bad zone is a usage error, found before loading anything
    auto zone = DisplayZone::Parse(tz, "");
    if (!zone.ok()) return ReportFailure("diff", zone.status());
  }
  auto diff = DiffBundles(v["bundle-a"].as<std::string>(), v["bundle-b"].as<std::string>());
  if (!diff.ok()) return ReportFailure("diff", diff.status());
  DiffRenderOptions render;
  render.show_all = v.count("all") > 0;
  auto zone = DisplayZone::Parse(tz, diff->a.node_zone);
  if (!zone.ok()) return ReportFailure("diff", zone.status());
  render.zone = *zone;
  std::string out = format == "json"       ? RenderDiffJson(*diff)
                    : format == "markdown" ? TerminalSafe(RenderDiffMarkdown(*diff, render))
                                           : TerminalSafe(RenderDiffText(*diff, render));
  StartPager(!v.count("no-pager"));
  WriteStdout(out);
  return diff->a.gaps.empty() && diff->b.gaps.empty() ? kExitOk : kExitIncomplete;
}

}  // namespace gpuf
