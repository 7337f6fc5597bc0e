#include "collector/redact/pseudonym_map.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include "collector/redact/redaction.h"
#include "tests/test_support.h"

namespace gpuf {

TEST_SUITE("pseudonym_map") {

TEST_CASE("PseudonymMap: one pseudonym per original, canonical forms shared, shapes per family") {
  PseudonymMap map;
  CHECK(map.PseudonymFor(Family::kHostname, "GPU-Node-7") == "node-0001");
  CHECK(map.PseudonymFor(Family::kHostname, "gpu-node-7") == "node-0001");
  CHECK(map.PseudonymFor(Family::kIpv6, "fd00:77:31:0::47") == "2001:db8::1");
  CHECK(map.PseudonymFor(Family::kIpv6, "FD00:77:31::47") == "2001:db8::1");
  CHECK(map.PseudonymFor(Family::kMac, "0C-42-A1-77-CA-FE") == "02:00:00:00:00:01");
  CHECK(map.PseudonymFor(Family::kMachineId, "4f1c2b3a4d5e6f708192a3b4c5d6e7f8") == "00000000000040008000000000000001");
  CHECK(MakePseudonym(Family::kIpv4, 254, "") == "192.0.2.254");
  CHECK(MakePseudonym(Family::kIpv4, 255, "") == "198.51.100.1");
  CHECK(MakePseudonym(Family::kIpv4, 509, "") == "203.0.113.1");
  CHECK(MakePseudonym(Family::kIpv4, 763, "") == "198.18.0.1");
  CHECK(map.IsPseudonym("node-0001"));
  CHECK(map.size() == 4);
}

TEST_CASE("PseudonymMap: saved privately and loaded again, numbering continues") {
  test::TempDir dir;
  const std::string path = dir / "case.map.json";
  {
    PseudonymMap map;
    map.PseudonymFor(Family::kIpv4, "10.0.0.1");
    map.PseudonymFor(Family::kUsername, "alice");
    map.PseudonymFor(Family::kHostname,
                     "gpu-n\xB5"
                     "de-7");  // a Latin-1 hostname: bytes, kept exactly
    map.AddProvenance({{"by", "redact"}, {"input_sha256", "ab"}});
    REQUIRE(map.Save(path).ok());
  }
  struct stat st;
  REQUIRE(stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  auto loaded = PseudonymMap::Load(path);
  REQUIRE(loaded.ok());
  CHECK(*loaded->Find(Family::kIpv4, "10.0.0.1") == "192.0.2.1");
  CHECK(loaded->PseudonymFor(Family::kIpv4, "10.0.0.2") == "192.0.2.2");
  CHECK(loaded->PseudonymFor(Family::kUsername, "alice") == "user-0001");
  REQUIRE(loaded->Find(Family::kHostname,
                       "gpu-n\xB5"
                       "de-7"));
  CHECK(*loaded->Find(Family::kHostname,
                      "gpu-n\xB5"
                      "de-7") == "node-0001");
  REQUIRE(loaded->Save(path).ok());
  CHECK(test::ReadFile(path).find("\"input_sha256\": \"ab\"") != std::string::npos);
  CHECK(PseudonymMap::Load(dir / "absent.json")->size() == 0);
}

TEST_CASE("PseudonymMap: a file that is not a map is refused, naming it") {
  test::TempDir dir;
  test::WriteFile(dir / "x.json", "{\"format\": \"something-else\"}");
  CHECK(PseudonymMap::Load(dir / "x.json").status().message() ==
        "map file '" + (dir / "x.json") + "': not a gpuforensics redaction map");
  test::WriteFile(dir / "y.json", R"({"format": "gpuforensics-redaction-map", "format_version": 1,
    "entries": [{"family": "planet", "original": "x", "pseudonym": "y"}]})");
  CHECK(PseudonymMap::Load(dir / "y.json").status().message() ==
        "map file '" + (dir / "y.json") + "': unknown pseudonym family 'planet'");
}

TEST_CASE("LoadUserPatterns: one RE2 a line, comments skipped, a bad one named by file:line") {
  test::TempDir dir;
  test::WriteFile(dir / "ok.txt", "# tickets\nCASE-[0-9]{5}\n\n  project (bluebird)  \n");
  auto ok = LoadUserPatterns(dir / "ok.txt");
  REQUIRE(ok.ok());
  CHECK(ok->size() == 2);
  test::WriteFile(dir / "bad.txt", "# tickets\nCASE-[0-9]{5}\nproject (bluebird\n");
  auto bad = LoadUserPatterns(dir / "bad.txt");
  CHECK(bad.status().code() == Status::Code::kInvalidArgument);
  CHECK(bad.status().message() ==
        dir / "bad.txt:3: invalid RE2 pattern 'project (bluebird': missing ): project (bluebird");
  test::WriteFile(dir / "empty.txt", "x*\n");
  CHECK(LoadUserPatterns(dir / "empty.txt").status().message() ==
        dir / "empty.txt:1: pattern 'x*' matches the empty string");
}

}  // TEST_SUITE

}  // namespace gpuf
