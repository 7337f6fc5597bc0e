#include "analyzer/rules/log_scan.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("log_scan") {

namespace {

// A bundle with one journal slice whose rows are stored in `lines` order.
Database JournalWithRowsInOrder(const std::vector<int>& lines) {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  REQUIRE(db->Exec("INSERT INTO bundles (bundle_id, path, format_version, tool_version, collected_at_ns, "
                   "collection_ended_ns, complete) VALUES (1, 'b', 1, 'v', 0, 0, 1)").ok());
  REQUIRE(db->Exec("INSERT INTO artifacts (artifact_id, bundle_id, name, instance, kind, context, started_at_ns, "
                   "duration_ns, status, timed_out, abandoned, truncated, redactions) "
                   "VALUES (7, 1, 'journal.kernel', 'boot:0', 'command', 'host', 0, 0, 'ok', 0, 0, 0, 0)").ok());
  for (int line : lines) {
    REQUIRE(db->Exec("INSERT INTO journal_entries (artifact_id, line, realtime_us, message) VALUES (7, " +
                     std::to_string(line) + ", " + std::to_string(line) + ", 'NVRM: Xid 79 at line " +
                     std::to_string(line) + "')").ok());
  }
  return std::move(*db);
}

// An artifact of bundle 1 that ran to the end.
void AddArtifact(Database& db, int id, const std::string& name, const std::string& instance,
                 const std::string& context) {
  REQUIRE(db.Exec("INSERT INTO artifacts (artifact_id, bundle_id, name, instance, kind, context, started_at_ns, "
                  "duration_ns, status, timed_out, abandoned, truncated, redactions) VALUES (" +
                  std::to_string(id) + ", 1, '" + name + "', '" + instance + "', 'file', '" + context +
                  "', 0, 0, 'ok', 0, 0, 0, 0)")
              .ok());
}

// Adds `selection` as rule 0's, then scans bundle 1 of `db`.
void ScanFor(LogScanner& scanner, Database& db, const Selection& selection) {
  scanner.Add(0, selection);
  REQUIRE(scanner.Compile().ok());
  auto artifacts = ArtifactIndex::Load(db, 1);
  REQUIRE(artifacts.ok());
  REQUIRE(scanner.Scan(db, *artifacts).ok());
}

std::vector<int64_t> MatchedLines(Database& db) {
  Selection xid;
  xid.name = "xid";
  xid.sources = {"journal.kernel"};
  xid.pattern = R"(NVRM: Xid (?P<code>\d+))";
  LogScanner scanner;
  ScanFor(scanner, db, xid);
  std::vector<int64_t> lines;
  for (const auto& row : scanner.Matches(0, "xid")) {
    lines.push_back(*row.line);
    CHECK(row.Field("code") == "79");
    CHECK(row.text == "NVRM: Xid 79 at line " + std::to_string(*row.line));
  }
  CHECK(scanner.stats().matches == static_cast<int>(lines.size()));
  return lines;
}

}  // namespace

TEST_CASE("LogScanner: matches come in line order when the rows are stored in line order") {
  Database db = JournalWithRowsInOrder({1, 2, 3, 4});
  CHECK(MatchedLines(db) == std::vector<int64_t>{1, 2, 3, 4});
}

TEST_CASE("LogScanner: a selection of several wordings gives one row a line, with the entry's fields") {
  Database db = JournalWithRowsInOrder({1, 2});
  Selection xid;
  xid.name = "xid";
  xid.sources = {"*"};
  xid.message = "demo";
  xid.patterns = {{R"(NVRM: Xid (?P<code>\d+) at line 1)", "first-wording", {{"reason", "one"}}},
                  {R"(NVRM: Xid (?P<code>\d+))", "second-wording", {{"reason", "two"}}}};
  LogScanner scanner;
  ScanFor(scanner, db, xid);
  const auto& rows = scanner.Matches(0, "xid");
  REQUIRE(rows.size() == 2);
  CHECK(*rows[0].line == 1);
  CHECK(rows[0].Field("message") == "first-wording");
  CHECK(rows[0].Field("reason") == "one");
  CHECK(rows[0].Field("code") == "79");
  CHECK(*rows[1].line == 2);
  CHECK(rows[1].Field("message") == "second-wording");
  CHECK(rows[1].Field("reason") == "two");
}

TEST_CASE("LogScanner: a selection with no pattern at all scans nothing, an empty one in a rule file every line") {
  Database db = JournalWithRowsInOrder({1, 2});
  Selection journal_only;  // a kind no wording says: read from the journal's classification alone
  journal_only.name = "started";
  journal_only.sources = {"journal.*"};
  journal_only.message = "unit_started";
  LogScanner scanner;
  ScanFor(scanner, db, journal_only);
  CHECK(scanner.stats().patterns == 0);
  CHECK(scanner.Matches(0, "started").empty());
  Selection everything;  // `pattern: ''` as a rule file writes it
  everything.name = "any";
  everything.sources = {"journal.kernel"};
  everything.patterns = {{"", "", {}}};
  LogScanner all;
  ScanFor(all, db, everything);
  CHECK(all.Matches(0, "any").size() == 2);
}

TEST_CASE("LogScanner: a line an entry's unless matches is not that entry's, and another wording may still take it") {
  Database db = JournalWithRowsInOrder({1, 2, 3});
  Selection xid;
  xid.name = "xid";
  xid.sources = {"*"};
  xid.message = "demo";
  xid.patterns = {{R"(NVRM: Xid (?P<code>\d+))", "guarded", {}, "at line 2"},
                  {R"(NVRM: Xid (?P<code>\d+) at line 2)", "line-two", {}}};
  LogScanner scanner;
  ScanFor(scanner, db, xid);
  const auto& rows = scanner.Matches(0, "xid");
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].Field("message") == "guarded");
  CHECK(rows[1].Field("message") == "line-two");
  CHECK(rows[2].Field("message") == "guarded");
}

TEST_CASE("LogScanner: matches come in line order when the rows are stored in another order") {
  Database db = JournalWithRowsInOrder({3, 1, 4, 2});
  CHECK(MatchedLines(db) == std::vector<int64_t>{1, 2, 3, 4});
}

TEST_CASE("LogScanner: the prefilter reads patterns as RE2 does, escapes and case folding included") {
  Database db = JournalWithRowsInOrder({1, 2});
  // Each pattern matches every line; a prefilter that took "\x4e" for the
  // literal "x4e", or ignored (?i), would let no line through.
  for (const char* pattern : {R"(\x4eVRM: Xid (?P<code>\d+))", R"((?i)nvrm: XID (?P<code>\d+))",
                              R"(\QNVRM: Xid\E (?P<code>\d+))", R"([N]VRM: X[i]d (?P<code>\d+))"}) {
    Selection xid;
    xid.name = "xid";
    xid.sources = {"journal.kernel"};
    xid.pattern = pattern;
    LogScanner scanner;
    ScanFor(scanner, db, xid);
    CHECK_MESSAGE(scanner.Matches(0, "xid").size() == 2, pattern);
  }
}

TEST_CASE("LogScanner: a matched container log line is shown as written where its member's lines were kept") {
  Database db = JournalWithRowsInOrder({});
  // Two pod logs: the first kept as lines too (artifact_lines), the second too large to be.
  for (int id : {8, 9}) {
    AddArtifact(db, id, "plugin.log", "p" + std::to_string(id), "host");
    for (int line : {1, 2}) {
      std::string message = line == 1 ? "Loading NVML" : "Failed to initialize NVML: Unknown Error";
      REQUIRE(db.Exec("INSERT INTO log_lines (artifact_id, line, time_ns, message) VALUES (" + std::to_string(id) +
                      ", " + std::to_string(line) + ", " + std::to_string(line) + ", '" + message + "')").ok());
      if (id == 8) {
        REQUIRE(db.Exec("INSERT INTO artifact_lines (artifact_id, stream, line, text) VALUES (8, 'content', " +
                        std::to_string(line) + ", '2026-01-01T00:00:0" + std::to_string(line) +
                        "Z stderr F " + message + "')").ok());
      }
    }
  }
  Selection nvml;
  nvml.name = "nvml";
  nvml.sources = {"plugin.log"};
  nvml.pattern = R"(Failed to initialize NVML: (?P<why>.+))";
  LogScanner scanner;
  ScanFor(scanner, db, nvml);
  const auto& rows = scanner.Matches(0, "nvml");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].artifact_id == 8);
  CHECK(rows[0].text == "2026-01-01T00:00:02Z stderr F Failed to initialize NVML: Unknown Error");
  CHECK(rows[0].Field("why") == "Unknown Error");
  CHECK(rows[1].artifact_id == 9);
  CHECK(rows[1].text == "Failed to initialize NVML: Unknown Error");
}

TEST_CASE("LogScanner: a saved text's line that starts with an RFC 3339 stamp has that time, others none") {
  Database db = JournalWithRowsInOrder({});
  AddArtifact(db, 8, "saved.text", "pod.log", "container");
  const char* lines[] = {"2025-03-12T06:26:05.287140933Z Failed to initialize NVML: Unknown Error",
                         "Failed to initialize NVML: Unknown Error",
                         "2025-03-12 06:26:05 Failed to initialize NVML: Unknown Error"};
  for (int i = 0; i < 3; ++i) {
    REQUIRE(db.Exec("INSERT INTO artifact_lines (artifact_id, stream, line, text) VALUES (8, 'content', " +
                    std::to_string(i + 1) + ", '" + lines[i] + "')").ok());
  }
  Selection nvml;
  nvml.name = "nvml";
  nvml.sources = {"saved.text"};
  nvml.pattern = R"(Failed to initialize NVML)";
  LogScanner scanner;
  ScanFor(scanner, db, nvml);
  const auto& rows = scanner.Matches(0, "nvml");
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].time_ns == 1741760765287140933LL);
  CHECK_FALSE(rows[1].time_ns.has_value());
  CHECK_FALSE(rows[2].time_ns.has_value());
}

TEST_CASE("LogScanner: each artifact's lines meet the prefilter of the patterns that apply to it alone") {
  Database db = JournalWithRowsInOrder({1, 2});
  AddArtifact(db, 8, "plugin.log", "p", "host");
  REQUIRE(db.Exec("INSERT INTO log_lines (artifact_id, line, time_ns, message) VALUES "
                  "(8, 1, 1, 'Failed to initialize NVML: Unknown Error'), (8, 2, 2, 'NVRM: Xid 79 quoted by the plugin')")
              .ok());
  // Two groups: the kernel's {xid, any}, the plugin log's {nvml, any}. The
  // plugin's line that holds the Xid wording is not the kernel pattern's.
  auto selection = [](const char* name, std::vector<std::string> sources, const char* pattern) {
    Selection s;
    s.name = name;
    s.sources = std::move(sources);
    s.pattern = pattern;
    return s;
  };
  const Selection xid = selection("xid", {"journal.kernel"}, R"(NVRM: Xid (?P<code>\d+))");
  const Selection nvml = selection("nvml", {"plugin.log"}, R"(Failed to initialize NVML: (?P<why>.+))");
  const Selection any = selection("any", {"journal.kernel", "plugin.log"}, R"((?i)xid (?P<code>\d+))");
  LogScanner scanner;
  scanner.Add(0, xid);
  scanner.Add(0, nvml);
  scanner.Add(0, any);
  REQUIRE(scanner.Compile().ok());
  auto artifacts = ArtifactIndex::Load(db, 1);
  REQUIRE(artifacts.ok());
  REQUIRE(scanner.Scan(db, *artifacts).ok());
  auto where = [&](const char* name) {
    std::vector<std::pair<int64_t, int64_t>> at;
    for (const auto& row : scanner.Matches(0, name)) at.emplace_back(*row.artifact_id, *row.line);
    return at;
  };
  using At = std::vector<std::pair<int64_t, int64_t>>;
  CHECK(where("xid") == At{{7, 1}, {7, 2}});
  CHECK(where("nvml") == At{{8, 1}});
  CHECK(where("any") == At{{7, 1}, {7, 2}, {8, 2}});
}

}  // TEST_SUITE

}  // namespace gpuf
