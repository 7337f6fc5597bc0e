// A bundle of a rule sample's `rows` (YAML, as rules/*.yaml write them),
// built in a database the way `rules test` builds one: for engine tests
// that need tables filled and the timeline made from them.
#ifndef GPUF_TESTS_SAMPLE_ROWS_BUNDLE_H_
#define GPUF_TESTS_SAMPLE_ROWS_BUNDLE_H_

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "analyzer/database.h"
#include "analyzer/rules/rule_parser.h"
#include "analyzer/rules/sample_fixture.h"

namespace gpuf::test {

// `rows` is the sample's rows block, indented six spaces as under a sample.
inline int64_t SampleRowsBundle(Database& db, const std::string& rows) {
  const std::string text =
      "id: holder\ntitle: holder\nseverity: high\ndescription: d\nsymptom: gpu-fault\nrole: cause\n"
      "references: [{kind: kb, url: 'https://example.com/holder'}]\n"
      "select: {a: {kind: context, sql: SELECT 1}}\noutcomes: [{result: pass}]\nremediation: [Drain the node.]\n"
      "samples:\n  - {name: p, expect: fail likely, logs: {journal.kernel: ['x']}}\n"
      "  - {name: n, expect: pass, near_miss: true}\n  - name: the bundle\n    expect: pass\n    rows:\n" + rows;
  auto rule = ParseRuleText("rules/holder.yaml", text);
  REQUIRE_MESSAGE(rule.ok(), rule.status().message());
  YamlMark where;
  auto bundle = BuildSampleBundle(db, rule->samples.back(), &where);
  REQUIRE_MESSAGE(bundle.ok(), bundle.status().message());
  return *bundle;
}

inline Database InMemoryDatabase() {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  return std::move(*db);
}

}  // namespace gpuf::test

#endif  // GPUF_TESTS_SAMPLE_ROWS_BUNDLE_H_
