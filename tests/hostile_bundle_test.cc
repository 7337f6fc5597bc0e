// analyze and verify on input that is not a good bundle: one line on
// stderr, exit status 2, nothing written.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "common/bundle_layout.h"
#include "common/sha256.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

const char* kGoodManifest = R"({"format":"gpuforensics-bundle","format_version":1,
  "tool":{"name":"gpuforensics","version":"0.1.0"},"host":{"hostname":"n","node_name":"n"},
  "collection":{"started_at_unix_ns":1,"ended_at_unix_ns":2,"complete":true},
  "options":{"root":"/"},"artifacts":[]})";

// The ID verify prints for a bundle of kGoodManifest: its hash's first 12 digits.
std::string GoodId() { return "gf-" + Sha256Hex(kGoodManifest).substr(0, 12); }

void ExpectRejected(const std::string& path, const std::string& expected_err) {
  for (const char* command : {"analyze", "verify"}) {
    auto r = test::RunGpuforensics({command, path});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "gpuforensics " + std::string(command) + ": " + expected_err + "\n");
    CHECK(r.out == "");
  }
}

}  // namespace

TEST_SUITE("hostile_bundle") {

TEST_CASE("analyze: unreadable input gets one line and exit status 2") {
  test::TempDir dir;
  SUBCASE("missing file") {
    ExpectRejected(dir / "nope.tar.zst",
                   "reading '" + dir / "nope.tar.zst" +
                       "': not a gpuforensics bundle (tar.zst): Failed to open '" + dir / "nope.tar.zst" + "'");
  }
  SUBCASE("empty file") {
    test::WriteFile(dir / "empty.tar.zst", "");
    ExpectRejected(dir / "empty.tar.zst",
                   "reading '" + dir / "empty.tar.zst" + "': not a gpuforensics bundle: the file is empty");
  }
  SUBCASE("not zstd, not tar") {
    test::WriteFile(dir / "text.tar.zst", "hello, this is not an archive\n");
    ExpectRejected(dir / "text.tar.zst",
                   "reading '" + dir / "text.tar.zst" +
                       "': not a gpuforensics bundle (tar.zst): Unrecognized archive format");
  }
  SUBCASE("manifest not first, and not ours") {
    // Named like a bundle's files, but the manifest is not one: saved files,
    // which verify does not take for a bundle.
    test::WriteTarZst(dir / "b.tar.zst", {{"artifacts/0001-x.stdout", "x"}, {"manifest.json", "{}"}});
    auto r = test::RunGpuforensics({"verify", dir / "b.tar.zst"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "gpuforensics verify: reading '" + dir / "b.tar.zst" +
                       "': not a gpuforensics bundle: no manifest of ours at its root (it reads as evidence-dir, "
                       "which analyze imports)\n");
    CHECK(r.out == "");
  }
  SUBCASE("manifest not first: re-made, and its stray member reported") {
    test::WriteTarZst(dir / "r.tar.zst", {{"artifacts/0001-x.stdout", "x"}, {"manifest.json", kGoodManifest}});
    auto r = test::RunGpuforensics({"verify", dir / "r.tar.zst"});
    CHECK(r.exit_code == 1);
    CHECK(r.err == "");
    CHECK(r.out == "FAIL artifacts/0001-x.stdout: not named in the manifest; ignored\n" + dir / "r.tar.zst" +
                       ": bundle " + GoodId() + ", 0 of 0 members verified, 1 problems (re-packed: each member read "
                       "from it)\n");
  }
  SUBCASE("manifest from a newer format") {
    std::string newer = kGoodManifest;
    newer.replace(newer.find("\"format_version\":1"), 18, "\"format_version\":7");
    test::WriteTarZst(dir / "n.tar.zst", {{"manifest.json", newer}});
    ExpectRejected(dir / "n.tar.zst",
                   "reading '" + dir / "n.tar.zst" +
                       "': bundle format version 7 is newer than this gpuforensics understands (1); upgrade gpuforensics");
  }
  SUBCASE("truncated zstd stream") {
    test::WriteTarZst(dir / "t.tar.zst", {{"manifest.json", kGoodManifest}, {"artifacts/0001-x.stdout",
                                                                            std::string(200000, 'x')}});
    std::string bytes = test::ReadFile(dir / "t.tar.zst");
    test::WriteFile(dir / "t.tar.zst", bytes.substr(0, bytes.size() / 2));
    auto r = test::RunGpuforensics({"analyze", dir / "t.tar.zst"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.rfind("gpuforensics analyze: reading '" + dir / "t.tar.zst" + "': ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

TEST_CASE("analyze: a failed load leaves no database behind") {
  test::TempDir dir;
  test::WriteFile(dir / "text.tar.zst", "not an archive");
  auto r = test::RunGpuforensics({"analyze", dir / "text.tar.zst", "--db", dir / "out.db"});
  CHECK(r.exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(dir / "out.db"));
}

TEST_CASE("analyze: hostile member paths and unknown members are ignored with a warning") {
  test::TempDir dir;
  test::WriteTarZst(dir / "h.tar.zst", {{"manifest.json", kGoodManifest},
                                        {"../../etc/evil", "x"},
                                        {"/abs/evil", "x"},
                                        {"artifacts/unlisted", "x"},
                                        {"symlink:artifacts/link", "/etc/passwd"},
                                        {"chardev:artifacts/nvidia0", ""}});
  auto r = test::RunGpuforensics({"verify", dir / "h.tar.zst"});
  CHECK(r.exit_code == 1);
  CHECK(r.out == "FAIL ../../etc/evil: unsafe path; ignored\n"
                 "FAIL /abs/evil: unsafe path; ignored\n"
                 "FAIL artifacts/unlisted: not named in the manifest; ignored\n"
                 "FAIL artifacts/link: not a regular file; ignored\n"
                 "FAIL artifacts/nvidia0: not a regular file; ignored\n" +
                 dir / "h.tar.zst" + ": bundle " + GoodId() + ", 0 of 0 members verified, 5 problems\n");
  CHECK_FALSE(std::filesystem::exists("/etc/evil"));
}

}  // TEST_SUITE

}  // namespace gpuf
