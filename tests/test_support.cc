#include "tests/test_support.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace gpuf::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
  std::string templ = (fs::temp_directory_path() / "gpuf-test-XXXXXX").string();
  if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
  path_ = templ;
}

TempDir::~TempDir() {
  if (std::getenv("GPUF_KEEP_TEST_DIRS")) return;  // for debugging a failing test
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void WriteFile(const std::string& path, const std::string& content, int mode) {
  fs::create_directories(fs::path(path).parent_path());
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
  }
  chmod(path.c_str(), static_cast<mode_t>(mode));
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

ProcessResult RunProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env_overrides) {
  TempDir io;
  const std::string out_path = io / "out", err_path = io / "err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    bool replaced = false;
    for (const auto& o : env_overrides) {
      size_t eq = o.find('=');
      if (std::strncmp(*e, o.c_str(), eq + 1) == 0) replaced = true;
    }
    if (!replaced) env.emplace_back(*e);
  }
  env.insert(env.end(), env_overrides.begin(), env_overrides.end());
  std::vector<char*> cargv, cenv;
  std::vector<std::string> args = argv;
  for (auto& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  for (auto& e : env) cenv.push_back(e.data());
  cenv.push_back(nullptr);
  auto start = std::chrono::steady_clock::now();
  pid_t pid;
  int rc = posix_spawn(&pid, args[0].c_str(), &actions, nullptr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot spawn " + args[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  ProcessResult result;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.max_rss_kib = usage.ru_maxrss;
  result.out = ReadFile(out_path);
  result.err = ReadFile(err_path);
  return result;
}

std::string GpuforensicsBinary() {
  const char* other = std::getenv("GPUF_TEST_BINARY");
  return other && *other ? other : GPUF_BINARY;
}

ProcessResult RunGpuforensics(const std::vector<std::string>& args, const std::vector<std::string>& env_overrides) {
  std::vector<std::string> argv = {GpuforensicsBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProcess(argv, env_overrides);
}

namespace {

constexpr char kMakeBundle[] = R"(
import hashlib, io, json, subprocess, sys, tarfile
out, size, repeat = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode().decode("unicode_escape").encode("latin-1")
declared = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else None
name, instance, kind, stream = (sys.argv[5] if len(sys.argv) > 5 else "journal.kernel boot:0 command stdout").split(" ")
member = "artifacts/0001-%s.%s" % (name, stream)
class Repeated(io.RawIOBase):
    def __init__(self, n): self.n = n; self.at = 0; self.block = repeat * max(1, (1 << 20) // len(repeat))
    def readable(self): return True
    def readinto(self, b):
        k = min(len(b), self.n, len(self.block) - self.at)
        b[:k] = self.block[self.at:self.at + k]; self.at = (self.at + k) % len(self.block); self.n -= k; return k
h = hashlib.sha256()
left = size
block = Repeated(size).block
while left:
    k = min(left, len(block)); h.update(block[:k]); left -= k
manifest = {"format": "gpuforensics-bundle", "format_version": 1, "tool": {"name": "gpuforensics", "version": "0.1.0"},
    "host": {"hostname": "n", "node_name": "n"}, "collection": {"started_at_unix_ns": 1, "ended_at_unix_ns": 2, "complete": True},
    "options": {"root": "/"}, "artifacts": [{"name": name, "instance": instance, "kind": kind,
    "context": "host", "started_at_unix_ns": 1, "ended_at_unix_ns": 2, "duration_ns": 1, "status": "ok",
    "outputs": [{"stream": stream, "member": member, "size_bytes": declared if declared is not None else size,
                 "sha256": h.hexdigest(), "truncated": False}]}]}
z = subprocess.Popen(["zstd", "-q", "-1", "-o", out], stdin=subprocess.PIPE)
with tarfile.open(fileobj=z.stdin, mode="w|", format=tarfile.PAX_FORMAT) as t:
    data = json.dumps(manifest).encode()
    info = tarfile.TarInfo("manifest.json"); info.size = len(data); t.addfile(info, io.BytesIO(data))
    info = tarfile.TarInfo(member); info.size = size; t.addfile(info, io.BufferedReader(Repeated(size)))
z.stdin.close()
sys.exit(z.wait())
)";

}  // namespace

void MakeRepeatedBundle(const std::string& out, int64_t size, const std::string& repeat,
                        const std::string& declared, const std::string& artifact) {
  std::vector<std::string> argv = {"/usr/bin/python3", "-c", kMakeBundle, out, std::to_string(size), repeat,
                                   declared};
  if (!artifact.empty()) argv.push_back(artifact);
  auto made = RunProcess(argv);
  if (made.exit_code != 0) throw std::runtime_error("making " + out + ": " + made.err);
}


std::vector<std::pair<std::string, std::string>> ReadBundleMembers(const std::string& path) {
  std::vector<std::pair<std::string, std::string>> members;
  archive* a = archive_read_new();
  archive_read_support_filter_zstd(a);
  archive_read_support_format_tar(a);
  if (archive_read_open_filename(a, path.c_str(), 1 << 16) != ARCHIVE_OK) {
    archive_read_free(a);
    throw std::runtime_error("cannot open bundle " + path);
  }
  archive_entry* entry;
  while (archive_read_next_header(a, &entry) == ARCHIVE_OK) {
    std::string data;
    char buf[1 << 16];
    la_ssize_t n;
    while ((n = archive_read_data(a, buf, sizeof buf)) > 0) data.append(buf, static_cast<size_t>(n));
    members.emplace_back(archive_entry_pathname(entry), data);
  }
  archive_read_free(a);
  return members;
}

void WriteTarZst(const std::string& path, const std::vector<std::pair<std::string, std::string>>& members) {
  archive* a = archive_write_new();
  archive_write_add_filter_zstd(a);
  archive_write_set_format_pax_restricted(a);
  archive_write_open_filename(a, path.c_str());
  for (const auto& [spec, data] : members) {
    archive_entry* e = archive_entry_new();
    std::string name = spec;
    unsigned type = AE_IFREG;
    if (spec.rfind("symlink:", 0) == 0) {
      name = spec.substr(8);
      type = AE_IFLNK;
      archive_entry_set_symlink(e, data.c_str());
    } else if (spec.rfind("chardev:", 0) == 0) {
      name = spec.substr(8);
      type = AE_IFCHR;
      archive_entry_set_rdevmajor(e, 195);
    }
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_size(e, type == AE_IFREG ? static_cast<la_int64_t>(data.size()) : 0);
    archive_entry_set_filetype(e, type);
    archive_entry_set_perm(e, 0644);
    archive_write_header(a, e);
    if (type == AE_IFREG) archive_write_data(a, data.data(), data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
}

FakeHost::FakeHost() : root_(dir_ / "root"), bin_(dir_ / "bin"), tools_(dir_ / "tools") {
  fs::create_directories(root_);
  fs::create_directories(bin_);
  fs::create_directories(tools_);
  // The only real programs on the fake host's PATH: what stubs need, plus
  // journalctl, which tests use for real. Any other tool is absent unless a
  // test adds a stub for it, whatever this machine has installed.
  for (const char* tool : {"sh", "cat", "basename", "sleep", "dd", "head", "uname", "journalctl", "env"}) {
    for (const char* dir : {"/usr/bin/", "/bin/"}) {
      std::string real = std::string(dir) + tool;
      if (access(real.c_str(), X_OK) == 0) {
        fs::create_symlink(real, tools_ + "/" + tool);
        break;
      }
    }
  }
}

void FakeHost::AddFile(const std::string& host_path, const std::string& content) {
  WriteFile(root_ + host_path, content);
}

void FakeHost::AddSymlink(const std::string& host_path, const std::string& target) {
  fs::create_directories(fs::path(root_ + host_path).parent_path());
  fs::create_symlink(target, root_ + host_path);
}

void FakeHost::AddStub(const std::string& name, const std::string& body) {
  // One write per line: stubs run concurrently and append to the same log.
  std::string script = "#!/bin/sh\nline=$(basename \"$0\")\nfor a in \"$@\"; do line=\"$line $a\"; done\n"
                       "printf '%s\\n' \"$line\" >> '" + bin_ + "/argv.log'\n" + body + "\n";
  WriteFile(bin_ + "/" + name, script, 0755);
}

void FakeHost::AddStubPrinting(const std::string& name, const std::string& out, int rc) {
  WriteFile(bin_ + "/" + name + ".out", out);
  AddStub(name, "cat '" + bin_ + "/" + name + ".out'\nexit " + std::to_string(rc));
}

std::vector<std::string> FakeHost::LoggedArgv() const {
  std::vector<std::string> lines;
  std::istringstream in(ReadFile(bin_ + "/argv.log"));
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string FakeHost::PathEnv() const { return "PATH=" + bin_ + ":" + tools_; }

std::string SourcePath(const std::string& relative) { return std::string(GPUF_SOURCE_DIR) + "/" + relative; }

}  // namespace gpuf::test
