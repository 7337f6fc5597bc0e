#include "analyzer/render/render_markdown.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("render_markdown") {

TEST_CASE("MarkdownText: markup is escaped, words keep their underscores") {
  CHECK(MarkdownText("CONTAINER_RUNNING") == "CONTAINER_RUNNING");
  CHECK(MarkdownText("_em_ *b* [l](u) <x> a|b") == "\\_em\\_ \\*b\\* \\[l\\](u) \\<x\\> a\\|b");
  CHECK(MarkdownText("two\nlines") == "two lines");
}

TEST_CASE("RenderMarkdown: evidence is fenced longer than any backtick run in it") {
  Report r;
  r.node = "n1";
  Finding f;
  f.rule_id = "r";
  f.title = "t";
  f.severity = Severity::kHigh;
  f.confidence = Confidence::kLikely;
  f.evidence.push_back({"", std::nullopt, "a.log", 3, std::nullopt, "text with ``` inside"});
  r.findings.push_back(f);
  std::string md = RenderMarkdown(r, DisplayZone());
  CHECK(md.find("````text\na.log:3\n    text with ``` inside\n````\n") != std::string::npos);
  CHECK(md.find("# GPU node report: n1\n") == 0);
}

}  // TEST_SUITE

}  // namespace gpuf
