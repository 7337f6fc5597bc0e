#include "cli/help_docs.h"

#include <doctest/doctest.h>

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

}  // TEST_SUITE

}  // namespace gpuf
