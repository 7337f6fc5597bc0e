// Failures are recognised by what they say, whoever says it: a folder of
// saved outputs whose file nothing recognises, holding a line the message
// catalogue knows, gives that line's finding through the real binary, with
// the line's file and its unknown origin shown, and at most "likely".
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/report_json.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

using nlohmann::json;
using test::FindingOf;

json AnalyzeFolder(const test::TempDir& dir) {
  auto run = test::RunGpuforensics({"analyze", "--format", "json", dir.path()});
  REQUIRE_MESSAGE((run.exit_code == 0 || run.exit_code == 1), run.err);
  return json::parse(run.out);
}

}  // namespace

TEST_SUITE("wording_anywhere") {

TEST_CASE("analyze: the kernel's RmInitAdapter lines amid notes in a file of unknown kind") {
  test::TempDir dir;
  // Mostly prose: no shape takes it, so it is read as text of unknown kind.
  test::WriteFile(dir / "worker4-notes.txt",
                  "ticket 4411: GPUs missing after the maintenance window\n"
                  "NVRM: GPU 0000:0a:00.0: RmInitAdapter failed! (0x24:0x72:1568)\n"
                  "the second try gave the same\n"
                  "NVRM: GPU 0000:0a:00.0: rm_init_adapter failed, device minor number 5\n"
                  "no change after reseating the riser cable\n");
  json report = AnalyzeFolder(dir);
  const json* f = FindingOf(report, "driver-gpu-init-failed");
  REQUIRE(f != nullptr);
  CHECK((*f)["confidence"] == "likely");
  REQUIRE_FALSE((*f)["evidence"].empty());
  CHECK((*f)["evidence"][0]["artifact"].get<std::string>().rfind("saved.text", 0) == 0);
  bool says_origin = false;
  for (const auto& m : (*f)["missing_evidence"]) {
    says_origin = says_origin || m.get<std::string>().find("origin is not known") != std::string::npos;
  }
  CHECK(says_origin);
  bool listed = false;
  for (const auto& input : report["coverage"]["input_files"]) {
    if (input["path"] == "worker4-notes.txt") listed = input["artifacts"] == json::array({"saved.text"});
  }
  CHECK(listed);
}

TEST_CASE("analyze: the fabric manager's refusal alone, in a driver pod's saved log") {
  test::TempDir dir;
  test::WriteFile(dir / "nvidia-driver-daemonset-x7k2p.log",
                  "fabric manager NVIDIA GPU driver interface version 550.127.05 don't match with driver version "
                  "550.120. Please update with matching NVIDIA driver package.\n");
  json report = AnalyzeFolder(dir);
  const json* f = FindingOf(report, "fabric-manager-not-running");
  REQUIRE(f != nullptr);
  CHECK((*f)["confidence"] == "possible");
}

TEST_CASE("analyze: a driver pod's kubectl logs --timestamps with the kernel's Xid 79 line") {
  test::TempDir dir;
  // Recognised as kubectl logs --timestamps, but neither the plugin's nor
  // the kubelet's: read line by line, not set aside.
  test::WriteFile(dir / "nvidia-driver-daemonset-x7k2p.log",
                  "2024-12-06T10:00:01.123456789Z [  123.456789] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', "
                  "name=<unknown>, GPU has fallen off the bus.\n"
                  "2024-12-06T10:00:01.123500000Z [  123.456800] NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.\n");
  json report = AnalyzeFolder(dir);
  const json* f = FindingOf(report, "xid-79-fallen-off-bus");
  REQUIRE_MESSAGE(f != nullptr, report["coverage"].dump());
  CHECK((*f)["confidence"] == "likely");
  CHECK((*f)["evidence"][0]["artifact"].get<std::string>().rfind("saved.text", 0) == 0);
}

TEST_CASE("analyze: a look-alike line of a neighbouring component gives no finding") {
  test::TempDir dir;
  test::WriteFile(dir / "notes.txt", "NVRM: GPU 0000:0a:00.0: RmInitAdapter: Cannot initialize GSP firmware RM\n");
  json report = AnalyzeFolder(dir);
  CHECK(FindingOf(report, "driver-gpu-init-failed") == nullptr);
}

TEST_CASE("analyze --messages: a site's wording is looked for by the built-in rules too") {
  test::TempDir site;
  test::WriteFile(site / "vendor-bmc.yaml", R"(component: a vendor's BMC console
entries:
  - id: bmc-gpu-init-error
    event: gpu_init_failed
    pattern: 'BMC: GPU slot \d+ init error at (?P<bus>[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])'
    versions: "the vendor's BMC firmware 2.x"
    source: https://example.com/vendor/bmc-release-notes
    example: 'BMC: GPU slot 3 init error at 0000:0a:00.0'
    lookalike: 'BMC: GPU slot 3 init done at 0000:0a:00.0'
)");
  test::TempDir dir;
  test::WriteFile(dir / "bmc-console.txt",
                  "ticket 4411: the BMC console after the reboot\n"
                  "BMC: GPU slot 3 init error at 0000:0a:00.0\n"
                  "nothing else was printed\n");
  auto without = test::RunGpuforensics({"analyze", "--format", "json", dir.path()});
  REQUIRE((without.exit_code == 0 || without.exit_code == 1));
  CHECK(FindingOf(json::parse(without.out), "driver-gpu-init-failed") == nullptr);
  auto with = test::RunGpuforensics({"analyze", "--format", "json", "--messages", site.path(), dir.path()});
  REQUIRE_MESSAGE((with.exit_code == 0 || with.exit_code == 1), with.err);
  json report = json::parse(with.out);
  const json* f = FindingOf(report, "driver-gpu-init-failed");
  REQUIRE(f != nullptr);
  CHECK((*f)["confidence"] == "likely");
}

TEST_CASE("analyze --messages: a refused site wording is the bad-input status, with its file and line") {
  test::TempDir site;
  test::WriteFile(site / "bad.yaml", R"(component: demo
entries:
  - id: demo-entry
    event: gpu_init_failed
    pattern: 'GPU init error'
    versions: any
    source: https://example.com/demo
    example: 'GPU init error'
    lookalike: 'GPU init error again'
)");
  test::TempDir dir;
  test::WriteFile(dir / "notes.txt", "nothing\n");
  auto run = test::RunGpuforensics({"analyze", "--messages", site.path(), dir.path()});
  CHECK(run.exit_code == 2);
  CHECK(run.out.empty());
  CHECK(run.err == "gpuforensics analyze: a site wording is refused: " + site / "bad.yaml" +
                       ":9: the pattern matches it\n    lookalike: 'GPU init error again'\n               ^ near here\n");
}

TEST_CASE("analyze: a pasted lspci is the PCI listing, so a GPU that fell off and is missing from it is still gone") {
  test::TempDir dir;
  test::WriteFile(dir / "dmesg.txt",
                  "[  123.456789] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off "
                  "the bus.\n"
                  "[  123.456800] NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.\n");
  test::WriteFile(dir / "lspci.txt",
                  "$ lspci -nn | grep -i nvidia\n"
                  "5e:00.0 3D controller [0302]: NVIDIA Corporation GV100GL [Tesla V100S PCIe 32GB] [10de:1df6] (rev a1)\n"
                  "d8:00.0 3D controller [0302]: NVIDIA Corporation GV100GL [Tesla V100S PCIe 32GB] [10de:1df6] (rev a1)\n");
  json report = AnalyzeFolder(dir);
  bool listed = false;
  for (const auto& input : report["coverage"]["input_files"]) {
    if (input["path"] == "lspci.txt") listed = input["artifacts"] == json::array({"pci.nvidia_functions"});
  }
  CHECK_MESSAGE(listed, report["coverage"]["input_files"].dump());
  const json* f = FindingOf(report, "xid-79-fallen-off-bus");
  REQUIRE_MESSAGE(f != nullptr, report["findings"].dump());
  CHECK((*f)["tense"] == "current");
  bool shows_listing = false;
  for (const auto& e : (*f)["evidence"]) {
    shows_listing = shows_listing || e["artifact"] == "pci.nvidia_functions";
  }
  CHECK_MESSAGE(shows_listing, (*f)["evidence"].dump());
}

}  // TEST_SUITE

}  // namespace gpuf
