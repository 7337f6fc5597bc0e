// The collector on a sick node: full disks, unwritable output, signals,
// crashing and garbage-printing probes, unreadable /proc files, huge outputs
// and a wall clock that jumps. Each case states the behaviour it expects;
// docs/robustness.md lists them in one table.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/fake_node.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::FakeHost;
using namespace std::string_literals;

// A mount made for one test, undone before the directories around it go.
class ScopedMount {
 public:
  ScopedMount(const std::string& source, const std::string& target, const char* type, unsigned long flags,
              const char* options)
      : target_(target) {
    mounted_ = mount(source.c_str(), target.c_str(), type, flags, options) == 0;
    if (mounted_ && (flags & MS_BIND) && (flags & MS_RDONLY)) {
      mounted_ = mount(nullptr, target.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) == 0;
    }
  }
  ~ScopedMount() {
    if (mounted_) umount2(target_.c_str(), MNT_DETACH);
  }
  ScopedMount(const ScopedMount&) = delete;
  bool mounted() const { return mounted_; }

 private:
  std::string target_;
  bool mounted_ = false;
};

// A file system of `size` ("2m") beside the fake root, where collect writes
// both its staging directory and its bundle.
struct SmallDisk {
  SmallDisk(const FakeHost& host, const std::string& size)
      : dir(MadeDirectory(host.root() + "/../small")), mount("tmpfs", dir, "tmpfs", 0, ("size=" + size).c_str()) {}
  static std::string MadeDirectory(const std::string& path) {
    fs::create_directory(path);
    return path;
  }
  std::string dir;
  ScopedMount mount;
};

test::ProcessResult RunCollect(FakeHost& host, const std::string& out, std::vector<std::string> extra = {},
                               std::vector<std::string> env = {}) {
  std::vector<std::string> args = {"collect", "--root", host.root(), "-o", out};
  if (std::find(extra.begin(), extra.end(), "--timeout") == extra.end()) extra.insert(extra.end(), {"--timeout", "5"});
  args.insert(args.end(), extra.begin(), extra.end());
  env.insert(env.end(), {host.PathEnv(), "KUBECONFIG="});
  return test::RunGpuforensics(args, env);
}

json ManifestOf(const std::string& bundle) {
  auto members = test::ReadBundleMembers(bundle);
  REQUIRE(!members.empty());
  REQUIRE(members[0].first == "manifest.json");
  return json::parse(members[0].second);
}

const json* Artifact(const json& manifest, const std::string& name, const std::string& instance = "") {
  for (const auto& a : manifest["artifacts"]) {
    if (a["name"] == name && a["instance"] == instance) return &a;
  }
  return nullptr;
}

std::string MemberOf(const std::string& bundle, const json& artifact, const std::string& stream) {
  for (const auto& o : artifact["outputs"]) {
    if (o["stream"] != stream) continue;
    for (const auto& [name, data] : test::ReadBundleMembers(bundle)) {
      if (name == o["member"]) return data;
    }
  }
  return "";
}

// Leftovers of a failed run: staging directories and temporary bundles.
std::vector<std::string> EntriesOf(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

// Sends `signal_number` to a collect run 1.5 s in, while a probe hangs.
int CollectAndSignal(FakeHost& host, const std::string& out, int signal_number) {
  const std::string binary = test::GpuforensicsBinary();
  pid_t pid = fork();
  if (pid == 0) {
    std::string path = host.PathEnv().substr(5);
    setenv("PATH", path.c_str(), 1);
    setenv("KUBECONFIG", "", 1);
    execl(binary.c_str(), binary.c_str(), "collect", "--root", host.root().c_str(), "-o", out.c_str(), "--timeout",
          "30", static_cast<char*>(nullptr));
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  kill(pid, signal_number);
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

}  // namespace

TEST_SUITE("collect_faults") {

TEST_CASE("collect fault: a disk that fills while writing fails with 74 and leaves nothing behind") {
  FakeHost host;
  test::BuildFakeNode(host);
  // 1.2 MB that zstd cannot shrink: staged, it fits the 2 MB file system;
  // the bundle beside it does not.
  host.AddStub("nvidia-smi", "case \"$*\" in *-q*) head -c 1200000 /dev/urandom ;; esac");
  SmallDisk small(host, "2m");
  REQUIRE_MESSAGE(small.mount.mounted(), "mounting a tmpfs needs root");
  const std::string& dir = small.dir;
  auto r = RunCollect(host, dir + "/node.tar.zst");
  CHECK_MESSAGE(r.exit_code == 74, r.err);
  CHECK(r.err.find("No space left on device") != std::string::npos);
  CHECK(r.out == "");
  CHECK(EntriesOf(dir).empty());
}

TEST_CASE("collect fault: a disk that fills while staging leaves an incomplete bundle that names what it lacks") {
  FakeHost host;
  test::BuildFakeNode(host);
  // Each nvidia-smi output (8 MB, incompressible) fills the 3 MB file system
  // the staging directory shares with the output; once they are dropped the
  // rest of the bundle fits.
  host.AddStub("nvidia-smi", "head -c 8000000 /dev/urandom");
  SmallDisk small(host, "3m");
  REQUIRE_MESSAGE(small.mount.mounted(), "mounting a tmpfs needs root");
  const std::string& dir = small.dir;
  const std::string bundle = dir + "/node.tar.zst";
  auto r = RunCollect(host, bundle);
  REQUIRE_MESSAGE(r.exit_code == 3, r.err);
  CHECK(r.err.find("gpuforensics collect: bundle is INCOMPLETE (members_not_written)") != std::string::npos);
  CHECK(r.err.find("probe outputs could not be written; the bundle lacks them:") != std::string::npos);
  json manifest = ManifestOf(bundle);
  CHECK(manifest["collection"]["complete"] == false);
  CHECK(manifest["collection"]["incomplete_reason"] == "members_not_written");
  int dropped = 0;
  for (const auto& a : manifest["artifacts"]) {
    const std::string error = a["error"].is_string() ? a["error"].get<std::string>() : "";
    if (error.rfind("output dropped: staging it failed", 0) != 0) continue;
    ++dropped;
    CHECK(a["status"] == "error");
    CHECK(a["outputs"].empty());
    CHECK(error.find("No space left on device") != std::string::npos);
  }
  CHECK(dropped > 0);
  CHECK(test::RunGpuforensics({"verify", bundle}).exit_code == 0);
  // Only the bundle is left: no staging directory.
  CHECK(EntriesOf(dir) == std::vector<std::string>{"node.tar.zst"});
}

TEST_CASE("collect fault: an output directory that is not writable fails at once with 74") {
  FakeHost host;
  test::BuildFakeNode(host);
  const std::string dir = host.root() + "/../readonly";
  fs::create_directory(dir);
  // Root ignores mode bits; a read-only mount refuses even root.
  ScopedMount readonly("tmpfs", dir, "tmpfs", MS_RDONLY, "size=1m");
  REQUIRE_MESSAGE(readonly.mounted(), "mounting a tmpfs needs root");
  auto r = RunCollect(host, dir + "/node.tar.zst");
  CHECK(r.exit_code == 74);
  CHECK(r.err == "gpuforensics collect: creating a work directory in '" + dir + "': Read-only file system\n");
  CHECK(r.seconds < 2);
  // Nothing ran: the read-only check comes before any probe.
  CHECK(host.LoggedArgv().empty());
}

TEST_CASE("collect fault: SIGTERM or SIGHUP mid-run leaves a valid bundle, marked incomplete") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddStub("nvidia-smi", "trap '' TERM\nwhile :; do sleep 1; done");
  // SIGHUP: the ssh session the collection ran in dropped.
  for (int signal_number : {SIGTERM, SIGHUP}) {
    CAPTURE(signal_number);
    const std::string out = host.root() + "/../node-" + std::to_string(signal_number) + ".tar.zst";
    int status = CollectAndSignal(host, out, signal_number);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 3);  // written, but incomplete
    json m = ManifestOf(out);
    CHECK(m["collection"]["complete"] == false);
    CHECK(m["collection"]["incomplete_reason"] == "interrupted");
    const json* smi = Artifact(m, "host.nvidia_smi_list");
    REQUIRE(smi);
    CHECK((*smi)["status"] == "interrupted");
    CHECK(test::RunGpuforensics({"verify", out}).exit_code == 0);
  }
}

TEST_CASE("collect fault: collect -o - into a pipe that closed keeps the bundle and says where") {
  FakeHost host;
  test::BuildFakeNode(host);
  const std::string tmp = host.root() + "/../tmp";
  fs::create_directory(tmp);
  // The reader is gone before the bundle is written: kubectl exec or ssh dropped.
  auto r = test::RunProcess({"/bin/sh", "-c", "exec 1>&-; exec \"$0\" collect --root \"$1\" -o - --timeout 2 | true",
                             test::GpuforensicsBinary(), host.root()},
                            {host.PathEnv(), "KUBECONFIG=", "TMPDIR=" + tmp});
  const std::string marker = "; the bundle is kept at ";
  const size_t at = r.err.find(marker);
  REQUIRE_MESSAGE(at != std::string::npos, r.err);
  const std::string kept = r.err.substr(at + marker.size(), r.err.find('\n', at) - at - marker.size());
  CHECK(kept.rfind(tmp, 0) == 0);
  CHECK(test::RunGpuforensics({"verify", kept}).exit_code == 0);
}

TEST_CASE("collect fault: a probe that segfaults is recorded with its signal and collection goes on") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddStub("nvidia-smi", "echo 'GPU 0: partial'\nkill -SEGV $$");
  const std::string out = host.root() + "/../node.tar.zst";
  auto r = RunCollect(host, out);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  json m = ManifestOf(out);
  CHECK(m["collection"]["complete"] == true);
  const json* smi = Artifact(m, "host.nvidia_smi_list");
  REQUIRE(smi);
  CHECK((*smi)["status"] == "signaled");
  CHECK((*smi)["signal"] == SIGSEGV);
  CHECK((*smi)["exit_code"].is_null());
  CHECK(MemberOf(out, *smi, "stdout") == "GPU 0: partial\n");
  // The probes after it still ran.
  const json* xml = Artifact(m, "host.nvidia_smi_query_xml");
  REQUIRE(xml);
  CHECK((*xml)["status"] == "signaled");
  CHECK(Artifact(m, "plugin.nvidia_smi_list", test::kPluginId));
}

TEST_CASE("collect fault: invalid UTF-8 and NUL bytes are kept verbatim and the bundle still analyzes") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddStub("nvidia-smi",
               "printf 'GPU 0: \\377\\376\\000NUL\\000 (UUID: GPU-\\303\\050)\\n\\355\\240\\200\\n'\n"
               "printf '\\377err\\000\\n' >&2");
  const std::string out = host.root() + "/../node.tar.zst";
  auto r = RunCollect(host, out);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  json m = ManifestOf(out);
  const json* smi = Artifact(m, "host.nvidia_smi_list");
  REQUIRE(smi);
  CHECK((*smi)["status"] == "ok");
  const std::string expected_out = "GPU 0: \xff\xfe\0NUL\0 (UUID: GPU-\xc3\x28)\n\xed\xa0\x80\n"s;
  CHECK(MemberOf(out, *smi, "stdout") == expected_out);
  CHECK(MemberOf(out, *smi, "stderr") == "\xff" "err\0\n"s);
  auto text = test::RunGpuforensics({"analyze", out});
  CHECK(text.exit_code <= 1);
  CHECK(text.err == "");
  auto report = test::RunGpuforensics({"analyze", "--format", "json", out});
  CHECK(report.exit_code <= 1);
  CHECK(json::accept(report.out));
}

TEST_CASE("collect fault: a /proc file that fails on read is recorded as an error, not fatal") {
  FakeHost host;
  test::BuildFakeNode(host);
  const std::string version = host.root() + "/proc/driver/nvidia/version";
  SUBCASE("read(2) returns EIO") {
    // This process's /proc/PID/mem read at offset 0 (never mapped) fails with
    // EIO: a real kernel file whose read errors, bound where the driver's
    // version file is expected.
    ScopedMount eio("/proc/" + std::to_string(getpid()) + "/mem", version, nullptr, MS_BIND | MS_RDONLY, nullptr);
    REQUIRE_MESSAGE(eio.mounted(), "bind mounts need root");
    const std::string out = host.root() + "/../node.tar.zst";
    auto r = RunCollect(host, out);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    json m = ManifestOf(out);
    CHECK(m["collection"]["complete"] == true);
    const json* v = Artifact(m, "driver.version");
    REQUIRE(v);
    CHECK((*v)["status"] == "error");
    CHECK((*v)["error"] == "reading '/proc/driver/nvidia/version': Input/output error");
    CHECK((*v)["outputs"].empty());
    CHECK(test::RunGpuforensics({"analyze", out}).exit_code <= 1);
  }
  SUBCASE("a FIFO where a file is expected does not block") {
    fs::remove(version);
    REQUIRE(mkfifo(version.c_str(), 0644) == 0);
    const std::string out = host.root() + "/../node.tar.zst";
    auto r = RunCollect(host, out);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.seconds < 5);
    json m = ManifestOf(out);
    const json* v = Artifact(m, "driver.version");
    REQUIRE(v);
    CHECK((*v)["status"] == "skipped");
    CHECK((*v)["skip_reason"] == "not_regular_file");
  }
}

TEST_CASE("collect fault: run as a user, what only root may read is named on stderr and the bundle still comes") {
  if (geteuid() != 0 || access("/usr/bin/setpriv", X_OK) != 0) {
    MESSAGE("needs root and setpriv to run as another user; skipped");
    return;
  }
  FakeHost host;
  test::BuildFakeNode(host);
  // Root's alone, as on a node.
  const std::string checkpoint = "/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint";
  fs::permissions(host.root() + checkpoint, fs::perms::owner_read | fs::perms::owner_write);
  // The fake host is the user's to read; the output directory the user's to write.
  fs::permissions(fs::path(host.root()).parent_path(), fs::perms::owner_all | fs::perms::group_read |
                  fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  const std::string out_dir = host.root() + "/../out";
  fs::create_directory(out_dir);
  fs::permissions(out_dir, fs::perms::all);
  test::WriteFile(host.bin() + "/argv.log", "", 0666);  // where the stubs log their argv
  fs::permissions(host.bin() + "/argv.log", fs::perms::all & ~(fs::perms::owner_exec | fs::perms::group_exec |
                                                               fs::perms::others_exec));
  auto r =
      test::RunProcess({"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                        test::GpuforensicsBinary(), "collect", "--root", host.root(), "-o", out_dir + "/node.tar.zst"},
                       {host.PathEnv(), "KUBECONFIG="});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.err.find("gpuforensics collect: WARNING: not run as root; 1 probe was refused, its evidence is not in "
                   "the bundle:\n  kubelet.checkpoint: opening '" + checkpoint + "': Permission denied\n"
                   "gpuforensics collect: run it as root, or from a privileged pod (deploy/README.md)\n") !=
        std::string::npos);
  json m = ManifestOf(out_dir + "/node.tar.zst");
  const json* a = Artifact(m, "kubelet.checkpoint");
  REQUIRE(a);
  CHECK((*a)["skip_reason"] == "permission_denied");
  CHECK(m["collection"]["complete"] == true);
}

TEST_CASE("collect fault: 10,000 containers in crictl output are captured and loaded whole") {
  FakeHost host;
  test::BuildFakeNode(host);
  json ps = json::parse(test::ReadFile(host.bin() + "/crictl-ps.json"));
  json plugin = ps["containers"][0];
  json containers = json::array();
  for (int i = 0; i < 10000; ++i) {
    json c = plugin;
    char id[65];
    std::snprintf(id, sizeof id, "%064x", static_cast<unsigned>(i + 1));
    c["id"] = id;
    c["metadata"]["name"] = "app-" + std::to_string(i);
    c["labels"]["io.kubernetes.container.name"] = "app-" + std::to_string(i);
    c["labels"]["io.kubernetes.pod.name"] = "app-" + std::to_string(i);
    containers.push_back(c);
  }
  containers.push_back(plugin);  // the device plugin last of all
  ps["containers"] = containers;
  test::WriteFile(host.bin() + "/crictl-ps.json", ps.dump(2));
  const std::string out = host.root() + "/../node.tar.zst";
  auto r = RunCollect(host, out);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  json m = ManifestOf(out);
  const json* listed = Artifact(m, "runtime.crictl_ps");
  REQUIRE(listed);
  CHECK((*listed)["status"] == "ok");
  CHECK((*listed)["truncated"] == false);
  // Discovery still finds the plugin among them.
  CHECK(Artifact(m, "plugin.inspect", test::kPluginId));
  auto count = test::RunGpuforensics({"sql", out, "SELECT count(*) FROM containers"});
  CHECK(count.exit_code == 0);
  CHECK(count.out.find("10001") != std::string::npos);
}

// Under AddressSanitizer a third of it: the point there is memory errors on
// the way, and CI time is short.
#if defined(__SANITIZE_ADDRESS__)
constexpr int64_t kJournalBytes = 1000000000;
#else
constexpr int64_t kJournalBytes = 3000000000;
#endif

TEST_CASE("collect fault: a 3 GB journal keeps its newest 64 MiB in bounded memory") {
  FakeHost host;
  test::BuildFakeNode(host);
  // journalctl is real but for boot 0's read, whose journal is larger than
  // any test machine should hold: a stub streams it in export format, the
  // newest entry first, then the same old entry over and over.
  const std::string newest_export =
      "__REALTIME_TIMESTAMP=1763435999000000\n_SYSTEMD_UNIT=kubelet.service\nMESSAGE=newest line\n\n";
  const std::string old_export =  // yes adds the blank line that ends each entry
      "__REALTIME_TIMESTAMP=1763435897412345\n_SYSTEMD_UNIT=kubelet.service\nMESSAGE=old line\n";
  const std::string newest =
      R"({"__REALTIME_TIMESTAMP":"1763435999000000","_SYSTEMD_UNIT":"kubelet.service","MESSAGE":"newest line"})"
      "\n";
  const std::string old =
      R"({"__REALTIME_TIMESTAMP":"1763435897412345","_SYSTEMD_UNIT":"kubelet.service","MESSAGE":"old line"})"
      "\n";
  host.AddStub("journalctl",
               "case \"$*\" in\n"
               "  *'-r -b 0'*)\n"
               "    printf '%s' '" + newest_export + "'\n"
               "    yes '" + old_export + "' | head -c " + std::to_string(kJournalBytes) + " ;;\n"
               "  *) exec /usr/bin/journalctl \"$@\" ;;\n"
               "esac");
  fs::create_symlink("/usr/bin/yes", host.root() + "/../tools/yes");
  const std::string out = host.root() + "/../node.tar.zst";
  auto r = RunCollect(host, out, {"--timeout", "120", "--journal-timeout", "600", "--deadline", "900"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  json m = ManifestOf(out);
  const json* journal = Artifact(m, "journal.kubelet", "boot:0");
  REQUIRE(journal);
  CHECK((*journal)["status"] == "ok");
  CHECK((*journal)["truncated"] == true);
  const json& stdout_output = (*journal)["outputs"][0];
  CHECK(stdout_output["stream"] == "stdout");
  const int64_t kept = stdout_output["size_bytes"];
  CHECK(kept <= 64LL << 20);
  CHECK(kept > (64LL << 20) - 200);
  // head -c cuts the oldest entry, which is not stored.
  const int64_t whole_entries = kJournalBytes / static_cast<int64_t>(old_export.size() + 1);
  CHECK(kept + stdout_output["dropped_bytes"].get<int64_t>() ==
        static_cast<int64_t>(newest.size()) + whole_entries * static_cast<int64_t>(old.size()));
  std::string member = MemberOf(out, *journal, "stdout");
  CHECK(member.substr(member.size() - newest.size()) == newest);
  CHECK(member.rfind("{\"__REALTIME_TIMESTAMP\"", 0) == 0);  // cut at a line start
#if !defined(__SANITIZE_ADDRESS__)  // AddressSanitizer's shadow memory inflates RSS
  // The newest 64 MiB are held in memory to be put back in time order, and compressing the
  // bundle takes its share; the 3 GB never are (76 to 105 MiB measured).
  MESSAGE("peak RSS MiB: " << r.max_rss_kib / 1024 << ", " << r.seconds << " s");
  CHECK(r.max_rss_kib < 160 * 1024);
#endif
}

TEST_CASE("collect fault: the wall clock jumping back a day between probes leaves durations monotonic") {
  const char* libfaketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";
  if (!fs::exists(libfaketime)) {
    MESSAGE("skipped: libfaketime (Debian package faketime) is not installed");
    return;
  }
  FakeHost host;
  test::BuildFakeNode(host);
  test::TempDir clock_dir;
  const std::string clock_file = clock_dir / "faketime";
  test::WriteFile(clock_file, "+0\n");
  // nvidia-smi (phase 4, after the passive probes) moves the collector's wall
  // clock back a day, then takes a second of real time.
  host.AddStub("nvidia-smi", "echo '-1d' > '" + clock_file + "'\nsleep 1\necho 'GPU 0: NVIDIA H800'");
  const std::string out = host.root() + "/../node.tar.zst";
  // The host clock is never touched: libfaketime shifts what this process
  // and its children read from CLOCK_REALTIME only, and leaves the monotonic
  // clock alone.
  std::vector<std::string> env = {std::string("LD_PRELOAD=") + libfaketime, "FAKETIME_TIMESTAMP_FILE=" + clock_file,
                                  "FAKETIME_NO_CACHE=1", "DONT_FAKE_MONOTONIC=1",
                                  // AddressSanitizer wants its runtime first.
                                  "ASAN_OPTIONS=verify_asan_link_order=0"};
  auto r = RunCollect(host, out, {}, env);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  json m = ManifestOf(out);
  const json& c = m["collection"];
  // The wall clock went back about a day during the run...
  const int64_t wall_ns = c["ended_at_unix_ns"].get<int64_t>() - c["started_at_unix_ns"].get<int64_t>();
  CHECK(wall_ns < -86000LL * 1000000000);
  // ...and the monotonic span is the real one.
  const int64_t mono_ns = c["ended_monotonic_ns"].get<int64_t>() - c["started_monotonic_ns"].get<int64_t>();
  CHECK(mono_ns >= 1000000000);
  CHECK(mono_ns < 1000000000LL * r.seconds + 1000000000);
  for (const auto& a : m["artifacts"]) {
    if (a["duration_ns"].is_null()) continue;
    INFO(a["name"]);
    CHECK(a["duration_ns"].get<int64_t>() >= 0);
    CHECK(a["duration_ns"].get<int64_t>() <= mono_ns);
  }
  const json* smi = Artifact(m, "host.nvidia_smi_list");
  REQUIRE(smi);
  CHECK((*smi)["duration_ns"].get<int64_t>() >= 1000000000);
  CHECK(test::RunGpuforensics({"analyze", out}).exit_code <= 1);
}

}  // TEST_SUITE

}  // namespace gpuf
