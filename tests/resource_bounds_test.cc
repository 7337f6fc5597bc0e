// Bounded resources against hostile input: every reader has a memory bound,
// every query a time bound, and a FIFO given as input is refused at once.
// The runs that once grew without bound run under prlimit --as, so that a
// regression fails the test instead of the machine. docs/robustness.md
// lists the figures.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>

#include "tests/test_support.h"

namespace gpuf {

namespace {

namespace fs = std::filesystem;

const std::string kHealthy = test::SourcePath("samples/healthy.tar.zst");

// AddressSanitizer reserves terabytes of address space for its shadow and
// inflates resident memory: under it the runs are not capped and their
// memory is not judged (the release build's suite does that).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kMemoryJudged = false;
#else
constexpr bool kMemoryJudged = true;
#endif

// The sanitizers make every instruction dearer (3-4x here): a CPU bound
// that tells linear from quadratic is scaled with them.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kCpuScale = 4;
#else
constexpr double kCpuScale = 1;
#endif

std::string AddressSpaceCap(const std::string& bytes) { return kMemoryJudged ? bytes : "unlimited"; }

// The binary under `timeout` and an address-space cap, its stdout to
// /dev/null, its peak resident memory in KiB in max_rss_kib.
test::ProcessResult Bounded(const std::vector<std::string>& args, int seconds, const std::string& as_bytes) {
  test::TempDir dir;
  std::vector<std::string> argv = {"/usr/bin/time",    "-f", "%M", "-o", dir / "rss", "/usr/bin/timeout",
                                   std::to_string(seconds), "/usr/bin/prlimit", "--as=" + AddressSpaceCap(as_bytes),
                                   test::GpuforensicsBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> sh = {"/bin/sh", "-c", "exec \"$@\" >/dev/null", "sh"};
  sh.insert(sh.end(), argv.begin(), argv.end());
  auto r = test::RunProcess(sh);
  std::string rss = test::ReadFile(dir / "rss");
  size_t last_line = rss.find_last_of('\n', rss.size() - 2);
  r.max_rss_kib = std::atol(rss.c_str() + (last_line == std::string::npos ? 0 : last_line + 1));
  return r;
}

constexpr char kEndlessCte[] = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c";

// A site rule whose SQL never ends.
constexpr char kEndlessRule[] = R"(id: endless-sql
title: an endless query
severity: low
description: a recursive CTE without an end
symptom: exposure
role: cause
references:
  - {kind: kb, url: 'https://example.invalid/endless', title: endless}
select:
  forever:
    kind: context
    sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS n FROM c WHERE x < 0"
outcomes:
  - when: forever
    result: warn
    confidence: possible
    catalog: none (a test of the time budget)
    summary: never
  - result: pass
    summary: nothing
remediation:
  - None.
samples:
  - name: any node
    expect: pass
    logs:
      journal.kernel: ['[1] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.127.05']
  - name: never
    expect: warn possible
    logs:
      journal.kernel: ['[1] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.127.05']
  - name: near miss one
    near_miss: true
    expect: pass
  - name: near miss two
    near_miss: true
    expect: pass
)";

}  // namespace

TEST_SUITE("resource_bounds") {

TEST_CASE("bounds: sql streams its rows and stops at --timeout") {
  // Rows reach stdout as they come: head takes its megabyte and ends the run.
  auto streamed = test::RunProcess({"/bin/sh", "-c",
                                    "/usr/bin/timeout 60 /usr/bin/prlimit --as=" + AddressSpaceCap("2000000000") +
                                        " \"$0\" sql \"$1\" \"$2\" | head -c 1000000 | wc -c",
                                    test::GpuforensicsBinary(), kHealthy, kEndlessCte});
  CHECK(streamed.out == "1000000\n");
  auto bounded = Bounded({"sql", kHealthy, kEndlessCte, "--timeout", "2"}, 60, "2000000000");
  CHECK(bounded.exit_code == 3);  // incomplete, not a bad command line
  CHECK(bounded.err ==
        "gpuforensics sql: the statement ran past --timeout 2 s; the rows printed so far are complete, the result is "
        "not\n");
  if (kMemoryJudged) CHECK(bounded.max_rss_kib < 300 * 1024);
}

TEST_CASE("bounds: a rule's endless SQL is an error of that rule, not a hang") {
  test::TempDir rules;
  test::WriteFile(rules / "endless-sql.yaml", kEndlessRule);
  const std::string expected = "ran past the rule's time budget of 10 s";
  auto lint = test::RunProcess({"/usr/bin/timeout", "60", test::GpuforensicsBinary(), "rules", "lint", rules.path()});
  CHECK(lint.exit_code == 1);
  CHECK(lint.out.find(expected) != std::string::npos);
  auto samples = test::RunProcess({"/usr/bin/timeout", "60", test::GpuforensicsBinary(), "rules", "test", rules.path()});
  CHECK(samples.exit_code == 1);
  CHECK(samples.out.find(expected) != std::string::npos);
  auto analyze = test::RunProcess({"/usr/bin/timeout", "60", test::GpuforensicsBinary(), "analyze", kHealthy, "--rules",
                                   rules.path(), "--format", "json"});
  CHECK(analyze.exit_code == 3);  // a rule in error: not a clean bill of health
  CHECK(analyze.out.find(expected) != std::string::npos);
}

TEST_CASE("bounds: a rule file over 1 MiB is refused before it is read") {
  test::TempDir rules;
  test::WriteFile(rules / "huge.yaml", "id: huge\n# " + std::string(8 << 20, 'x') + "\n");
  auto lint = test::RunGpuforensics({"rules", "lint", rules.path()});
  CHECK(lint.exit_code == 1);
  CHECK(lint.out == rules / "huge.yaml" + ":1: '" + rules / "huge.yaml" + "' is larger than the 1 MiB limit\n"
                    "0 rules read, 1 problems\n");
}

TEST_CASE("bounds: redact holds at most a MiB of one line, however long the line") {
  test::TempDir dir;
  test::MakeRepeatedBundle(dir / "zeros.tar.zst", 200 << 20, "\\x00");  // one 200 MiB line; compressed, a few hundred KiB
  auto r = Bounded({"redact", dir / "zeros.tar.zst", dir / "out.tar.zst"}, 120, "3000000000");
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  if (kMemoryJudged) CHECK(r.max_rss_kib < 120 * 1024);
  // The first MiB, then the marker that says the rest was cut.
  const std::string marker = " [line cut at 1 MiB by gpuforensics redact]";
  auto kept = test::RunProcess({"/bin/sh", "-c", "zstd -q -dc \"$0\" | tar -xO artifacts/0001-journal.kernel.stdout | "
                                "wc -c; zstd -q -dc \"$0\" | tar -xO artifacts/0001-journal.kernel.stdout | tail -c 43",
                                dir / "out.tar.zst"});
  CHECK(kept.out == std::to_string((1 << 20) + marker.size()) + "\n" + marker);
}

TEST_CASE("bounds: redact of a manifest with 150,000 artifacts is not quadratic") {
  test::TempDir dir;
  auto made = test::RunProcess({"/usr/bin/python3", "-c", R"(
import io, json, subprocess, sys, tarfile
artifacts = [{"name": "plugin.inspect", "instance": str(i), "kind": "command", "context": "container",
              "started_at_unix_ns": 1, "ended_at_unix_ns": 2, "duration_ns": 1, "status": "skipped", "outputs": []}
             for i in range(150000)]
manifest = json.dumps({"format": "gpuforensics-bundle", "format_version": 1,
    "tool": {"name": "gpuforensics", "version": "0.1.0"}, "host": {"hostname": "n", "node_name": "n"},
    "collection": {"started_at_unix_ns": 1, "ended_at_unix_ns": 2, "complete": True}, "options": {"root": "/"},
    "artifacts": artifacts}).encode()
z = subprocess.Popen(["zstd", "-q", "-1", "-o", sys.argv[1]], stdin=subprocess.PIPE)
with tarfile.open(fileobj=z.stdin, mode="w|", format=tarfile.PAX_FORMAT) as t:
    info = tarfile.TarInfo("manifest.json"); info.size = len(manifest); t.addfile(info, io.BytesIO(manifest))
z.stdin.close()
sys.exit(z.wait())
)", dir / "many.tar.zst"});
  REQUIRE_MESSAGE(made.exit_code == 0, made.err);
  // CPU time, not wall time: the machine may be shared. A linear scan per
  // artifact took 30 s of CPU for 60,000 artifacts, and four times that for
  // twice as many: about 190 s for these, against 18 s now.
  auto r = test::RunProcess({"/usr/bin/time", "-f", "%U %S", "-o", dir / "cpu", "/usr/bin/timeout", "600",
                             test::GpuforensicsBinary(), "redact", dir / "many.tar.zst", dir / "out.tar.zst"});
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  double user = 0, system = 0;
  std::sscanf(test::ReadFile(dir / "cpu").c_str(), "%lf %lf", &user, &system);
  CHECK(user + system < 40 * kCpuScale);
}

TEST_CASE("bounds: a 250 MiB nvidia-bug-report that gzip makes small is imported in bounded memory") {
  test::TempDir dir;
  const std::string log = dir / "nvidia-bug-report.log.gz";
  auto made = test::RunProcess({"/usr/bin/python3", "-c", R"(
import gzip, sys
with gzip.open(sys.argv[1], "wb", 9) as f:
    f.write(b"____________________________________________\n\nnvidia-bug-report.sh Version: 35\n\n")
    f.write(b"Date: Wed Nov 18 21:30:00 CST 2026\nuname: Linux n 5.15.0 #1 SMP x86_64 GNU/Linux\n\n")
    f.write(b"____________________________________________\n\ndmesg:\n")
    line = b"[   12.345678] NVRM: GPU at PCI:0000:3b:00: GPU-0c0ffee0-0000-0000-0000-000000000079\n"
    f.write(line * ((250 << 20) // len(line)))
)", log});
  REQUIRE_MESSAGE(made.exit_code == 0, made.err);
  CHECK(fs::file_size(log) < 2u << 20);
  auto r = Bounded({"import", log, "-o", dir / "b.tar.zst"}, 300, "4000000000");
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  if (kMemoryJudged) CHECK(r.max_rss_kib < 1024 * 1024);
}

TEST_CASE("bounds: a 256 MiB pod log is stored record by record without being held whole") {
  // Over the 16 MiB whose lines artifact_lines keeps, the log streams out of
  // the bundle; held whole it took its size twice (the member, its records).
  test::TempDir dir;
  const std::string filler(4000, 'x');
  const std::string record = "2025-11-18T05:31:00.000000000Z stderr F I1118 05:31:00.000000       1 health.go:7] " +
                             filler + "\\n";
  const int64_t records = (256LL << 20) / static_cast<int64_t>(record.size() - 1);
  const std::string instance = "/var/log/pods/kube-system_nvidia-device-plugin-daemonset-61a5d_f7f7/"
                               "nvidia-device-plugin-ctr/0.log";
  test::MakeRepeatedBundle(dir / "big-log.tar.zst", records * static_cast<int64_t>(record.size() - 1), record, "",
                           "plugin.log " + instance + " file content");
  const std::string query = "SELECT count(*), min(line), max(line), sum(length(message)), count(DISTINCT time_ns) "
                            "FROM log_lines";
  auto rows = test::RunGpuforensics({"sql", dir / "big-log.tar.zst", query});
  CHECK(rows.err == "");
  CHECK(rows.exit_code == 0);
  CHECK(rows.out == "count(*)\tmin(line)\tmax(line)\tsum(length(message))\tcount(DISTINCT time_ns)\n" +
                        std::to_string(records) + "\t1\t" + std::to_string(records) + "\t" +
                        std::to_string(records * static_cast<int64_t>(filler.size())) + "\t1\n");
  auto bounded = Bounded({"sql", dir / "big-log.tar.zst", query}, 60, "4000000000");
  CHECK(bounded.exit_code == 0);
  MESSAGE("sql over a 256 MiB pod log: peak RSS " << bounded.max_rss_kib / 1024 << " MiB");
  if (kMemoryJudged) CHECK(bounded.max_rss_kib < 160 * 1024);
}

TEST_CASE("bounds: a FIFO given as input is refused at once, never waited on") {
  test::TempDir dir;
  const std::string fifo = dir / "input.tar.zst";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::vector<std::vector<std::string>> commands = {
      {"verify", fifo}, {"timeline", fifo}, {"redact", fifo, dir / "out.tar.zst"}, {"diff", fifo, kHealthy},
      {"fleet", fifo}, {"sql", fifo, "SELECT 1"}, {"analyze", fifo}, {"rules", "run", fifo}};
  for (const auto& args : commands) {
    std::vector<std::string> argv = {"/usr/bin/timeout", "10", test::GpuforensicsBinary()};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = test::RunProcess(argv);
    const std::string context = args[0] + ": " + r.err;
    CHECK_MESSAGE(r.exit_code == 2, context);
    CHECK_MESSAGE(r.err.find("'" + fifo + "' is a FIFO, not a regular file") != std::string::npos, context);
  }
}

TEST_CASE("bounds: a member the tar header shows over the limits is never read") {
  test::TempDir dir;
  // A listed member of 600 MiB (past the 512 MiB member limit): skipped from its header, not buffered.
  test::MakeRepeatedBundle(dir / "big.tar.zst", 600 << 20, "\\x00", "14");
  auto r = Bounded({"verify", dir / "big.tar.zst"}, 120, "3000000000");
  CHECK(r.exit_code == 1);
  if (kMemoryJudged) CHECK(r.max_rss_kib < 100 * 1024);
}

}  // TEST_SUITE

}  // namespace gpuf
