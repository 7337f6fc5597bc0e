#include "formats/field_filter.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("field_filter") {

TEST_CASE("FieldFilter: a value, one of several, none of them, absent, present") {
  FieldFilter equals{.field = "reason", .values = {"lib_mismatch"}, .negated = false};
  CHECK(equals.Holds("lib_mismatch"));
  CHECK_FALSE(equals.Holds("unknown"));
  CHECK_FALSE(equals.Holds(std::nullopt));
  CHECK(equals.Describe() == "reason=lib_mismatch");

  FieldFilter one_of{.field = "code", .values = {"79", "48"}, .negated = false};
  CHECK(one_of.Holds("48"));
  CHECK_FALSE(one_of.Holds("13"));
  CHECK(one_of.Describe() == "code in 79,48");

  FieldFilter none_of{.field = "code", .values = {"13", "31"}, .negated = true};
  CHECK(none_of.Holds("79"));
  CHECK_FALSE(none_of.Holds("31"));
  CHECK(none_of.Holds(std::nullopt));  // a row without the field is none of them
  CHECK(none_of.Describe() == "code not in 13,31");

  FieldFilter absent{.field = "code", .values = {}, .negated = false};
  CHECK(absent.Holds(std::nullopt));
  CHECK_FALSE(absent.Holds("79"));
  CHECK(absent.Describe() == "code absent");

  FieldFilter present{.field = "code", .values = {}, .negated = true};
  CHECK(present.Holds(""));
  CHECK_FALSE(present.Holds(std::nullopt));
  CHECK(present.Describe() == "code present");
}

}  // TEST_SUITE

}  // namespace gpuf
