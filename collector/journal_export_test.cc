#include "collector/journal_export.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace gpuf {

namespace {

std::string Binary(std::string_view name, std::string_view value) {
  std::string out(name);
  out += '\n';
  uint64_t size = value.size();
  for (int i = 0; i < 8; ++i) out += static_cast<char>((size >> (8 * i)) & 0xff);
  out += value;
  out += '\n';
  return out;
}

std::vector<std::string> JsonLines(std::string_view stream, size_t chunk) {
  std::vector<std::string> lines;
  JournalExportReader reader([&](const JournalExportEntry& e) {
    std::string line;
    AppendJournalJson(e, line);
    lines.push_back(line);
  });
  for (size_t at = 0; at < stream.size(); at += chunk) reader.Feed(stream.substr(at, chunk));
  reader.Finish();
  return lines;
}

}  // namespace

TEST_SUITE("journal_export") {

TEST_CASE("export entries become journalctl -o json lines, whatever the chunks they arrive in") {
  const std::string stream =
      "__REALTIME_TIMESTAMP=1763436496123456\n_TRANSPORT=kernel\nMESSAGE=NVRM: Xid (PCI:0000:17:00): 79\n\n" +
      Binary("MESSAGE", "line one\nline \"two\"\t\\") + "_PID=1\n\n" +
      Binary("MESSAGE", std::string("bad \xff\x01 bytes", 12)) + "CONTAINER_TAG=a\nCONTAINER_TAG=b\nEMPTY=\n\n";
  for (size_t chunk : {size_t{1}, size_t{3}, size_t{7}, stream.size()}) {
    std::vector<std::string> lines = JsonLines(stream, chunk);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] ==
          R"({"__REALTIME_TIMESTAMP":"1763436496123456","_TRANSPORT":"kernel","MESSAGE":"NVRM: Xid (PCI:0000:17:00): 79"})"
          "\n");
    CHECK(lines[1] == R"({"MESSAGE":"line one\nline \"two\"\t\\","_PID":"1"})"
                      "\n");
    CHECK(lines[2] == R"({"MESSAGE":[98,97,100,32,255,1,32,98,121,116,101,115],"CONTAINER_TAG":["a","b"],"EMPTY":""})"
                      "\n");
  }
}

TEST_CASE("printable is systemd's: UTF-8 kept, C1 controls, DEL and broken sequences as bytes") {
  auto json_of = [](std::string_view value) {
    std::string line;
    AppendJournalJson({{"MESSAGE", value}}, line);
    return line;
  };
  CHECK(json_of("GPU \xc3\xa9t\xc3\xa9") == "{\"MESSAGE\":\"GPU \xc3\xa9t\xc3\xa9\"}\n");
  CHECK(json_of("\xc2\x85") == "{\"MESSAGE\":[194,133]}\n");  // U+0085, a C1 control
  CHECK(json_of("a\x7f") == "{\"MESSAGE\":[97,127]}\n");
  CHECK(json_of("\xe2\x82") == "{\"MESSAGE\":[226,130]}\n");  // cut sequence
  CHECK(json_of("\xed\xa0\x80") == "{\"MESSAGE\":[237,160,128]}\n");  // a surrogate
}

TEST_CASE("a cut last entry is counted, not emitted, and a size past the limit breaks the stream") {
  int entries = 0;
  JournalExportReader reader([&](const JournalExportEntry&) { ++entries; });
  reader.Feed("A=1\n\nB=2\nC=");
  reader.Finish();
  CHECK(entries == 1);
  CHECK(reader.cut_entries() == 1);
  CHECK(!reader.broken());

  JournalExportReader hostile([&](const JournalExportEntry&) { ++entries; });
  std::string huge = "MESSAGE\n";
  for (int i = 0; i < 8; ++i) huge += '\xff';
  hostile.Feed(huge + "x\n\nA=1\n\n");
  CHECK(hostile.broken());
  CHECK(entries == 1);
  JournalExportReader nameless([&](const JournalExportEntry&) { ++entries; });
  nameless.Feed("=x\n\n");
  CHECK(nameless.broken());

  std::vector<std::string> lines = JsonLines("__\xc0URSOR=s\nMESSAGE=kept\nBAD\"NAME=v\n\n", 4);
  CHECK(lines == std::vector<std::string>{"{\"MESSAGE\":\"kept\"}\n"});
}

}  // TEST_SUITE

}  // namespace gpuf
