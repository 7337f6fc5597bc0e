// `PROGRAM help COMMAND` and the documentation forms docs/generate uses:
//   PROGRAM help --list                 every command name, one a line
//   PROGRAM help --markdown [COMMAND]   the command's Markdown page (the index without one)
//   PROGRAM help --man [COMMAND]        the command's man page (the program's without one)
//   gpuforensics help --exit-statuses   README's table of exit statuses
// for gpuforensics and kubectl gpuforensics alike.
#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli/help_docs.h"
#include "common/exit_codes.h"

namespace gpuf {

namespace {

const Command* FindCommand(const Program& program, const std::string& name) {
  for (const auto& c : program.commands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

void KeepOptions(const po::options_description& options, const po::positional_options_description& positional,
                 void* context) {
  auto* kept = static_cast<std::optional<CapturedOptions>*>(context);
  if (!*kept) kept->emplace(CapturedOptions{options, positional});
}

}  // namespace

// Runs the command with --help while ParseOptions hands its options over;
// the help text it prints is swallowed.
std::optional<CapturedOptions> CaptureOptions(const Command& command) {
  std::optional<CapturedOptions> kept;
  std::ostringstream swallowed;
  std::streambuf* saved = std::cout.rdbuf(swallowed.rdbuf());
  SetOptionsCapture(KeepOptions, &kept);
  command.handler({"--help"});
  SetOptionsCapture(nullptr, nullptr);
  std::cout.rdbuf(saved);
  return kept;
}

int RunHelpFor(const Program& program, const std::vector<std::string>& args) {
  const std::string name(program.name);
  if (args.size() == 1 && args[0] == "--exit-statuses" && name == "gpuforensics") {
    WriteStdout(ExitStatusMarkdown());
    return kExitOk;
  }
  if (args.size() == 1 && args[0] == "--list") {
    for (const auto& c : program.commands) std::printf("%.*s\n", static_cast<int>(c.name.size()), c.name.data());
    return kExitOk;
  }
  std::string form = args.size() >= 1 && (args[0] == "--markdown" || args[0] == "--man") ? args[0] : "";
  std::vector<std::string> rest(args.begin() + (form.empty() ? 0 : 1), args.end());
  if (rest.size() > 1) {
    std::fprintf(stderr, "%s help: usage: %s help [--markdown | --man] [COMMAND]\n", name.c_str(), name.c_str());
    return kExitUsage;
  }
  const std::string version(program.version);
  if (rest.empty()) {
    std::string out = form == "--man" ? IndexManPage(program.name, program.commands, version)
                                      : IndexMarkdown(program.name, program.commands);
    WriteStdout(out);
    return kExitOk;
  }
  const Command* command = FindCommand(program, rest[0]);
  if (!command) {
    std::fprintf(stderr, "%s help: unknown command '%s'; see '%s --help'\n", name.c_str(), rest[0].c_str(),
                 name.c_str());
    return kExitUsage;
  }
  if (form.empty()) return command->handler({"--help"});
  auto captured = CaptureOptions(*command);
  if (!captured) {
    std::fprintf(stderr, "%s help: '%s' does not describe its options\n", name.c_str(), rest[0].c_str());
    return kExitInternal;
  }
  CommandDoc doc = DescribeCommand(program.name, *command, *captured);
  std::string out = form == "--man" ? CommandManPage(doc, version) : CommandMarkdown(doc);
  WriteStdout(out);
  return kExitOk;
}

}  // namespace gpuf
