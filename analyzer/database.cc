#include "analyzer/database.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "analyzer/schema_sql.h"
#include "analyzer/sql_vocabulary.h"
#include "common/file_io.h"
#include "common/time_format.h"
#include "common/work_dir.h"

namespace gpuf {

namespace {

// A full disk or a failing device is the output's fault (74), not a bug (70).
Status SqliteError(int rc, std::string_view what, std::string_view message) {
  switch (rc & 0xff) {
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
      return Status::IoError(what, message);
    default:
      return Status::Internal(what, message);
  }
}

// A connection is used by one thread at a time (the loader hands it from the
// reading thread to its storing worker and back, never sharing it), so
// SQLite's own locks around every call and every allocation only cost time:
// 7 % of analyze's CPU on the bench bundle. Connections are opened
// without their mutex, and allocations are not counted. Once, before
// SQLite's first use; a call after that would be refused and changes
// nothing.
void ConfigureSqliteOnce() {
  static std::once_flag once;
  std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
}

// How long a commit waits for a reader's read to end, and a reader for a
// commit: the reader's longest read is one pass over the bundle's lines.
constexpr int kReaderWaitMs = 10 * 60 * 1000;
// The reader reads each table once, in order: a small cache serves it.
constexpr char kReaderPragmas[] = "PRAGMA cache_size=-4096;";

// Where SQLite would put its own temporary file: the directory the user
// named ($SQLITE_TMPDIR, then $TMPDIR), else /var/tmp, which is on disk
// where /tmp may be memory. "" when none is a writable directory.
std::string ScratchParent() {
  for (const char* variable : {"SQLITE_TMPDIR", "TMPDIR"}) {
    const char* named = std::getenv(variable);
    if (named && *named) return named;
  }
  for (const char* dir : {"/var/tmp", "/usr/tmp", "/tmp"}) {
    struct stat st {};
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0) return dir;
  }
  return "";
}

}  // namespace

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(other.stmt_), status_(other.status_), has_vocabulary_(other.has_vocabulary_) {
  other.stmt_ = nullptr;
}

Statement::~Statement() {
  if (stmt_) sqlite3_finalize(stmt_);
}

Statement& Statement::Bind(int index, int64_t value) {
  sqlite3_bind_int64(stmt_, index, value);
  return *this;
}

Statement& Statement::Bind(int index, std::string_view value) {
  sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::BindUncopied(int index, std::string_view value) {
  sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_STATIC);
  return *this;
}

Statement& Statement::Bind(int index, std::optional<int64_t> value) {
  return value ? Bind(index, *value) : BindNull(index);
}

Statement& Statement::BindDouble(int index, double value) {
  sqlite3_bind_double(stmt_, index, value);
  return *this;
}

Statement& Statement::BindNamed(const char* name, int64_t value) {
  int index = sqlite3_bind_parameter_index(stmt_, name);
  if (index > 0) sqlite3_bind_int64(stmt_, index, value);
  return *this;
}

Status Statement::BindVocabulary() {
  for (int i = 1, n = sqlite3_bind_parameter_count(stmt_); i <= n; ++i) {
    const char* name = sqlite3_bind_parameter_name(stmt_, i);
    if (!name || name[0] != '$') continue;
    has_vocabulary_ = true;
    GPUF_ASSIGN_OR_RETURN(std::optional<std::string> value, SqlVocabularyValue(name));
    if (value) sqlite3_bind_text(stmt_, i, value->data(), static_cast<int>(value->size()), SQLITE_TRANSIENT);
  }
  return Status::Ok();
}

Statement& Statement::BindNull(int index) {
  sqlite3_bind_null(stmt_, index);
  return *this;
}

bool Statement::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE && status_.ok()) status_ = SqliteError(rc, "SQL", sqlite3_errmsg(db_));
  return false;
}

Status Statement::Run() {
  while (Step()) {
  }
  Status result = status_;
  Reset();
  return result;
}

void Statement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  // The vocabulary's words were checked when the statement was prepared;
  // most statements have none, and the loader resets one per row.
  if (has_vocabulary_) static_cast<void>(BindVocabulary());
  status_ = Status::Ok();
}

bool Statement::ReadOnly() const { return sqlite3_stmt_readonly(stmt_) != 0; }

int Statement::ColumnCount() const { return sqlite3_column_count(stmt_); }

std::string Statement::ColumnName(int column) const {
  const char* name = sqlite3_column_name(stmt_, column);
  return name ? name : "";
}

int64_t Statement::ColumnInt(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::ColumnDouble(int column) const { return sqlite3_column_double(stmt_, column); }

std::string Statement::ColumnText(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  return text ? reinterpret_cast<const char*>(text) : "";
}

std::string_view Statement::ColumnView(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_column_bytes(stmt_, column))};
}

bool Statement::ColumnIsNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

ValueType Statement::ColumnType(int column) const {
  switch (sqlite3_column_type(stmt_, column)) {
    case SQLITE_INTEGER: return ValueType::kInteger;
    case SQLITE_FLOAT: return ValueType::kReal;
    case SQLITE_BLOB: return ValueType::kBlob;
    case SQLITE_NULL: return ValueType::kNull;
    default: return ValueType::kText;
  }
}

Result<Database> Database::Create(const std::string& path) {
  if (path == kScratchDatabase) {
    auto scratch = CreateScratch();
    if (scratch.ok()) return scratch;
  }
  GPUF_ASSIGN_OR_RETURN(Database database, CreateBare(path));
  // A 64 MiB page cache: what a scratch database holds in memory at most
  // (SQLite's default is 2 MiB). Pages of 64 KiB (the default is 4 KiB): a
  // database that takes a million log lines is written and read in bulk,
  // and the bench's load took 20 % less time so. The page size must be set
  // before the first table.
  GPUF_RETURN_IF_ERROR(database.Exec("PRAGMA page_size=65536; PRAGMA cache_size=-65536; PRAGMA application_id=" +
                                     std::to_string(kAnalysisApplicationId) + ";"));
  for (const auto& file : SchemaFiles()) {
    GPUF_RETURN_IF_ERROR(database.Exec(file.sql).WithContext("schema/" + std::string(file.name)));
  }
  return database;
}

Result<sqlite3*> Database::Connect(const std::string& path, int flags) {
  ConfigureSqliteOnce();
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return Status::IoError("opening database '" + path + "'", message);
  }
  return db;
}

Result<Database> Database::CreateBare(const std::string& path) {
  GPUF_ASSIGN_OR_RETURN(sqlite3* db, Connect(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE));
  Database database(db);
  GPUF_RETURN_IF_ERROR(database.Exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"));
  return database;
}

// The file is named only while its two connections are opened; then it is
// unlinked and goes with the last of them, as SQLite's own temporary files do.
Result<Database> Database::CreateScratch() {
  const std::string parent = ScratchParent();
  if (parent.empty()) return Status::NotFound("a writable directory for the scratch database");
  GPUF_ASSIGN_OR_RETURN(WorkDir dir, WorkDir::Create(parent, "gpuforensics-db-"));
  const std::string path = dir / "scratch.sqlite";
  GPUF_ASSIGN_OR_RETURN(Database database, Create(path));
  GPUF_ASSIGN_OR_RETURN(Database reader, ConnectReader(path));
  database.scratch_reader_ = std::make_unique<Database>(std::move(reader));
  return database;
}

Result<Database> Database::ConnectReader(const std::string& path) {
  GPUF_ASSIGN_OR_RETURN(sqlite3* db, Connect(path, SQLITE_OPEN_READONLY));
  Database reader(db);
  sqlite3_busy_timeout(db, kReaderWaitMs);
  GPUF_RETURN_IF_ERROR(reader.Exec(kReaderPragmas));
  return reader;
}

Result<Database> Database::OpenReader() {
  std::optional<Database> reader;
  if (scratch_reader_) {
    reader.emplace(std::move(*scratch_reader_));
    scratch_reader_.reset();
  } else {
    const char* file = sqlite3_db_filename(db_, "main");
    if (file == nullptr || *file == '\0') return Status::NotFound("a reader of a database without a file");
    GPUF_ASSIGN_OR_RETURN(Database opened, ConnectReader(file));
    reader.emplace(std::move(opened));
  }
  sqlite3_busy_timeout(db_, kReaderWaitMs);
  return std::move(*reader);
}

Result<Database> Database::OpenReadOnly(const std::string& path) {
  auto db = Connect(path, SQLITE_OPEN_READONLY);
  if (!db.ok()) return Status::NotFound(db.status().message());
  Database database(*db);
  // Reading the schema proves it is a database at all.
  GPUF_RETURN_IF_ERROR(database.Exec("SELECT count(*) FROM sqlite_master").WithContext("'" + path + "'"));
  return database;
}

bool IsSqliteFile(const std::string& path) {
  auto fd = OpenRegularFile(path);
  if (!fd.ok()) return false;
  char magic[16] = {};
  ssize_t n = pread(*fd, magic, sizeof magic, 0);
  close(*fd);
  return n == static_cast<ssize_t>(sizeof magic) && std::memcmp(magic, "SQLite format 3", 16) == 0;
}

std::optional<DatabaseKind> DatabaseKindOf(const std::string& path) {
  auto fd = OpenRegularFile(path);
  if (!fd.ok()) return std::nullopt;
  unsigned char header[100] = {};
  ssize_t n = pread(*fd, header, sizeof header, 0);
  close(*fd);
  if (n != static_cast<ssize_t>(sizeof header) || std::memcmp(header, "SQLite format 3", 16) != 0) return std::nullopt;
  int32_t id = static_cast<int32_t>(static_cast<uint32_t>(header[68]) << 24 | static_cast<uint32_t>(header[69]) << 16 |
                                    static_cast<uint32_t>(header[70]) << 8 | header[71]);
  if (id == kAnalysisApplicationId) return DatabaseKind::kAnalysis;
  if (id == kFleetApplicationId) return DatabaseKind::kFleet;
  return std::nullopt;
}

const char* DatabaseKindName(DatabaseKind kind) { return kind == DatabaseKind::kFleet ? "fleet" : "analysis"; }

Result<DatabaseOutput> DatabaseOutput::Begin(const std::string& path, DatabaseKind kind) {
  const std::string what = "--db";
  const std::string name = DatabaseKindName(kind);
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    std::optional<DatabaseKind> found = DatabaseKindOf(path);
    if (!found) {
      return Status::Exists(what + " '" + path + "' is not a gpuforensics database",
                            "it is never replaced; name a new file for the " + name + " database");
    }
    if (*found != kind) {
      return Status::Exists(what + " '" + path + "' is a gpuforensics " + DatabaseKindName(*found) + " database, not " +
                                (kind == DatabaseKind::kAnalysis ? "an " : "a ") + name + " database",
                            "name a new file");
    }
  }
  GPUF_ASSIGN_OR_RETURN(OutputFile file, OutputFile::Create(path, Replace::kRegularFile, what));
  return DatabaseOutput(std::move(file));
}

const std::string& DatabaseOutput::write_path() const { return file_.temp_path(); }

Status DatabaseOutput::Publish() { return file_.Publish(0600); }

namespace {

int PastDeadline(void* deadline) {
  int64_t at = *static_cast<int64_t*>(deadline);
  return at != 0 && MonotonicNowNs() >= at ? 1 : 0;
}

// The authorizer of TablesRead: notes each table read, allows everything.
int NoteTablesRead(void* tables, int action, const char* table, const char*, const char*, const char*) {
  if (action == SQLITE_READ && table) static_cast<std::set<std::string>*>(tables)->insert(table);
  return SQLITE_OK;
}

// The authorizer of RestrictToReads: what only reads.
int OnlyReads(void*, int action, const char* arg1, const char* arg2, const char*, const char*) {
  switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    case SQLITE_FUNCTION:
      // fts3_tokenizer('simple') returns a heap address; load_extension runs code.
      for (const char* refused : {"fts3_tokenizer", "load_extension"}) {
        if (arg2 && strcasecmp(arg2, refused) == 0) return SQLITE_DENY;
      }
      return SQLITE_OK;
    case SQLITE_PRAGMA:
      // "PRAGMA x" reads; "PRAGMA x = v" or "PRAGMA x(v)" may set, except
      // for the pragmas whose argument only names what to read.
      if (arg2 == nullptr) return SQLITE_OK;
      for (const char* reader : {"table_info", "table_xinfo", "index_list", "index_info", "index_xinfo",
                                 "foreign_key_list", "table_list"}) {
        if (arg1 && std::strcmp(arg1, reader) == 0) return SQLITE_OK;
      }
      return SQLITE_DENY;
    default:
      return SQLITE_DENY;
  }
}

}  // namespace

Database::Database(sqlite3* db) : db_(db), deadline_ns_(std::make_unique<int64_t>(0)) {
  sqlite3_progress_handler(db_, 10000, PastDeadline, deadline_ns_.get());
}

void Database::SetDeadline(std::optional<int64_t> deadline_monotonic_ns) {
  *deadline_ns_ = deadline_monotonic_ns.value_or(0);
}

Status Database::RestrictToReads() {
  sqlite3_limit(db_, SQLITE_LIMIT_ATTACHED, 0);
  if (sqlite3_set_authorizer(db_, OnlyReads, nullptr) != SQLITE_OK) {
    return Status::Internal("sqlite authorizer", sqlite3_errmsg(db_));
  }
  reads_only_ = true;
  return Status::Ok();
}

// The authorizer is borrowed for the one prepare. Setting it expires the
// connection's prepared statements, which SQLite prepares again on their
// next step: a cost per call, not a change of what they do.
Result<std::set<std::string>> Database::TablesRead(std::string_view sql) {
  std::set<std::string> tables;
  if (sqlite3_set_authorizer(db_, NoteTablesRead, &tables) != SQLITE_OK) {
    return Status::Internal("sqlite authorizer", sqlite3_errmsg(db_));
  }
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  const std::string error = rc == SQLITE_OK ? "" : sqlite3_errmsg(db_);
  sqlite3_finalize(stmt);
  if (sqlite3_set_authorizer(db_, reads_only_ ? OnlyReads : nullptr, nullptr) != SQLITE_OK) {
    return Status::Internal("sqlite authorizer", sqlite3_errmsg(db_));
  }
  if (rc != SQLITE_OK) return Status::InvalidArgument("SQL", error);
  return tables;
}

Database::Database(Database&& other) noexcept
    : db_(other.db_),
      deadline_ns_(std::move(other.deadline_ns_)),
      scratch_reader_(std::move(other.scratch_reader_)),
      reads_only_(other.reads_only_) {
  other.db_ = nullptr;
}

Database::~Database() {
  if (db_) sqlite3_close(db_);
}

Status Database::Exec(std::string_view sql) {
  char* error = nullptr;
  std::string text(sql);
  if (int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error); rc != SQLITE_OK) {
    std::string message = error ? error : "unknown error";
    sqlite3_free(error);
    return SqliteError(rc, "sqlite exec", message);
  }
  return Status::Ok();
}

Result<Statement> Database::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr) != SQLITE_OK) {
    return Status::Internal("preparing SQL", std::string(sqlite3_errmsg(db_)) + " in: " + std::string(sql));
  }
  Statement statement(db_, stmt);
  GPUF_RETURN_IF_ERROR(statement.BindVocabulary().WithContext("preparing SQL"));
  return statement;
}

Result<Statement> Database::PrepareSingle(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, &tail) != SQLITE_OK) {
    return Status::InvalidArgument("SQL", sqlite3_errmsg(db_));
  }
  Statement statement(db_, stmt);
  GPUF_RETURN_IF_ERROR(statement.BindVocabulary());
  std::string_view rest(tail, static_cast<size_t>(sql.data() + sql.size() - tail));
  if (rest.find_first_not_of(" \t\r\n;") != std::string_view::npos) {
    return Status::InvalidArgument("SQL", "one statement at a time");
  }
  if (!stmt) return Status::InvalidArgument("SQL", "empty statement");
  return statement;
}

Result<std::vector<std::string>> Database::DropIndexes(std::span<const std::string_view> names) {
  std::vector<std::string> creates;
  GPUF_ASSIGN_OR_RETURN(Statement find, Prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?"));
  for (std::string_view name : names) {
    find.Bind(1, name);
    bool found = find.Step();
    if (found) creates.push_back(find.ColumnText(0));
    GPUF_RETURN_IF_ERROR(find.status());
    find.Reset();
    if (found) GPUF_RETURN_IF_ERROR(Exec("DROP INDEX " + std::string(name)));
  }
  return creates;
}

int64_t Database::Changes() const { return sqlite3_changes(db_); }

int64_t Database::LastInsertId() const { return sqlite3_last_insert_rowid(db_); }

}  // namespace gpuf
