// The facts `gpuforensics diff` compares, as a table: section, kind and one
// SQL query per row that returns (name, value) pairs for the bundle bound as
// :bundle. A NULL value means the bundle does not show that fact. The chain
// verdict's steps are added from ComputeChainVerdict.
#ifndef GPUF_ANALYZER_DIFF_DIFF_FACTS_H_
#define GPUF_ANALYZER_DIFF_DIFF_FACTS_H_

#include <cstdint>
#include <span>
#include <string>

#include "analyzer/database.h"
#include "analyzer/diff/bundle_diff.h"

namespace gpuf {

struct DiffFactQuery {
  const char* section;  // a DiffSections() id
  FactKind kind;
  const char* sql;      // SELECT name, value ... WHERE ... = :bundle
};

std::span<const DiffFactQuery> FactQueries();

// Reads one loaded, timelined and rule-checked bundle. Every text in the
// snapshot is printable: control characters from the bundle become '?'.
// Fails only when the database does (a query of the table that does not run
// is a bug).
Result<BundleSnapshot> ReadSnapshot(Database& db, int64_t bundle_id, const std::string& path);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_DIFF_DIFF_FACTS_H_
