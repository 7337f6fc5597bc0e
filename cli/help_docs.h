// A command's documentation rendered from the same options its --help
// prints: Markdown for docs/cli/<command>.md and roff for
// docs/man/gpuforensics-<command>.1 (docs/generate writes both).
#ifndef GPUF_CLI_HELP_DOCS_H_
#define GPUF_CLI_HELP_DOCS_H_

#include <span>
#include <string>

#include "cli/commands.h"
#include "cli/options.h"

namespace gpuf {

struct CommandDoc {
  std::string name;         // "analyze"
  std::string summary;      // the command table's one line
  std::string synopsis;     // usage lines, the caption's first paragraph
  std::string description;  // the rest of the caption
  struct Option {
    std::string flags;          // "-o, --output"
    std::string argument;       // "arg", "" for a switch
    std::string default_value;  // "" when none
    std::string description;
  };
  std::vector<Option> options;
  struct ExitStatus {
    int code;
    std::string meaning;
  };
  std::vector<ExitStatus> exit_statuses;  // those of common/exit_codes.h that apply
};

CommandDoc DescribeCommand(const Command& command, const po::options_description& options);

std::string CommandMarkdown(const CommandDoc& doc);
std::string CommandManPage(const CommandDoc& doc, const std::string& version);

// The index of every command: docs/cli/README.md and gpuforensics(1).
std::string IndexMarkdown(std::span<const Command> commands);
std::string IndexManPage(std::span<const Command> commands, const std::string& version);

}  // namespace gpuf

#endif  // GPUF_CLI_HELP_DOCS_H_
