// A command's documentation rendered from the same options its --help
// prints, plus its examples, environment and exit statuses
// (command_docs.h, exit_status_docs.h): Markdown for docs/cli/ and roff for
// docs/man/ (docs/generate writes both), with the sections of kubectl's and
// systemd's pages: SYNOPSIS with the arguments as words, DESCRIPTION,
// ARGUMENTS, OPTIONS, EXIT STATUS, ENVIRONMENT, EXAMPLES, SEE ALSO.
#ifndef GPUF_CLI_HELP_DOCS_H_
#define GPUF_CLI_HELP_DOCS_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command_docs.h"
#include "cli/exit_status_docs.h"
#include "cli/options.h"
#include "cli/program.h"

namespace gpuf {

struct CommandDoc {
  std::string program;      // "gpuforensics" | "kubectl gpuforensics"
  std::string name;         // "analyze"
  std::string summary;      // the command table's one line
  std::string synopsis;     // usage lines, the caption's first paragraph
  std::string description;  // the rest of the caption
  struct Argument {
    std::string name;  // as the usage line writes it: "BUNDLE..."
    std::string description;
  };
  std::vector<Argument> arguments;
  struct Option {
    std::string flags;          // "-o, --output"
    std::string argument;       // "arg", "" for a switch
    std::string default_value;  // "" when none
    std::string description;
  };
  std::vector<Option> options;
  std::vector<ExitStatusDoc> exit_statuses;
  std::span<const EnvironmentUse> environment;
  std::span<const Example> examples;
};

// The page's file name without extension: "gpuforensics-analyze",
// "kubectl-gpuforensics-collect"; with command "" the program's index page.
std::string PageStem(std::string_view program, std::string_view command);

// The options a command parses, taken from it by running it with --help
// while ParseOptions hands them over (nothing is printed).
struct CapturedOptions {
  po::options_description options;
  po::positional_options_description positional;
};
std::optional<CapturedOptions> CaptureOptions(const Command& command);

CommandDoc DescribeCommand(std::string_view program, const Command& command, const CapturedOptions& captured);

std::string CommandMarkdown(const CommandDoc& doc);
std::string CommandManPage(const CommandDoc& doc, const std::string& version);

// The index of a program's commands: docs/cli/README.md and gpuforensics(1),
// docs/cli/kubectl-gpuforensics.md and kubectl-gpuforensics(1).
std::string IndexMarkdown(std::string_view program, std::span<const Command> commands);
std::string IndexManPage(std::string_view program, std::span<const Command> commands, const std::string& version);

// The examples of a command's page as --help prints them ("examples:" and
// each command line with what it does below it); "" when it has none.
std::string ExamplesHelp(std::string_view program, std::string_view command);

// `PROGRAM help [--list | --markdown | --man] [COMMAND]` for any program's table.
int RunHelpFor(const Program& program, const std::vector<std::string>& args);

}  // namespace gpuf

#endif  // GPUF_CLI_HELP_DOCS_H_
