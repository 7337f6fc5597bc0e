// The SQL of schema/fleet/*.sql, compiled into the binary like schema/*.sql.
#ifndef GPUF_ANALYZER_FLEET_FLEET_SCHEMA_SQL_H_
#define GPUF_ANALYZER_FLEET_FLEET_SCHEMA_SQL_H_

#include <span>

#include "analyzer/schema_sql.h"

namespace gpuf {

// In creation order (fleet_bundles first).
std::span<const SchemaFile> FleetSchemaFiles();

}  // namespace gpuf

#endif  // GPUF_ANALYZER_FLEET_FLEET_SCHEMA_SQL_H_
