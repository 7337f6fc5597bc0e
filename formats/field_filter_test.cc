#include "formats/field_filter.h"

#include <doctest/doctest.h>
#include <re2/re2.h>

namespace gpuf {

TEST_SUITE("field_filter") {
TEST_CASE("FieldFilter: an RE2 found in the field, or not found in it") {
  auto re = std::make_shared<const RE2>(R"(nvidia\.com/|NVML)");
  FieldFilter matching{.field = "why", .values = {}, .negated = false, .pattern = re};
  CHECK(matching.Holds("requested number of devices unavailable for nvidia.com/gpu"));
  CHECK_FALSE(matching.Holds("requested number of devices unavailable for rdma/hca_shared_devices_a"));
  CHECK_FALSE(matching.Holds(std::nullopt));
  CHECK(matching.Describe() == R"(why matching nvidia\.com/|NVML)");

  FieldFilter not_matching{.field = "why", .values = {}, .negated = true, .pattern = re};
  CHECK(not_matching.Holds("unavailable for rdma/hca_shared_devices_a"));
  CHECK(not_matching.Holds(std::nullopt));
  CHECK_FALSE(not_matching.Holds("NVML: Unknown Error"));
  CHECK(not_matching.Describe() == R"(why not matching nvidia\.com/|NVML)");
}

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
