// Small helpers for report-side queries that take the bundle id as their
// only parameter (:bundle) and return a number, a text or rendered rows.
#ifndef GPUF_ANALYZER_QUERY_H_
#define GPUF_ANALYZER_QUERY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "analyzer/database.h"

namespace gpuf {

// The first column of the first row as an integer; 0 when there is no row.
inline Result<int64_t> QueryInt(Database& db, std::string_view sql, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(sql));
  s.BindNamed(":bundle", bundle_id);
  int64_t value = s.Step() ? s.ColumnInt(0) : 0;
  GPUF_RETURN_IF_ERROR(s.status());
  return value;
}

// The first column of the first row; nullopt when there is no row or it is NULL.
inline Result<std::optional<std::string>> QueryText(Database& db, std::string_view sql, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(sql));
  s.BindNamed(":bundle", bundle_id);
  std::optional<std::string> value;
  if (s.Step() && !s.ColumnIsNull(0)) value = s.ColumnText(0);
  GPUF_RETURN_IF_ERROR(s.status());
  return value;
}

// Every row, rendered by `row` (to a string or any value).
template <typename Fn, typename Row = std::invoke_result_t<Fn, Statement&>>
Result<std::vector<Row>> QueryRows(Database& db, std::string_view sql, int64_t bundle_id, Fn row) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(sql));
  s.BindNamed(":bundle", bundle_id);
  std::vector<Row> out;
  while (s.Step()) out.push_back(row(s));
  GPUF_RETURN_IF_ERROR(s.status());
  return out;
}

}  // namespace gpuf

#endif  // GPUF_ANALYZER_QUERY_H_
