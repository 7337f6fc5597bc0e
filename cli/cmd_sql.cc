#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "analyzer/analysis.h"
#include "analyzer/database.h"
#include "analyzer/load/loader.h"
#include "cli/choice_value.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/sql_output.h"
#include "common/exit_codes.h"
#include "common/file_io.h"
#include "common/terminal_text.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

// A database from a bundle (loaded into a private scratch file) or an
// existing file opened read-only (SQLITE_OPEN_READONLY); either way only
// reads are authorized from here on.
Result<Database> OpenSource(const std::string& source) {
  if (IsSqliteFile(source)) {
    GPUF_ASSIGN_OR_RETURN(Database db, Database::OpenReadOnly(source));
    GPUF_RETURN_IF_ERROR(db.RestrictToReads());
    return db;
  }
  GPUF_ASSIGN_OR_RETURN(Database db, Database::Create(kScratchDatabase));
  GPUF_RETURN_IF_ERROR(AnalyzeBundle(source, db).status());
  GPUF_RETURN_IF_ERROR(db.Exec("PRAGMA query_only = ON"));
  GPUF_RETURN_IF_ERROR(db.RestrictToReads());
  return db;
}

SqlFormat FormatNamed(const std::string& name) {
  if (name == "csv") return SqlFormat::kCsv;
  if (name == "json") return SqlFormat::kJson;
  return SqlFormat::kText;
}

}  // namespace

int RunSql(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics sql BUNDLE_OR_DB \"SELECT ...\"\n\n"
      "Runs one read-only SQL statement against a bundle (loaded into a private\n"
      "scratch database) or a database kept with analyze --db, and prints the rows\n"
      "tab-separated with a header line, each as it comes (NULL as an empty field),\n"
      "or as CSV or JSON (an array of objects, like sqlite3 -json). Only reads are\n"
      "allowed: no ATTACH, VACUUM INTO, writes or pragmas that set. Tables:\n"
      "schema/*.sql.\n\noptions");
  options.add_options()
      ("source", po::value<std::string>()->value_name("BUNDLE_OR_DB"), "bundle (tar.zst) or SQLite database")
      ("query", po::value<std::string>()->value_name("QUERY"), "one SQL statement")
      ("format", ChoiceOf({"text", "csv", "json"})->value_name("FORMAT")->default_value("text"),
       "text (tab-separated) | csv (quoted as RFC 4180; text that a spreadsheet would run as a formula starts "
       "with ') | json (an array of objects; NULL and infinities are null)")
      ("timeout", po::value<double>()->value_name("SECONDS")->default_value(60), "seconds the statement may run");
  po::positional_options_description positional;
  positional.add("source", 1).add("query", 1);
  auto parsed = ParseOptions("sql", args, options, positional);
  if (!parsed.ok()) return ReportFailure("sql", parsed.status());
  if (parsed->help) return PrintHelp("sql", options, positional);
  const auto& v = parsed->values;
  if (!v.count("source") || !v.count("query")) {
    return ReportFailure("sql", Status::InvalidArgument("usage: gpuforensics sql BUNDLE_OR_DB \"SELECT ...\""));
  }
  const double timeout_s = v["timeout"].as<double>();
  if (!(timeout_s > 0)) return ReportFailure("sql", Status::InvalidArgument("--timeout must be positive"));
  auto db = OpenSource(v["source"].as<std::string>());
  if (!db.ok()) return ReportFailure("sql", db.status());
  auto statement = db->PrepareSingle(v["query"].as<std::string>());
  if (!statement.ok()) return ReportFailure("sql", statement.status());
  if (!statement->ReadOnly()) {
    return ReportFailure("sql", Status::InvalidArgument("SQL", "only statements that read are allowed"));
  }
  db->SetDeadline(MonotonicNowNs() + static_cast<int64_t>(timeout_s * 1e9));
  // Values are data: on a terminal they are shown, never obeyed (common/terminal_text.h).
  const bool terminal = isatty(STDOUT_FILENO) != 0;
  const auto write_row = [&](std::string row) { WriteStdout(terminal ? TerminalSafe(row) : row); };
  SqlOutput output(FormatNamed(v["format"].as<std::string>()), *statement);
  write_row(output.Begin());
  while (statement->Step()) write_row(output.Row());
  write_row(output.End());
  if (!statement->status().ok()) {
    const std::string& message = statement->status().message();
    if (message.ends_with(kInterruptedMessage)) {
      char limit[64];
      std::snprintf(limit, sizeof limit, "%g s", timeout_s);
      std::fprintf(stderr,
                   "gpuforensics sql: the statement ran past --timeout %s; the rows printed so far are "
                   "complete, the result is not\n",
                   limit);
      return kExitIncomplete;
    }
    return ReportFailure("sql", Status::InvalidArgument(message));
  }
  return kExitOk;
}

}  // namespace gpuf
