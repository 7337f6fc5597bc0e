// The rows of `gpuforensics sql` as they come, in the three shapes people
// feed to other tools: tab-separated text with a header (the default), CSV
// (RFC 4180, a header row) and JSON (one array of objects, as `sqlite3
// -json` writes it). Numbers stay numbers and NULL stays null in JSON; text
// that is not UTF-8 keeps its bytes as \xNN (common/json_bytes.h).
#ifndef GPUF_CLI_SQL_OUTPUT_H_
#define GPUF_CLI_SQL_OUTPUT_H_

#include <string>

#include "analyzer/database.h"

namespace gpuf {

enum class SqlFormat { kText, kCsv, kJson };

class SqlOutput {
 public:
  SqlOutput(SqlFormat format, const Statement& statement) : format_(format), statement_(statement) {}

  // What comes before the first row: the header line, or "[".
  std::string Begin() const;
  // The statement's current row.
  std::string Row();
  // What closes the output: "]" for JSON, nothing otherwise.
  std::string End() const;

 private:
  std::string TextRow() const;
  std::string CsvRow() const;
  std::string JsonRow() const;

  SqlFormat format_;
  const Statement& statement_;
  int rows_ = 0;
};

}  // namespace gpuf

#endif  // GPUF_CLI_SQL_OUTPUT_H_
