// Bytes that are not UTF-8, as a real node has them: a Latin-1 hostname
// (and $NODE_NAME, which is then no Node's name), a file name and log lines
// of a pasted capture. Every command keeps them (JSON gets them as an array of byte
// values or as \xNN text, common/json_bytes.h), recognises the lines they sit
// in, and none aborts.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/json_bytes.h"
#include "common/manifest.h"
#include "tests/fake_node.h"
#include "tests/report_json.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::FakeHost;

constexpr char kLatin1Node[] =
    "gpu-n\xB5"
    "de-7";
// `dmesg -T`: a wall-clock time, so that the line is on the timeline too.
constexpr char kXidLine[] =
    "[Sat Dec  5 10:00:00 2026] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus. \xB5\n";

bool HasFinding(const std::string& report_json, const std::string& rule) {
  return test::FindingOf(json::parse(report_json), rule) != nullptr;
}

}  // namespace

TEST_SUITE("node_bytes") {
  TEST_CASE("node bytes: a Latin-1 hostname is kept byte for byte, a $NODE_NAME that is no name is said and ignored") {
    FakeHost host;
    test::BuildFakeNode(host);
    host.AddFile("/etc/hostname", std::string(kLatin1Node) + "\n");
    const std::string staging = host.root() + "/../tmp";
    fs::create_directory(staging);
    const std::string out = host.root() + "/../node.tar.zst";
    auto r = test::RunGpuforensics(
        {"collect", "--root", host.root(), "-o", out, "--timeout", "2"},
        {host.PathEnv(), "KUBECONFIG=", std::string("NODE_NAME=") + kLatin1Node, "TMPDIR=" + staging});
    REQUIRE_MESSAGE((r.exit_code == 0 || r.exit_code == 3), r.err);
    CHECK(r.err.find("warning: ignoring $NODE_NAME 'gpu-n\\xB5de-7'") != std::string::npos);
    const std::string manifest_text = test::ReadBundleMembers(out).at(0).second;
    CHECK(IsUtf8(manifest_text));
    auto manifest = ParseManifest(manifest_text);
    REQUIRE_MESSAGE(manifest.ok(), manifest.status().message());
    CHECK(manifest->hostname == kLatin1Node);
    CHECK(manifest->node_name == "gpu-node-7");  // from the kubelet's mirror pods
    CHECK(fs::is_empty(staging));
    CHECK(test::RunGpuforensics({"verify", out}).exit_code == 0);

    // The report shows the hostname with the byte marked, in text; JSON stays JSON.
    auto text = test::RunGpuforensics({"analyze", out});
    CHECK(text.exit_code != 134);
    CHECK(text.out.find("hostname gpu-n\\xB5de-7") != std::string::npos);
    auto report = test::RunGpuforensics({"analyze", "--format", "json", out});
    REQUIRE_MESSAGE(json::accept(report.out), report.err);
    CHECK(json::parse(report.out)["bundle"]["node"] == "gpu-node-7");
  }

  TEST_CASE("node bytes: a pasted kernel log with a Latin-1 byte and file name is read and recognised") {
    test::TempDir dir;
    const std::string evidence = dir.path() + "/case-4711";
    fs::create_directory(evidence);
    test::WriteFile(evidence + "/dmesg.txt", kXidLine);
    test::WriteFile(evidence + "/notes-\xB5.log", "operator notes: caf\xE9 \xFF\n");

    auto report = test::RunGpuforensics({"analyze", "--format", "json", evidence});
    CHECK(report.exit_code == 1);
    REQUIRE_MESSAGE(json::accept(report.out), report.err);
    CHECK(HasFinding(report.out, "xid-79-fallen-off-bus"));

    const std::string bundle = dir.path() + "/case.tar.zst";
    auto imported = test::RunGpuforensics({"import", evidence, "-o", bundle});
    REQUIRE_MESSAGE(imported.exit_code == 0, imported.err);
    auto timeline = test::RunGpuforensics({"timeline", "--all", "--format", "jsonl", bundle});
    CHECK(timeline.exit_code == 0);
    bool xid_seen = false;
    std::istringstream lines(timeline.out);
    for (std::string line; std::getline(lines, line);) {
      REQUIRE(json::accept(line));
      if (line.find("fallen off the bus. \\\\xB5") != std::string::npos) xid_seen = true;
    }
    CHECK(xid_seen);
  }

  TEST_CASE("node bytes: escape sequences in a log line are shown, never sent to the terminal raw") {
    test::TempDir dir;
    const std::string evidence = dir.path() + "/case-4712";
    fs::create_directory(evidence);
    test::WriteFile(evidence + "/dmesg.txt",
                    "[Sat Dec  5 10:00:00 2026] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus. "
                    "\x1b]0;owned\x07\x1b[2J\xE2\x80\xAE\n");
    auto report = test::RunGpuforensics({"analyze", evidence});
    CHECK(report.exit_code == 1);
    CHECK(report.out.find('\x1b') == std::string::npos);
    CHECK(report.out.find('\x07') == std::string::npos);
    CHECK(report.out.find("\\x1B]0;owned\\x07\\x1B[2J<U+202E>") != std::string::npos);

    const std::string bundle = dir.path() + "/case.tar.zst";
    REQUIRE(test::RunGpuforensics({"import", evidence, "-o", bundle}).exit_code == 0);
    auto timeline = test::RunGpuforensics({"timeline", "--all", bundle});
    CHECK(timeline.exit_code == 0);
    CHECK(timeline.out.find("the bus. \\x1B]0;owned") != std::string::npos);
    CHECK(timeline.out.find('\x1b') == std::string::npos);
  }

}  // TEST_SUITE

}  // namespace gpuf
