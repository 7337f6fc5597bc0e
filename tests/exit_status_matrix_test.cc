// Every status each command documents (common/exit_codes.cc), driven by an
// input that should give it, and no run giving a status its command does
// not document. 70 (a bug) has no input; watch's statuses are driven by
// tests/watch_test.sh, which builds the fake nodes watch needs.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <set>

#include "common/exit_codes.h"
#include "tests/fake_node.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

namespace fs = std::filesystem;

struct Case {
  std::string command;    // the command whose statuses the case drives
  int expected;           // the status it must give
  std::string arguments;  // a shell command line; $G is the binary, $D the scratch directory, $R the fake root
};

// The inputs the cases name, made once in `dir`.
void MakeInputs(const test::TempDir& dir) {
  const std::string healthy = test::SourcePath("samples/healthy.tar.zst");
  fs::copy_file(healthy, dir / "healthy.tar.zst");
  fs::copy_file(test::SourcePath("samples/seed-incident.tar.zst"), dir / "seed.tar.zst");
  test::WriteFile(dir / "not-a-bundle.tar.zst", "these bytes are no bundle\n");
  test::WriteFile(dir / "exists", "an earlier file\n");
  auto members = test::ReadBundleMembers(healthy);
  for (auto& [name, data] : members) {
    if (name.find("journal.kernel") != std::string::npos) data += "a line added after the capture\n";
  }
  test::WriteTarZst(dir / "damaged.tar.zst", members);
  fs::create_directory(dir / "evidence");
  test::WriteFile(dir / "evidence/dmesg.txt",
                  "[   12.000000] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.161.07\n");
  fs::create_directory(dir / "empty-rules");
}

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {"collect", 0, "$G collect --root $R -o $D/c0.tar.zst --timeout 2"},
      {"collect", 2, "$G collect --root $D/no-such-root -o $D/c2.tar.zst"},
      {"collect", 3, "$G collect --root $R -o $D/c3.tar.zst --timeout 2 --deadline 0.001"},
      {"collect", 64, "$G collect --no-such-option"},
      {"collect", 73, "$G collect --root $R -o $D/exists"},
      {"collect", 74, "$G collect --root $R -o /proc/gpuforensics.tar.zst"},

      {"analyze", 0, "$G analyze $D/healthy.tar.zst"},
      {"analyze", 1, "$G analyze $D/seed.tar.zst"},
      {"analyze", 2, "$G analyze $D/not-a-bundle.tar.zst"},
      {"analyze", 3, "$G analyze $D/damaged.tar.zst"},
      {"analyze", 64, "$G analyze"},
      {"analyze", 73, "$G analyze $D/healthy.tar.zst --db $D/exists"},
      {"analyze", 74, "$G analyze $D/healthy.tar.zst >/dev/full"},

      {"redact", 0, "$G redact $D/healthy.tar.zst $D/r0.tar.zst --map $D/r0.map.json"},
      {"redact", 2, "$G redact $D/not-a-bundle.tar.zst $D/r2.tar.zst --map $D/r2.map.json"},
      {"redact", 64, "$G redact $D/healthy.tar.zst"},
      {"redact", 73, "$G redact $D/healthy.tar.zst $D/exists --map $D/r73.map.json"},
      {"redact", 74, "$G redact $D/healthy.tar.zst /proc/gpuforensics.tar.zst --map $D/r74.map.json"},

      {"verify", 0, "$G verify $D/healthy.tar.zst"},
      {"verify", 1, "$G verify $D/damaged.tar.zst"},
      {"verify", 2, "$G verify $D/not-a-bundle.tar.zst"},
      {"verify", 64, "$G verify"},
      {"verify", 74, "$G verify $D/healthy.tar.zst >/dev/full"},

      {"timeline", 0, "$G timeline $D/healthy.tar.zst"},
      {"timeline", 2, "$G timeline $D/not-a-bundle.tar.zst"},
      {"timeline", 3, "$G timeline $D/damaged.tar.zst"},
      {"timeline", 64, "$G timeline $D/healthy.tar.zst --format yaml"},
      {"timeline", 74, "$G timeline $D/healthy.tar.zst >/dev/full"},

      {"diff", 0, "$G diff $D/healthy.tar.zst $D/healthy.tar.zst"},
      {"diff", 2, "$G diff $D/healthy.tar.zst $D/not-a-bundle.tar.zst"},
      {"diff", 3, "$G diff $D/healthy.tar.zst $D/damaged.tar.zst"},
      {"diff", 64, "$G diff $D/healthy.tar.zst"},
      {"diff", 74, "$G diff $D/healthy.tar.zst $D/seed.tar.zst >/dev/full"},

      {"sql", 0, "$G sql $D/healthy.tar.zst 'SELECT 1'"},
      {"sql", 2, "$G sql $D/not-a-bundle.tar.zst 'SELECT 1'"},
      {"sql", 3,
       "$G sql $D/healthy.tar.zst 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
       "SELECT count(*) FROM n' --timeout 1"},
      {"sql", 64, "$G sql $D/healthy.tar.zst 'DELETE FROM bundles'"},
      {"sql", 74, "$G sql $D/healthy.tar.zst 'SELECT 1' >/dev/full"},

      {"fleet", 0, "$G analyze --db $D/f0.sqlite $D/healthy.tar.zst $D/seed.tar.zst >/dev/null; $G fleet $D/f0.sqlite"},
      {"fleet", 2, "$G fleet $D/not-a-bundle.tar.zst"},
      {"fleet", 2, "$G fleet --nodes dp-started-before-driver-ready $D/seed.tar.zst $D/not-a-bundle.tar.zst"},
      {"fleet", 3,
       "$G analyze --db $D/f3.sqlite $D/healthy.tar.zst $D/damaged.tar.zst >/dev/null; $G fleet $D/f3.sqlite"},
      {"fleet", 64, "$G fleet"},
      {"fleet", 74,
       "$G analyze --db $D/f74.sqlite $D/healthy.tar.zst $D/seed.tar.zst >/dev/null; "
       "$G fleet $D/f74.sqlite >/dev/full"},

      {"import", 0, "$G import $D/evidence -o $D/i0.tar.zst"},
      {"import", 2, "$G import $D/not-a-bundle.tar.zst -o $D/i2.tar.zst"},
      {"import", 64, "$G import $D/evidence"},
      {"import", 73, "$G import $D/evidence -o $D/exists"},
      {"import", 74, "$G import $D/evidence -o /proc/gpuforensics.tar.zst"},

      {"rules", 0, "$G rules list"},
      {"rules", 1, "$G rules lint $D/empty-rules"},
      {"rules", 2, "$G rules run $D/not-a-bundle.tar.zst"},
      {"rules", 3, "$G rules run $D/damaged.tar.zst"},
      {"rules", 64, "$G rules no-such-subcommand"},
      {"rules", 73, "$G rules run $D/healthy.tar.zst --db $D/exists"},
      {"rules", 74, "$G rules list >/dev/full"},
  };
  return cases;
}

std::set<int> Documented(const std::string& command) {
  std::set<int> codes;
  for (const auto& row : ExitStatuses()) {
    if (AppliesTo(row, command)) codes.insert(row.code);
  }
  return codes;
}

std::string Expand(std::string line, const std::string& dir, const std::string& root) {
  for (const auto& [from, to] :
       std::map<std::string, std::string>{{"$G", test::GpuforensicsBinary()}, {"$D", dir}, {"$R", root}}) {
    for (size_t at = line.find(from); at != std::string::npos; at = line.find(from, at + to.size())) {
      line.replace(at, from.size(), to);
    }
  }
  return line;
}

}  // namespace

TEST_SUITE("exit_status_matrix") {
  TEST_CASE("exit statuses: every documented status of every command is driven, and none other is given") {
    test::FakeHost host;
    test::BuildFakeNode(host);
    test::TempDir dir;
    MakeInputs(dir);
    std::map<std::string, std::set<int>> driven;
    for (const Case& c : Cases()) {
      CAPTURE(c.arguments);
      // The case's own redirection (>/dev/full) is applied inside, so it wins.
      auto r = test::RunProcess({"/bin/sh", "-c", "(" + Expand(c.arguments, dir.path(), host.root()) + ") >/dev/null"},
                                {host.PathEnv(), "KUBECONFIG="});
      CHECK_MESSAGE(r.exit_code == c.expected, r.err);
      CHECK_MESSAGE(Documented(c.command).count(r.exit_code) == 1,
                    (c.command + " does not document " + std::to_string(r.exit_code)));
      driven[c.command].insert(c.expected);
    }
    for (const auto& [command, codes] : driven) {
      for (int code : Documented(command)) {
        if (code == kExitInternal) continue;
        CHECK_MESSAGE(codes.count(code) == 1,
                      (command + " documents " + std::to_string(code) + " but no case drives it"));
      }
    }
  }

}  // TEST_SUITE

}  // namespace gpuf
