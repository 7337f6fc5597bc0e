#include "cli/program.h"

#include <signal.h>

#include <cstdio>
#include <exception>
#include <string>

#include "cli/completion.h"
#include "cli/help_docs.h"
#include "cli/interrupt.h"
#include "cli/options.h"
#include "common/exit_codes.h"

namespace gpuf {

namespace {

void PrintUsage(const Program& program, FILE* out) {
  const std::string name(program.name);
  std::fprintf(out, "usage: %s COMMAND [options]\n       %s COMMAND --help\n       %s version\n\n%.*s\n", name.c_str(),
               name.c_str(), name.c_str(), static_cast<int>(program.heading.size()), program.heading.data());
  for (const auto& c : program.commands) {
    std::fprintf(out, "  %-10s %.*s\n", std::string(c.name).c_str(), static_cast<int>(c.help.size()), c.help.data());
  }
}

// The last guard: a library that throws where it should have returned a
// Status ends the command with a line and EX_SOFTWARE, its temporary files
// removed by their destructors on the way out, instead of an abort that
// leaves staging directories with unredacted outputs behind.
int RunHandler(const std::string& name, const Command& command, const std::vector<std::string>& args) {
  try {
    return command.handler(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error: %s\n", name.c_str(), e.what());
  } catch (...) {
    std::fprintf(stderr, "%s: internal error\n", name.c_str());
  }
  return kExitInternal;
}

}  // namespace

int RunProgram(const Program& program, const std::vector<std::string>& args) {
  if (args.empty()) {
    PrintUsage(program, stderr);
    return kExitUsage;
  }
  const std::string& command = args[0];
  if (command == "--help" || command == "-h" || (command == "help" && args.size() == 1)) {
    PrintUsage(program, stdout);
    return FinishStdout(program.name, kExitOk);
  }
  if (command == "help") {
    return FinishStdout(std::string(program.name) + " help",
                        RunHelpFor(program, std::vector<std::string>(args.begin() + 1, args.end())));
  }
  if (command == "--version" || command == "-V" || command == "version") {
    std::printf("%.*s %.*s (commit %.*s)\n", static_cast<int>(program.name.size()), program.name.data(),
                static_cast<int>(program.version.size()), program.version.data(),
                static_cast<int>(program.commit.size()), program.commit.data());
    return FinishStdout(program.name, kExitOk);
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (command == "__complete") {  // for kubectl's plugin completion, and any shell that speaks cobra's protocol
    WriteStdout(CobraCompletions(CompletionTable(program.commands), rest));
    return FinishStdout(program.name, kExitOk);
  }
  InstallCleanupOnSignal();
  // Output into a closed pipe is a failed write with a documented status (74), not death by SIGPIPE (141).
  signal(SIGPIPE, SIG_IGN);
  for (const auto& c : program.commands) {
    if (c.name != command) continue;
    const std::string name = std::string(program.name) + " " + command;
    return FinishStdout(name, RunHandler(name, c, rest));
  }
  std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(program.name.size()), program.name.data(),
               program.unknown_command(command).c_str());
  return kExitUsage;
}

}  // namespace gpuf
