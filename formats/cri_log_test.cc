#include "formats/cri_log.h"

#include <doctest/doctest.h>

#include "tests/fixtures.h"

namespace gpuf {

TEST_SUITE("cri_log") {

TEST_CASE("ParseCriLog: the CRI lines of the kubelet reference") {
  // Real lines: the first two of formats/cri-log-file-format_k8s-cri-client.txt
  auto log = ParseCriLog(
      "2016-10-06T00:17:09.669794202Z stdout P log content 1\n"
      "2016-10-06T00:17:09.669794203Z stderr F log content 2\n");
  CHECK(log.warnings.empty());
  REQUIRE(log.records.size() == 2);
  CHECK(log.records[0].line == 1);
  CHECK(log.records[0].time_ns == 1475713029669794202LL);
  CHECK(log.records[0].utc_offset_seconds == 0);
  CHECK(log.records[0].stream == "stdout");
  CHECK(log.records[0].message == "log content 1");
  CHECK(log.records[0].partial);  // its F never came: stderr does not end a stdout line
  CHECK(log.records[1].stream == "stderr");
  CHECK(log.records[1].message == "log content 2");
  CHECK_FALSE(log.records[1].partial);
}

TEST_CASE("ParseCriLog: the docker json-file lines of the kubelet reference") {
  // Real lines: the last two of formats/cri-log-file-format_k8s-cri-client.txt;
  // without a final "\n" in "log" each is a partial line.
  auto log = ParseCriLog(
      R"({"log":"content 1","stream":"stdout","time":"2016-10-20T18:39:20.57606443Z"})" "\n"
      R"({"log":"content 2","stream":"stderr","time":"2016-10-20T18:39:20.57606444Z"})" "\n");
  CHECK(log.warnings.empty());
  REQUIRE(log.records.size() == 2);
  CHECK(log.records[0].time_ns == 1476988760576064430LL);
  CHECK(log.records[0].message == "content 1");
  CHECK(log.records[0].partial);
  CHECK(log.records[1].stream == "stderr");
}

TEST_CASE("ParseCriLog: the whole reference fixture reads without warnings") {
  auto log = ParseCriLog(test::Fixture("formats/cri-log-file-format_k8s-cri-client.txt"));
  CHECK(log.warnings.empty());
  CHECK(log.records.size() == 3);  // the docker stdout fragment continues the open CRI one
}

TEST_CASE("ParseCriLog: P fragments join per stream, the offset is kept as written") {
  auto log = ParseCriLog(
      "2025-11-18T11:18:17.412345678+08:00 stderr P I1118 11:18:17.412000       1 main.go:1] part one, \n"
      "2025-11-18T11:18:17.412345999+08:00 stdout F interleaved\n"
      "2025-11-18T11:18:17.412346100+08:00 stderr P part two, \n"
      "2025-11-18T11:18:17.412346200+08:00 stderr F end\n");
  CHECK(log.warnings.empty());
  REQUIRE(log.records.size() == 2);
  CHECK(log.records[0].line == 1);
  CHECK(log.records[0].time_ns == 1763435897412345678LL);  // 2025-11-18T03:18:17.412345678Z
  CHECK(log.records[0].utc_offset_seconds == 8 * 3600);
  CHECK(log.records[0].message ==
        "I1118 11:18:17.412000       1 main.go:1] part one, part two, end");
  CHECK_FALSE(log.records[0].partial);
  CHECK(log.records[1].line == 2);
  CHECK(log.records[1].stream == "stdout");
  CHECK(log.records[1].message == "interleaved");
}

TEST_CASE("ParseCriLog: zero to nine fraction digits, negative offsets, empty text, extra tags") {
  auto log = ParseCriLog(
      "2016-10-06T00:17:09Z stdout F no fraction\n"
      "2016-10-06T00:17:09.5Z stdout F one digit\n"
      "2024-01-15T09:30:00-05:30 stderr F behind UTC\n"
      "2016-10-06T00:17:09Z stdout F\n"
      "2016-10-06T00:17:09Z stdout F \n"
      "2016-10-06T00:17:09Z stdout F:future  two spaces kept\n");
  CHECK(log.warnings.empty());
  REQUIRE(log.records.size() == 6);
  CHECK(log.records[0].time_ns == 1475713029000000000LL);
  CHECK(log.records[1].time_ns == 1475713029500000000LL);
  CHECK(log.records[2].time_ns == 1705330800000000000LL);
  CHECK(log.records[2].utc_offset_seconds == -(5 * 3600 + 30 * 60));
  CHECK(log.records[3].message.empty());
  CHECK(log.records[4].message.empty());
  CHECK(log.records[5].message == " two spaces kept");
}

TEST_CASE("ParseCriLog: docker lines ending in a newline are whole lines") {
  auto log = ParseCriLog(
      R"({"log":"Loading NVML\n","stream":"stderr","time":"2021-04-26T23:19:15.1+02:00"})" "\n"
      R"({"log":"a very long ","stream":"stdout","time":"2021-04-26T23:19:15.2Z"})" "\n"
      R"({"log":"line\n","stream":"stdout","time":"2021-04-26T23:19:15.3Z"})" "\n");
  CHECK(log.warnings.empty());
  REQUIRE(log.records.size() == 2);
  CHECK(log.records[0].message == "Loading NVML");
  CHECK(log.records[0].utc_offset_seconds == 7200);
  CHECK_FALSE(log.records[0].partial);
  CHECK(log.records[1].message == "a very long line");
  CHECK_FALSE(log.records[1].partial);
}

TEST_CASE("ParseCriLog: unreadable lines become warnings and the rest is kept") {
  auto log = ParseCriLog(
      "yesterday stdout F x\n"
      "\n"
      "2016-10-06T00:17:09Z console F x\n"
      "2016-10-06T00:17:09Z stdout\n"
      "2016-10-06T00:17:09Z stdout X x\n"
      "{\"log\":\"x\"}\n"
      "{not json\n"
      R"({"log":"x","stream":"stdin","time":"2016-10-06T00:17:09Z"})" "\n"
      R"({"log":"x","stream":"stdout","time":"2016-10-06"})" "\n"
      "2016-10-06T00:17:09Z stdout F kept\n");
  REQUIRE(log.records.size() == 1);
  CHECK(log.records[0].line == 10);
  REQUIRE(log.warnings.size() == 9);
  CHECK(log.warnings[0].line == 1);
  CHECK(log.warnings[0].message == "bad CRI log time 'yesterday'");
  CHECK(log.warnings[1].message == "empty line");
  CHECK(log.warnings[2].message == "unknown stream 'console'");
  CHECK(log.warnings[3].message == "no P/F tag after the stream");
  CHECK(log.warnings[4].message == "unknown log tag 'X'");
  CHECK(log.warnings[5].message == "docker json-file line without string log, stream and time");
  CHECK(log.warnings[6].message == "not a docker json-file line");
  CHECK(log.warnings[7].message == "unknown stream 'stdin'");
  CHECK(log.warnings[8].line == 9);
  CHECK(log.warnings[8].message == "bad docker json-file time '2016-10-06'");
}

TEST_CASE("CriLogReader: a record is handed over once it and every record begun before it are complete") {
  std::vector<std::string> handed;
  CriLogReader reader([&](CriLogRecord&& r) {
    handed.push_back(std::to_string(r.line) + " " + r.stream + " " + r.message + (r.partial ? " (partial)" : ""));
  });
  const std::string t = "2026-11-18T13:40:00.000000001Z ";
  reader.Line(1, t + "stdout P a");
  reader.Line(2, t + "stderr F x");
  CHECK(handed.empty());  // line 1's record is still open
  reader.Line(3, t + "stdout F b");
  CHECK(handed == std::vector<std::string>{"1 stdout ab", "2 stderr x"});
  reader.Line(4, "not a log line");
  reader.Line(5, t + "stderr F y");
  reader.Line(6, t + "stdout P c");
  CHECK(handed.size() == 3);
  reader.End();
  CHECK(handed == std::vector<std::string>{"1 stdout ab", "2 stderr x", "5 stderr y", "6 stdout c (partial)"});
  REQUIRE(reader.warnings().size() == 1);
  CHECK(reader.warnings()[0].line == 4);
}

TEST_CASE("ParseCrictlTimestampedLogs: klog lines behind variable-width times") {
  // Real output: formats/crictl-logs-t_klog-inside_cri-tools-205.txt (2017
  // crictl trims trailing zeros of the fraction).
  auto log = ParseCrictlTimestampedLogs(
      test::DropPromptLines(test::Fixture("formats/crictl-logs-t_klog-inside_cri-tools-205.txt")));
  CHECK(log.warnings.empty());
  REQUIRE(log.records.size() == 11);
  CHECK(log.records[0].message == "I1129 00:45:40.978789       1 dns.go:48] version: 1.14.6-3-gc36cb11");
  CHECK(log.records[5].time_ns == 1511916340979730590LL);  // .97973059Z
  CHECK(log.records[5].message ==
        "I1129 00:45:40.979685       1 server.go:112] FLAG: --config-map-namespace=\"kube-system\"");
  CHECK(log.records[5].stream.empty());
}

TEST_CASE("ParseCrictlTimestampedLogs: a line without a time is a warning") {
  auto log = ParseCrictlTimestampedLogs("# crictl logs 4ec09ff44b31b -t\n");
  CHECK(log.records.empty());
  REQUIRE(log.warnings.size() == 1);
  CHECK(log.warnings[0].message ==
        "no crictl log time at the start of '# crictl logs 4ec09ff44b31b -t'");
}

}  // TEST_SUITE

}  // namespace gpuf
