#include "analyzer/database.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "tests/test_support.h"

namespace gpuf {

namespace {

int64_t CountRows(Database& db, const std::string& table) {
  auto s = db.Prepare("SELECT count(*) FROM " + table);
  REQUIRE(s.ok());
  REQUIRE(s->Step());
  return s->ColumnInt(0);
}

// Sets an environment variable (unsets it for nullptr) while it lives.
class EnvAt {
 public:
  EnvAt(const char* name, const char* value) : name_(name) {
    const char* was = std::getenv(name);
    had_ = was != nullptr;
    if (was) previous_ = was;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~EnvAt() {
    if (had_) setenv(name_, previous_.c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::string previous_;
  bool had_ = false;
};

}  // namespace

TEST_CASE("Database: a scratch database leaves no file behind, and gives its reader once") {
  test::TempDir tmp;
  EnvAt sqlite_tmpdir("SQLITE_TMPDIR", nullptr);
  EnvAt tmpdir("TMPDIR", tmp.path().c_str());
  auto db = Database::Create(kScratchDatabase);
  REQUIRE(db.ok());
  // Both connections are open on a file that no directory names any more.
  CHECK(std::filesystem::is_empty(tmp.path()));
  REQUIRE(db->Exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2);").ok());
  auto reader = db->OpenReader();
  REQUIRE(reader.ok());
  CHECK(CountRows(*reader, "t") == 2);
  CHECK_FALSE(db->OpenReader().ok());
  // Only reads.
  CHECK_FALSE(reader->Exec("INSERT INTO t VALUES (3)").ok());
  CHECK(std::filesystem::is_empty(tmp.path()));
}

TEST_CASE("Database: without a private directory for its file, a scratch database has no reader") {
  test::TempDir tmp;
  const std::string absent = tmp.path() + "/absent";
  EnvAt sqlite_tmpdir("SQLITE_TMPDIR", nullptr);
  EnvAt tmpdir("TMPDIR", absent.c_str());
  auto db = Database::Create(kScratchDatabase);
  REQUIRE(db.ok());
  REQUIRE(db->Exec("CREATE TABLE t (x INTEGER)").ok());
  auto reader = db->OpenReader();
  REQUIRE_FALSE(reader.ok());
  CHECK(reader.status().code() == Status::Code::kNotFound);
}

TEST_CASE("Database: an in-memory database has no reader") {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  auto reader = db->OpenReader();
  REQUIRE_FALSE(reader.ok());
  CHECK(reader.status().code() == Status::Code::kNotFound);
}

TEST_CASE("Database: a reader sees what was committed, and a commit waits for its read to end") {
  test::TempDir tmp;
  auto db = Database::Create(tmp.path() + "/analysis.sqlite");
  REQUIRE(db.ok());
  REQUIRE(db->Exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);").ok());
  auto reader = db->OpenReader();
  REQUIRE(reader.ok());

  REQUIRE(reader->Exec("BEGIN").ok());
  CHECK(CountRows(*reader, "t") == 1);
  REQUIRE(db->Exec("BEGIN; INSERT INTO t VALUES (2);").ok());
  // Not committed: the reader still sees the load's rows only.
  CHECK(CountRows(*reader, "t") == 1);
  Status committed = Status::Internal("not run");
  std::thread writer([&] { committed = db->Exec("COMMIT"); });
  // The commit is held while the read lasts; the read goes on undisturbed.
  CHECK(CountRows(*reader, "t") == 1);
  REQUIRE(reader->Exec("COMMIT").ok());
  writer.join();
  CHECK(committed.ok());
  CHECK(CountRows(*reader, "t") == 2);
}

TEST_CASE("Database::TablesRead: the tables a statement reads, through views, and nothing runs") {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  REQUIRE(db->Exec("CREATE TABLE a (x INTEGER); CREATE TABLE b (y INTEGER); CREATE VIEW v AS SELECT y FROM b").ok());
  auto tables = db->TablesRead("SELECT x FROM a WHERE EXISTS (SELECT 1 FROM v)");
  REQUIRE(tables.ok());
  CHECK(*tables == std::set<std::string>{"a", "b"});
  CHECK_FALSE(db->TablesRead("SELECT * FROM nowhere").ok());
  // The authorizer is only borrowed: writes still work after it.
  CHECK(db->Exec("INSERT INTO a VALUES (1)").ok());
  REQUIRE(db->RestrictToReads().ok());
  REQUIRE(db->TablesRead("SELECT x FROM a").ok());
  CHECK_FALSE(db->Exec("INSERT INTO a VALUES (2)").ok());
}

TEST_CASE("Statement: text bound uncopied is stored as given, and Reset unbinds it") {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  REQUIRE(db->Exec("CREATE TABLE t (x TEXT)").ok());
  auto insert = db->Prepare("INSERT INTO t VALUES (?)");
  REQUIRE(insert.ok());
  for (const char* text : {"first", "second line, longer than the first"}) {
    std::string owned = text;
    insert->BindUncopied(1, owned);
    REQUIRE(insert->Run().ok());
  }
  // Unbound after Reset: a parameter left unbound is NULL.
  REQUIRE(insert->Run().ok());
  auto rows = db->Prepare("SELECT coalesce(x, 'NULL') FROM t ORDER BY rowid");
  REQUIRE(rows.ok());
  std::vector<std::string> got;
  while (rows->Step()) got.push_back(rows->ColumnText(0));
  CHECK(got == std::vector<std::string>{"first", "second line, longer than the first", "NULL"});
}

}  // namespace gpuf
