#include "formats/journal_json.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("journal_json") {

TEST_CASE("ParseJournalJsonLine: compact systemd output") {
  auto e = ParseJournalJsonLine(
      R"({"__CURSOR":"s=1;i=2","__REALTIME_TIMESTAMP":"1583353899094400","__MONOTONIC_TIMESTAMP":"43277523",)"
      R"("_BOOT_ID":"44864010f0d94baba7b6bf8019f82a56","PRIORITY":"6","SYSLOG_IDENTIFIER":"kubelet",)"
      R"("_PID":"2254","_SYSTEMD_UNIT":"kubelet.service","MESSAGE":"hello"})");
  REQUIRE(e);
  CHECK(e->realtime_us == 1583353899094400LL);
  CHECK(e->monotonic_us == 43277523LL);
  CHECK_FALSE(e->source_monotonic_us.has_value());
  CHECK(e->boot_id == "44864010f0d94baba7b6bf8019f82a56");
  CHECK(e->unit == "kubelet.service");
  CHECK(e->pid == 2254);
  CHECK(e->priority == 6);
  CHECK(e->message == "hello");
}

TEST_CASE("ParseJournalJsonLine: old spaced style and byte-array MESSAGE") {
  // Real shapes: formats/journalctl-o-json_old-spaced-style_openfaas-faasd.json,
  // formats/journalctl-o-json_MESSAGE-byte-array_vector-1714.txt
  auto e = ParseJournalJsonLine(R"({ "__REALTIME_TIMESTAMP" : "1", "MESSAGE" : [32,32,121,13] })");
  REQUIRE(e);
  CHECK(e->message == std::string("  y\r"));
}

TEST_CASE("ParseJournalJsonLine: PID 1 messages are attributed to the unit they are about") {
  auto e = ParseJournalJsonLine(
      R"({"_PID":"1","_SYSTEMD_UNIT":"init.scope","UNIT":"kubelet.service","MESSAGE":"Started kubelet."})");
  REQUIRE(e);
  CHECK(e->unit == "kubelet.service");
}

TEST_CASE("ParseJournalJsonLine: repeated field, escapes and invalid input") {
  SUBCASE("a field repeated by journald is an array: the first value wins") {
    auto e = ParseJournalJsonLine(R"({"MESSAGE":["first","second"],"_PID":["7","8"]})");
    REQUIRE(e);
    CHECK(e->message == "first");
    CHECK(e->pid == 7);
  }
  SUBCASE("escapes are decoded") {
    auto e = ParseJournalJsonLine(R"({"MESSAGE":"a\"b\\c\u00e9\t"})");
    REQUIRE(e);
    CHECK(e->message == "a\"b\\c\xc3\xa9\t");
  }
  SUBCASE("a long line after a short one, then a short one again") {
    std::string long_message(100000, 'x');
    auto a = ParseJournalJsonLine(R"({"MESSAGE":"short"})");
    auto b = ParseJournalJsonLine("{\"MESSAGE\":\"" + long_message + "\"}");
    auto c = ParseJournalJsonLine(R"({"MESSAGE":"s"})");
    REQUIRE((a && b && c));
    CHECK(a->message == "short");
    CHECK(b->message == long_message);
    CHECK(c->message == "s");
  }
  SUBCASE("invalid UTF-8, truncated JSON and non-digit numbers") {
    CHECK_FALSE(ParseJournalJsonLine("{\"MESSAGE\":\"\xff\"}"));
    CHECK_FALSE(ParseJournalJsonLine(R"({"MESSAGE":"cut)"));
    auto e = ParseJournalJsonLine(R"({"_PID":"12a","PRIORITY":6,"__REALTIME_TIMESTAMP":"1234567890123456789"})");
    REQUIRE(e);
    CHECK_FALSE(e->pid.has_value());
    CHECK_FALSE(e->priority.has_value());
    CHECK_FALSE(e->realtime_us.has_value());
  }
}

TEST_CASE("ParseJournalJsonLine into an entry: every field of the line before is overwritten or cleared") {
  JournalEntry e;
  REQUIRE(ParseJournalJsonLine(
      R"({"__REALTIME_TIMESTAMP":"10","__MONOTONIC_TIMESTAMP":"5","_SOURCE_MONOTONIC_TIMESTAMP":"4",)"
      R"("_BOOT_ID":"b1","_SYSTEMD_UNIT":"kubelet.service","SYSLOG_IDENTIFIER":"kubelet","_PID":"7",)"
      R"("PRIORITY":"3","_TRANSPORT":"stdout","MESSAGE":"a long first message, longer than the next"})",
      e));
  CHECK(e.unit == "kubelet.service");
  SUBCASE("a line with fewer fields leaves none of the first line's") {
    REQUIRE(ParseJournalJsonLine(R"({"MESSAGE":"second"})", e));
    CHECK(e.message == "second");
    CHECK_FALSE(e.realtime_us.has_value());
    CHECK_FALSE(e.monotonic_us.has_value());
    CHECK_FALSE(e.source_monotonic_us.has_value());
    CHECK_FALSE(e.pid.has_value());
    CHECK_FALSE(e.priority.has_value());
    CHECK(e.boot_id.empty());
    CHECK(e.unit.empty());
    CHECK(e.identifier.empty());
    CHECK(e.transport.empty());
  }
  SUBCASE("UNIT of the line before does not name a later PID 1 line's unit") {
    REQUIRE(ParseJournalJsonLine(R"({"_PID":"1","_SYSTEMD_UNIT":"init.scope","UNIT":"a.service","MESSAGE":"x"})", e));
    CHECK(e.unit == "a.service");
    REQUIRE(ParseJournalJsonLine(R"({"_PID":"1","_SYSTEMD_UNIT":"init.scope","MESSAGE":"Reloading."})", e));
    CHECK(e.unit == "init.scope");
  }
  SUBCASE("a line that is not an object leaves the entry as it was") {
    CHECK_FALSE(ParseJournalJsonLine("-- No entries --", e));
    CHECK(e.unit == "kubelet.service");
    CHECK(e.pid == 7);
  }
}

TEST_CASE("ParseJournalJsonLine: not an object") {
  CHECK_FALSE(ParseJournalJsonLine("-- No entries --"));
  CHECK_FALSE(ParseJournalJsonLine("[1,2]"));
}

}  // TEST_SUITE

}  // namespace gpuf
