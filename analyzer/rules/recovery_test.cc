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
                         {.gpu = "0000:5e:00.0", .bus = "0000:5e:00.0", .listed = false}});
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
  Recoveries recoveries({{.gpu = "0000:2b:00.0", .bus = "0000:2b:00.0", .listed = true}});
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
}

}  // namespace gpuf
