#include "analyzer/journal/journal_line_loader.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("journal_loader") {

TEST_CASE("JournalLineLoader::Parse classifies the entry only when asked, as Store would, and a reused row forgets it") {
  const std::string started =
      R"({"__REALTIME_TIMESTAMP":"1700000000000000","_PID":"1","SYSLOG_IDENTIFIER":"systemd",)"
      R"("MESSAGE":"Started kubelet.service - kubelet: The Kubernetes Node Agent."})";
  JournalLineLoader::Row row;
  JournalLineLoader::Parse(1, started, row, /*classify=*/true);
  REQUIRE(row.entry);
  REQUIRE(row.event);
  CHECK(row.event->kind == ClassifyJournalEntry(*row.entry).kind);
  CHECK(row.event->kind == "unit_started");
  CHECK(row.event->subject == "kubelet.service");
  JournalLineLoader::Parse(2, started, row);
  CHECK(row.entry);
  CHECK_FALSE(row.event);
  JournalLineLoader::Parse(3, "not json", row, /*classify=*/true);
  CHECK_FALSE(row.entry);
  CHECK_FALSE(row.event);
}

TEST_CASE("JournalLineLoader::Keep hands the line over as read, and Parse after it gives the same entry") {
  const std::string started =
      R"({"__REALTIME_TIMESTAMP":"1700000000000000","_PID":"1","SYSLOG_IDENTIFIER":"systemd",)"
      R"("MESSAGE":"Started kubelet.service - kubelet: The Kubernetes Node Agent."})";
  JournalLineLoader::Row parsed, kept;
  JournalLineLoader::Parse(4, started, parsed);
  JournalLineLoader::Parse(3, "not json", kept);
  JournalLineLoader::Keep(4, started, kept);
  CHECK_FALSE(kept.parsed);
  CHECK(kept.text == started);
  JournalLineLoader::Parse(kept.number, kept.text, kept);
  CHECK(kept.parsed);
  REQUIRE(kept.entry);
  CHECK(kept.number == 4);
  CHECK(kept.entry->message == parsed.entry->message);
  CHECK(kept.entry->pid == parsed.entry->pid);
}

}  // TEST_SUITE

}  // namespace gpuf
