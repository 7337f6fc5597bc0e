#include "analyzer/rules/selection_rows.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_CASE("KeepWhere: a row stays only with every value asked for, and a row without the field goes") {
  std::vector<SelectionRow> rows(3);
  rows[0].fields = {{"code", "79"}, {"bus", "0000:2b:00"}};
  rows[1].fields = {{"code", "48"}, {"bus", "0000:2b:00"}};
  rows[2].fields = {{"bus", "0000:2b:00"}};
  std::vector<SelectionRow> all = rows;
  KeepWhere({{.field = "code", .values = {"79"}, .negated = false}}, rows);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].Field("code") == "79");
  // None of the Xids another rule reports keeps 48's row and the one without a code.
  rows = all;
  KeepWhere({{.field = "code", .values = {"79", "94"}, .negated = true}}, rows);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].Field("code") == "48");
  // Only the rows without the field.
  rows = all;
  KeepWhere({{.field = "code", .values = {}, .negated = false}}, rows);
  REQUIRE(rows.size() == 1);
  CHECK_FALSE(rows[0].Field("code"));
}

TEST_CASE("KeepWhere: nothing asked keeps every row") {
  std::vector<SelectionRow> rows(2);
  KeepWhere({}, rows);
  CHECK(rows.size() == 2);
}

}  // namespace gpuf
