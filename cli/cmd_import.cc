#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/options.h"
#include "common/exit_codes.h"
#include "importer/import_source.h"

namespace gpuf {

int RunImport(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics import SOURCE -o BUNDLE\n\n"
      "Converts another tool's capture into a gpuforensics bundle whose manifest marks\n"
      "its origin: a sos report (sosreport-*.tar.xz or its directory), an\n"
      "nvidia-bug-report.log(.gz), a GPU Operator must-gather directory, or a folder of\n"
      "command outputs saved by hand (docs/inputs.md).\n\noptions");
  options.add_options()
      ("source", po::value<std::string>()->value_name("SOURCE"), "what to convert (file or directory)")
      ("output,o", po::value<std::string>()->value_name("PATH"), "bundle to write (tar.zst): a new file, never the source")
      ("force", "replace an existing regular file at --output (never the source, a device, FIFO, directory or link)");
  po::positional_options_description positional;
  positional.add("source", 1);
  auto parsed = ParseOptions("import", args, options, positional);
  if (!parsed.ok()) return ReportFailure("import", parsed.status());
  if (parsed->help) return PrintHelp("import", options, positional);
  const auto& v = parsed->values;
  if (!v.count("source") || !v.count("output")) {
    return ReportFailure("import", Status::InvalidArgument("a source and -o BUNDLE are needed",
                                                          "usage: gpuforensics import SOURCE -o BUNDLE"));
  }
  const std::string output = v["output"].as<std::string>();
  auto kind = ImportSource(v["source"].as<std::string>(), output,
                           v.count("force") ? Replace::kRegularFile : Replace::kNever);
  if (!kind.ok()) return ReportFailure("import", kind.status());
  std::fprintf(stderr, "gpuforensics import: read %s, wrote %s\n", kind->c_str(), output.c_str());
  std::printf("%s\n", output.c_str());
  return kExitOk;
}

}  // namespace gpuf
