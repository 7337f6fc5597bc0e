#include "common/bundle_reader.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "common/sha256.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

class Recorder : public BundleVisitor {
 public:
  Status OnManifest(const Manifest& m) override {
    artifacts = m.artifacts.size();
    return Status::Ok();
  }
  void OnMember(const ManifestArtifact& a, const ManifestOutput& o, std::string bytes, bool ok) override {
    seen.push_back(a.name + "/" + o.stream + "=" + bytes + (ok ? "" : " (unverified)"));
  }
  size_t artifacts = 0;
  std::vector<std::string> seen;
};

std::string ManifestWith(const std::string& member, const std::string& bytes) {
  return R"({"format":"gpuforensics-bundle","format_version":1,"tool":{"name":"g","version":"1"},)"
         R"("host":{},"collection":{"started_at_unix_ns":1,"ended_at_unix_ns":2,"complete":true},"options":{},)"
         R"("artifacts":[{"name":"host.uname","kind":"command","context":"host","started_at_unix_ns":1,)"
         R"("ended_at_unix_ns":2,"duration_ns":1,"status":"ok","outputs":[{"stream":"stdout","member":")" +
         member + R"(","size_bytes":)" + std::to_string(bytes.size()) + R"(,"sha256":")" + Sha256Hex(bytes) +
         R"(","truncated":false}]}]})";
}

}  // namespace

TEST_SUITE("bundle_reader") {

TEST_CASE("ReadBundle: members reach the visitor with their artifact") {
  test::TempDir dir;
  test::WriteTarZst(dir / "b.tar.zst", {{"manifest.json", ManifestWith("artifacts/0001-host.uname.stdout", "Linux\n")},
                                        {"artifacts/0001-host.uname.stdout", "Linux\n"}});
  Recorder r;
  std::vector<IntegrityIssue> issues;
  REQUIRE(ReadBundle(dir / "b.tar.zst", BundleLimits{}, r, issues).ok());
  CHECK(r.artifacts == 1);
  CHECK(r.seen == std::vector<std::string>{"host.uname/stdout=Linux\n"});
  CHECK(issues.empty());
}

TEST_CASE("ReadBundle: duplicates, oversize and missing members are issues, not failures") {
  test::TempDir dir;
  const std::string member = "artifacts/0001-host.uname.stdout";
  SUBCASE("duplicate") {
    test::WriteTarZst(dir / "b.tar.zst", {{"manifest.json", ManifestWith(member, "Linux\n")},
                                          {member, "Linux\n"},
                                          {member, "Evil\n"}});
    Recorder r;
    std::vector<IntegrityIssue> issues;
    REQUIRE(ReadBundle(dir / "b.tar.zst", BundleLimits{}, r, issues).ok());
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].problem == "duplicate member; ignored");
    CHECK(r.seen.size() == 1);
  }
  SUBCASE("over the member cap") {
    test::WriteTarZst(dir / "b.tar.zst", {{"manifest.json", ManifestWith(member, std::string(100, 'x'))},
                                          {member, std::string(100, 'x')}});
    BundleLimits limits;
    limits.max_member_bytes = 10;
    Recorder r;
    std::vector<IntegrityIssue> issues;
    REQUIRE(ReadBundle(dir / "b.tar.zst", limits, r, issues).ok());
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].problem == "larger than the member limit; ignored");
    CHECK(r.seen.empty());
  }
  SUBCASE("too many members") {
    test::WriteTarZst(dir / "b.tar.zst", {{"manifest.json", ManifestWith(member, "x")}, {"a", "1"}, {"b", "2"}});
    BundleLimits limits;
    limits.max_members = 2;
    Recorder r;
    std::vector<IntegrityIssue> issues;
    Status s = ReadBundle(dir / "b.tar.zst", limits, r, issues);
    CHECK(s.message() == "bundle holds more than 2 members");
  }
}

TEST_CASE("ReadBundle: what a header declares counts towards the total before it is read") {
  test::TempDir dir;
  const std::string member = "artifacts/0001-host.uname.stdout";
  test::WriteTarZst(dir / "b.tar.zst", {{"manifest.json", ManifestWith(member, "x")},
                                        {"artifacts/unlisted", std::string(5000, 'u')},
                                        {member, "x"}});
  BundleLimits limits;
  limits.max_total_bytes = 4000;
  Recorder r;
  std::vector<IntegrityIssue> issues;
  Status s = ReadBundle(dir / "b.tar.zst", limits, r, issues);
  CHECK(s.message() == "bundle expands to more than 4000 bytes");
  CHECK(r.seen.empty());
}

TEST_CASE("ReadBundle: a FIFO is refused without waiting for a writer") {
  test::TempDir dir;
  REQUIRE(mkfifo((dir / "b.tar.zst").c_str(), 0600) == 0);
  Recorder r;
  std::vector<IntegrityIssue> issues;
  Status s = ReadBundle(dir / "b.tar.zst", BundleLimits{}, r, issues);
  CHECK(s.message() == "not a gpuforensics bundle: '" + dir / "b.tar.zst" + "' is a FIFO, not a regular file");
}

TEST_CASE("ReadBundle: a streamed member arrives in order, in chunks, with its verdict") {
  test::TempDir dir;
  const std::string member = "artifacts/0001-host.uname.stdout";
  std::string bytes;
  for (int i = 0; i < 20000; ++i) bytes += "line " + std::to_string(i) + "\n";  // several 64 KiB chunks

  class Streamer : public Recorder, public MemberStream {
   public:
    MemberStream* StreamMember(const ManifestArtifact&, const ManifestOutput&) override { return this; }
    void Chunk(std::string_view b) override {
      received += b;
      ++chunks;
    }
    void End(bool ok) override { verdicts.push_back(ok); }
    std::string received;
    int chunks = 0;
    std::vector<bool> verdicts;
  };
  SUBCASE("intact") {
    test::WriteTarZst(dir / "b.tar.zst", {{"manifest.json", ManifestWith(member, bytes)}, {member, bytes}});
    Streamer r;
    std::vector<IntegrityIssue> issues;
    REQUIRE(ReadBundle(dir / "b.tar.zst", BundleLimits{}, r, issues).ok());
    CHECK(r.received == bytes);
    CHECK(r.chunks > 1);
    CHECK(r.verdicts == std::vector<bool>{true});
    CHECK(r.seen.empty());
    CHECK(issues.empty());
  }
  SUBCASE("hash differs: streamed all the same, unverified") {
    std::string changed = bytes;
    changed[100] = 'X';
    test::WriteTarZst(dir / "b.tar.zst", {{"manifest.json", ManifestWith(member, bytes)}, {member, changed}});
    Streamer r;
    std::vector<IntegrityIssue> issues;
    REQUIRE(ReadBundle(dir / "b.tar.zst", BundleLimits{}, r, issues).ok());
    CHECK(r.received == changed);
    CHECK(r.verdicts == std::vector<bool>{false});
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].problem == "sha256 differs from manifest");
  }
  SUBCASE("over the member cap: ignored whole, never streamed") {
    test::WriteTarZst(dir / "b.tar.zst", {{"manifest.json", ManifestWith(member, bytes)}, {member, bytes}});
    BundleLimits limits;
    limits.max_member_bytes = 1000;
    Streamer r;
    std::vector<IntegrityIssue> issues;
    REQUIRE(ReadBundle(dir / "b.tar.zst", limits, r, issues).ok());
    CHECK(r.received.empty());
    CHECK(r.verdicts.empty());
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].problem == "larger than the member limit; ignored");
  }
}

TEST_CASE("ReadBundle: a member GNU tar stored sparse is read with its holes as zeros") {
  test::TempDir dir;
  const std::string member = "artifacts/0001-host.uname.stdout";
  const std::string path = dir / ("tree/" + member);
  std::filesystem::create_directories(dir / "tree/artifacts");
  std::string bytes;
  {
    std::ofstream out(path, std::ios::binary);
    out << "head\n";
  }
  SUBCASE("a hole between data") {
    bytes = "head\n" + std::string(300 * 1024, '\0') + "tail\n";
    std::ofstream out(path, std::ios::binary | std::ios::in);
    out.seekp(static_cast<std::streamoff>(bytes.size() - 5));
    out << "tail\n";
  }
  SUBCASE("a hole at the end") {
    bytes = "head\n" + std::string(300 * 1024, '\0');
    std::filesystem::resize_file(path, bytes.size());
  }
  std::ofstream(dir / "tree/manifest.json") << ManifestWith(member, bytes);
  auto tar = test::RunProcess({"/usr/bin/tar", "--sparse", "--zstd", "-C", dir / "tree", "-cf", dir / "b.tar.zst",
                               "manifest.json", member});
  REQUIRE(tar.exit_code == 0);
  Recorder r;
  std::vector<IntegrityIssue> issues;
  REQUIRE(ReadBundle(dir / "b.tar.zst", BundleLimits{}, r, issues).ok());
  CHECK(r.seen == std::vector<std::string>{"host.uname/stdout=" + bytes});
  CHECK(issues.empty());
}

}  // TEST_SUITE

}  // namespace gpuf
