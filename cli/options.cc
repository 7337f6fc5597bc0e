#include "cli/options.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "common/exit_codes.h"

namespace gpuf {

namespace {

OptionsCapture capture_fn = nullptr;
void* capture_context = nullptr;

}  // namespace

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
    return Status::InvalidArgument(e.what(), "see 'gpuforensics " + command + " --help'");
  }
  parsed.help = parsed.values.count("help") > 0;
  return parsed;
}

int PrintHelp(const std::string& command, const po::options_description& options) {
  std::cout << options << "\n" << ExitStatusHelp(command);
  return kExitOk;
}

namespace {

// The first write error on stdout: stdio keeps only a flag.
int g_stdout_errno = 0;

}  // namespace

void WriteStdout(std::string_view text) {
  if (text.empty()) return;
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() && g_stdout_errno == 0) g_stdout_errno = errno;
}

int FinishStdout(std::string_view program, int status) {
  std::cout.flush();
  errno = 0;
  bool failed = std::fflush(stdout) != 0;
  int err = g_stdout_errno ? g_stdout_errno : errno;
  failed = failed || std::cout.fail() || std::ferror(stdout);
  if (!failed && std::fclose(stdout) != 0) {
    failed = true;
    err = errno;
  }
  if (!failed) return status;
  std::fprintf(stderr, "%.*s: writing to stdout: %s\n", static_cast<int>(program.size()), program.data(),
               err ? std::strerror(err) : "write error");
  return kExitIoError;
}

int ReportFailure(const std::string& command, const Status& status) {
  std::fprintf(stderr, "gpuforensics %s: %s\n", command.c_str(), status.message().c_str());
  return ExitCodeFor(status);
}

}  // namespace gpuf
