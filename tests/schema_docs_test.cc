// Every table the code creates is documented in schema/<table>.sql, with a
// comment on every column and an example query; and every file there is used.
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "analyzer/database.h"
#include "common/artifacts.h"
#include "common/vocabulary.h"
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

namespace {

// The quoted words of `column`'s CHECK (column IN (...)) in schema/<file>.
std::vector<std::string> CheckedWords(const std::string& file, const std::string& column) {
  std::string doc = test::ReadFile(test::SourcePath("schema/" + file));
  std::smatch m;
  std::regex check("\\n  " + column + " +TEXT[^\\n]*CHECK \\(" + column + " IN \\(([\\s\\S]*?)\\)\\)");
  std::string list = std::regex_search(doc, m, check) ? m[1].str() : "";
  // Comments inside the list say what the column is; only the words count.
  list = std::regex_replace(list, std::regex("--[^\\n]*"), "");
  std::vector<std::string> words;
  std::regex word("'([^']*)'");
  for (auto it = std::sregex_iterator(list.begin(), list.end(), word); it != std::sregex_iterator(); ++it) {
    words.push_back((*it)[1]);
  }
  return words;
}

template <typename E>
std::vector<std::string> EnumWords() {
  std::vector<std::string> words;
  for (auto name : Names<E>()) words.emplace_back(name);
  return words;
}

}  // namespace

// SQL and C++ share these lists; the .sql files are where SQL reads them.
TEST_CASE("schema: each CHECK list is its enum's names, in the enum's order") {
  CHECK(CheckedWords("artifacts.sql", "status") == EnumWords<ProbeStatus>());
  CHECK(CheckedWords("artifacts.sql", "skip_reason") == EnumWords<SkipReason>());
  CHECK(CheckedWords("events.sql", "milestone") == EnumWords<Milestone>());
  CHECK(CheckedWords("findings.sql", "severity") == EnumWords<Severity>());
  CHECK(CheckedWords("findings.sql", "confidence") == EnumWords<Confidence>());
  CHECK(CheckedWords("rule_runs.sql", "outcome") == EnumWords<RuleOutcome>());
  std::vector<std::string> kinds;
  for (auto kind : {ArtifactKind::kCommand, ArtifactKind::kFile, ArtifactKind::kListing, ArtifactKind::kTable}) {
    kinds.emplace_back(ArtifactKindName(kind));
  }
  CHECK(CheckedWords("artifacts.sql", "kind") == kinds);
}

TEST_CASE("schema: a value off its CHECK list is refused by the database") {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  REQUIRE(db->Exec("INSERT INTO bundles (path, format_version, tool_version, node_name, collected_at_ns, "
                   "collection_ended_ns, complete, utc_offset_seconds) VALUES ('b', 1, 'v', 'n', 1, 2, 1, 0)").ok());
  Status bad = db->Exec("INSERT INTO events (bundle_id, time_ns, precision_ns, timestamp_desc, time_source, source, "
                        "milestone, message) VALUES (1, 1, 1, 'Log Line', 'explicit_utc', 'plugin', "
                        "'plugin_registerd', 'm')");
  // SQLite names the constraint by its text in schema/events.sql.
  std::string doc = test::ReadFile(test::SourcePath("schema/events.sql"));
  size_t from = doc.find("milestone IN (");
  size_t to = doc.find("'collection')", from) + std::string("'collection')").size();
  CHECK(bad.message() == "sqlite exec: CHECK constraint failed: " + doc.substr(from, to - from));
}

}  // TEST_SUITE

}  // namespace gpuf
