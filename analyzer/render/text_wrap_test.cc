#include "analyzer/render/text_wrap.h"

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

TEST_CASE("VisibleWidth: wide characters take two columns, combining marks none, a stray byte one") {
  SUBCASE("CJK") {
    const std::string node = "\xe8\x8a\x82\xe7\x82\xb9", ready = "\xe5\xb0\xb1\xe7\xbb\xaa";  // 节点, 就绪
    CHECK(VisibleWidth(node + " " + ready) == 9);
    CHECK(WrapToWidth("  " + node + " " + ready + " " + node, 12) == "  " + node + " " + ready + "\n      " + node);
    CHECK(WrapToWidth(node + ready, 5) == node + "\n  " + ready.substr(0, 3) + "\n  " + ready.substr(3));
  }
  SUBCASE("combining accent") {
    const std::string cafe = "cafe\xcc\x81";  // e + U+0301
    CHECK(VisibleWidth(cafe) == 4);
    CHECK(WrapToWidth(cafe + "s", 4) == cafe + "\n  s");
  }
  SUBCASE("invalid UTF-8") {
    CHECK(VisibleWidth("node\xff\xb5-1") == 8);
    CHECK(VisibleWidth("\xe8\x8a") == 2);  // a character cut short
    CHECK(WrapToWidth("\xff\xff\xff\xff\xff\xff", 5) == "\xff\xff\xff\xff\xff\n  \xff");
  }
}

}  // TEST_SUITE

}  // namespace gpuf
