// Parsing a subcommand's options with Boost.ProgramOptions, without letting
// its exceptions escape: failures become a Status with a one-line message.
#ifndef GPUF_CLI_OPTIONS_H_
#define GPUF_CLI_OPTIONS_H_

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "common/status.h"

namespace gpuf {

namespace po = boost::program_options;

struct ParsedOptions {
  po::variables_map values;
  bool help = false;
};

// Adds --help, parses `args` against `options` (positionals as given), and
// fails with InvalidArgument naming the command.
Result<ParsedOptions> ParseOptions(const std::string& command, const std::vector<std::string>& args,
                                   po::options_description options,
                                   const po::positional_options_description& positional);

// While a capture is set, ParseOptions hands it the command's options (with
// --help added) and answers as if --help was given: `gpuforensics help
// --markdown|--man` documents every command from the very options its
// --help prints. Pass nullptr to stop capturing.
using OptionsCapture = void (*)(const po::options_description& options, void* context);
void SetOptionsCapture(OptionsCapture capture, void* context);

// Prints the options and the exit statuses that apply to `command` on
// stdout (the --help of every command); returns kExitOk.
int PrintHelp(const std::string& command, const po::options_description& options);

// Writes all of `text` to stdout, NUL bytes included; a failure shows in
// FinishStdout.
void WriteStdout(std::string_view text);

// Flushes stdout and checks that everything written reached it (a full
// disk, a closed pipe): returns `status`, or kExitIoError with one line on
// stderr naming `program` when stdout failed.
int FinishStdout(std::string_view program, int status);

// Prints a Status as "gpuforensics <command>: <message>" and returns its exit code.
int ReportFailure(const std::string& command, const Status& status);

}  // namespace gpuf

#endif  // GPUF_CLI_OPTIONS_H_
