// The boot timeline and the chain verdict on the scenario samples: the
// incident write-up's two pictures, rebuilt from bundles.
#include <doctest/doctest.h>
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "analyzer/analysis.h"
#include "analyzer/query.h"
#include "analyzer/render/display_zone.h"
#include "analyzer/timeline/chain_verdict.h"
#include "analyzer/timeline/timeline.h"
#include "analyzer/timeline/timeline_lines.h"
#include "analyzer/timeline/timeline_view.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

struct Loaded {
  Database db;
  int64_t bundle_id;
};

Loaded LoadSample(const std::string& name) {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  auto loaded = PrepareBundle(test::SourcePath("samples/" + name + ".tar.zst"), *db);
  REQUIRE_MESSAGE(loaded.ok(), loaded.status().message());
  return {std::move(db).value(), loaded->bundle_id};
}

double IntervalSeconds(Loaded& s, const std::string& name, int boot = 0) {
  auto text = QueryText(s.db, "SELECT seconds FROM intervals WHERE bundle_id = :bundle AND name = '" + name +
                                  "' AND boot_offset = " + std::to_string(boot), s.bundle_id);
  REQUIRE(text.ok());
  REQUIRE_MESSAGE(text->has_value(), "no interval " << name);
  return std::stod(**text);
}

std::vector<std::string> Milestones(Loaded& s, int boot) {
  auto rows = QueryRows(s.db, "SELECT milestone FROM events WHERE bundle_id = :bundle AND milestone IS NOT NULL "
                              "AND boot_offset = " + std::to_string(boot) + " ORDER BY time_ns, event_id",
                        s.bundle_id, [](Statement& st) { return st.ColumnText(0); });
  REQUIRE(rows.ok());
  return *rows;
}

}  // namespace

TEST_SUITE("timeline") {

TEST_CASE("timeline: the seed incident's plugin started ~1 s after nvidia-persistenced, the healthy node's ~14 s") {
  Loaded seed = LoadSample("seed-incident");
  Loaded healthy = LoadSample("healthy");
  double seed_gap = IntervalSeconds(seed, "plugin_start_after_persistenced");
  double healthy_gap = IntervalSeconds(healthy, "plugin_start_after_persistenced");
  CHECK(seed_gap > 0.5);
  CHECK(seed_gap < 1.5);
  CHECK(healthy_gap > 13.0);
  CHECK(healthy_gap < 15.0);
  CHECK(IntervalSeconds(healthy, "registration_after_plugin_start") < 1.0);
}

TEST_CASE("timeline: sources in UTC (journal) and +08:00 (CRI, crictl) merge in true order") {
  Loaded seed = LoadSample("seed-incident");
  std::vector<std::string> expected = {"boot",           "driver_loaded",           "containerd_started",
                                       "plugin_container_finished", "kubelet_started", "kubelet_sock_created",
                                       "persistenced_started", "node_condition_changed", "plugin_container_created",
                                       "plugin_container_started", "plugin_nvml_init_failed", "collection"};
  CHECK(Milestones(seed, 0) == expected);
}

TEST_CASE("timeline: the cluster's record of the node, the Ready condition and the kubelet's events, in its lane") {
  Loaded restarted = LoadSample("kubelet-restart-no-reregister");
  auto rows = QueryRows(restarted.db,
                        "SELECT milestone || ' ' || message FROM events WHERE bundle_id = :bundle AND "
                        "source = 'cluster' ORDER BY time_ns, event_id",
                        restarted.bundle_id, [](Statement& st) { return st.ColumnText(0); });
  REQUIRE(rows.ok());
  const std::vector<std::string> expected = {
      "cluster_event Normal Starting node/gpu-a800-12: Starting kubelet.",
      "cluster_event Normal NodeAllocatableEnforced node/gpu-a800-12: Updated Node Allocatable limit across pods",
      "node_condition_changed Node Ready=True KubeletReady: kubelet is posting ready status",
      "cluster_event Normal NodeReady node/gpu-a800-12: Node gpu-a800-12 status is now: NodeReady"};
  CHECK(*rows == expected);
  // Ten hours after the boot the API server keeps no event of it; the condition remains.
  Loaded seed = LoadSample("seed-incident");
  auto seed_rows = QueryRows(seed.db, "SELECT milestone FROM events WHERE bundle_id = :bundle AND source = 'cluster'",
                             seed.bundle_id, [](Statement& st) { return st.ColumnText(0); });
  REQUIRE(seed_rows.ok());
  CHECK(*seed_rows == std::vector<std::string>{"node_condition_changed"});
  // The report says how far back the captured events reach: one event TTL before the collection.
  auto report =
      test::RunGpuforensics({"analyze", test::SourcePath("samples/seed-incident.tar.zst"), "--format", "json"});
  const auto json = nlohmann::json::parse(report.out);
  CHECK(json["timeline"]["node_events_since"] == "2026-11-18T12:30:00.000000000Z");
}

TEST_CASE("timeline: kernel lines are placed by their boot-relative stamp") {
  Loaded seed = LoadSample("seed-incident");
  auto off = QueryInt(seed.db,
      "SELECT e.time_ns - (b.time_ns + j.source_monotonic_us * 1000) FROM events e "
      "JOIN journal_entries j ON j.artifact_id = e.artifact_id AND j.line = e.line "
      "JOIN events b ON b.bundle_id = e.bundle_id AND b.milestone = 'boot' AND b.boot_offset = e.boot_offset "
      "WHERE e.bundle_id = :bundle AND e.milestone = 'driver_loaded' AND e.boot_offset = 0", seed.bundle_id);
  REQUIRE(off.ok());
  CHECK(*off == 0);
  auto source = QueryText(seed.db, "SELECT time_source FROM events WHERE bundle_id = :bundle AND milestone = "
                                   "'driver_loaded' AND boot_offset = 0", seed.bundle_id);
  REQUIRE(source.ok());
  CHECK(source->value_or("") == "boot_relative");
  auto warned = QueryInt(seed.db, "SELECT count(*) FROM timeline_warnings w JOIN events e USING (event_id) "
                                  "WHERE e.milestone = 'driver_loaded'", seed.bundle_id);
  CHECK(*warned == 2);  // one per boot
}

TEST_CASE("timeline: each boot starts at its latest journal entry's realtime minus monotonic stamp") {
  Loaded seed = LoadSample("seed-incident");
  auto boots = QueryRows(seed.db,
      "SELECT b.boot_offset || ' ' || (e.time_ns = (b.realtime_us - b.monotonic_us) * 1000) FROM journal_boots b "
      "JOIN events e ON e.bundle_id = b.bundle_id AND e.milestone = 'boot' AND e.boot_id = b.boot_id "
      "WHERE b.bundle_id = :bundle ORDER BY b.boot_offset", seed.bundle_id,
      [](Statement& st) { return st.ColumnText(0); });
  REQUIRE(boots.ok());
  CHECK(*boots == std::vector<std::string>{"-1 1", "0 1"});
  // The entry the loader kept is the latest of its boot that has both clocks.
  auto latest = QueryInt(seed.db,
      "SELECT count(*) FROM journal_boots b WHERE b.bundle_id = :bundle AND b.realtime_us = "
      "(SELECT max(j.realtime_us) FROM journal_entries j WHERE j.boot_id = b.boot_id AND j.monotonic_us IS NOT NULL)",
      seed.bundle_id);
  REQUIRE(latest.ok());
  CHECK(*latest == 2);
}

TEST_CASE("timeline: an entry in two journal slices is one event that points at a line holding its text") {
  Loaded s = LoadSample("dp-426-reload-kubelet-restart");
  // PID 1's "Started ..." lines are in the systemd slice and in the unit's own.
  auto copies = QueryInt(s.db,
      "SELECT count(*) FROM (SELECT 1 FROM journal_entries j JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle GROUP BY j.boot_id, j.realtime_us, j.message HAVING count(*) > 1)", s.bundle_id);
  REQUIRE(copies.ok());
  CHECK(*copies > 0);
  // Each repeat beyond the first is listed once in journal_copies.
  auto repeats = QueryInt(s.db,
      "SELECT sum(n - 1) FROM (SELECT count(*) AS n FROM journal_entries j JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle GROUP BY j.boot_id, j.realtime_us, j.message)", s.bundle_id);
  auto listed = QueryInt(s.db, "SELECT count(*) FROM journal_copies", s.bundle_id);
  REQUIRE(repeats.ok());
  REQUIRE(listed.ok());
  CHECK(*listed == *repeats);
  // Every event of the whole timeline, not only the stored marks.
  auto all = ReadTimeline(s.db, s.bundle_id, /*milestones_only=*/false);
  REQUIRE(all.ok());
  std::set<std::tuple<std::optional<int64_t>, int64_t, std::string>> seen;
  int repeated = 0, journal_lines = 0, elsewhere = 0;
  for (const TimelineRow& r : *all) {
    if (r.artifact.rfind("journal.", 0) != 0 || !r.line || r.source == "plugin") continue;
    ++journal_lines;
    if (!seen.insert({r.boot_offset, r.time_ns, r.message}).second) ++repeated;
    // The slice's name is shared by its boots' instances: one of them holds the text at that line.
    auto holding = QueryRows(s.db,
        "SELECT j.message FROM journal_entries j JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle "
        "AND a.name = '" + r.artifact + "' AND j.line = " + std::to_string(*r.line), s.bundle_id,
        [](Statement& st) { return st.ColumnText(0); });
    REQUIRE(holding.ok());
    if (std::find(holding->begin(), holding->end(), r.message) == holding->end()) ++elsewhere;
  }
  CHECK(journal_lines > 0);
  CHECK(repeated == 0);
  CHECK(elsewhere == 0);
  auto started = QueryText(s.db,
      "SELECT a.name || ':' || e.line FROM events e JOIN artifacts a USING (artifact_id) WHERE e.bundle_id = :bundle "
      "AND e.milestone = 'persistenced_started' AND e.boot_offset = 0", s.bundle_id);
  REQUIRE(started.ok());
  REQUIRE(started->has_value());
  CHECK(**started == "journal.nvidia_persistenced:13");
}

TEST_CASE("timeline: without a container or unit start the plugin's first line of the boot starts it") {
  Loaded s = LoadSample("healthy");
  // The same bundle as if its runtime state had not been captured.
  for (const char* sql : {"DELETE FROM containers WHERE is_plugin", "DELETE FROM intervals",
                          "DELETE FROM timeline_warnings", "DELETE FROM journal_copies", "DELETE FROM events"}) {
    REQUIRE(s.db.Exec(sql).ok());
  }
  REQUIRE(BuildTimeline(s.db, s.bundle_id).ok());
  auto first = QueryText(s.db,
      "SELECT l.artifact_id || ':' || l.line FROM log_lines l JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND l.time_ns >= (SELECT time_ns FROM events WHERE bundle_id = :bundle "
      "AND milestone = 'boot' AND boot_offset = 0) ORDER BY l.time_ns, l.rowid LIMIT 1", s.bundle_id);
  REQUIRE(first.ok());
  REQUIRE(first->has_value());
  auto from = QueryText(s.db,
      "SELECT e.artifact_id || ':' || e.line || ' ' || e.source FROM intervals i JOIN events e "
      "ON e.event_id = i.from_event_id WHERE i.bundle_id = :bundle AND i.boot_offset = 0 "
      "AND i.name = 'registration_after_plugin_start'", s.bundle_id);
  REQUIRE(from.ok());
  CHECK(from->value_or("") == **first + " plugin");
  // Stored for the interval to refer to, the line is still on the whole timeline once.
  auto all = ReadTimeline(s.db, s.bundle_id, /*milestones_only=*/false);
  REQUIRE(all.ok());
  auto stored = QueryText(s.db,
      "SELECT e.line || ' ' || e.message FROM intervals i JOIN events e ON e.event_id = i.from_event_id "
      "WHERE i.bundle_id = :bundle AND i.boot_offset = 0 AND i.name = 'registration_after_plugin_start'", s.bundle_id);
  REQUIRE(stored.ok());
  CHECK(std::count_if(all->begin(), all->end(), [&](const TimelineRow& r) {
          return r.source == "plugin" && r.line && std::to_string(*r.line) + " " + r.message == stored->value_or("");
        }) == 1);
}

TEST_CASE("timeline: prepared for the milestones alone, the same milestones and intervals from fewer entries") {
  for (const char* name : {"seed-incident", "xid-79-kernel-ring", "dp-426-reload-kubelet-restart",
                           "platforms/ack-nvml-race"}) {
    CAPTURE(name);
    Loaded whole = LoadSample(name);
    auto db = Database::Create(":memory:");
    REQUIRE(db.ok());
    auto loaded = PrepareBundle(test::SourcePath(std::string("samples/") + name + ".tar.zst"), *db, {},
                                Preparation::kMilestones);
    REQUIRE(loaded.ok());
    Loaded lean{std::move(db).value(), loaded->bundle_id};
    auto rows = [](Loaded& s, const std::string& sql) {
      auto r = QueryRows(s.db, sql, s.bundle_id, [](Statement& st) {
        std::string row;
        for (int c = 0; c < st.ColumnCount(); ++c) row += (c ? "|" : "") + st.ColumnText(c);
        return row;
      });
      REQUIRE(r.ok());
      return *r;
    };
    const std::string entries = "SELECT artifact_id, line, event, message FROM journal_entries j ";
    auto kept = rows(lean, entries + "ORDER BY artifact_id, line");
    CHECK(kept == rows(whole, entries + "WHERE " + MayMarkMilestoneSql() + " ORDER BY artifact_id, line"));
    CHECK(kept.size() < rows(whole, entries).size());
    for (const char* sql : {
             "SELECT boot_offset, milestone, time_ns, artifact_id, line, message FROM events "
             "WHERE bundle_id = :bundle AND milestone IS NOT NULL ORDER BY time_ns, event_id",
             "SELECT boot_offset, name, seconds FROM intervals WHERE bundle_id = :bundle ORDER BY boot_offset, name",
             "SELECT * FROM journal_boots ORDER BY boot_offset"}) {
      CAPTURE(sql);
      CHECK(rows(lean, sql) == rows(whole, sql));
    }
    CHECK(rows(lean, "SELECT message FROM timeline_warnings").empty());
  }
}

TEST_CASE("chain verdict: the seed incident fails at the plugin's NVML init, registration and allocatable") {
  Loaded seed = LoadSample("seed-incident");
  auto steps = ComputeChainVerdict(seed.db, seed.bundle_id);
  REQUIRE(steps.ok());
  REQUIRE(steps->size() == 12);
  for (int i = 0; i < 6; ++i) CHECK_MESSAGE((*steps)[i].status == StepStatus::kOk, (*steps)[i].name);
  CHECK((*steps)[6].status == StepStatus::kFailed);
  CHECK((*steps)[6].detail == "Failed to initialize NVML: nvml: Unknown Error.");
  CHECK((*steps)[7].status == StepStatus::kFailed);
  CHECK((*steps)[8].status == StepStatus::kFailed);
  CHECK((*steps)[8].detail == "nvidia.com/gpu capacity 0, allocatable 0");
  // Collected on the node, without the metrics store's record.
  for (int i = 9; i < 12; ++i) CHECK((*steps)[i].status == StepStatus::kUnknown);
}

TEST_CASE("chain verdict: the healthy node is ok from PCI to allocatable") {
  Loaded healthy = LoadSample("healthy");
  auto steps = ComputeChainVerdict(healthy.db, healthy.bundle_id);
  REQUIRE(steps.ok());
  for (int i = 0; i < 9; ++i) CHECK_MESSAGE((*steps)[i].status == StepStatus::kOk, (*steps)[i].name);
}

TEST_CASE("gpuforensics timeline: JSON Lines carry Timesketch's three fields on every line") {
  auto run = test::RunGpuforensics({"timeline", test::SourcePath("samples/seed-incident.tar.zst"), "--all",
                                    "--format", "jsonl"});
  REQUIRE(run.exit_code == 0);
  int lines = 0;
  std::istringstream in(run.out);
  std::string line;
  while (std::getline(in, line)) {
    ++lines;
    auto j = nlohmann::json::parse(line, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    CHECK(j["datetime"].is_string());
    CHECK(j["timestamp_desc"].is_string());
    CHECK(j["message"].is_string());
  }
  CHECK(lines > 100);
  auto bad = test::RunGpuforensics({"timeline", test::SourcePath("samples/seed-incident.tar.zst"), "--tz", "Mars/Base"});
  CHECK(bad.exit_code == 64);
  CHECK(bad.err ==
        "gpuforensics timeline: --tz 'Mars/Base' is not UTC, +HH:MM, node, or a zone in /usr/share/zoneinfo\n");
}

TEST_CASE("DisplayZone: fixed offsets, zone names and the node's zone") {
  auto fixed = DisplayZone::Parse("+08:00", "");
  REQUIRE(fixed.ok());
  CHECK(fixed->Format(1763435896123456789LL) == "2025-11-18T11:18:16.123+08:00");
  auto utc = DisplayZone::Parse("UTC", "");
  CHECK(utc->Format(1763435896123456789LL) == "2025-11-18T03:18:16.123Z");
  auto node = DisplayZone::Parse("node", "America/New_York");
  REQUIRE(node.ok());
  CHECK(node->Format(1763435896000000000LL) == "2025-11-17T22:18:16.000-05:00");  // EST in November
  CHECK(node->Format(1751000000000000000LL) == "2025-06-27T00:53:20.000-04:00");  // EDT in June
  CHECK(DisplayZone::Parse("node", "").status().message() ==
        "--tz node: the bundle does not record the node's time zone");
}

}  // TEST_SUITE

}  // namespace gpuf
