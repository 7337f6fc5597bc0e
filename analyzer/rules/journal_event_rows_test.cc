#include "analyzer/rules/journal_event_rows.h"

#include <doctest/doctest.h>

#include "tests/sample_rows_bundle.h"

namespace gpuf {

namespace {

// Two starts of the kubelet (the second also in the kubelet's own slice, a
// copy the timeline finds), a reload in two wordings and an entry the journal did not classify.
constexpr char kJournal[] = R"(      journal_entries:
        - {artifact: journal.systemd, line: 1, realtime_us: 1700000000000000, event: unit_started, event_subject: kubelet.service, message: 'Started kubelet.service - Kubelet.'}
        - {artifact: journal.systemd, line: 2, realtime_us: 1700000005000000, event: daemon_reload_requested, message: 'Reloading requested from client PID 7 (''systemctl'')...'}
        - {artifact: journal.systemd, line: 3, realtime_us: 1700000005000100, event: daemon_reloading, message: 'Reloading...'}
        - {artifact: journal.systemd, line: 4, realtime_us: 1700000009000000, event: unit_started, event_subject: kubelet.service, message: 'Started kubelet.service - Kubelet.'}
        - {artifact: journal.kubelet, line: 1, realtime_us: 1700000009000000, event: unit_started, event_subject: kubelet.service, message: 'Started kubelet.service - Kubelet.'}
        - {artifact: journal.systemd, line: 5, realtime_us: 1700000010000000, message: 'Finished apt-daily.service.'}
)";

}  // namespace

TEST_SUITE("journal_event_rows") {

TEST_CASE("JournalEventRows: the entries the journal classified as the kind, each once, its subject a field") {
  Database db = test::InMemoryDatabase();
  int64_t bundle = test::SampleRowsBundle(db, kJournal);
  auto started = JournalEventRows(db, bundle, *FindEventKind("unit_started"));
  REQUIRE(started.ok());
  REQUIRE(started->size() == 2);
  CHECK((*started)[0].line == 1);
  CHECK((*started)[0].time_ns == 1700000000000000000);
  CHECK((*started)[0].Field("unit") == "kubelet.service");
  CHECK((*started)[0].Field("message") == "unit_started");
  CHECK((*started)[1].line == 4);

  auto reloads = JournalEventRows(db, bundle, *FindEventKind("daemon_reload"));
  REQUIRE(reloads.ok());
  REQUIRE(reloads->size() == 2);
  CHECK((*reloads)[0].text == "Reloading requested from client PID 7 ('systemctl')...");
  CHECK((*reloads)[1].Field("message") == "daemon_reloading");
  CHECK((*reloads)[1].fields.size() == 1);  // daemon_reload names no subject
}

TEST_CASE("JournalEventRows: a kind the journal does not classify has no rows") {
  Database db = test::InMemoryDatabase();
  int64_t bundle = test::SampleRowsBundle(db, kJournal);
  auto xids = JournalEventRows(db, bundle, *FindEventKind("xid"));
  REQUIRE(xids.ok());
  CHECK(xids->empty());
}

TEST_CASE("LoadJournalKindRows: each named kind the journal classifies, read once, none for the others") {
  Database db = test::InMemoryDatabase();
  int64_t bundle = test::SampleRowsBundle(db, kJournal);
  auto by_kind = LoadJournalKindRows(db, bundle, {"unit_started", "daemon_reload", "xid", "no_such_kind"});
  REQUIRE(by_kind.ok());
  CHECK(by_kind->size() == 2);
  CHECK(by_kind->at("unit_started").size() == 2);
  CHECK(by_kind->at("daemon_reload").size() == 2);
}

TEST_CASE("MergeRowsByLine: a line both lists hold is one row, the first list's") {
  auto row = [](std::optional<int64_t> artifact, std::optional<int64_t> line, const std::string& text) {
    SelectionRow r;
    r.artifact_id = artifact;
    r.line = line;
    r.text = text;
    return r;
  };
  SelectionRow catalogue = row(1, 4, "from a wording");
  SelectionRow journal_same = row(1, 4, "from the journal");
  SelectionRow journal_other = row(1, 9, "another");
  SelectionRow derived = row(std::nullopt, std::nullopt, "no line");
  std::vector<SelectionRow> rows = {catalogue};
  MergeRowsByLine({journal_same, journal_other, derived}, rows);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].text == "from a wording");
  CHECK(rows[1].text == "another");
  CHECK(rows[2].text == "no line");
}

}  // TEST_SUITE

}  // namespace gpuf
