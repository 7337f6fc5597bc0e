#include "analyzer/text_wrap.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("text_wrap") {

TEST_CASE("WrapToWidth: breaks at spaces with a hanging indent, keeps short lines") {
  CHECK(WrapToWidth("  short line\n", 20) == "  short line\n");
  CHECK(WrapToWidth("  one two three four five", 15) == "  one two three\n      four five");
  CHECK(WrapToWidth("  one two three four five", 14) == "  one two\n      three\n      four\n      five");
  CHECK(WrapToWidth("a b", 0) == "a b");
}

TEST_CASE("WrapToWidth: colour codes take no columns, a long word is split") {
  std::string red = "\x1b[1;31mFAILED\x1b[0m";
  CHECK(VisibleWidth(red) == 6);
  CHECK(WrapToWidth("x " + red + " y", 10) == "x " + red + " y");
  CHECK(WrapToWidth("/var/log/pods/abcdefghij", 10) == "/var/log/p\n    ods/ab\n    cdefgh\n    ij");
  CHECK(VisibleWidth("caf\xc3\xa9 \xe2\x80\xa6") == 6);
}

}  // TEST_SUITE

}  // namespace gpuf
