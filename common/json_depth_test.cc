#include "common/json_depth.h"

#include <string>

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("json_depth") {

TEST_CASE("JsonNestingDepth: arrays and objects, not brackets in strings") {
  CHECK(JsonNestingDepth("") == 0);
  CHECK(JsonNestingDepth("7") == 0);
  CHECK(JsonNestingDepth(R"({"a":[1,{"b":[]}]})") == 4);
  CHECK(JsonNestingDepth(R"({"a":"[[[[{{{{\"]]]"})") == 1);
  CHECK(JsonNestingDepth(R"(["\\",[]])") == 2);
  CHECK(JsonNestingDepth("]]]]{") == 1);
}

TEST_CASE("JsonNestingDepth: a million levels stop being counted past the limit") {
  const std::string deep = std::string(1'000'000, '[') + std::string(1'000'000, ']');
  CHECK(JsonNestingDepth(deep) == kMaxJsonDepth + 1);
  CHECK(JsonNestingDepth(deep, 10) == 10);
}

}  // TEST_SUITE

}  // namespace gpuf
