#include "cli/help_docs.h"

#include <doctest/doctest.h>

#include <sstream>
#include <unistd.h>

#include <filesystem>

#include "cli/commands.h"
#include "common/exit_codes.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

int NoRun(const std::vector<std::string>&) { return 0; }

std::string PluginBinary() {
  return (std::filesystem::path(test::GpuforensicsBinary()).parent_path() / "kubectl-gpuforensics").string();
}

}  // namespace

TEST_SUITE("help_docs") {

TEST_CASE("DescribeCommand: synopsis, arguments as words, options with their defaults, the closing sections") {
  po::options_description options("gpuforensics analyze FILE... [options]\n\nDoes a demo. It wraps\nover two lines.\n\noptions");
  options.add_options()
      ("file", po::value<std::vector<std::string>>()->value_name("FILE..."), "the files to read")
      ("output,o", po::value<std::string>(), "where to write")
      ("timeout", po::value<double>()->default_value(10), "seconds one step may take")
      ("dry-run", "change nothing");
  po::positional_options_description positional;
  positional.add("file", -1);
  Command command{"analyze", "show how docs are made", NoRun};
  CommandDoc doc = DescribeCommand("gpuforensics", command, {options, positional});
  CHECK(doc.synopsis == "gpuforensics analyze FILE... [options]");
  CHECK(doc.description == "Does a demo. It wraps\nover two lines.");
  REQUIRE(doc.arguments.size() == 1);
  CHECK(doc.arguments[0].name == "FILE...");
  CHECK(doc.arguments[0].description == "the files to read");
  REQUIRE(doc.options.size() == 3);  // the positional is an argument, not an option
  CHECK(doc.options[0].flags == "-o, --output");
  CHECK(doc.options[0].argument == "arg");
  CHECK(doc.options[1].default_value == "10");
  CHECK(doc.options[2].argument == "");

  std::string md = CommandMarkdown(doc);
  CHECK(md.find("# gpuforensics analyze\n\nshow how docs are made\n\n    gpuforensics analyze FILE... [options]\n\n"
                "Does a demo. It wraps over two lines.\n") != std::string::npos);
  CHECK(md.find("## Arguments\n\n| Argument | Description |\n|---|---|\n| `FILE...` | the files to read |\n") !=
        std::string::npos);
  CHECK(md.find("| `--timeout` | arg | `10` | seconds one step may take |\n") != std::string::npos);
  // analyze's rows of common/exit_codes.h's table, in code order.
  std::string statuses = "## Exit status\n\n| Status | Meaning |\n|---|---|\n";
  for (const auto& row : ExitStatuses()) {
    if (AppliesTo(row, "analyze")) statuses += "| " + std::to_string(row.code) + " | " + std::string(row.meaning) + " |\n";
  }
  CHECK(md.find(statuses) != std::string::npos);
  CHECK(md.find("## Environment\n\n| Variable | Effect |\n|---|---|\n| `TMPDIR` |") != std::string::npos);
  CHECK(md.find("## Examples\n\nchain verdict, boot timeline, findings, coverage:\n\n"
                "    gpuforensics analyze bundle.tar.zst\n") != std::string::npos);

  std::string man = CommandManPage(doc, "1.2.3");
  CHECK(man.find(".TH GPUFORENSICS\\-ANALYZE 1 \"\" \"gpuforensics 1.2.3\" \"gpuforensics manual\"\n") !=
        std::string::npos);
  CHECK(man.find(".SH ARGUMENTS\n.TP\n\\fIFILE...\\fR\nthe files to read\n.SH OPTIONS\n") != std::string::npos);
  CHECK(man.find(".TP\n\\fB\\-\\-timeout\\fR \\fIarg\\fR\nseconds one step may take (default: 10)\n") !=
        std::string::npos);
  CHECK(man.find(".SH EXIT STATUS\n.TP\n.B 0\ndone: the chain is not broken") != std::string::npos);
  CHECK(man.find(".SH ENVIRONMENT\n.TP\n.B TMPDIR\n") != std::string::npos);
  CHECK(man.find(".SH EXAMPLES\n.PP\nchain verdict, boot timeline, findings, coverage:\n.RS 4\n.nf\n"
                 "\\fBgpuforensics analyze bundle.tar.zst\\fR\n.fi\n.RE\n") != std::string::npos);
}

TEST_CASE("Every command of both programs has examples, and every page EXIT STATUS, ENVIRONMENT and EXAMPLES") {
  for (const auto& c : Commands()) {
    const CommandPageExtras* extras = PageExtras("gpuforensics", c.name);
    REQUIRE_MESSAGE(extras, c.name);
    CHECK_MESSAGE(!extras->examples.empty(), c.name);
  }
  for (const auto& [binary, program] : {std::pair{test::GpuforensicsBinary(), std::string("gpuforensics")},
                                        std::pair{PluginBinary(), std::string("kubectl gpuforensics")}}) {
    auto list = test::RunProcess({binary, "help", "--list"});
    REQUIRE(list.exit_code == 0);
    std::vector<std::string> pages = {""};
    for (size_t start = 0, end; (end = list.out.find('\n', start)) != std::string::npos; start = end + 1) {
      pages.push_back(list.out.substr(start, end - start));
    }
    for (const auto& page : pages) {
      std::vector<std::string> man_args = {binary, "help", "--man"}, md_args = {binary, "help", "--markdown"};
      if (!page.empty()) {
        man_args.push_back(page);
        md_args.push_back(page);
      }
      auto man = test::RunProcess(man_args);
      auto md = test::RunProcess(md_args);
      const std::string label = program + " " + page;
      REQUIRE_MESSAGE(man.exit_code == 0, label);
      for (const std::string section : {"\n.SH EXIT STATUS\n", "\n.SH ENVIRONMENT\n", "\n.SH EXAMPLES\n"}) {
        const std::string what = label + ": " + section;
        CHECK_MESSAGE(man.out.find(section) != std::string::npos, what);
      }
      for (const std::string section : {"\n## Exit status\n", "\n## Environment\n", "\n## Examples\n"}) {
        const std::string what = label + ": " + section;
        CHECK_MESSAGE(md.out.find(section) != std::string::npos, what);
      }
    }
  }
}

TEST_CASE("gpuforensics help: every command documents itself, unknown ones are a usage error") {
  auto list = test::RunGpuforensics({"help", "--list"});
  REQUIRE(list.exit_code == 0);
  CHECK(list.out.find("analyze\n") != std::string::npos);
  auto md = test::RunGpuforensics({"help", "--markdown", "analyze"});
  CHECK(md.exit_code == 0);
  CHECK(md.out.find("| `--format` | FORMAT | `text` |") != std::string::npos);
  CHECK(md.out.find("`--bundle`") == std::string::npos);  // an argument, not an option
  CHECK(md.out.find("| `--db` | FILE |  | keep the SQLite database in this file (schema: schema/*.sql; default: a "
                    "private temporary file in $TMPDIR, deleted when analyze ends) |") != std::string::npos);
  CHECK(md.err.empty());
  // Every value an option takes has a name that says what it is, never Boost's "arg".
  std::istringstream commands(list.out);
  for (std::string command; std::getline(commands, command);) {
    if (command.empty()) continue;
    CAPTURE(command);
    auto doc = test::RunGpuforensics({"help", "--markdown", command});
    CHECK(doc.out.find("| arg |") == std::string::npos);
  }
  auto man = test::RunGpuforensics({"help", "--man", "timeline"});
  CHECK(man.exit_code == 0);
  CHECK(man.out.find(".SH OPTIONS\n") != std::string::npos);
  auto plain = test::RunGpuforensics({"help", "verify"});
  CHECK(plain.exit_code == 0);
  CHECK(plain.out.find("gpuforensics verify BUNDLE") == 0);
  CHECK(plain.out.find("--bundle") == std::string::npos);
  auto unknown = test::RunGpuforensics({"help", "--man", "nosuch"});
  CHECK(unknown.exit_code == 64);
  CHECK(unknown.err == "gpuforensics help: unknown command 'nosuch'; see 'gpuforensics --help'\n");
}

TEST_CASE("A mistyped option gets the closest one suggested, for commands and the plugin alike") {
  auto analyze = test::RunGpuforensics({"analyze", "b.tar.zst", "--fromat", "json"});
  CHECK(analyze.exit_code == 64);
  CHECK(analyze.err == "gpuforensics analyze: unrecognised option '--fromat', did you mean '--format'?: "
                       "see 'gpuforensics analyze --help'\n");
  auto collect = test::RunGpuforensics({"collect", "--dedline", "60"});
  CHECK(collect.err == "gpuforensics collect: unrecognised option '--dedline', did you mean '--deadline'?: "
                       "see 'gpuforensics collect --help'\n");
  auto far = test::RunGpuforensics({"verify", "--nothing-like-it"});
  CHECK(far.err == "gpuforensics verify: unrecognised option '--nothing-like-it': see 'gpuforensics verify --help'\n");
  auto plugin = test::RunProcess({PluginBinary(), "collect", "node/a", "--selectr", "x=y"});
  CHECK(plugin.exit_code == 64);
  CHECK(plugin.err == "kubectl gpuforensics collect: unrecognised option '--selectr', did you mean '--selector'?: "
                      "see 'kubectl gpuforensics collect --help'\n");
}

TEST_CASE("--version names the commit the binary was built from") {
  auto version = test::RunGpuforensics({"--version"});
  CHECK(version.exit_code == 0);
  const std::string prefix = "gpuforensics 0.1.0 (commit ";
  REQUIRE(version.out.rfind(prefix, 0) == 0);
  std::string commit = version.out.substr(prefix.size(), version.out.size() - prefix.size() - 2);
  CHECK(version.out.substr(version.out.size() - 2) == ")\n");
  // Twelve hex digits of the checkout's HEAD, or "unknown" outside git.
  bool hex = commit.size() == 12 && commit.find_first_not_of("0123456789abcdef") == std::string::npos;
  CHECK_MESSAGE((hex || commit == "unknown"), commit);
  // A commit of this checkout (HEAD when the build was configured; later commits do not change the binary).
  if (!hex || access("/usr/bin/git", X_OK) != 0) return;
  auto git = test::RunProcess({"/usr/bin/git", "-C", test::SourcePath(""), "cat-file", "-t", commit});
  CHECK(git.out == "commit\n");
}

TEST_CASE("exit statuses: --help, the man pages and README show the one table of common/exit_codes.h") {
  for (const auto& row : ExitStatuses()) {
    for (const char* command : {"collect", "analyze", "verify", "sql", "rules"}) {
      if (!AppliesTo(row, command)) continue;
      auto help = test::RunGpuforensics({command, "--help"});
      CHECK(help.out.find(ExitStatusHelp(command)) != std::string::npos);
      auto man = test::RunGpuforensics({"help", "--man", command});
      CHECK(man.out.find(".TP\n.B " + std::to_string(row.code) + "\n") != std::string::npos);
    }
  }
  CHECK(ExitStatusHelp("verify") ==
        "exit status:\n"
        "  0    done: the chain is not broken and no finding is at medium severity or\n"
        "       above; everything was written\n"
        "  1    the GPU chain is BROKEN or a finding is at medium severity or above\n"
        "       (analyze, one bundle or many; rules run; watch); verify: a member does\n"
        "       not match the manifest; rules list, lint, test: a rule has a problem\n"
        "  2    the input is not a readable bundle, capture, database or rule folder, or\n"
        "       --root is not a node's root (one line on stderr says why); a FIFO or\n"
        "       device is refused without being read\n"
        "  64   bad command line\n"
        "  70   internal error (a bug, or a library failing in an unexpected way)\n"
        "  74   the output could not be written (disk full, no permission, stdout closed\n"
        "       or full)\n");
  auto table = test::RunGpuforensics({"help", "--exit-statuses"});
  CHECK(table.out == ExitStatusMarkdown());
  CHECK(test::ReadFile(test::SourcePath("README.md")).find(ExitStatusMarkdown()) != std::string::npos);
}

}  // TEST_SUITE

}  // namespace gpuf
