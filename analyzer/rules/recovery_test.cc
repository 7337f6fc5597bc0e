#include "analyzer/rules/recovery.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

SelectionRow XidRow(const std::string& gpu, const std::string& code) {
  SelectionRow row;
  row.fields = {{"bus", gpu}, {"code", code}};
  row.gpu = gpu;
  return row;
}

}  // namespace

TEST_SUITE("recovery") {
TEST_CASE("Recoveries: an Xid 79 on a GPU NVML lists at capture is undone, other Xids and GPUs are not") {
  Recoveries recoveries({{.gpu = "0000:2b:00.0", .bus = "0000:2b:00.0", .uuid = "gpu-2b", .listed = true},
                         {.gpu = "0000:5e:00.0", .bus = "0000:5e:00.0", .listed = false}},
                        {});
  Selection xid;
  xid.message = "xid";
  std::vector<SelectionRow> rows = {XidRow("0000:2b:00.0", "79"), XidRow("0000:2b:00.0", "48"),
                                    XidRow("0000:5e:00.0", "79")};
  rows.push_back(SelectionRow{});  // a row naming no GPU
  recoveries.MarkUndone(xid, rows);
  CHECK(rows[0].undone == "the host's NVML lists the GPU at capture (0000:2b:00.0 gpu-2b)");
  CHECK(rows[1].undone == "");
  CHECK(rows[2].undone == "");
  CHECK(rows[3].undone == "");
}

TEST_CASE("Recoveries: kinds without an undo, and SQL selections, are left alone") {
  Recoveries recoveries({{.gpu = "0000:2b:00.0", .bus = "0000:2b:00.0", .listed = true}}, {});
  Selection unhealthy;
  unhealthy.message = "gpu_unhealthy";
  Selection sql;
  sql.kind = Selection::Kind::kSql;
  std::vector<SelectionRow> rows = {XidRow("0000:2b:00.0", "79")};
  recoveries.MarkUndone(unhealthy, rows);
  recoveries.MarkUndone(sql, rows);
  CHECK(rows[0].undone == "");
  Selection fell_off;
  fell_off.message = "gpu_fallen_off_bus";
  recoveries.MarkUndone(fell_off, rows);
  CHECK(rows[0].undone != "");
}

SelectionRow TimedRow(int64_t artifact, int64_t line, std::optional<int64_t> time_ns) {
  SelectionRow row;
  row.artifact_id = artifact;
  row.line = line;
  row.time_ns = time_ns;
  return row;
}

TEST_CASE("Recoveries: a plugin start's failure is undone by a registration after it, in time or in its log") {
  // Artifact 1 is the plugin's log, 3 another of its logs, 2 a workload's.
  PluginRecord plugin{.registrations = {TimedRow(3, 4, 100), TimedRow(3, 9, 300), TimedRow(1, 20, std::nullopt)},
                      .plugin_logs = {1, 3}};
  Recoveries recoveries({}, plugin);
  Selection failed;
  failed.message = "nvml_init_failed";
  std::vector<SelectionRow> rows = {TimedRow(3, 1, 50), TimedRow(3, 5, 300), TimedRow(3, 12, 400),
                                    TimedRow(1, 7, std::nullopt), TimedRow(1, 25, std::nullopt),
                                    TimedRow(2, 1, 50)};
  recoveries.MarkUndone(failed, rows);
  CHECK(rows[0].undone == "the device plugin registered after it, at 1970-01-01T00:00:00.000000100Z");
  CHECK(rows[1].undone == "the device plugin registered after it, line 9 of the same log");  // same stamp, later line
  CHECK(rows[2].undone == "");  // nothing since
  CHECK(rows[3].undone == "the device plugin registered after it, line 20 of the same log");  // no time: the log's order
  CHECK(rows[4].undone == "");
  CHECK(rows[5].undone == "");  // not the plugin's log: a workload's failure is not the plugin start's
}

SelectionRow UnitRow(const std::string& unit, int64_t artifact, int64_t line, std::optional<int64_t> time_ns) {
  SelectionRow row = TimedRow(artifact, line, time_ns);
  row.fields = {{"unit", unit}};
  return row;
}

TEST_CASE("Recoveries: a unit's failure is undone by a later start of that unit, not another's or an earlier one") {
  UnitStarts starts;
  starts["nvidia-persistenced.service"] = {UnitRow("nvidia-persistenced.service", 1, 10, 2000)};
  starts["kubelet.service"] = {UnitRow("kubelet.service", 1, 30, 9000)};
  Recoveries recoveries({}, {}, starts);
  Selection failed;
  failed.message = "unit_failed";
  std::vector<SelectionRow> rows = {
      UnitRow("nvidia-persistenced.service", 1, 5, 1000), UnitRow("nvidia-persistenced.service", 1, 20, 3000),
      UnitRow("nvidia-fabricmanager.service", 1, 6, 1000), UnitRow("nvidia-persistenced.service", 1, 8, std::nullopt)};
  recoveries.MarkUndone(failed, rows);
  CHECK(rows[0].undone == "systemd started nvidia-persistenced.service again, at 1970-01-01T00:00:00.000002000Z");
  CHECK(rows[1].undone == "");  // failed again after its last start
  CHECK(rows[2].undone == "");  // another unit's start
  // Without a time of its own the failure is placed by its line.
  CHECK(rows[3].undone == "systemd started nvidia-persistenced.service again, line 10 of the same log");
}

TEST_CASE("Recoveries: the fabric manager's version refusal is undone by its unit's later start") {
  UnitStarts starts;
  starts["nvidia-fabricmanager.service"] = {UnitRow("nvidia-fabricmanager.service", 2, 40, 5000)};
  Recoveries recoveries({}, {}, starts);
  Selection refused;
  refused.message = "fm_version_mismatch";
  std::vector<SelectionRow> rows = {TimedRow(1, 3, 1000), TimedRow(1, 9, 6000)};
  recoveries.MarkUndone(refused, rows);
  CHECK(rows[0].undone == "systemd started nvidia-fabricmanager.service again, at 1970-01-01T00:00:00.000005000Z");
  CHECK(rows[1].undone == "");  // refused again after that start
}

TEST_CASE("InheritUndone: an SQL row on an undone event's line is undone, other lines are not") {
  SelectionRows above;
  above["failed"] = {TimedRow(1, 7, 50)};
  above["failed"][0].undone = "the device plugin registered after it (x)";
  std::vector<SelectionRow> derived = {TimedRow(1, 7, 50), TimedRow(1, 8, 60), TimedRow(2, 7, 50)};
  InheritUndone(above, derived);
  CHECK(derived[0].undone == "the device plugin registered after it (x)");
  CHECK(derived[1].undone == "");
  CHECK(derived[2].undone == "");
}
}

}  // namespace gpuf
