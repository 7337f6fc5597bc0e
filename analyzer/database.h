// A SQLite database holding one analysis, created from schema/*.sql.
//
// Thin RAII wrappers: Database owns the connection, Statement one prepared
// statement. Every failure comes back as a Status naming the SQL involved.
#ifndef GPUF_ANALYZER_DATABASE_H_
#define GPUF_ANALYZER_DATABASE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <span>
#include <string_view>
#include <vector>

#include "common/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace gpuf {

class Statement {
 public:
  Statement(Statement&& other) noexcept;
  ~Statement();
  Statement(const Statement&) = delete;

  // Parameters are 1-based, as in SQLite.
  Statement& Bind(int index, int64_t value);
  Statement& Bind(int index, std::string_view value);
  Statement& Bind(int index, std::optional<int64_t> value);
  Statement& BindNull(int index);
  Statement& BindDouble(int index, double value);
  // Binds every occurrence of a named parameter (":bundle"); a statement
  // without it is left as is.
  Statement& BindNamed(const char* name, int64_t value);
  // True while a row is available; false when done. Errors end as false and
  // are reported by status().
  bool Step();
  // Runs to completion (for INSERT/UPDATE), then resets for reuse.
  Status Run();
  void Reset();

  int ColumnCount() const;
  std::string ColumnName(int column) const;
  int64_t ColumnInt(int column) const;
  double ColumnDouble(int column) const;
  std::string ColumnText(int column) const;
  // The value's bytes, valid until the next Step, Reset or destruction.
  std::string_view ColumnView(int column) const;
  bool ColumnIsNull(int column) const;
  const Status& status() const { return status_; }

 private:
  friend class Database;
  Statement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  // Binds the vocabulary's parameters, $artifact(...), $milestone(...) and
  // the others of sql_vocabulary.h; fails on an unknown word.
  Status BindVocabulary();
  sqlite3* db_;
  sqlite3_stmt* stmt_;
  Status status_;
};

// A private database on disk that SQLite deletes when it is closed. Pages
// beyond the page cache are written out, so memory stays bounded by the
// cache however large the bundle; ":memory:" keeps every page in RAM.
inline constexpr char kScratchDatabase[] = "";

class Database {
 public:
  // ":memory:", kScratchDatabase or a file path (an existing file is replaced).
  static Result<Database> Create(const std::string& path);
  // Like Create, without the tables (for a database of another schema).
  static Result<Database> CreateBare(const std::string& path);
  // An existing database, read-only. NotFound / BadInput when it is not one.
  static Result<Database> OpenReadOnly(const std::string& path);
  Database(Database&& other) noexcept;
  ~Database();
  Database(const Database&) = delete;

  Status Exec(std::string_view sql);
  Result<Statement> Prepare(std::string_view sql);
  // Like Prepare, but refuses text after the first statement.
  Result<Statement> PrepareSingle(std::string_view sql);
  // Drops the named indexes and returns the statements that create them
  // again (as the schema wrote them); names without an index are skipped.
  Result<std::vector<std::string>> DropIndexes(std::span<const std::string_view> names);
  int64_t LastInsertId() const;
  int64_t Changes() const;

 private:
  explicit Database(sqlite3* db) : db_(db) {}
  sqlite3* db_;
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_DATABASE_H_
