#include "analyzer/report/node_zone.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

// A bundle whose `artifact` holds `text` as its one line.
Database BundleWith(const std::string& artifact, const std::string& text) {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  REQUIRE(db->Exec("INSERT INTO bundles (bundle_id, path, format_version, tool_version, collected_at_ns, "
                   "collection_ended_ns, complete) VALUES (1, 'b', 1, 'v', 0, 0, 1)").ok());
  REQUIRE(db->Exec("INSERT INTO artifacts (artifact_id, bundle_id, name, instance, kind, context, started_at_ns, "
                   "duration_ns, status, timed_out, abandoned, truncated, redactions) "
                   "VALUES (3, 1, '" + artifact + "', '', 'file', 'host', 0, 0, 'ok', 0, 0, 0, 0)").ok());
  auto insert = db->Prepare("INSERT INTO artifact_lines (artifact_id, stream, line, text) VALUES (3, 'content', 1, ?)");
  REQUIRE(insert.ok());
  insert->Bind(1, text);
  insert->Step();
  return std::move(*db);
}

}  // namespace

TEST_CASE("NodeZoneName: the zone after zoneinfo/ in the localtime link, else /etc/timezone's line") {
  Database link = BundleWith("host.localtime", "lrwxrwxrwx 1 root root 35 /etc/localtime -> ../usr/share/zoneinfo/Asia/Shanghai");
  CHECK(NodeZoneName(link, 1) == "Asia/Shanghai");
  Database file = BundleWith("host.timezone", "Europe/Berlin \r");
  CHECK(NodeZoneName(file, 1) == "Europe/Berlin");
}

TEST_CASE("NodeZoneName: a bundle that recorded neither has no zone") {
  Database other = BundleWith("host.os_release", "ID=debian");
  CHECK(NodeZoneName(other, 1) == "");
  CHECK(NodeZoneName(other, 2) == "");
}

}  // namespace gpuf
