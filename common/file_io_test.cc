#include "common/file_io.h"

#include <doctest/doctest.h>

#include <filesystem>

#include "tests/test_support.h"

namespace gpuf {

TEST_SUITE("file_io") {

TEST_CASE("ListFolder: the entries with the extension, sorted, whole paths") {
  test::TempDir dir;
  test::WriteFile(dir / "b.yaml", "b");
  test::WriteFile(dir / "a.yaml", "a");
  test::WriteFile(dir / "README.md", "r");
  test::WriteFile(dir / "c.yaml.orig", "c");
  auto files = ListFolder(dir.path(), ".yaml");
  REQUIRE(files.ok());
  CHECK(*files == std::vector<std::string>{dir / "a.yaml", dir / "b.yaml"});
}

TEST_CASE("ListFolder: a folder that is not there is NotFound with the system's reason") {
  test::TempDir dir;
  auto files = ListFolder(dir / "missing", ".yaml");
  REQUIRE_FALSE(files.ok());
  CHECK(files.status().code() == Status::Code::kNotFound);
  CHECK(files.status().message() == "No such file or directory");
}

}  // TEST_SUITE

}  // namespace gpuf
