#include "analyzer/rules/sql_functions.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

std::string One(Database& db, const std::string& sql) {
  auto s = db.Prepare(sql);
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  std::string value = s->Step() ? (s->ColumnIsNull(0) ? "NULL" : s->ColumnText(0)) : "no row";
  if (!s->status().ok()) return "error: " + s->status().message();
  return value;
}

}  // namespace

TEST_SUITE("rule_sql_functions") {

TEST_CASE("regexp: partial match unless anchored, case-sensitive unless (?i)") {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  REQUIRE(CheckRuleSqlFunctions(*db).ok());
  CHECK(One(*db, "SELECT regexp('NVML', 'Failed to initialize NVML: Unknown Error')") == "1");
  CHECK(One(*db, "SELECT regexp('^NVML', 'Failed to initialize NVML')") == "0");
  CHECK(One(*db, "SELECT regexp('nvml', 'NVML')") == "0");
  CHECK(One(*db, "SELECT regexp('(?i)nvml', 'NVML')") == "1");
  CHECK(One(*db, "SELECT 'Xid 79' REGEXP 'Xid [0-9]+'") == "1");
  CHECK(One(*db, "SELECT regexp('x', NULL)") == "NULL");
}

TEST_CASE("regexp_capture: by number, by name, NULL when absent") {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  const std::string line = "'NVRM: Xid (PCI:0000:9a:00): 79, GPU has fallen off the bus.'";
  CHECK(One(*db, "SELECT regexp_capture(" + line + ", 'Xid \\(PCI:([^)]+)\\): (\\d+)')") == "0000:9a:00");
  CHECK(One(*db, "SELECT regexp_capture(" + line + ", 'Xid \\(PCI:([^)]+)\\): (\\d+)', 2)") == "79");
  CHECK(One(*db, "SELECT regexp_capture(" + line + ", '\\): (?P<xid>\\d+)', 'xid')") == "79");
  CHECK(One(*db, "SELECT regexp_capture(" + line + ", '\\): (?P<xid>\\d+)', 'bus')") == "NULL");
  CHECK(One(*db, "SELECT regexp_capture(" + line + ", 'Xid=(\\d+)')") == "NULL");
  CHECK(One(*db, "SELECT regexp_capture(" + line + ", 'Xid', 3)") == "NULL");
}

TEST_CASE("regexp: a pattern that does not compile is an SQL error naming it") {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  CHECK(One(*db, "SELECT regexp('a(b', 'ab')") ==
        "error: SQL: regexp: pattern 'a(b' does not compile: missing ): a(b");
}

}  // TEST_SUITE

}  // namespace gpuf
