#include "analyzer/render/render_timeline.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

TimelineRow RowSaying(const std::string& message) {
  TimelineRow r;
  r.time_ns = 1764928800000000000;  // 2025-12-05T10:00:00Z
  r.timestamp_desc = "Log";
  r.time_source = "journal";
  r.source = "kubelet";
  r.message = message;
  return r;
}

}  // namespace

TEST_CASE("timeline CSV: a cell a spreadsheet would run as a formula is written as text") {
  CHECK(TimelineCsvLine(RowSaying("=HYPERLINK(\"http://x\",\"y\")"))
            .find(",\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",") != std::string::npos);
  CHECK(TimelineCsvLine(RowSaying("@SUM(A1)")).find(",\"'@SUM(A1)\",") != std::string::npos);
  CHECK(TimelineCsvLine(RowSaying("+1-2")).find(",\"'+1-2\",") != std::string::npos);
  CHECK(TimelineCsvLine(RowSaying("-cmd")).find(",\"'-cmd\",") != std::string::npos);
}

TEST_CASE("timeline CSV: plain cells stay as they are, quoted only where CSV needs it") {
  CHECK(TimelineCsvLine(RowSaying("Started kubelet")) ==
        "2025-12-05T10:00:00.000000000Z,Log,Started kubelet,1764928800000000,kubelet,,,journal,,,\n");
  CHECK(TimelineCsvLine(RowSaying("a, \"b\"")).find(",\"a, \"\"b\"\"\",") != std::string::npos);
}

}  // namespace gpuf
