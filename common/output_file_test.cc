#include "common/output_file.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "common/file_io.h"
#include "common/work_dir.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_SUITE("output_file") {
  TEST_CASE("MoveNoReplace moves a finished file to a free name and never over one that appeared") {
    test::TempDir dir;
    REQUIRE(WriteWholeFile(dir / "b.partial", "bundle").ok());
    REQUIRE(MoveNoReplace(dir / "b.partial", dir / "b.tar.zst").ok());
    CHECK(Names(dir.path()) == std::vector<std::string>{"b.tar.zst"});
    REQUIRE(WriteWholeFile(dir / "c.partial", "second").ok());
    Status moved = MoveNoReplace(dir / "c.partial", dir / "b.tar.zst");
    CHECK(moved.code() == Status::Code::kExists);
    CHECK(*ReadWholeFile(dir / "b.tar.zst") == "bundle");
    CHECK(*ReadWholeFile(dir / "c.partial") == "second");
  }

TEST_CASE("OutputFile: a new file appears whole under its name, private until published") {
  test::TempDir dir;
  auto out = OutputFile::Create(dir / "b.tar.zst", Replace::kNever);
  REQUIRE(out.ok());
  struct stat st {};
  REQUIRE(fstat(out->fd(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(out->temp_path().rfind(dir / ".b.tar.zst.", 0) == 0);
  CHECK(!fs::exists(dir / "b.tar.zst"));
  REQUIRE(out->Write("bytes").ok());
  REQUIRE(out->Publish(0644).ok());
  CHECK(test::ReadFile(dir / "b.tar.zst") == "bytes");
  REQUIRE(stat((dir / "b.tar.zst").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0644);
  CHECK(Names(dir.path()) == std::vector<std::string>{"b.tar.zst"});
}

TEST_CASE("OutputFile: what is at the path is replaced only when asked, and only a regular file") {
  test::TempDir dir;
  test::WriteFile(dir / "old", "old");
  auto refused = OutputFile::Create(dir / "old", Replace::kNever);
  CHECK(refused.status().code() == Status::Code::kExists);
  CHECK(refused.status().message() == "output '" + dir / "old" + "' exists: name a new file, or pass --force to replace it");
  auto forced = OutputFile::Create(dir / "old", Replace::kRegularFile);
  REQUIRE(forced.ok());
  REQUIRE(forced->Write("new").ok());
  REQUIRE(forced->Publish(0644).ok());
  CHECK(test::ReadFile(dir / "old") == "new");

  REQUIRE(mknod((dir / "null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
  REQUIRE(mkfifo((dir / "fifo").c_str(), 0600) == 0);
  fs::create_directory(dir / "d");
  fs::create_symlink(dir / "old", dir / "link");
  for (const auto& [name, type] : std::vector<std::pair<std::string, std::string>>{
           {"null", "a character device"}, {"fifo", "a FIFO"}, {"d", "a directory"}, {"link", "a symbolic link"}}) {
    auto r = OutputFile::Create(dir / name, Replace::kRegularFile, "--db");
    CHECK(r.status().message() == "--db '" + dir / name + "' is " + type + ": only a regular file is ever replaced");
  }
  // Something that appears at the path while the file is written is not replaced either.
  auto racing = OutputFile::Create(dir / "late", Replace::kNever);
  REQUIRE(racing.ok());
  test::WriteFile(dir / "late", "first");
  CHECK(racing->Publish(0644).code() == Status::Code::kExists);
  CHECK(test::ReadFile(dir / "late") == "first");
  CHECK(Names(dir.path()) == std::vector<std::string>{"d", "fifo", "late", "link", "null", "old"});
}

TEST_CASE("OutputFile and WorkDir: dropped unpublished, nothing is left") {
  test::TempDir dir;
  {
    auto out = OutputFile::Create(dir / "b.tar.zst", Replace::kNever);
    REQUIRE(out.ok());
    REQUIRE(out->Write("half").ok());
    auto work = WorkDir::Beside(dir / "b.tar.zst", ".staging-");
    REQUIRE(work.ok());
    test::WriteFile(*work / "1.stdout", "unredacted");
    fs::create_directories(*work / "nested/deeper");
  }
  CHECK(Names(dir.path()).empty());
}

TEST_CASE("CheckNotInput: the same file under another spelling or a hard link is the input") {
  test::TempDir dir;
  test::WriteFile(dir / "in", "x");
  fs::create_hard_link(dir / "in", dir / "hard");
  CHECK(CheckNotInput(dir / "hard", dir / "in").message() == "the output is the input '" + dir / "in" + "': never replaced");
  CHECK(CheckNotInput(dir / "./in", dir / "in").code() == Status::Code::kInvalidArgument);
  CHECK(CheckNotInput(dir / "other", dir / "in").ok());
}

}  // TEST_SUITE

}  // namespace gpuf
