#include <cstdio>
#include <iostream>

#include "analyzer/analysis.h"
#include "analyzer/database.h"
#include "analyzer/loader.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/exit_codes.h"
#include "common/file_io.h"

namespace gpuf {

namespace {

bool IsSqliteFile(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char magic[16] = {};
  size_t n = std::fread(magic, 1, sizeof magic, f);
  std::fclose(f);
  return n == sizeof magic && std::string(magic, 15) == "SQLite format 3";
}

// A database from a bundle (loaded in memory) or an existing file, made
// read-only either way.
Result<Database> OpenSource(const std::string& source) {
  if (IsSqliteFile(source)) return Database::OpenReadOnly(source);
  GPUF_ASSIGN_OR_RETURN(Database db, Database::Create(kScratchDatabase));
  GPUF_RETURN_IF_ERROR(AnalyzeBundle(source, db).status());
  GPUF_RETURN_IF_ERROR(db.Exec("PRAGMA query_only = ON"));
  return db;
}

}  // namespace

int RunSql(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics sql BUNDLE_OR_DB QUERY\n\n"
      "Runs one read-only SQL statement (QUERY, e.g. \"SELECT name FROM artifacts\")\n"
      "against a bundle (loaded into a private temporary database in $TMPDIR) or a\n"
      "database kept with analyze --db, and prints the rows tab-separated with a\n"
      "header line. NULL prints as an empty field. Tables: schema/*.sql.\n\noptions");
  options.add_options()
      ("source", po::value<std::string>()->value_name("BUNDLE_OR_DB"), "bundle (tar.zst) or SQLite database")
      ("query", po::value<std::string>()->value_name("QUERY"), "one SQL statement");
  po::positional_options_description positional;
  positional.add("source", 1).add("query", 1);
  auto parsed = ParseOptions("sql", args, options, positional);
  if (!parsed.ok()) return ReportFailure("sql", parsed.status());
  if (parsed->help) {
    std::cout << HelpText(options, positional);
    return kExitOk;
  }
  if (!parsed->values.count("source") || !parsed->values.count("query")) {
    return ReportFailure("sql", Status::InvalidArgument("usage: gpuforensics sql BUNDLE_OR_DB \"SELECT ...\""));
  }
  auto db = OpenSource(parsed->values["source"].as<std::string>());
  if (!db.ok()) return ReportFailure("sql", db.status());
  auto statement = db->PrepareSingle(parsed->values["query"].as<std::string>());
  if (!statement.ok()) return ReportFailure("sql", statement.status());
  std::string out;
  for (int i = 0; i < statement->ColumnCount(); ++i) out += (i ? "\t" : "") + statement->ColumnName(i);
  out += "\n";
  while (statement->Step()) {
    for (int i = 0; i < statement->ColumnCount(); ++i) out += (i ? "\t" : "") + statement->ColumnText(i);
    out += "\n";
  }
  if (!statement->status().ok()) {
    return ReportFailure("sql", Status::InvalidArgument(statement->status().message()));
  }
  std::fputs(out.c_str(), stdout);
  return kExitOk;
}

}  // namespace gpuf
