#include "common/edit_distance.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("edit_distance") {

TEST_CASE("EditDistance: insertions, deletions and substitutions each count one") {
  CHECK(EditDistance("", "") == 0);
  CHECK(EditDistance("analyze", "analyze") == 0);
  CHECK(EditDistance("analyse", "analyze") == 1);   // substitution
  CHECK(EditDistance("anlyze", "analyze") == 1);    // insertion
  CHECK(EditDistance("analyzee", "analyze") == 1);  // deletion
  CHECK(EditDistance("", "sql") == 3);
  CHECK(EditDistance("journal.kubelt", "journal.kubelet") == 1);
  CHECK(EditDistance("kitten", "sitting") == 3);
}

TEST_CASE("EditDistance: symmetric, and bytes are compared as bytes") {
  CHECK(EditDistance("collect", "verify") == EditDistance("verify", "collect"));
  CHECK(EditDistance("\xb5", "\xb6") == 1);
  CHECK(EditDistance("na\xc3\xafve", "naive") == 2);  // the two bytes of U+00EF against 'i'
}

}  // TEST_SUITE

}  // namespace gpuf
