// Every table the code creates is documented in schema/<table>.sql, with a
// comment on every column and an example query; and every file there is used.
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "analyzer/database.h"
#include "common/artifacts.h"
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

// The names of schema/bundle.md's list are the artifact table's names:
// every backquoted dotted word of that section, and nothing else.
TEST_CASE("schema: bundle.md lists every logical artifact of common/artifacts.cc and no other") {
  std::string doc = test::ReadFile(test::SourcePath("schema/bundle.md"));
  size_t begin = doc.find("## Logical artifact names");
  size_t end = doc.find("\n## ", begin + 1);
  REQUIRE(begin != std::string::npos);
  std::string section = doc.substr(begin, end - begin);
  std::set<std::string> documented;
  std::regex name("`([a-z0-9]+\\.[a-z0-9_]+)`");
  for (auto it = std::sregex_iterator(section.begin(), section.end(), name); it != std::sregex_iterator(); ++it) {
    documented.insert((*it)[1]);
  }
  std::set<std::string> table;
  for (const auto& row : ArtifactTable()) table.insert(std::string(row.name));
  for (const auto& n : documented) CHECK_MESSAGE(table.count(n), n << " is documented but not in the table");
  for (const auto& n : table) CHECK_MESSAGE(documented.count(n), n << " is in the table but not documented");
}

}  // TEST_SUITE

}  // namespace gpuf
