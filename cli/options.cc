#include "cli/options.h"

#include <cstdio>

#include "common/exit_codes.h"

namespace gpuf {

namespace {

const char* program_name = "gpuforensics";
OptionsCapture capture_fn = nullptr;
void* capture_context = nullptr;

}  // namespace

void SetProgramName(const char* name) { program_name = name; }
const char* ProgramName() { return program_name; }

void SetOptionsCapture(OptionsCapture capture, void* context) {
  capture_fn = capture;
  capture_context = context;
}

Result<ParsedOptions> ParseOptions(const std::string& command, const std::vector<std::string>& args,
                                   po::options_description options,
                                   const po::positional_options_description& positional) {
  options.add_options()("help,h", "show this help");
  ParsedOptions parsed;
  if (capture_fn) {
    capture_fn(options, capture_context);
    parsed.help = true;
    return parsed;
  }
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), parsed.values);
    po::notify(parsed.values);
  } catch (const std::exception& e) {
    return Status::InvalidArgument(e.what(), "see '" + std::string(program_name) + " " + command + " --help'");
  }
  parsed.help = parsed.values.count("help") > 0;
  return parsed;
}

int ReportFailure(const std::string& command, const Status& status) {
  std::fprintf(stderr, "%s %s: %s\n", program_name, command.c_str(), status.message().c_str());
  return ExitCodeFor(status);
}

}  // namespace gpuf
