#include "common/event_kinds.h"

#include <doctest/doctest.h>

#include <string>

namespace gpuf {

TEST_SUITE("event_kinds") {

TEST_CASE("EventKinds: snake_case names in name order, each described") {
  std::string previous;
  for (const auto& row : EventKinds()) {
    CAPTURE(row.name);
    CHECK(std::string(row.name) > previous);
    previous = row.name;
    CHECK(row.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string_view::npos);
    CHECK_FALSE(row.description.empty());
  }
}

TEST_CASE("FindEventKind and KindHasField: whole names only") {
  const EventKindRow* kind = FindEventKind("nvml_init_failed");
  REQUIRE(kind != nullptr);
  CHECK(KindHasField(*kind, "reason"));
  CHECK_FALSE(KindHasField(*kind, "reaso"));
  CHECK_FALSE(KindHasField(*kind, ""));
  CHECK(FindEventKind("nvml_init") == nullptr);
  const EventKindRow* init = FindEventKind("gpu_init_failed");
  REQUIRE(init != nullptr);
  CHECK(KindHasField(*init, "bus"));
  CHECK(KindHasField(*init, "code"));
}

TEST_CASE("ListWords: the words of a space-separated list, none for an empty one") {
  CHECK(ListWords("daemon_reload daemon_reload_requested") ==
        std::vector<std::string_view>{"daemon_reload", "daemon_reload_requested"});
  CHECK(ListWords("").empty());
  CHECK(FirstField(*FindEventKind("unit_started")) == "unit");
  CHECK(FirstField(*FindEventKind("daemon_reload")).empty());
}

}  // TEST_SUITE

}  // namespace gpuf
