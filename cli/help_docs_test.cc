#include "cli/help_docs.h"

#include <doctest/doctest.h>

#include "common/exit_codes.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

int NoRun(const std::vector<std::string>&) { return 0; }

}  // namespace

TEST_SUITE("help_docs") {

TEST_CASE("DescribeCommand: synopsis, description and options with their defaults") {
  po::options_description options("gpuforensics demo FILE [options]\n\nDoes a demo. It wraps\nover two lines.\n\noptions");
  options.add_options()
      ("output,o", po::value<std::string>(), "where to write")
      ("timeout", po::value<double>()->default_value(10), "seconds one step may take")
      ("dry-run", "change nothing");
  Command command{"demo", "show how docs are made", NoRun};
  CommandDoc doc = DescribeCommand(command, options);
  CHECK(doc.synopsis == "gpuforensics demo FILE [options]");
  CHECK(doc.description == "Does a demo. It wraps\nover two lines.");
  REQUIRE(doc.options.size() == 3);
  CHECK(doc.options[0].flags == "-o, --output");
  CHECK(doc.options[0].argument == "arg");
  CHECK(doc.options[1].default_value == "10");
  CHECK(doc.options[2].argument == "");

  std::string md = CommandMarkdown(doc);
  CHECK(md.find("# gpuforensics demo\n\nshow how docs are made\n\n    gpuforensics demo FILE [options]\n\n"
                "Does a demo. It wraps over two lines.\n") != std::string::npos);
  CHECK(md.find("| `--timeout` | arg | `10` | seconds one step may take |\n") != std::string::npos);

  std::string man = CommandManPage(doc, "1.2.3");
  CHECK(man.find(".TH GPUFORENSICS\\-DEMO 1 \"\" \"gpuforensics 1.2.3\" \"gpuforensics manual\"\n") != std::string::npos);
  CHECK(man.find(".TP\n\\fB\\-\\-timeout\\fR \\fIarg\\fR\nseconds one step may take (default: 10)\n") !=
        std::string::npos);
}

TEST_CASE("gpuforensics help: every command documents itself, unknown ones are a usage error") {
  auto list = test::RunGpuforensics({"help", "--list"});
  REQUIRE(list.exit_code == 0);
  CHECK(list.out.find("analyze\n") != std::string::npos);
  auto md = test::RunGpuforensics({"help", "--markdown", "analyze"});
  CHECK(md.exit_code == 0);
  CHECK(md.out.find("| `--format` | arg | `text` |") != std::string::npos);
  CHECK(md.err.empty());
  auto man = test::RunGpuforensics({"help", "--man", "timeline"});
  CHECK(man.exit_code == 0);
  CHECK(man.out.find(".SH OPTIONS\n") != std::string::npos);
  auto plain = test::RunGpuforensics({"help", "verify"});
  CHECK(plain.exit_code == 0);
  CHECK(plain.out.find("gpuforensics verify BUNDLE") == 0);
  auto unknown = test::RunGpuforensics({"help", "--man", "nosuch"});
  CHECK(unknown.exit_code == 64);
  CHECK(unknown.err == "gpuforensics help: unknown command 'nosuch'; see 'gpuforensics --help'\n");
}

TEST_CASE("exit statuses: --help, the man pages and README show the one table of common/exit_codes.h") {
  for (const auto& row : ExitStatuses()) {
    for (const char* command : {"collect", "analyze", "verify", "sql", "rules"}) {
      if (!AppliesTo(row, command)) continue;
      auto help = test::RunGpuforensics({command, "--help"});
      CHECK(help.out.find(ExitStatusHelp(command)) != std::string::npos);
      auto man = test::RunGpuforensics({"help", "--man", command});
      CHECK(man.out.find(".TP\n\\fB" + std::to_string(row.code) + "\\fR\n") != std::string::npos);
    }
  }
  CHECK(ExitStatusHelp("verify") ==
        "exit status:\n"
        "  0    done: the chain is not broken and no finding is at medium severity or\n"
        "       above; everything was written\n"
        "  1    the GPU chain is BROKEN or a finding is at medium severity or above\n"
        "       (analyze, one bundle or many; rules run; watch); verify: a member does\n"
        "       not match the manifest; rules list, lint, test: a rule has a problem\n"
        "  2    the input is not a readable bundle, capture, database or rule folder (one\n"
        "       line on stderr says why); a FIFO or device is refused without being read\n"
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
