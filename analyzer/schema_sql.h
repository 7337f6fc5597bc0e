// The SQL of schema/*.sql, compiled into the binary (generated at build time
// from the files, which stay the documentation of every table and column).
#ifndef GPUF_ANALYZER_SCHEMA_SQL_H_
#define GPUF_ANALYZER_SCHEMA_SQL_H_

#include <span>
#include <string_view>

namespace gpuf {

struct SchemaFile {
  std::string_view name;  // "artifacts.sql"
  std::string_view sql;
};

// In creation order (tables before the tables that reference them).
std::span<const SchemaFile> SchemaFiles();

}  // namespace gpuf

#endif  // GPUF_ANALYZER_SCHEMA_SQL_H_
