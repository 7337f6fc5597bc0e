#include "cli/choice_value.h"

#include <doctest/doctest.h>

#include "cli/options.h"

namespace gpuf {

namespace {

po::options_description FormatOption() {
  po::options_description options("test");
  options.add_options()("format", ChoiceOf({"text", "json", "csv"})->value_name("FORMAT")->default_value("text"),
                        "text | json | csv");
  return options;
}

}  // namespace

TEST_CASE("A choice option takes its words and its default") {
  auto parsed = ParseOptions("timeline", {"--format", "csv"}, FormatOption(), {});
  REQUIRE(parsed.ok());
  CHECK(parsed->values["format"].as<std::string>() == "csv");
  auto defaulted = ParseOptions("timeline", {}, FormatOption(), {});
  REQUIRE(defaulted.ok());
  CHECK(defaulted->values["format"].as<std::string>() == "text");
}

TEST_CASE("A choice option refuses any other word, naming the flag and the words") {
  auto parsed = ParseOptions("timeline", {"--format=xml"}, FormatOption(), {});
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.status().message().find("--format must be text, json or csv") != std::string::npos);
}

TEST_CASE("The words of a choice option are known from the option alone") {
  const po::options_description options = FormatOption();
  CHECK(ChoicesOf(options.find("format", false)) == std::vector<std::string>{"text", "json", "csv"});
  po::options_description plain("plain");
  plain.add_options()("out", po::value<std::string>(), "a file");
  CHECK(ChoicesOf(plain.find("out", false)).empty());
}

TEST_CASE("ChoiceList reads as a sentence") {
  CHECK(ChoiceList({"text"}) == "text");
  CHECK(ChoiceList({"text", "json"}) == "text or json");
  CHECK(ChoiceList({"a", "b", "c"}) == "a, b or c");
}

}  // namespace gpuf
