// What a command's pages say beyond its options, as data: its examples and
// the environment variables it reads. help_docs.cc renders them into the
// EXAMPLES and ENVIRONMENT sections of every man page and Markdown page;
// help_docs_test requires every command of every program to have both.
#ifndef GPUF_CLI_COMMAND_DOCS_H_
#define GPUF_CLI_COMMAND_DOCS_H_

#include <span>
#include <string_view>

namespace gpuf {

struct Example {
  std::string_view command_line;  // "gpuforensics analyze b.tar.zst --format html > r.html"
  std::string_view what;          // what it does, one line
};

struct EnvironmentUse {
  std::string_view variable;  // "TMPDIR"
  std::string_view effect;    // what it changes for this command
};

struct CommandPageExtras {
  std::string_view program;  // "gpuforensics" | "kubectl gpuforensics"
  std::string_view command;  // "" for the program's index page
  std::span<const Example> examples;
  std::span<const EnvironmentUse> environment;  // empty: it reads none (the page says so)
};

// nullptr when the table has no row for the command (a test refuses that).
const CommandPageExtras* PageExtras(std::string_view program, std::string_view command);

}  // namespace gpuf

#endif  // GPUF_CLI_COMMAND_DOCS_H_
