// Every table the code creates is documented in schema/<table>.sql, with a
// comment on every column and an example query; and every file there is used.
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "analyzer/database.h"
#include "tests/test_support.h"

namespace gpuf {

TEST_SUITE("schema_docs") {

TEST_CASE("schema: sqlite_master matches schema/*.sql, every column commented") {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  auto tables = db->Prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  REQUIRE(tables.ok());
  std::set<std::string> created;
  while (tables->Step()) created.insert(tables->ColumnText(0));
  std::set<std::string> documented;
  for (const auto& entry : std::filesystem::directory_iterator(test::SourcePath("schema"))) {
    if (entry.path().extension() == ".sql") documented.insert(entry.path().stem().string());
  }
  CHECK(created == documented);

  for (const auto& table : created) {
    std::string doc = test::ReadFile(test::SourcePath("schema/" + table + ".sql"));
    CHECK_MESSAGE(doc.rfind("-- ", 0) == 0, table << ": starts with a comment saying what it is");
    CHECK_MESSAGE(doc.find("-- Example: SELECT") != std::string::npos, table << ": has an example query");
    auto columns = db->Prepare("SELECT name FROM pragma_table_info('" + table + "')");
    REQUIRE(columns.ok());
    while (columns->Step()) {
      std::string column = columns->ColumnText(0);
      std::regex line("\\n  " + column + " +[A-Z][^\\n]*--");
      CHECK_MESSAGE(std::regex_search(doc, line), table << "." << column << " has no comment");
    }
  }
}

}  // TEST_SUITE

}  // namespace gpuf
