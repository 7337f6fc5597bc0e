// `gpuforensics help COMMAND` and the hidden documentation forms that
// docs/generate uses:
//   gpuforensics help --list                 every command name, one a line
//   gpuforensics help --markdown [COMMAND]   docs/cli/COMMAND.md (README.md without one)
//   gpuforensics help --man [COMMAND]        docs/man/gpuforensics-COMMAND.1 (gpuforensics.1)
//   gpuforensics help --exit-statuses        README's table of exit statuses
#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/help_docs.h"
#include "cli/options.h"
#include "common/exit_codes.h"

#ifndef GPUF_VERSION
#define GPUF_VERSION "0.0.0"
#endif

namespace gpuf {

namespace {

const Command* FindCommand(const std::string& name) {
  for (const auto& c : Commands()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

void KeepOptions(const po::options_description& options, void* context) {
  auto* kept = static_cast<std::optional<po::options_description>*>(context);
  if (!*kept) kept->emplace(options);
}

// Runs the command with --help while ParseOptions hands its options over;
// the help text it prints is swallowed.
std::optional<po::options_description> CaptureOptions(const Command& command) {
  std::optional<po::options_description> kept;
  std::ostringstream swallowed;
  std::streambuf* saved = std::cout.rdbuf(swallowed.rdbuf());
  SetOptionsCapture(KeepOptions, &kept);
  command.handler({"--help"});
  SetOptionsCapture(nullptr, nullptr);
  std::cout.rdbuf(saved);
  return kept;
}

int UnknownCommand(const std::string& name) {
  std::fprintf(stderr, "gpuforensics help: unknown command '%s'; see 'gpuforensics --help'\n", name.c_str());
  return kExitUsage;
}

}  // namespace

int RunHelp(const std::vector<std::string>& args) {
  if (args.size() == 1 && args[0] == "--exit-statuses") {
    WriteStdout(ExitStatusMarkdown());
    return kExitOk;
  }
  if (args.size() == 1 && args[0] == "--list") {
    for (const auto& c : Commands()) std::printf("%.*s\n", static_cast<int>(c.name.size()), c.name.data());
    return kExitOk;
  }
  std::string form = args.size() >= 1 && (args[0] == "--markdown" || args[0] == "--man") ? args[0] : "";
  std::vector<std::string> rest(args.begin() + (form.empty() ? 0 : 1), args.end());
  if (rest.size() > 1) {
    std::fprintf(stderr, "gpuforensics help: usage: gpuforensics help [--markdown | --man] [COMMAND]\n");
    return kExitUsage;
  }
  if (rest.empty()) {
    std::string out = form == "--man" ? IndexManPage(Commands(), GPUF_VERSION) : IndexMarkdown(Commands());
    WriteStdout(out);
    return kExitOk;
  }
  const Command* command = FindCommand(rest[0]);
  if (!command) return UnknownCommand(rest[0]);
  if (form.empty()) return command->handler({"--help"});
  auto options = CaptureOptions(*command);
  if (!options) {
    std::fprintf(stderr, "gpuforensics help: '%s' does not describe its options\n", rest[0].c_str());
    return kExitInternal;
  }
  CommandDoc doc = DescribeCommand(*command, *options);
  std::string out = form == "--man" ? CommandManPage(doc, GPUF_VERSION) : CommandMarkdown(doc);
  WriteStdout(out);
  return kExitOk;
}

}  // namespace gpuf
