// A SQLite database holding one analysis, created from schema/*.sql.
//
// Thin RAII wrappers: Database owns the connection, Statement one prepared
// statement. Every failure comes back as a Status naming the SQL involved.
#ifndef GPUF_ANALYZER_DATABASE_H_
#define GPUF_ANALYZER_DATABASE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/output_file.h"
#include "common/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace gpuf {

// SQLite's storage class of a value in a result row.
enum class ValueType { kInteger, kReal, kText, kBlob, kNull };

class Statement {
 public:
  Statement(Statement&& other) noexcept;
  ~Statement();
  Statement(const Statement&) = delete;

  // Parameters are 1-based, as in SQLite.
  Statement& Bind(int index, int64_t value);
  Statement& Bind(int index, std::string_view value);
  // Binds the bytes without copying them: they must outlive the next Step
  // and stay until Reset (which unbinds them).
  Statement& BindUncopied(int index, std::string_view value);
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

  // True when the statement makes no direct change to the database.
  bool ReadOnly() const;
  int ColumnCount() const;
  std::string ColumnName(int column) const;
  int64_t ColumnInt(int column) const;
  double ColumnDouble(int column) const;
  std::string ColumnText(int column) const;
  // The value's bytes, valid until the next Step, Reset or destruction.
  std::string_view ColumnView(int column) const;
  bool ColumnIsNull(int column) const;
  ValueType ColumnType(int column) const;
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
  bool has_vocabulary_ = false;  // a $word parameter is bound on every Reset
};

// A private database on disk, deleted when it is closed. Pages beyond the
// page cache are written out, so memory stays bounded by the cache however
// large the bundle; ":memory:" keeps every page in RAM. Its file is made in
// a private directory of $SQLITE_TMPDIR or $TMPDIR (else /var/tmp, else
// /tmp), as SQLite's own temporary files are, and unlinked as soon as it and
// its reader (Database::OpenReader) are open; where that directory cannot
// be made, SQLite's own temporary file is used, without a reader.
inline constexpr char kScratchDatabase[] = "";

// What a database this tool writes says it is (PRAGMA application_id, the
// header's bytes 68..71), so that --db can tell its own files from anything
// else before it replaces one.
enum class DatabaseKind { kAnalysis, kFleet };
inline constexpr int32_t kAnalysisApplicationId = 0x47504641;  // "GPFA"
inline constexpr int32_t kFleetApplicationId = 0x47504646;     // "GPFF"

// Whether the file starts with SQLite's header; read without blocking on a
// FIFO (false: a FIFO is no database).
bool IsSqliteFile(const std::string& path);

// The kind of a file by its header: nullopt for anything that is not a
// database this tool wrote (another program's SQLite file, a bundle, an
// empty file, a path that does not exist).
std::optional<DatabaseKind> DatabaseKindOf(const std::string& path);
const char* DatabaseKindName(DatabaseKind kind);  // "analysis", "fleet"

// A database file written for --db: made new beside `path`, published there
// by Publish() (common/output_file.h), removed when dropped unpublished.
// Begin fails with Exists unless `path` does not exist, is an empty regular
// file, or is a database of `kind` this tool wrote (which is replaced):
//   "--db 'P' is not a gpuforensics database: it is never replaced; name a new file for the analysis database"
//   "--db 'P' is a gpuforensics fleet database, not an analysis database: name a new file"
//   "--db 'P' is a FIFO: only a regular file is ever replaced"
class DatabaseOutput {
 public:
  static Result<DatabaseOutput> Begin(const std::string& path, DatabaseKind kind);
  // The file to open the database on until Publish.
  const std::string& write_path() const;
  Status Publish();

 private:
  explicit DatabaseOutput(OutputFile file) : file_(std::move(file)) {}
  OutputFile file_;
};

class Database {
 public:
  // ":memory:", kScratchDatabase or the path of a new or empty file (a
  // DatabaseOutput's write_path()); marked as an analysis database.
  static Result<Database> Create(const std::string& path);
  // Like Create, without the tables or the mark (for a database of another schema).
  static Result<Database> CreateBare(const std::string& path);
  // An existing database, read-only. NotFound / BadInput when it is not one.
  static Result<Database> OpenReadOnly(const std::string& path);
  // A second, read-only connection onto this database's file, for another
  // thread to read what this connection has committed while it goes on
  // writing: this connection's next commit waits until the reader's read
  // ends. A scratch database gives the one opened with it, once; a file
  // opens one; ":memory:" and SQLite's own temporary file have none
  // (NotFound).
  Result<Database> OpenReader();
  Database(Database&& other) noexcept;
  ~Database();
  Database(const Database&) = delete;

  Status Exec(std::string_view sql);
  Result<Statement> Prepare(std::string_view sql);

  // A statement still running when the monotonic clock passes `deadline_ns`
  // is interrupted (a progress handler): it fails with kInterruptedMessage.
  // nullopt lifts the deadline.
  void SetDeadline(std::optional<int64_t> deadline_monotonic_ns);
  // From now on only reads are authorized: SELECT, reading functions and
  // pragmas that only read. Writes, ATTACH (and so VACUUM INTO), DETACH,
  // CREATE, DROP and pragmas that set a value fail to prepare with
  // "not authorized". For the `sql` command's user statements.
  Status RestrictToReads();
  // Like Prepare, but refuses text after the first statement.
  Result<Statement> PrepareSingle(std::string_view sql);
  // The tables one statement reads, each once, as SQLite's authorizer
  // reports them while preparing it (through a view, the view's tables).
  // Nothing runs. Fails as Prepare does.
  Result<std::set<std::string>> TablesRead(std::string_view sql);
  // Drops the named indexes and returns the statements that create them
  // again (as the schema wrote them); names without an index are skipped.
  Result<std::vector<std::string>> DropIndexes(std::span<const std::string_view> names);
  int64_t LastInsertId() const;
  int64_t Changes() const;

 private:
  explicit Database(sqlite3* db);
  // A connection opened with `flags` (without SQLite's mutex); IoError
  // "opening database 'P'" with SQLite's reason.
  static Result<sqlite3*> Connect(const std::string& path, int flags);
  static Result<Database> CreateScratch();
  static Result<Database> ConnectReader(const std::string& path);
  sqlite3* db_;
  std::unique_ptr<int64_t> deadline_ns_;  // 0: none; heap-held, the handler keeps its address
  std::unique_ptr<Database> scratch_reader_;  // until OpenReader hands it out
  bool reads_only_ = false;                   // RestrictToReads was called
};

inline constexpr char kInterruptedMessage[] = "interrupted";

}  // namespace gpuf

#endif  // GPUF_ANALYZER_DATABASE_H_
