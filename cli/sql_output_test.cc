#include "cli/sql_output.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

namespace gpuf {

namespace {

// Every row of `sql` over a small table in the shape `format` gives.
std::string Printed(SqlFormat format, const std::string& sql) {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  REQUIRE(db->Exec("CREATE TABLE t(n INTEGER, x REAL, s TEXT, z TEXT);"
                   "INSERT INTO t VALUES (-3, 0.5, 'a,b \"q\"', NULL), (7, 2.0, '=1+1', 'plain');"
                   "INSERT INTO t VALUES (1, 1.0, CAST(x'6ce9' AS TEXT), 'latin-1');")
              .ok());
  auto statement = db->PrepareSingle(sql);
  REQUIRE(statement.ok());
  SqlOutput output(format, *statement);
  std::string printed = output.Begin();
  while (statement->Step()) printed += output.Row();
  REQUIRE(statement->status().ok());
  return printed + output.End();
}

}  // namespace

TEST_CASE("sql text rows are tab-separated under a header, NULL empty") {
  CHECK(Printed(SqlFormat::kText, "SELECT n, s, z FROM t ORDER BY rowid LIMIT 2") ==
        "n\ts\tz\n-3\ta,b \"q\"\t\n7\t=1+1\tplain\n");
}

TEST_CASE("sql CSV quotes what needs it, keeps numbers and guards formulas") {
  CHECK(Printed(SqlFormat::kCsv, "SELECT n, x, s, z FROM t ORDER BY rowid LIMIT 2") ==
        "n,x,s,z\n-3,0.5,\"a,b \"\"q\"\"\",\n7,2.0,\"'=1+1\",plain\n");
}

TEST_CASE("sql JSON is one array of objects with typed values, bytes kept") {
  const std::string printed = Printed(SqlFormat::kJson, "SELECT n, x, s, z FROM t ORDER BY rowid");
  const auto parsed = nlohmann::json::parse(printed);
  REQUIRE(parsed.is_array());
  REQUIRE(parsed.size() == 3);
  CHECK(parsed[0]["n"] == -3);
  CHECK(parsed[0]["x"] == 0.5);
  CHECK(parsed[0]["s"] == "a,b \"q\"");
  CHECK(parsed[0]["z"].is_null());
  CHECK(parsed[2]["s"] == "l\\xE9");
}

TEST_CASE("sql JSON of no rows is an empty array") {
  CHECK(Printed(SqlFormat::kJson, "SELECT n FROM t WHERE n > 100") == "[]\n");
}

}  // namespace gpuf
