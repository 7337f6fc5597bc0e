#include "analyzer/load/loader.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "analyzer/load/member_loaders.h"
#include "analyzer/schema_sql.h"
#include "common/artifacts.h"
#include "common/journal_slices.h"
#include "common/sha256.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

std::string JournalManifest(const std::string& member, const std::string& bytes) {
  return R"({"format":"gpuforensics-bundle","format_version":1,"tool":{"name":"g","version":"1"},)"
         R"("host":{},"collection":{"started_at_unix_ns":1,"ended_at_unix_ns":2,"complete":true},"options":{},)"
         R"("artifacts":[{"name":"journal.kubelet","instance":"boot:0","kind":"command","context":"host",)"
         R"("started_at_unix_ns":1,"ended_at_unix_ns":2,"duration_ns":1,"status":"ok","outputs":[{"stream":"stdout",)"
         R"("member":")" + member + R"(","size_bytes":)" + std::to_string(bytes.size()) + R"(,"sha256":")" +
         Sha256Hex(bytes) + R"(","truncated":false}]}]})";
}

std::string Entry(int i) {
  return R"({"__REALTIME_TIMESTAMP":")" + std::to_string(1700000000000000LL + i) +
         R"(","_SYSTEMD_UNIT":"kubelet.service","MESSAGE":"entry )" + std::to_string(i) + " " +
         std::string(static_cast<size_t>(i % 97), 'x') + R"("})";
}

// One artifact of a bundle's manifest, with its one output.
std::string ArtifactJson(const std::string& name, const std::string& instance, const std::string& kind,
                         const std::string& stream, const std::string& member, const std::string& bytes) {
  return R"({"name":")" + name + R"(","instance":")" + instance + R"(","kind":")" + kind +
         R"(","context":"host","started_at_unix_ns":1,"ended_at_unix_ns":2,"duration_ns":1,"status":"ok",)"
         R"("outputs":[{"stream":")" + stream + R"(","member":")" + member + R"(","size_bytes":)" +
         std::to_string(bytes.size()) + R"(,"sha256":")" + Sha256Hex(bytes) + R"(","truncated":false}]})";
}

// A bundle of `artifacts` (ArtifactJson) whose collection started at
// `started_ns` with the collector's clock `utc_offset` seconds off UTC.
std::string ManifestJson(const std::vector<std::string>& artifacts, int64_t started_ns = 1, int utc_offset = 0) {
  std::string list;
  for (const auto& a : artifacts) list += (list.empty() ? "" : ",") + a;
  return R"({"format":"gpuforensics-bundle","format_version":1,"tool":{"name":"g","version":"1"},"host":{},)"
         R"("collection":{"started_at_unix_ns":)" + std::to_string(started_ns) +
         R"(,"ended_at_unix_ns":)" + std::to_string(started_ns + 1) + R"(,"complete":true,"utc_offset_seconds":)" +
         std::to_string(utc_offset) + R"(},"options":{},"artifacts":[)" + list + "]}";
}

std::string Query(Database& db, const std::string& sql) {
  auto s = db.Prepare(sql);
  REQUIRE(s.ok());
  std::string out;
  while (s->Step()) {
    for (int c = 0; c < s->ColumnCount(); ++c) out += (c ? "|" : "") + s->ColumnText(c);
    out += "\n";
  }
  return out;
}

}  // namespace

TEST_SUITE("loader") {

TEST_CASE("LoadBundle: a journal slice streamed in chunks gives one row per line, numbered as written") {
  // Lines cross the reader's 64 KiB chunks; one CRLF line, one bad line, an
  // empty line, and a last line without a newline.
  std::string bytes;
  for (int i = 1; i <= 3000; ++i) bytes += Entry(i) + (i == 1500 ? "\r\n" : "\n");
  bytes += "not json\n\n" + Entry(3001);
  const std::string member = "artifacts/0001-journal.kubelet.stdout";
  test::TempDir dir;
  test::WriteTarZst(dir / "b.tar.zst", {{"manifest.json", JournalManifest(member, bytes)}, {member, bytes}});
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  auto loaded = LoadBundle(dir / "b.tar.zst", *db);
  REQUIRE(loaded.ok());
  CHECK(Query(*db, "SELECT count(*), min(line), max(line), count(DISTINCT boot_offset), max(boot_offset) "
                   "FROM journal_entries") == "3001|1|3003|1|0\n");
  CHECK(Query(*db, "SELECT line, message FROM journal_entries WHERE line IN (1500, 3003)") ==
        "1500|" + std::string("entry 1500 ") + std::string(1500 % 97, 'x') + "\n3003|entry 3001 " +
            std::string(3001 % 97, 'x') + "\n");
  CHECK(Query(*db, "SELECT line, message FROM parse_warnings") == "3001|not a journal JSON object\n");
  CHECK(Query(*db, "SELECT present, verified FROM artifact_outputs") == "1|1\n");
}

TEST_CASE("LoadBundle: a slice large enough for a worker gives the rows and events of its lines, wherever parsed") {
  // Over kThreadedMemberBytes: lines are parsed on the reading thread or
  // handed over whole to the worker, as the worker keeps up.
  std::string bytes;
  int lines = 0;
  while (static_cast<int64_t>(bytes.size()) < 3 * kThreadedMemberBytes) {
    ++lines;
    bytes += lines % 100 == 0
        ? R"({"__REALTIME_TIMESTAMP":")" + std::to_string(1700000000000000LL + lines) +
              R"(","_PID":"1","SYSLOG_IDENTIFIER":"systemd","MESSAGE":"Started kubelet.service - kubelet."})" "\n"
        : Entry(lines) + "\n";
  }
  const std::string member = "artifacts/0001-journal.kubelet.stdout";
  test::TempDir dir;
  test::WriteTarZst(dir / "b.tar.zst", {{"manifest.json", JournalManifest(member, bytes)}, {member, bytes}});
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  REQUIRE(LoadBundle(dir / "b.tar.zst", *db).ok());
  CHECK(Query(*db, "SELECT count(*), max(line) FROM journal_entries") ==
        std::to_string(lines) + "|" + std::to_string(lines) + "\n");
  CHECK(Query(*db, "SELECT count(*), sum(line % 100 = 0) FROM journal_entries WHERE event = 'unit_started' "
                   "AND event_subject = 'kubelet.service'") ==
        std::to_string(lines / 100) + "|" + std::to_string(lines / 100) + "\n");
  CHECK(Query(*db, "SELECT count(*) FROM journal_entries WHERE line = 777 AND message LIKE 'entry 777 %'") == "1\n");
}

TEST_CASE("LoadBundle: a journal filter stores only the entries it keeps, and every entry still dates its boot") {
  std::string bytes;
  for (int i = 1; i <= 3000; ++i) {
    std::string entry = Entry(i);
    bytes += entry.insert(1, R"("_BOOT_ID":"b0","__MONOTONIC_TIMESTAMP":")" + std::to_string(i) + R"(",)") + "\n";
  }
  const std::string member = "artifacts/0001-journal.kubelet.stdout";
  test::TempDir dir;
  test::WriteTarZst(dir / "b.tar.zst", {{"manifest.json", JournalManifest(member, bytes)}, {member, bytes}});
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  auto loaded = LoadBundle(dir / "b.tar.zst", *db, {}, [](const JournalEntry& e, const JournalEvent&) {
    return e.message.starts_with("entry 7");
  });
  REQUIRE(loaded.ok());
  // 7, 70-79, 700-799: 111 entries.
  CHECK(Query(*db, "SELECT count(*), min(line), max(line) FROM journal_entries") == "111|7|799\n");
  CHECK(Query(*db, "SELECT count(*) FROM journal_entries WHERE message NOT LIKE 'entry 7%'") == "0\n");
  // The boot's start comes from its latest entry, which the filter dropped.
  CHECK(Query(*db, "SELECT boot_id, boot_offset, realtime_us, monotonic_us FROM journal_boots") ==
        "b0|0|1700000000003000|3000\n");
  CHECK(Query(*db, "SELECT present, verified FROM artifact_outputs") == "1|1\n");
}

TEST_CASE("LoadBundle: a bundle cut off inside a streamed journal slice is an error, its read lines stored safely") {
  // Cut after the reader has handed over chunks of the slice: the lines still
  // queued are stored after the reader's manifest is gone.
  std::string bytes;
  for (int i = 1; i <= 3000; ++i) bytes += Entry(i) + "\n";
  const std::string member = "artifacts/0001-journal.kubelet.stdout";
  test::TempDir dir;
  test::WriteTarZst(dir / "whole.tar.zst", {{"manifest.json", JournalManifest(member, bytes)}, {member, bytes}});
  auto cut = test::RunProcess({"/bin/sh", "-c", "zstd -q -dc \"$0\" | head -c 200000 | zstd -q -o \"$1\"",
                               dir / "whole.tar.zst", dir / "cut.tar.zst"});
  REQUIRE(cut.exit_code == 0);
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  auto loaded = LoadBundle(dir / "cut.tar.zst", *db);
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().message().find("Truncated tar archive") != std::string::npos);
  // The uncommitted rows of the lines read before the cut.
  CHECK(std::stoi(Query(*db, "SELECT count(*) FROM journal_entries")) > 0);
}

TEST_CASE("LoadBundle: nvidia-smi's stderr reaches its run whether its member comes before stdout or after") {
  const std::string err = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
                          "that the latest NVIDIA driver is installed and running.\n";
  for (bool stderr_first : {true, false}) {
    CAPTURE(stderr_first);
    // Member names of our own choosing put either stream first in the archive.
    const std::string out_member = stderr_first ? "b-out" : "a-out";
    const std::string err_member = stderr_first ? "a-err" : "b-err";
    auto output = [](const std::string& stream, const std::string& member, const std::string& bytes) {
      return R"({"stream":")" + stream + R"(","member":")" + member + R"(","size_bytes":)" +
             std::to_string(bytes.size()) + R"(,"sha256":")" + Sha256Hex(bytes) + R"(","truncated":false})";
    };
    std::string manifest =
        R"({"format":"gpuforensics-bundle","format_version":1,"tool":{"name":"g","version":"1"},)"
        R"("host":{},"collection":{"started_at_unix_ns":1,"ended_at_unix_ns":2,"complete":true},"options":{},)"
        R"("artifacts":[{"name":"host.nvidia_smi_list","instance":"","kind":"command","context":"host",)"
        R"("started_at_unix_ns":1,"ended_at_unix_ns":2,"duration_ns":1,"status":"nonzero_exit","exit_code":9,)"
        R"("outputs":[)" + output("stdout", out_member, "") + "," + output("stderr", err_member, err) + "]}]}";
    test::TempDir dir;
    std::vector<std::pair<std::string, std::string>> members = {{"manifest.json", manifest}};
    if (stderr_first) members.push_back({err_member, err});
    members.push_back({out_member, ""});
    if (!stderr_first) members.push_back({err_member, err});
    test::WriteTarZst(dir / "b.tar.zst", members);
    auto db = Database::Create(":memory:");
    REQUIRE(db.ok());
    auto loaded = LoadBundle(dir / "b.tar.zst", *db);
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().message());
    CHECK(Query(*db, "SELECT view, command, outcome FROM nvidia_smi_runs") == "host|-L|driver_not_loaded\n");
  }
}

TEST_CASE("LoadBundle: dmesg becomes kernel journal entries only where the journal has no kernel line of them") {
  // btime 1700000000: dmesg's 12.5 s is 1700000012.5 s; the boot id has its dashes dropped.
  const std::string ring = "[    5.118236] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.127.05\n"
                           "[   12.500000] NVRM: Xid (PCI:0000:9a:00): 79, pid='<unknown>', name=<unknown>, "
                           "GPU has fallen off the bus.\n";
  // Without the kernel's own stamp: no telling which of dmesg's records the journal holds.
  const std::string unstamped_entry =
      R"({"__REALTIME_TIMESTAMP":"1700000005118300","__MONOTONIC_TIMESTAMP":"5118300",)"
      R"("_BOOT_ID":"0123456789abcdef0123456789abcdef","_TRANSPORT":"kernel","SYSLOG_IDENTIFIER":"kernel",)"
      R"("MESSAGE":"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.127.05"})"
      "\n";
  // A journal vacuumed from the boot's start: its first kernel line is the Xid, stamped 12.5 s.
  const std::string vacuumed_entry =
      R"({"__REALTIME_TIMESTAMP":"1700000012500400","__MONOTONIC_TIMESTAMP":"12500400",)"
      R"("_SOURCE_MONOTONIC_TIMESTAMP":"12500000","_BOOT_ID":"0123456789abcdef0123456789abcdef",)"
      R"("_TRANSPORT":"kernel","SYSLOG_IDENTIFIER":"kernel","MESSAGE":"NVRM: Xid (PCI:0000:9a:00): 79, )"
      R"(pid='<unknown>', name=<unknown>, GPU has fallen off the bus."})"
      "\n";
  for (const std::string& journal : {std::string(), unstamped_entry, vacuumed_entry}) {
    CAPTURE(journal);
    const std::string stat = "cpu  1 2 3\nbtime 1700000000\n";
    const std::string boot_id = "01234567-89ab-cdef-0123-456789abcdef\n";
    // dmesg first in the archive: it is read after every other member anyway.
    std::string manifest = ManifestJson({ArtifactJson("host.dmesg", "", "command", "stdout", "a", ring),
                                         ArtifactJson("boot.proc_stat", "", "file", "content", "b", stat),
                                         ArtifactJson("boot.boot_id", "", "file", "content", "c", boot_id),
                                         ArtifactJson("journal.kernel", "boot:0", "command", "stdout", "d", journal)});
    test::TempDir dir;
    test::WriteTarZst(dir / "b.tar.zst", {{"manifest.json", manifest}, {"a", ring}, {"b", stat}, {"c", boot_id},
                                          {"d", journal}});
    auto db = Database::Create(":memory:");
    REQUIRE(db.ok());
    auto loaded = LoadBundle(dir / "b.tar.zst", *db);
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().message());
    const std::string from_dmesg = Query(*db,
        "SELECT j.line, j.boot_offset, j.realtime_us, j.source_monotonic_us, j.boot_id, j.transport "
        "FROM journal_entries j JOIN artifacts a USING (artifact_id) WHERE a.name = 'host.dmesg' ORDER BY j.line");
    if (journal == unstamped_entry) {
      // Maybe already in the journal: dmesg stays lines, never counted twice.
      CHECK(from_dmesg.empty());
      CHECK(Query(*db, "SELECT count(*) FROM artifact_lines l JOIN artifacts a USING (artifact_id) "
                       "WHERE a.name = 'host.dmesg'") == "2\n");
    } else if (journal == vacuumed_entry) {
      // What the journal lost before its first kernel line, and not the Xid it holds.
      CHECK(from_dmesg == "1|0|1700000005118236|5118236|0123456789abcdef0123456789abcdef|kernel\n");
      CHECK(Query(*db, "SELECT count(*) FROM journal_entries WHERE message LIKE 'NVRM: Xid%'") == "1\n");
    } else {
      CHECK(from_dmesg == "1|0|1700000005118236|5118236|0123456789abcdef0123456789abcdef|kernel\n"
                          "2|0|1700000012500000|12500000|0123456789abcdef0123456789abcdef|kernel\n");
    }
  }
}

TEST_CASE("LoadBundle: RKE2's kubelet.log becomes the kubelet's journal entries, placed in the collector's zone") {
  // btime 1700000000 is 2023-11-15 06:13:20 at +08:00, the collector's offset.
  const std::string log =
      "I1115 06:00:00.000000    1201 server.go:486] \"Kubelet version\" kubeletVersion=\"v1.30.5+rke2r1\"\n"
      "I1115 06:13:45.500000    1544 server.go:486] \"Kubelet version\" kubeletVersion=\"v1.30.5+rke2r1\"\n"
      "E1115 06:14:06.000000    1544 server.go:144] \"Got registration request from device plugin with resource\" "
      "resourceName=\"nvidia.com/gpu\"\n"
      "\tgoroutine 1 [running]:\n";
  const std::string stat = "cpu  1 2 3\nbtime 1700000000\n";
  const std::string kubelet_entry =
      R"({"__REALTIME_TIMESTAMP":"1700000025500000","__MONOTONIC_TIMESTAMP":"25500000",)"
      R"("_BOOT_ID":"0123456789abcdef0123456789abcdef","SYSLOG_IDENTIFIER":"kubelet",)"
      R"("MESSAGE":"I1115 06:13:45.500000    1544 server.go:486] \"Kubelet version\""})"
      "\n";
  for (const std::string& journal : {std::string(), kubelet_entry}) {
    CAPTURE(journal);
    const std::string manifest =
        ManifestJson({ArtifactJson("host.kubelet_log", "", "file", "content", "a", log),
                      ArtifactJson("boot.proc_stat", "", "file", "content", "b", stat),
                      ArtifactJson("journal.kubelet", "boot:0", "command", "stdout", "c", journal)},
                     1700003600LL * 1000000000, 8 * 3600);
    test::TempDir dir;
    test::WriteTarZst(dir / "b.tar.zst", {{"manifest.json", manifest}, {"a", log}, {"b", stat}, {"c", journal}});
    auto db = Database::Create(":memory:");
    REQUIRE(db.ok());
    auto loaded = LoadBundle(dir / "b.tar.zst", *db);
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().message());
    const std::string from_file = Query(*db,
        "SELECT j.line, ifnull(j.boot_offset, '-'), j.realtime_us, ifnull(j.boot_id, '-'), j.identifier, j.pid, "
        "j.priority, ifnull(j.event, '-') FROM journal_entries j JOIN artifacts a USING (artifact_id) "
        "WHERE a.name = 'host.kubelet_log' ORDER BY j.line");
    if (journal.empty()) {
      CHECK(from_file == "1|-|1699999200000000|-|kubelet|1201|6|kubelet_starting\n"
                         "2|0|1700000025500000|-|kubelet|1544|6|kubelet_starting\n"
                         "3|0|1700000046000000|-|kubelet|1544|3|registration_request\n");
      CHECK(Query(*db, "SELECT message FROM parse_warnings") ==
            "1 lines without a klog header (or with a date that does not exist) not read\n");
    } else {
      // The journal has the kubelet's own lines: the file is not read twice.
      CHECK(from_file.empty());
    }
  }
}

TEST_CASE("LoadBundle: the configuration a plugin run as a host service prints is read from its journal") {
  // Bottlerocket runs the plugin as a unit: "Running with config:" and its JSON are journal lines.
  std::string bytes;
  int i = 0;
  for (const char* message : {"I0207 00:54:34.639929    4284 main.go:253] ", "Running with config:", "{",
                              "  \"version\": \"v1\",", "  \"flags\": {", "    \"migStrategy\": \"single\",",
                              "    \"failOnInitError\": true", "  }", "}"}) {
    bytes += R"({"__REALTIME_TIMESTAMP":")" + std::to_string(1700000000000000LL + ++i) +
             R"(","_SYSTEMD_UNIT":"nvidia-k8s-device-plugin.service","SYSLOG_IDENTIFIER":"nvidia-device-plugin",)"
             R"("_PID":"4284","MESSAGE":)" + nlohmann::json(message).dump() + "}\n";
  }
  const std::string member = "artifacts/0001-journal.nvidia_device_plugin.stdout";
  test::TempDir dir;
  test::WriteTarZst(dir / "b.tar.zst",
                    {{"manifest.json", ManifestJson({ArtifactJson("journal.nvidia_device_plugin", "boot:0", "command",
                                                                  "stdout", member, bytes)})},
                     {member, bytes}});
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  REQUIRE(LoadBundle(dir / "b.tar.zst", *db).ok());
  CHECK(Query(*db, "SELECT count(*) FROM log_lines") == "9\n");
  CHECK(Query(*db, "SELECT key, value, source FROM plugin_config ORDER BY key") ==
        "failOnInitError|true|config_dump\nmigStrategy|single|config_dump\n");
}

TEST_CASE("LoadsJournalEntries: the journal slices, and the logs read as journal lines") {
  for (auto name : {"journal.kernel", "journal.kubelet", "journal.nvidia_device_plugin", "host.dmesg",
                    "host.kubelet_log"}) {
    CHECK_MESSAGE(LoadsJournalEntries(name), name);
  }
  for (auto name : {"plugin.log", "host.fabricmanager_log", "boot.proc_stat", "no.such_artifact"}) {
    CHECK_MESSAGE(!LoadsJournalEntries(name), name);
  }
}

TEST_CASE("MemberLoaderTable: every loader reads known artifacts and fills tables of the schema") {
  std::set<std::string> tables;
  constexpr std::string_view kCreate = "CREATE TABLE ";
  for (const auto& file : SchemaFiles()) {
    for (size_t at = file.sql.find(kCreate); at != std::string_view::npos; at = file.sql.find(kCreate, at + 1)) {
      std::string_view rest = file.sql.substr(at + kCreate.size());
      tables.insert(std::string(rest.substr(0, rest.find_first_of(" (\n"))));
    }
  }
  std::set<std::string_view> ids;
  for (const auto& loader : MemberLoaderTable()) {
    CAPTURE(loader.id);
    CHECK(ids.insert(loader.id).second);
    CHECK(loader.reads.size() > 0);
    for (auto name : loader.reads) CHECK_MESSAGE(FindArtifact(name), name << " is no artifact");
    CHECK(loader.writes.size() > 0);
    for (auto table : loader.writes) {
      CHECK_MESSAGE(tables.count(std::string(table)), table << " is no table of schema/");
      CHECK(LoaderWrites(loader, table));
    }
  }
  const MemberLoaderRow* journal = FindMemberLoader("journal");
  REQUIRE(journal);
  for (const auto& slice : JournalSliceTable()) CHECK_MESSAGE(LoaderReads(*journal, slice.name), slice.name);
  for (auto name : journal->reads) CHECK_MESSAGE(FindJournalSlice(name), name << " is no journal slice");
  CHECK(LoaderReads(*FindMemberLoader("node_resources"), "k8s.node"));
  CHECK_FALSE(LoaderWrites(*FindMemberLoader("node_resources"), "node"));
}

}  // TEST_SUITE

}  // namespace gpuf
