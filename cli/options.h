// Parsing a subcommand's options with Boost.ProgramOptions, without letting
// its exceptions escape: failures become a Status with a one-line message.
#ifndef GPUF_CLI_OPTIONS_H_
#define GPUF_CLI_OPTIONS_H_

#include <boost/program_options.hpp>
#include <sstream>
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
// fails with InvalidArgument naming the command; a mistyped --option gets
// the closest one suggested ("did you mean '--format'?").
Result<ParsedOptions> ParseOptions(const std::string& command, const std::vector<std::string>& args,
                                   po::options_description options,
                                   const po::positional_options_description& positional);

// While a capture is set, ParseOptions hands it the command's options (with
// --help added) and positional arguments and answers as if --help was
// given: `gpuforensics help --markdown|--man` documents every command from
// the very options its --help prints. Pass nullptr to stop capturing.
using OptionsCapture = void (*)(const po::options_description& options,
                                const po::positional_options_description& positional, void* context);
void SetOptionsCapture(OptionsCapture capture, void* context);

// The options without those that hold positional arguments: those are
// words of the usage line (analyze BUNDLE...), not --options.
po::options_description VisibleOptions(const po::options_description& options,
                                       const po::positional_options_description& positional);
// What --help prints: the caption (usage lines, description) and the visible options.
std::string HelpText(const po::options_description& options, const po::positional_options_description& positional);
// Prints the options and the exit statuses that apply to `command` on
// stdout (the --help of every command); returns kExitOk.
int PrintHelp(const std::string& command, const po::options_description& options,
              const po::positional_options_description& positional);

// Writes all of `text` to stdout, NUL bytes included; a failure shows in
// FinishStdout.
void WriteStdout(std::string_view text);

// Flushes stdout and checks that everything written reached it (a full
// disk, a closed pipe): returns `status`, or kExitIoError with one line on
// stderr naming `program` when stdout failed.
int FinishStdout(std::string_view program, int status);

// Prints a Status as "gpuforensics <command>: <message>" and returns its exit code.
int ReportFailure(const std::string& command, const Status& status);

// How messages name the program: "gpuforensics" unless a binary says
// otherwise ("kubectl gpuforensics"). Set once in main, before parsing.
void SetProgramName(const char* name);
const char* ProgramName();

}  // namespace gpuf

#endif  // GPUF_CLI_OPTIONS_H_
