#include "analyzer/fleet/fleet_load.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "analyzer/analysis.h"
#include "analyzer/database.h"
#include "analyzer/fleet/fleet_queries.h"
#include "tests/json_schema_check.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

const std::string kSeedNode = "cn-shanghai.10.20.31.47";
const std::string kHealthyNode = "10.0.3.17";

// Every row of `query`, tab-separated, one string per row.
std::vector<std::string> Rows(Database& db, const std::string& query) {
  auto select = db.Prepare(query);
  REQUIRE(select.ok());
  std::vector<std::string> rows;
  while (select->Step()) {
    std::string row;
    for (int c = 0; c < select->ColumnCount(); ++c) row += (c ? "\t" : "") + select->ColumnText(c);
    rows.push_back(row);
  }
  REQUIRE(select->status().ok());
  return rows;
}

std::vector<std::string> FleetDump(const std::string& path) {
  auto db = Database::OpenReadOnly(path);
  REQUIRE(db.ok());
  std::vector<std::string> all;
  for (const char* table : {"fleet_bundles", "fleet_findings", "fleet_versions", "fleet_intervals",
                            "fleet_chain_steps"}) {
    auto rows = Rows(*db, std::string("SELECT * FROM ") + table + " ORDER BY 1, 2, 3");
    all.push_back(table);
    all.insert(all.end(), rows.begin(), rows.end());
  }
  return all;
}

struct Fleet {
  test::TempDir dir;
  std::string db = dir / "fleet.sqlite";
  std::string junk = dir / "junk.tar.zst";
  std::vector<std::string> bundles;

  Fleet() {
    test::WriteFile(junk, "not a bundle\n");
    bundles = {test::SourcePath("samples/seed-incident.tar.zst"), test::SourcePath("samples/healthy.tar.zst"), junk,
               test::SourcePath("samples/seed-incident.tar.zst")};
  }
};

}  // namespace

TEST_SUITE("fleet") {

TEST_CASE("fleet: each bundle's rows are what a single analyze writes, unreadable ones are recorded") {
  Fleet fleet;
  auto loaded = LoadFleet(fleet.db, {.bundles = fleet.bundles, .extra_rule_dirs = {}, .workers = 3});
  REQUIRE(loaded.ok());
  CHECK(loaded->loaded == 3);
  REQUIRE(loaded->not_loaded.size() == 1);
  CHECK(loaded->not_loaded[0].path == fleet.junk);

  auto db = Database::OpenReadOnly(fleet.db);
  REQUIRE(db.ok());
  CHECK(Rows(*db, "SELECT fleet_bundle_id, node_name, load_error IS NULL FROM fleet_bundles ORDER BY 1") ==
        std::vector<std::string>{"1\t" + kSeedNode + "\t1", "2\t" + kHealthyNode + "\t1", "3\t\t0",
                                 "4\t" + kSeedNode + "\t1"});

  auto single = Database::Create(":memory:");
  REQUIRE(single.ok());
  REQUIRE(AnalyzeBundle(fleet.bundles[0], *single).ok());
  CHECK(Rows(*db, "SELECT rule_id, severity, confidence, summary FROM fleet_findings WHERE fleet_bundle_id = 1") ==
        Rows(*single, "SELECT rule_id, severity, confidence, summary FROM findings ORDER BY finding_id"));
  CHECK(Rows(*db, "SELECT boot_offset, name, seconds FROM fleet_intervals WHERE fleet_bundle_id = 1") ==
        Rows(*single, "SELECT boot_offset, name, seconds FROM intervals ORDER BY rowid"));
  CHECK(Rows(*db, "SELECT component, version FROM fleet_versions WHERE fleet_bundle_id = 1") ==
        Rows(*single, "SELECT DISTINCT component, version FROM versions ORDER BY 1, 2"));
  CHECK(Rows(*db, "SELECT count(*) FROM fleet_findings WHERE fleet_bundle_id = 1 AND rule_id = "
                  "'dp-null-manager-after-nvml-failure'") == std::vector<std::string>{"1"});
  CHECK(Rows(*db, "SELECT status FROM fleet_chain_steps WHERE fleet_bundle_id = 2 AND status = 'failed'").empty());
  CHECK(Rows(*db, "SELECT count(*) FROM fleet_chain_steps WHERE fleet_bundle_id = 1 AND status = 'failed'") !=
        std::vector<std::string>{"0"});
}

TEST_CASE("fleet: the database does not depend on the number of workers") {
  Fleet one, four;
  REQUIRE(LoadFleet(one.db, {.bundles = one.bundles, .extra_rule_dirs = {}, .workers = 1}).ok());
  auto bundles = four.bundles;
  bundles[2] = one.junk;  // the same paths, so the rows can be equal
  REQUIRE(LoadFleet(four.db, {.bundles = bundles, .extra_rule_dirs = {}, .workers = 4}).ok());
  CHECK(FleetDump(one.db) == FleetDump(four.db));
}

TEST_CASE("fleet: summary counts nodes, not bundles") {
  Fleet fleet;
  REQUIRE(LoadFleet(fleet.db, {.bundles = fleet.bundles, .extra_rule_dirs = {}, .workers = 0}).ok());
  auto db = Database::OpenReadOnly(fleet.db);
  REQUIRE(db.ok());
  auto summary = SummarizeFleet(*db, 2.0);
  REQUIRE(summary.ok());
  CHECK(summary->bundles == 4);
  CHECK(summary->analyzed == 3);
  CHECK(summary->nodes == 2);

  bool found = false;
  for (const auto& f : summary->findings) {
    if (f.rule_id == "dp-null-manager-after-nvml-failure") {
      found = true;
      CHECK(f.nodes == 1);
    }
  }
  CHECK(found);

  const FleetIntervalSpread* persistenced = nullptr;
  for (const auto& i : summary->intervals) {
    if (i.name == "plugin_start_after_persistenced") persistenced = &i;
  }
  REQUIRE(persistenced != nullptr);
  CHECK(persistenced->nodes == 2);
  CHECK(persistenced->within == 1);  // the seed node: 0.748 s; the healthy one: 13.48 s
  CHECK(persistenced->negative == 0);
  CHECK(persistenced->min_seconds == doctest::Approx(0.748497736));
  CHECK(persistenced->max_seconds == doctest::Approx(13.480022138));
  CHECK(persistenced->median_seconds == doctest::Approx((0.748497736 + 13.480022138) / 2));

  auto nodes = FleetNodesWithFinding(*db, "dp-null-manager-after-nvml-failure");
  REQUIRE(nodes.ok());
  CHECK(*nodes == std::vector<std::string>{kSeedNode});
}

TEST_CASE("fleet: a single-bundle database is refused with the command that makes a fleet one") {
  test::TempDir dir;
  auto single = Database::Create(dir / "one.sqlite");
  REQUIRE(single.ok());
  auto summary = SummarizeFleet(*single, 2.0);
  REQUIRE(!summary.ok());
  CHECK(summary.status().message() ==
        "not a fleet database: write one with: gpuforensics analyze --db FLEET.sqlite BUNDLE BUNDLE...");
}

TEST_CASE("fleet: the command line loads many bundles and summarises them") {
  Fleet fleet;
  auto two = test::RunGpuforensics({"analyze", "--db", fleet.db, fleet.bundles[0], fleet.bundles[1]});
  CHECK(two.exit_code == 1);  // the seed incident's chain is BROKEN
  CHECK(two.out == fleet.db + "\n");
  CHECK(two.err.find("2 of 2 bundles analyzed into " + fleet.db) != std::string::npos);

  auto summary = test::RunGpuforensics({"fleet", fleet.db});
  CHECK(summary.exit_code == 0);
  CHECK(summary.out.rfind("fleet: 2 bundles, 2 analyzed, from 2 nodes\n", 0) == 0);
  CHECK(summary.out.find("       1  high      dp-null-manager-after-nvml-failure\n") != std::string::npos);

  auto listed = test::RunGpuforensics({"fleet", fleet.db, "--nodes", "dp-null-manager-after-nvml-failure"});
  CHECK(listed.exit_code == 0);
  CHECK(listed.out == kSeedNode + "\n");

  auto as_json = test::RunGpuforensics({"fleet", fleet.db, "--format", "json"});
  CHECK(as_json.exit_code == 0);
  nlohmann::json doc = nlohmann::json::parse(as_json.out, nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());
  test::CheckAgainstSchema(doc, "schema/fleet.schema.json", "fleet");
  CHECK(doc["nodes"] == 2);
  CHECK(doc["findings"][0] ==
        nlohmann::json({{"rule_id", "dp-null-manager-after-nvml-failure"}, {"severity", "high"}, {"nodes", 1}}));
  auto listed_json = test::RunGpuforensics(
      {"fleet", fleet.db, "--nodes", "dp-null-manager-after-nvml-failure", "--format", "json"});
  CHECK(listed_json.out == "[\"" + kSeedNode + "\"]\n");

  auto fleet_with_format = test::RunGpuforensics(
      {"analyze", "--db", fleet.db, fleet.bundles[0], fleet.bundles[1], "--format", "json"});
  CHECK(fleet_with_format.exit_code == 64);
  CHECK(fleet_with_format.err ==
        "gpuforensics analyze: --format, --tz and --explain are about one bundle, not a fleet database: "
        "summarise the fleet with: gpuforensics fleet FLEET.sqlite [--format json]\n");

  auto with_junk = test::RunGpuforensics({"analyze", "--db", fleet.db, fleet.bundles[0], fleet.junk});
  CHECK(with_junk.exit_code == 2);
  CHECK(with_junk.err.find("gpuforensics analyze: not analyzed: ") != std::string::npos);

  // Bundles instead of a database: analyzed into one of its own, summarised, removed.
  auto bundles_given = test::RunGpuforensics({"fleet", fleet.bundles[0], fleet.bundles[1], "--format", "json"});
  CHECK(bundles_given.exit_code == 0);
  auto from_bundles = nlohmann::json::parse(bundles_given.out, nullptr, false);
  REQUIRE_FALSE(from_bundles.is_discarded());
  CHECK(from_bundles["nodes"] == 2);
  auto junk_given = test::RunGpuforensics({"fleet", fleet.bundles[0], fleet.junk});
  CHECK(junk_given.exit_code == 2);
  CHECK(junk_given.err.find("gpuforensics fleet: not analyzed: ") != std::string::npos);

  auto no_db = test::RunGpuforensics({"analyze", fleet.bundles[0], fleet.bundles[1]});
  CHECK(no_db.exit_code == 64);
  CHECK(no_db.err == "gpuforensics analyze: more than one bundle needs --db FLEET.sqlite: "
                     "usage: gpuforensics analyze --db FLEET.sqlite B1 B2 ...\n");
}

TEST_CASE("fleet: schema/fleet/*.sql documents every table and column created") {
  test::TempDir dir;
  REQUIRE(LoadFleet(dir / "f.sqlite", {.bundles = {}, .extra_rule_dirs = {}, .workers = 0}).ok());
  auto db = Database::OpenReadOnly(dir / "f.sqlite");
  REQUIRE(db.ok());
  auto tables = Rows(*db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  std::set<std::string> documented;
  for (const auto& entry : std::filesystem::directory_iterator(test::SourcePath("schema/fleet"))) {
    if (entry.path().extension() == ".sql") documented.insert(entry.path().stem().string());
  }
  CHECK(std::set<std::string>(tables.begin(), tables.end()) == documented);
  for (const auto& table : tables) {
    std::string doc = test::ReadFile(test::SourcePath("schema/fleet/" + table + ".sql"));
    CHECK_MESSAGE(doc.find("-- Example: SELECT") != std::string::npos, table << ": has an example query");
    for (const auto& column : Rows(*db, "SELECT name FROM pragma_table_info('" + table + "')")) {
      CHECK_MESSAGE(std::regex_search(doc, std::regex("\\n  " + column + " +[A-Z][^\\n]*--")),
                    table << "." << column << " has no comment");
    }
  }
}

}  // TEST_SUITE

}  // namespace gpuf
