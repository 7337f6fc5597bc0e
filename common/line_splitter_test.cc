#include "common/line_splitter.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/text_lines.h"

namespace gpuf {

namespace {

std::vector<std::string> Whole(std::string_view text) {
  std::vector<std::string> lines;
  ForEachLine(text, [&](int number, std::string_view line) {
    lines.push_back(std::to_string(number) + ":" + std::string(line));
  });
  return lines;
}

std::vector<std::string> InChunksOf(std::string_view text, size_t size) {
  std::vector<std::string> lines;
  auto take = [&](int number, std::string_view line) {
    lines.push_back(std::to_string(number) + ":" + std::string(line));
  };
  LineSplitter splitter;
  for (size_t at = 0; at < text.size(); at += size) splitter.Chunk(text.substr(at, size), take);
  splitter.End(take);
  return lines;
}

}  // namespace

TEST_SUITE("line_splitter") {

TEST_CASE("LineSplitter: chunks of any size give the lines ForEachLine gives the whole text") {
  const std::string texts[] = {"", "a", "a\n", "a\r\nb\r\n", "a\n\nb", "\n\n", "one\ntwo\r\nthree\rfour",
                               "x\r", std::string(1000, 'y') + "\nz\n"};
  for (const std::string& text : texts) {
    for (size_t size : {1, 2, 3, 7, 64, 4096}) {
      CAPTURE(text);
      CAPTURE(size);
      CHECK(InChunksOf(text, size) == Whole(text));
    }
  }
}

}  // TEST_SUITE

}  // namespace gpuf
