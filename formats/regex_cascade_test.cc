#include "formats/regex_cascade.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("regex_cascade") {

RE2::Options Latin1() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);
  return o;
}

TEST_CASE("RegexCascade: the first pattern that matches the whole text wins") {
  RegexCascade c({R"(Started (.+)\.)", R"(Start(.*))", R"((\S+): Deactivated successfully\.)"}, Latin1());
  CHECK(c.size() == 3);
  CHECK(c.FirstFullMatch("Started kubelet.service.") == 0);
  CHECK(c.FirstFullMatch("Starting kubelet.service...") == 1);
  CHECK(c.FirstFullMatch("run-x.mount: Deactivated successfully.") == 2);
}

TEST_CASE("RegexCascade: a pattern must match all of the text, not a part") {
  RegexCascade c({R"(Started (.+)\.)"}, Latin1());
  CHECK(c.FirstFullMatch("x Started kubelet.service.") == -1);
  CHECK(c.FirstFullMatch("Started kubelet.service. now") == -1);
  CHECK(c.FirstFullMatch("") == -1);
}

TEST_CASE("RegexCascade: the winner's captures are read with its own pattern") {
  RegexCascade c({R"(Reloading finished in (\d+) ms\.)", R"(Reloading (.+)\.\.\.)"}, Latin1());
  std::string text = "Reloading finished in 412 ms.";
  int i = c.FirstFullMatch(text);
  REQUIRE(i == 0);
  int ms = 0;
  CHECK(RE2::FullMatch(text, c.pattern(i), &ms));
  CHECK(ms == 412);
}

TEST_CASE("RegexCascade: bytes that are not UTF-8 are matched as Latin-1") {
  RegexCascade c({R"(GPU \xff(\d+))"}, Latin1());
  CHECK(c.FirstFullMatch("GPU \xff" "7") == 0);
}

}  // TEST_SUITE

}  // namespace gpuf
