// The analyzer against what an attached bundle or a site's rule folder can
// throw at it: 100 MB log lines, a pattern that backtracking engines take
// exponential time on, and rule files with broken patterns or SQL. The
// hostile archives themselves are in hostile_bundle_test.cc.
#include <doctest/doctest.h>

#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "analyzer/database.h"
#include "analyzer/load/loader.h"
#include "analyzer/rules/rule_engine.h"
#include "analyzer/rules/rule_parser.h"
#include "common/sha256.h"
#include "formats/pattern_options.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

using nlohmann::json;

// samples/healthy.tar.zst with the stdout (or content) of some artifacts
// replaced, keyed "name instance"; the manifest's sizes and hashes follow.
void WriteEditedSample(const std::string& path, const std::map<std::string, std::string>& replacements) {
  auto members = test::ReadBundleMembers(test::SourcePath("samples/healthy.tar.zst"));
  json manifest = json::parse(members.at(0).second);
  std::map<std::string, std::string> by_member;
  for (auto& artifact : manifest["artifacts"]) {
    std::string key = artifact["name"].get<std::string>() + " " + artifact["instance"].get<std::string>();
    auto it = replacements.find(key);
    if (it == replacements.end()) continue;
    for (auto& output : artifact["outputs"]) {
      if (output["stream"] != "stdout" && output["stream"] != "content") continue;
      output["size_bytes"] = it->second.size();
      output["sha256"] = Sha256Hex(it->second);
      by_member[output["member"]] = it->second;
    }
  }
  REQUIRE(by_member.size() == replacements.size());
  members[0].second = manifest.dump();
  for (auto& [name, data] : members) {
    auto it = by_member.find(name);
    if (it != by_member.end()) data = it->second;
  }
  test::WriteTarZst(path, members);
}

std::string JournalLine(const std::string& message) {
  return json({{"__REALTIME_TIMESTAMP", "1763435897412345"},
               {"__MONOTONIC_TIMESTAMP", "12345678"},
               {"_BOOT_ID", "0b1c2d3e4f5a69788796a5b4c3d2e1f0"},
               {"_TRANSPORT", "stdout"},
               {"SYSLOG_IDENTIFIER", "kubelet"},
               {"MESSAGE", message}})
             .dump() +
         "\n";
}

// A rule whose one log pattern is the textbook case of catastrophic
// backtracking: (a+)+$ against "aaaa...a!".
constexpr char kCatastrophicRule[] = R"(id: catastrophic-pattern
title: A pattern that backtracking engines take exponential time on
severity: low
description: Nested quantifiers; RE2 matches in linear time regardless.
references:
  - kind: kb
    url: https://github.com/google/re2/wiki/WhyRE2
    title: Why RE2
requires:
  - journal.kubelet
select:
  nested:
    log: journal.kubelet
    pattern: '(a+)+$'
    kind: event
outcomes:
  - when: nested
    result: warn
    confidence: possible
    summary: a line of a's ({count(nested)})
    evidence: [nested]
    catalog: none, a test of the engine
  - result: pass
    summary: no line of a's
remediation:
  - Nothing to do.
samples:
  - name: a line of a's
    expect: warn possible
    logs:
      journal.kubelet:
        - '[3] aaaa'
  - name: none
    expect: pass
    logs:
      journal.kubelet:
        - '[3] bbbb'
symptom: exposure
role: cause
)";

// Nanoseconds of the rule engine's log pass over a bundle whose kubelet
// journal holds 8 lines of `n` a's and a '!' each; the best of three runs.
int64_t ScanNanoseconds(const test::TempDir& dir, const RuleSet& rules, size_t n) {
  const std::string bundle = dir / ("a" + std::to_string(n) + ".tar.zst");
  std::string journal;
  for (int i = 0; i < 8; ++i) journal += JournalLine(std::string(n, 'a') + "!");
  WriteEditedSample(bundle, {{"journal.kubelet boot:0", journal}});
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  auto loaded = LoadBundle(bundle, *db);
  REQUIRE(loaded.ok());
  int64_t best = INT64_MAX;
  for (int run = 0; run < 3; ++run) {
    auto summary = RunRuleSet(*db, loaded->bundle_id, rules);
    REQUIRE(summary.ok());
    REQUIRE(summary->runs.size() == 1);
    // The 8 long lines, and the sample's one plugin line the engine's registration wording holds.
    CHECK(summary->scan.set_checks == 8 + 1);
    best = std::min(best, summary->scan_ns);
  }
  return best;
}

// CPU nanoseconds of this thread (a busy machine preempts; the clock of
// the thread counts only what the match itself took).
int64_t ThreadCpuNanoseconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// CPU nanoseconds of one RE2::Set match against `n` a's and a '!'; the best
// of five.
int64_t SetMatchNanoseconds(const RE2::Set& set, size_t n) {
  const std::string line = std::string(n, 'a') + "!";
  int64_t best = INT64_MAX;
  for (int run = 0; run < 5; ++run) {
    std::vector<int> hits;
    RE2::Set::ErrorInfo info{RE2::Set::kNoError};
    const int64_t start = ThreadCpuNanoseconds();
    bool matched = set.Match(line, &hits, &info);
    best = std::min(best, ThreadCpuNanoseconds() - start);
    CHECK_FALSE(matched);
    CHECK(info.kind == RE2::Set::kNoError);
  }
  return best;
}

}  // namespace

TEST_SUITE("analyzer_faults") {

TEST_CASE("analyze fault: 100 MB log lines are cut to 1 MiB with a warning, and what follows is read") {
  test::TempDir dir;
  const std::string huge(100 << 20, 'x');
  WriteEditedSample(dir / "huge.tar.zst",
                    {{"journal.kubelet boot:0", JournalLine("I1118 05:30:01.000000    1333 big.go:1] " + huge) +
                                                    JournalLine("an ordinary line after it")},
                     {"journal.kernel boot:0", "{\"MESSAGE\":\"" + huge + "\n"}});
  auto text = test::RunGpuforensics({"analyze", dir / "huge.tar.zst"});
  CHECK(text.exit_code <= 1);
  CHECK(text.err == "");
  MESSAGE("analyze of two 100 MB lines: " << text.seconds << " s, peak RSS " << text.max_rss_kib / 1024 << " MiB");
  // The JSON line is cut to 1 MiB, the broken one is refused, each with a
  // warning; what follows is read.
  auto warnings = test::RunGpuforensics(
      {"sql", dir / "huge.tar.zst",
       "SELECT a.name, w.line, w.message FROM parse_warnings w JOIN artifacts a USING (artifact_id) "
       "WHERE a.name LIKE 'journal.%' ORDER BY 1"});
  CHECK(warnings.exit_code == 0);
  CHECK(warnings.out == "name\tline\tmessage\n"
                        "journal.kernel\t1\tnot a journal JSON object\n"
                        "journal.kubelet\t1\tline of 104857640 bytes cut to 1048576\n");
  auto lines = test::RunGpuforensics(
      {"sql", dir / "huge.tar.zst",
       "SELECT count(*) FROM journal_entries j JOIN artifacts a USING (artifact_id) "
       "WHERE a.name = 'journal.kubelet' AND j.message = 'an ordinary line after it'"});
  CHECK(lines.exit_code == 0);
  CHECK(lines.out.find("1") != std::string::npos);
}

TEST_CASE("analyze fault: a pod log of 20,000 records is stored whole, in order, by the storing thread") {
  // Big enough for the loader to store it on a second thread
  // (load_logs.cc): every record arrives, in order, classified.
  test::TempDir dir;
  const int kRecords = 20000;
  std::string log;
  for (int i = 1; i < kRecords; ++i) {
    log += "2025-11-18T05:31:00.000000000Z stderr F I1118 05:31:00.000000       1 health.go:" + std::to_string(i) +
           "] record " + std::to_string(i) + "\n";
  }
  log += "2025-11-18T05:31:01.000000000Z stderr F I1118 05:31:01.000000       1 server.go:219] "
         "Registered device plugin for 'nvidia.com/gpu' with Kubelet\n";
  const std::string instance =
      "/var/log/pods/kube-system_nvidia-device-plugin-daemonset-61a5d_f7f7702e-7c69-33c3-6a37-fd6cfa9b710f/"
      "nvidia-device-plugin-ctr/0.log";
  WriteEditedSample(dir / "big-log.tar.zst", {{"plugin.log " + instance, log}});
  auto rows = test::RunGpuforensics(
      {"sql", dir / "big-log.tar.zst",
       "SELECT count(*), min(l.line), max(l.line), sum(l.line = CAST(substr(l.message, 8) AS INTEGER)), "
       "max(CASE WHEN l.event = 'registered' THEN l.line END) FROM log_lines l JOIN artifacts a USING (artifact_id) "
       "WHERE a.name = 'plugin.log'"});
  CHECK(rows.exit_code == 0);
  CHECK(rows.err == "");
  CHECK(rows.out.find("20000\t1\t20000\t19999\t20000\n") != std::string::npos);
}

TEST_CASE("analyze fault: (a+)+$ against a long line takes time linear in the line (RE2)") {
  test::TempDir dir;
  auto rule = ParseRuleText("rules/catastrophic-pattern.yaml", kCatastrophicRule);
  REQUIRE_MESSAGE(rule.ok(), rule.status().message());
  RuleSet rules;
  rules.rules.push_back(*rule);
  // The pattern as the log scan compiles it, alone: 8x the line, 8x the
  // time for a linear engine, 64x for a quadratic one; a backtracking one
  // would not finish. 32x (of at least 100 us, below which timer noise
  // dominates) leaves room for a busy machine without letting quadratic
  // growth through. Lines of 256 KiB and 2 MiB stay near the processor's
  // caches, whose misses would otherwise blur the ratio.
  RE2::Set set(RulePatternOptions(), RE2::UNANCHORED);
  REQUIRE(set.Add(rule->selections[0].pattern, nullptr) == 0);
  REQUIRE(set.Compile());
  const int64_t small = SetMatchNanoseconds(set, 256 << 10);
  const int64_t large = SetMatchNanoseconds(set, 2 << 20);
  MESSAGE("RE2 set, CPU time on a line of 256 KiB: " << small / 1000 << " us; of 2 MiB: " << large / 1000
                                                      << " us; ratio "
                                                      << static_cast<double>(large) / static_cast<double>(small));
  CHECK(large < 32 * std::max<int64_t>(small, 100'000));

  // The whole log pass, SQL reads included, on the longest lines it ever
  // meets: the loader cuts lines to 1 MiB (LoadContext::kMaxLineBytes).
  const int64_t pass = ScanNanoseconds(dir, rules, (1 << 20) - 1);
  MESSAGE("log pass over 8 lines of 1 MiB: " << pass / 1000 << " us");
}

TEST_CASE("rules fault: a broken pattern or SQL is named by file and line") {
  test::TempDir dir;
  std::string broken_pattern = kCatastrophicRule;
  broken_pattern.replace(broken_pattern.find("catastrophic-pattern"), 20, "broken-pattern");
  broken_pattern.replace(broken_pattern.find("'(a+)+$'"), 8, "'(a+'");
  test::WriteFile(dir / "broken-pattern.yaml", broken_pattern);
  std::string broken_sql = kCatastrophicRule;
  broken_sql.replace(broken_sql.find("catastrophic-pattern"), 20, "broken-sql");
  broken_sql.replace(broken_sql.find("    log: journal.kubelet\n    pattern: '(a+)+$'"), 46,
                     "    sql: SELEC artifact_id FROM nowhere");
  test::WriteFile(dir / "broken-sql.yaml", broken_sql);
  auto lint = test::RunGpuforensics({"rules", "lint", dir.path()});
  CHECK(lint.exit_code == 1);
  CHECK(lint.out == dir / "broken-pattern.yaml:14: pattern does not compile: missing ): (a+\n"
                    "    pattern: '(a+'\n"
                    "             ^ near here\n" +
                    dir / "broken-sql.yaml:13: sql must be one SELECT statement (or WITH ... SELECT)\n"
                    "    sql: SELEC artifact_id FROM nowhere\n"
                    "         ^ near here\n"
                    "0 rules read, 2 problems\n");
  // analyze runs the rules that read, and reports the others with the same words;
  // a rule that could not run makes the run incomplete (3), not clean.
  auto analyze = test::RunGpuforensics({"analyze", "--rules", dir.path(), test::SourcePath("samples/healthy.tar.zst")});
  CHECK(analyze.exit_code == 3);
  CHECK(analyze.out.find("  rule broken-pattern: error (" + dir / "broken-pattern.yaml:14: pattern does not compile: "
                         "missing ): (a+\n") != std::string::npos);
  CHECK(analyze.out.find("  rule broken-sql: error (" + dir / "broken-sql.yaml:13: sql must be one SELECT statement") !=
        std::string::npos);
}

}  // TEST_SUITE

}  // namespace gpuf
