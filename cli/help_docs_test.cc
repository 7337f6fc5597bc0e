#include "cli/help_docs.h"

#include <doctest/doctest.h>

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

}  // TEST_SUITE

}  // namespace gpuf
