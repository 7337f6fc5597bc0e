// The floors of HACKING.md's tour, held: a folder's code includes only its
// own folder and the floors it stands on, so no layer points upward.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "tests/test_support.h"

namespace gpuf {

namespace {

// Each folder and the folders its code may include (its own included).
const std::map<std::string, std::set<std::string>>& Floors() {
  static const std::map<std::string, std::set<std::string>> kFloors = {
      {"common", {"common"}},
      {"formats", {"common", "formats"}},
      {"chain", {"common", "formats", "chain"}},
      {"collector", {"common", "formats", "chain", "collector"}},
      {"analyzer", {"common", "formats", "chain", "analyzer"}},
      {"importer", {"common", "formats", "chain", "collector", "analyzer", "importer"}},
      // The kubectl plugin is a program of its own, on the CLI's toolkit.
      {"kube", {"common", "formats", "chain", "collector", "cli", "kube"}},
  };
  return kFloors;
}

}  // namespace

TEST_CASE("floors: no folder includes one above it (HACKING.md, the tour)") {
  const std::filesystem::path root = test::SourcePath("");
  const std::regex include("^#include \"([a-z_]+)/[^\"]*\"");
  int files = 0;
  for (const auto& [folder, allowed] : Floors()) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / folder)) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_regular_file() || name.find("_test.cc") != std::string::npos) continue;
      if (!name.ends_with(".cc") && !name.ends_with(".h") && !name.ends_with(".cc.in")) continue;
      ++files;
      std::ifstream in(entry.path());
      std::string line;
      std::smatch m;
      while (std::getline(in, line)) {
        if (!std::regex_search(line, m, include)) continue;
        CHECK_MESSAGE(allowed.count(m[1].str()), std::filesystem::relative(entry.path(), root).string() << ": "
                                                                                                           << line);
      }
    }
  }
  CHECK(files > 300);  // the walk found the code
}

}  // namespace gpuf
