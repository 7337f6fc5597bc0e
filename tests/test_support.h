// Shared helpers for tests: temporary directories, files, running the
// gpuforensics binary, fake hosts with stub programs, reading bundles.
#ifndef GPUF_TESTS_TEST_SUPPORT_H_
#define GPUF_TESTS_TEST_SUPPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gpuf::test {

// A fresh directory, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

void WriteFile(const std::string& path, const std::string& content, int mode = 0644);
std::string ReadFile(const std::string& path);

struct ProcessResult {
  int exit_code = -1;        // -1 when killed by a signal
  std::string out;
  std::string err;
  double seconds = 0;
  long max_rss_kib = 0;      // peak resident memory of the process itself
};

// Runs argv with `env_overrides` ("NAME=value") added to the environment.
ProcessResult RunProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env_overrides = {});

// The gpuforensics binary under test: the build's, or $GPUF_TEST_BINARY
// (to show that a test fails against an older build).
std::string GpuforensicsBinary();

// Runs the gpuforensics binary under test.
ProcessResult RunGpuforensics(const std::vector<std::string>& args,
                              const std::vector<std::string>& env_overrides = {});

// The members of a tar.zst bundle, read with libarchive, in archive order.
std::vector<std::pair<std::string, std::string>> ReadBundleMembers(const std::string& path);

// Writes a bundle whose one member (journal.kernel, or ARTIFACT: "name
// instance kind stream") is SIZE bytes of REPEAT (a byte or a line, with
// Python escapes: "\\x00"), its manifest matching, or declaring DECLARED
// bytes when given. Made by python and zstd
// so that the test process never holds the bytes: a spawned process's peak
// memory counts from the test process it was forked from (RunProcess), so a
// test process that grew would spoil every later measurement.
void MakeRepeatedBundle(const std::string& out, int64_t size, const std::string& repeat,
                        const std::string& declared = "", const std::string& artifact = "");

// Writes a tar.zst with the given members in order (for hostile-input tests).
// A name "symlink:PATH" makes a symbolic link to the data; "chardev:PATH" a
// character device 195:0.
void WriteTarZst(const std::string& path, const std::vector<std::pair<std::string, std::string>>& members);

// A fake node: a root directory plus a bin directory of stub programs that
// log every argv they get to bin/argv.log.
class FakeHost {
 public:
  FakeHost();
  const std::string& root() const { return root_; }
  const std::string& bin() const { return bin_; }
  // Creates root/<host_path> with content (parents created).
  void AddFile(const std::string& host_path, const std::string& content);
  void AddSymlink(const std::string& host_path, const std::string& target);
  // A stub whose body (POSIX sh) runs after the argv is logged.
  void AddStub(const std::string& name, const std::string& body);
  // A stub that prints `out` and exits with `rc` for any argv.
  void AddStubPrinting(const std::string& name, const std::string& out, int rc = 0);
  std::vector<std::string> LoggedArgv() const;
  // PATH=bin:tools, where tools holds links to a few real programs.
  std::string PathEnv() const;

 private:
  TempDir dir_;
  std::string root_;
  std::string bin_;
  std::string tools_;
};

std::string SourcePath(const std::string& relative);

}  // namespace gpuf::test

#endif  // GPUF_TESTS_TEST_SUPPORT_H_
