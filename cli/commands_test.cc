#include "cli/commands.h"

#include <doctest/doctest.h>

#include <filesystem>

#include "tests/test_support.h"

namespace gpuf {

TEST_SUITE("commands") {

TEST_CASE("SuggestCommand: typos and prefixes") {
  CHECK(SuggestCommand("analyse") == "analyze");
  CHECK(SuggestCommand("colect") == "collect");
  CHECK(SuggestCommand("ver") == "verify");
  CHECK(SuggestCommand("frobnicate") == "");
}

TEST_CASE("gpuforensics: help, version and unknown commands") {
  auto help = test::RunGpuforensics({"--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("  analyze    load a bundle into SQLite") != std::string::npos);
  auto version = test::RunGpuforensics({"--version"});
  CHECK(version.exit_code == 0);
  CHECK(version.out.rfind("gpuforensics ", 0) == 0);
  auto version_command = test::RunGpuforensics({"version"});
  CHECK(version_command.exit_code == 0);
  CHECK(version_command.out == version.out);
  auto typo = test::RunGpuforensics({"analyse", "x"});
  CHECK(typo.exit_code == 64);
  CHECK(typo.err == "gpuforensics: unknown command 'analyse', did you mean 'analyze'?\n");
  auto sub_help = test::RunGpuforensics({"collect", "--help"});
  CHECK(sub_help.exit_code == 0);
  CHECK(sub_help.out.find("--root") != std::string::npos);
  auto bad_option = test::RunGpuforensics({"verify", "--frob"});
  CHECK(bad_option.exit_code == 64);
  CHECK(bad_option.err ==
        "gpuforensics verify: unrecognised option '--frob': see 'gpuforensics verify --help'\n");
  auto kubectl_habit = test::RunGpuforensics({"analyze", "-o", "json", "b.tar.zst"});
  CHECK(kubectl_habit.exit_code == 64);
  CHECK(
      kubectl_habit.err ==
      "gpuforensics analyze: unrecognised option '-o', did you mean '--format'?: see 'gpuforensics analyze --help'\n");
}

TEST_CASE("gpuforensics collect: bad options and unwritable output are one line and a distinct status") {
  test::TempDir dir;
  auto root = test::RunGpuforensics({"collect", "--root", dir / "missing", "-o", dir / "b.tar.zst"});
  CHECK(root.exit_code == 2);
  CHECK(root.err == "gpuforensics collect: opening root '" + dir / "missing" + "': No such file or directory\n");
  auto output = test::RunGpuforensics({"collect", "--root", dir.path(), "-o", dir / "no/such/dir/b.tar.zst"});
  CHECK(output.exit_code == 74);
  CHECK(output.err == "gpuforensics collect: creating a work directory in '" + dir / "no/such/dir" +
                          "': No such file or directory\n");
  auto pattern = test::RunGpuforensics({"collect", "--plugin-pattern", "(", "-o", dir / "b.tar.zst"});
  CHECK(pattern.exit_code == 64);
  CHECK(pattern.err == "gpuforensics collect: --plugin-pattern is not a valid RE2 pattern: missing ): (\n");
  auto timeout = test::RunGpuforensics({"collect", "--timeout", "0"});
  CHECK(timeout.exit_code == 64);
  CHECK(std::filesystem::is_empty(dir.path()));
}

}  // TEST_SUITE

}  // namespace gpuf
