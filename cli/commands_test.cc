#include "cli/commands.h"

#include <doctest/doctest.h>

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
}

}  // TEST_SUITE

}  // namespace gpuf
