#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/options.h"
#include "collector/redact/bundle_redactor.h"
#include "collector/redact/redact_class.h"
#include "common/exit_codes.h"

namespace gpuf {

void AddRedactOptions(po::options_description& options) {
  std::string classes = "classes to apply: a list replaces the defaults, +name adds, -name removes. Classes";
  for (const auto& c : RedactClasses()) {
    classes += std::string("\n  ") + std::string(c.name) + (c.default_on ? " (on)" : " (off)") + ": " + std::string(c.what);
  }
  options.add_options()
      ("map", po::value<std::string>()->value_name("FILE"), "pseudonym map to reuse and extend (default: beside the written bundle, NAME.map.json); keep it private")
      ("redact-classes", po::value<std::string>()->value_name("CLASSES"), classes.c_str())
      ("redact-keyword", po::value<std::vector<std::string>>()->value_name("WORD")->composing(), "a word to replace wherever it appears (repeatable)")
      ("redact-pattern", po::value<std::vector<std::string>>()->value_name("FILE")->composing(),
       "a file of RE2 patterns, one a line, '#' comments; a match (its first group if any) is replaced (repeatable)");
}

RedactOptions RedactOptionsFrom(const po::variables_map& v) {
  RedactOptions o;
  if (v.count("map")) o.map_path = v["map"].as<std::string>();
  if (v.count("redact-classes")) o.classes = v["redact-classes"].as<std::string>();
  if (v.count("redact-keyword")) o.keywords = v["redact-keyword"].as<std::vector<std::string>>();
  if (v.count("redact-pattern")) o.pattern_files = v["redact-pattern"].as<std::vector<std::string>>();
  return o;
}

bool WantsRedaction(const po::variables_map& v) {
  return v.count("redact") || v.count("map") || v.count("redact-classes") || v.count("redact-keyword") ||
         v.count("redact-pattern");
}

std::string FormatCounts(const RedactionCounts& counts) {
  std::string text;
  for (const auto& [name, count] : counts) text += (text.empty() ? "" : ", ") + name + " " + std::to_string(count);
  return text.empty() ? "nothing (no original found)" : text;
}

int RunRedact(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics redact IN.tar.zst OUT.tar.zst [options]\n\n"
      "Writes a copy of a bundle that can leave the company: host and user names, addresses,\n"
      "cloud ids, secrets and your keywords are replaced by consistent pseudonyms; what the\n"
      "rules need (times, PCI ids, versions, Xids, log wording, container ids) stays. The map\n"
      "from pseudonyms back to originals, with the original hashes, goes to --map only.\n\noptions");
  options.add_options()
      ("input", po::value<std::string>()->value_name("IN.tar.zst"), "bundle to redact")
      ("output,o", po::value<std::string>()->value_name("OUT.tar.zst"),
       "redacted bundle to write: a new file (never the input); -o OUT as well as a second argument")
      ("force", "replace an existing regular file at OUT (never the input, a device, FIFO, directory or link)");
  AddRedactOptions(options);
  po::positional_options_description positional;
  positional.add("input", 1).add("output", 1);
  auto parsed = ParseOptions("redact", args, options, positional);
  if (!parsed.ok()) return ReportFailure("redact", parsed.status());
  if (parsed->help) return PrintHelp("redact", options, positional);
  const auto& v = parsed->values;
  if (!v.count("input") || !v.count("output")) {
    return ReportFailure("redact", Status::InvalidArgument("an input and an output bundle are needed",
                                                           "usage: gpuforensics redact IN.tar.zst OUT.tar.zst"));
  }
  const std::string input = v["input"].as<std::string>(), output = v["output"].as<std::string>();
  RedactOptions redact_options = RedactOptionsFrom(v);
  redact_options.force = v.count("force") > 0;
  auto outcome = RedactBundle(input, output, redact_options);
  if (!outcome.ok()) return ReportFailure("redact", outcome.status());
  for (const auto& member : outcome->dropped) {
    std::fprintf(stderr, "gpuforensics redact: dropped %s\n", member.c_str());
  }
  std::fprintf(stderr, "gpuforensics redact: replaced %s\n", FormatCounts(outcome->totals).c_str());
  std::fprintf(stderr, "gpuforensics redact: map (keep it private) %s\n", outcome->map_path.c_str());
  std::printf("%s\n", output.c_str());
  return kExitOk;
}

}  // namespace gpuf
