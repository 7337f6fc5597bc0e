#include "cli/options.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <set>

#include "cli/help_docs.h"
#include "cli/option_table.h"
#include "cli/pager.h"
#include "cli/suggest.h"
#include "common/exit_codes.h"
#include "common/terminal_text.h"

namespace gpuf {

namespace {

const char* program_name = "gpuforensics";
OptionsCapture capture_fn = nullptr;
void* capture_context = nullptr;

// The long names the positional arguments are stored under.
std::set<std::string> PositionalNames(const po::positional_options_description& positional) {
  std::set<std::string> names;
  unsigned count = positional.max_total_count();
  // An unbounded last positional repeats its name forever: stop at the first repeat.
  for (unsigned i = 0; i < count; ++i) {
    if (!names.insert(positional.name_for_position(i)).second) break;
  }
  return names;
}

// "unrecognised option '--fromat'" -> "... did you mean '--format'?"
std::string WithSuggestion(const po::unknown_option& e, const po::options_description& options,
                           const std::set<std::string>& positional) {
  std::string typo = e.get_option_name();
  std::string message = e.what();
  // kubectl's and docker's -o picks a format; here --format does, and -o only ever names a file.
  if (typo == "-o" && options.find_nothrow("format", false) && !options.find_nothrow("output", false)) {
    return message + ", did you mean '--format'?";
  }
  if (typo.rfind("--", 0) != 0) return message;
  std::vector<std::string> names;
  for (const auto& o : options.options()) {
    if (!o->long_name().empty() && !positional.count(o->long_name())) names.push_back("--" + o->long_name());
  }
  std::string best = ClosestName(typo.substr(0, typo.find('=')), names);
  return best.empty() ? message : message + ", did you mean '" + best + "'?";
}

// Boost keeps the caption private; it prints it first, then ":" and the options.
std::string CaptionOf(const po::options_description& options) {
  std::ostringstream printed;
  printed << options;
  std::string text = printed.str();
  size_t first_option = text.find("\n  -");
  std::string caption = text.substr(0, first_option == std::string::npos ? text.size() : first_option);
  while (!caption.empty() && (caption.back() == '\n' || caption.back() == ':')) caption.pop_back();
  return caption;
}

}  // namespace

void SetProgramName(const char* name) { program_name = name; }
const char* ProgramName() { return program_name; }

void SetOptionsCapture(OptionsCapture capture, void* context) {
  capture_fn = capture;
  capture_context = context;
}

po::options_description VisibleOptions(const po::options_description& options,
                                       const po::positional_options_description& positional) {
  std::set<std::string> hidden = PositionalNames(positional);
  po::options_description visible(CaptionOf(options));
  for (const auto& o : options.options()) {
    if (!hidden.count(o->long_name())) visible.add(o);
  }
  return visible;
}

std::string HelpText(const po::options_description& options, const po::positional_options_description& positional) {
  return CaptionOf(options) + ":\n" + OptionTable(VisibleOptions(options, positional)) + "\n";
}

Result<ParsedOptions> ParseOptions(const std::string& command, const std::vector<std::string>& args,
                                   po::options_description options,
                                   const po::positional_options_description& positional) {
  options.add_options()("help,h", "show this help");
  ParsedOptions parsed;
  if (capture_fn) {
    capture_fn(options, positional, capture_context);
    parsed.help = true;
    return parsed;
  }
  const std::string see = "see '" + std::string(program_name) + " " + command + " --help'";
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), parsed.values);
    po::notify(parsed.values);
  } catch (const po::unknown_option& e) {
    return Status::InvalidArgument(WithSuggestion(e, options, PositionalNames(positional)), see);
  } catch (const std::exception& e) {
    return Status::InvalidArgument(e.what(), see);
  }
  parsed.help = parsed.values.count("help") > 0;
  return parsed;
}

int PrintHelp(const std::string& command, const po::options_description& options,
              const po::positional_options_description& positional) {
  std::cout << HelpText(options, positional) << ExamplesHelp(program_name, command) << ExitStatusHelp(command);
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
  const bool paged = PagerActive();
  struct stat out {};
  const bool pipe = fstat(fileno(stdout), &out) == 0 && S_ISFIFO(out.st_mode);
  std::cout.flush();
  errno = 0;
  bool failed = std::fflush(stdout) != 0;
  int err = g_stdout_errno ? g_stdout_errno : errno;
  failed = failed || std::cout.fail() || std::ferror(stdout);
  // A write into a pipe fails only when its reader went away: std::cout's
  // failed write keeps no errno, and the pager may quit while we write.
  if (failed && err == 0 && pipe) err = EPIPE;
  if (!failed && std::fclose(stdout) != 0) {
    failed = true;
    err = errno;
  }
  WaitForPager();
  if (!failed) return status;
  // A reader that went away (`| head`) is no error to report: the status says it, quietly. A pager the
  // reader quit early is no failure at all.
  if (err == EPIPE) return paged ? status : kExitIoError;
  std::fprintf(stderr, "%.*s: writing to stdout: %s\n", static_cast<int>(program.size()), program.data(),
               err ? std::strerror(err) : "write error");
  return kExitIoError;
}

int ReportFailure(const std::string& command, const Status& status) {
  // Messages quote inputs (a zone name from a bundle, a kind from a file): shown, never obeyed.
  std::fprintf(stderr, "%s %s: %s\n", program_name, command.c_str(), TerminalSafe(status.message()).c_str());
  return ExitCodeFor(status);
}

}  // namespace gpuf
