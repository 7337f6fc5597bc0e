// Evidence is never destroyed: every command that writes a file creates it
// new beside its target and publishes it without replacing anything it was
// not asked to (common/output_file.h); --db opens only this tool's own
// databases; interrupted runs leave no work directory behind. Each case
// builds the hostile situation itself; docs/robustness.md lists them.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <thread>

#include "common/sha256.h"
#include "tests/fake_node.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

namespace fs = std::filesystem;

const std::string kSeed = test::SourcePath("samples/seed-incident.tar.zst");
const std::string kHealthy = test::SourcePath("samples/healthy.tar.zst");

mode_t TypeOf(const std::string& path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) return 0;
  return st.st_mode & S_IFMT;
}

std::string Sha(const std::string& path) {
  auto sha = Sha256OfFile(path);
  return sha.ok() ? *sha : "unreadable";
}

// The hostile outputs: a character device (a private /dev/null), a FIFO, a directory.
struct NonRegular {
  std::string device, fifo, directory;
  explicit NonRegular(const test::TempDir& dir)
      : device(dir / "null"), fifo(dir / "fifo"), directory(dir / "directory") {
    REQUIRE(mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    fs::create_directory(directory);
  }
  void CheckUntouched() const {
    CHECK(TypeOf(device) == S_IFCHR);
    CHECK(TypeOf(fifo) == S_IFIFO);
    CHECK(TypeOf(directory) == S_IFDIR);
  }
};

std::vector<std::string> Leftovers(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0) found.push_back(name);
  }
  return found;
}

test::ProcessResult Collect(test::FakeHost& host, const std::string& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"collect", "--root", host.root(), "-o", out, "--timeout", "5"};
  args.insert(args.end(), extra.begin(), extra.end());
  return test::RunGpuforensics(args, {host.PathEnv(), "KUBECONFIG="});
}

pid_t Spawn(const std::vector<std::string>& args, const std::string& path_env = "") {
  pid_t pid = fork();
  if (pid == 0) {
    if (!path_env.empty()) setenv("PATH", path_env.c_str(), 1);
    setenv("KUBECONFIG", "", 1);
    std::string binary = test::GpuforensicsBinary();
    std::vector<char*> argv = {binary.data()};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

bool WaitFor(const std::function<bool()>& ready, int timeout_ms) {
  for (int waited = 0; waited < timeout_ms; waited += 10) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return ready();
}

bool Alive(pid_t pid) {
  if (kill(pid, 0) != 0) return false;
  // A zombie is dead: its parent (the test) is not waiting for it here.
  std::string stat = test::ReadFile("/proc/" + std::to_string(pid) + "/stat");
  size_t close = stat.rfind(')');
  return close == std::string::npos || stat.substr(close + 2, 1) != "Z";
}

}  // namespace

TEST_SUITE("output_safety") {

TEST_CASE("output: collect -o never replaces a device, a FIFO, a directory or an earlier bundle") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  test::TempDir dir;
  NonRegular hostile(dir);
  for (const std::string& target : {hostile.device, hostile.fifo, hostile.directory}) {
    for (bool force : {false, true}) {
      auto r = Collect(host, target, force ? std::vector<std::string>{"--force"} : std::vector<std::string>{});
      CHECK(r.exit_code == 73);
      const char* what = target == hostile.device ? "a character device" : target == hostile.fifo ? "a FIFO"
                                                                                                 : "a directory";
      CHECK(r.err == "gpuforensics collect: output '" + target + "' is " + what +
                         ": only a regular file is ever replaced\n");
    }
  }
  hostile.CheckUntouched();
  CHECK(host.LoggedArgv().empty());  // refused before any probe ran

  const std::string earlier = dir / "earlier.tar.zst";
  test::WriteFile(earlier, "an earlier incident's bundle\n");
  auto refused = Collect(host, earlier);
  CHECK(refused.exit_code == 73);
  CHECK(refused.err == "gpuforensics collect: output '" + earlier +
                           "' exists: name a new file, or pass --force to replace it\n");
  CHECK(test::ReadFile(earlier) == "an earlier incident's bundle\n");
  auto forced = Collect(host, earlier, {"--force"});
  CHECK_MESSAGE(forced.exit_code == 0, forced.err);
  CHECK(test::RunGpuforensics({"verify", earlier}).exit_code == 0);
  CHECK(Leftovers(dir.path(), ".").empty());
}

TEST_CASE("output: analyze --db and rules run --db open only an empty path or this tool's database") {
  test::TempDir dir;
  const std::string bundle = dir / "e.tar.zst";
  fs::copy_file(kSeed, bundle);
  const std::string bundle_sha = Sha(bundle);

  SUBCASE("the bundle itself") {
    for (std::vector<std::string> args : {std::vector<std::string>{"analyze", bundle, "--db", bundle},
                                          std::vector<std::string>{"rules", "run", bundle, "--db", bundle}}) {
      auto r = test::RunGpuforensics(args);
      CHECK(r.exit_code == 73);
      CHECK(r.err == "gpuforensics " + std::string(args[0] == "rules" ? "rules run" : "analyze") + ": --db '" +
                         bundle + "' is not a gpuforensics database: it is never replaced; "
                         "name a new file for the analysis database\n");
      CHECK(Sha(bundle) == bundle_sha);
    }
  }
  SUBCASE("a foreign SQLite database, a fleet database, a directory, a device") {
    const std::string foreign = dir / "foreign.db";
    REQUIRE(test::RunProcess({"/usr/bin/sqlite3", foreign, "CREATE TABLE precious (x); INSERT INTO precious VALUES (42);"})
                .exit_code == 0);
    const std::string foreign_sha = Sha(foreign);
    auto r = test::RunGpuforensics({"analyze", bundle, "--db", foreign});
    CHECK(r.exit_code == 73);
    CHECK(r.err == "gpuforensics analyze: --db '" + foreign + "' is not a gpuforensics database: it is never "
                   "replaced; name a new file for the analysis database\n");
    CHECK(Sha(foreign) == foreign_sha);

    const std::string fleet = dir / "fleet.sqlite";
    REQUIRE(test::RunGpuforensics({"analyze", "--db", fleet, bundle, kHealthy}).exit_code == 1);
    const std::string fleet_sha = Sha(fleet);
    r = test::RunGpuforensics({"analyze", bundle, "--db", fleet});
    CHECK(r.exit_code == 73);
    CHECK(r.err == "gpuforensics analyze: --db '" + fleet + "' is a gpuforensics fleet database, not an analysis "
                   "database: name a new file\n");
    CHECK(Sha(fleet) == fleet_sha);

    NonRegular hostile(dir);
    for (const std::string& target : {hostile.device, hostile.fifo, hostile.directory}) {
      r = test::RunGpuforensics({"analyze", bundle, "--db", target});
      CHECK(r.exit_code == 73);
    }
    hostile.CheckUntouched();
  }
  SUBCASE("an analysis database it made is replaced by the next analysis; a fleet one by the next fleet") {
    const std::string db = dir / "a.db";
    test::WriteFile(db, "");  // an empty file (mktemp's) is fine
    CHECK(test::RunGpuforensics({"analyze", bundle, "--db", db}).exit_code == 1);
    CHECK(test::RunGpuforensics({"analyze", kHealthy, "--db", db}).exit_code == 0);
    auto rows = test::RunGpuforensics({"sql", db, "SELECT count(*) FROM bundles"});
    CHECK(rows.out == "count(*)\n1\n");
    auto r = test::RunGpuforensics({"analyze", "--db", db, bundle, kHealthy});
    CHECK(r.exit_code == 73);
    CHECK(r.err == "gpuforensics analyze: --db '" + db + "' is a gpuforensics analysis database, not a fleet "
                   "database: name a new file\n");
    const std::string fleet = dir / "f.sqlite";
    CHECK(test::RunGpuforensics({"analyze", "--db", fleet, bundle, kHealthy}).exit_code == 1);
    CHECK(test::RunGpuforensics({"analyze", "--db", fleet, kHealthy, bundle}).exit_code == 1);
  }
  CHECK(Sha(bundle) == bundle_sha);
}

TEST_CASE("output: import and redact never replace their input or an existing file") {
  test::TempDir dir;
  const std::string report = dir / "nvidia-bug-report.log";
  test::WriteFile(report, test::ReadFile(test::SourcePath("tests/fixtures/formats/nvidia-bug-report.log")));
  const std::string report_sha = Sha(report);
  auto r = test::RunGpuforensics({"import", report, "-o", report});
  CHECK(r.exit_code == 73);
  CHECK(r.err == "gpuforensics import: output '" + report +
                     "' exists: name a new file, or pass --force to replace it\n");
  r = test::RunGpuforensics({"import", report, "-o", report, "--force"});
  CHECK(r.exit_code == 64);
  CHECK(r.err == "gpuforensics import: the output is the input '" + report + "': never replaced\n");
  CHECK(Sha(report) == report_sha);

  const std::string bundle = dir / "b.tar.zst", out = dir / "out.tar.zst";
  fs::copy_file(kSeed, bundle);
  test::WriteFile(out, "kept\n");
  r = test::RunGpuforensics({"redact", bundle, out});
  CHECK(r.exit_code == 73);
  CHECK(r.err == "gpuforensics redact: output '" + out + "' exists: name a new file, or pass --force to replace it\n");
  CHECK(test::ReadFile(out) == "kept\n");
  CHECK(!fs::exists(dir / "out.map.json"));
}

TEST_CASE("output: a symlink planted at a predictable temporary name is never followed") {
  test::TempDir dir;
  const std::string bundle = dir / "b.tar.zst";
  fs::copy_file(kSeed, bundle);
  const std::string victim = dir / "victim.txt";
  test::WriteFile(victim, "precious\n", 0644);
  // exec keeps the shell's pid: the names the old code derived from it are known.
  auto r = test::RunProcess({"/bin/sh", "-c",
                             "ln -s \"$1\" \"$2.tmp-$$\"; ln -s \"$1\" \"$3.tmp-$$\"; exec \"$0\" redact \"$4\" \"$3\" "
                             "--map \"$2\"",
                             test::GpuforensicsBinary(), victim, dir / "case.map.json", dir / "out.tar.zst", bundle});
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK(test::ReadFile(victim) == "precious\n");
  CHECK(TypeOf(dir / "case.map.json") == S_IFREG);
  struct stat st {};
  REQUIRE(stat((dir / "case.map.json").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(TypeOf(dir / "out.tar.zst") == S_IFREG);
}

TEST_CASE("output: bundles, redacted bundles, maps, imports and databases are private to their owner") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  test::TempDir dir;
  const std::string evidence = dir / "evidence";
  fs::create_directory(evidence);
  test::WriteFile(evidence + "/dmesg.txt",
                  "[  12.000000] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.161.07\n");
  // Under the usual umask, which leaves new files readable by everyone.
  const std::string script =
      "umask 022; b=\"$0\"; d=\"$1\"; "
      "\"$b\" collect --root \"$2\" -o \"$d/node.tar.zst\" --timeout 2 >/dev/null 2>&1; "
      "\"$b\" redact \"$d/node.tar.zst\" \"$d/redacted.tar.zst\" --map \"$d/case.map.json\" >/dev/null 2>&1; "
      "\"$b\" import \"$3\" -o \"$d/imported.tar.zst\" >/dev/null 2>&1; "
      "\"$b\" analyze \"$d/node.tar.zst\" --db \"$d/analysis.db\" >/dev/null 2>&1; true";
  auto r = test::RunProcess({"/bin/sh", "-c", script, test::GpuforensicsBinary(), dir.path(), host.root(), evidence},
                            {host.PathEnv(), "KUBECONFIG="});
  REQUIRE(r.exit_code == 0);
  for (const char* name : {"node.tar.zst", "redacted.tar.zst", "case.map.json", "imported.tar.zst", "analysis.db"}) {
    struct stat st {};
    REQUIRE_MESSAGE(stat((dir / name).c_str(), &st) == 0, name);
    CHECK_MESSAGE((st.st_mode & 0777) == 0600, name);
  }
}

TEST_CASE("signals: a second SIGINT ends the probes and removes the staging directory") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  const std::string pidfile = host.root() + "/../probe.pid";
  host.AddStub("nvidia-smi", "trap '' TERM INT\necho $$ > " + pidfile + "\nwhile :; do sleep 1; done");
  test::TempDir out;
  pid_t pid = Spawn({"collect", "--root", host.root(), "-o", out / "node.tar.zst", "--timeout", "60"},
                    host.PathEnv().substr(5));
  REQUIRE(WaitFor([&] { return fs::exists(pidfile) && !test::ReadFile(pidfile).empty(); }, 20000));
  pid_t probe = std::stoi(test::ReadFile(pidfile));
  // Signals that arrive while one is still pending (held through a critical
  // section, on a loaded machine) count once: interrupt until it ends, well
  // before the probe's 60 s timeout would have ended it.
  int status = 0;
  pid_t ended = 0;
  for (int sent = 0; sent < 100 && ended == 0; ++sent) {
    kill(pid, SIGINT);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ended = waitpid(pid, &status, WNOHANG);
  }
  if (ended == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  REQUIRE(ended == pid);
  CHECK(WIFSIGNALED(status));
  CHECK(WaitFor([&] { return !Alive(probe); }, 3000));
  CHECK(Leftovers(out.path(), ".").empty());
  CHECK(!fs::exists(out / "node.tar.zst"));
}

TEST_CASE("signals: SIGINT during redact removes its work directory") {
  test::TempDir dir;
  // A member big enough that redact is still at work when the signal comes.
  test::MakeRepeatedBundle(dir / "big.tar.zst", 48 << 20, "line host gpu-node-17 10.1.2.3\\n");
  test::TempDir out;
  pid_t pid = Spawn({"redact", dir / "big.tar.zst", out / "r.tar.zst"});
  REQUIRE(WaitFor([&] { return !Leftovers(out.path(), ".gpuforensics").empty(); }, 20000));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFSIGNALED(status));
  CHECK(Leftovers(out.path(), ".").empty());
}

}  // TEST_SUITE

}  // namespace gpuf
