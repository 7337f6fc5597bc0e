#include "common/parse_int.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_CASE("ParseInt64: whole decimal numbers only, nothing thrown") {
  CHECK(ParseInt64("0") == 0);
  CHECK(ParseInt64("-42") == -42);
  CHECK(ParseInt64("9223372036854775807") == INT64_MAX);
  CHECK_FALSE(ParseInt64("9223372036854775808").has_value());  // one past: does not fit
  CHECK_FALSE(ParseInt64("").has_value());
  CHECK_FALSE(ParseInt64("abcd").has_value());
  CHECK_FALSE(ParseInt64("12ab").has_value());
  CHECK_FALSE(ParseInt64(" 12").has_value());
  CHECK(Int64Or("x", 7) == 7);
}

}  // namespace gpuf
