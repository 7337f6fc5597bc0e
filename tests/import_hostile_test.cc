// import and analyze on captures made by strangers: every adapter refuses
// what escapes its input, what is not a file and what is too big, with one
// line on stderr, exit status 2, and nothing written.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <set>

#include "tests/test_support.h"

namespace gpuf {

namespace {

std::set<std::string> Listing(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) names.insert(e.path().string());
  return names;
}

// `python3 -c` builds archives whose members tar(1) would not write.
void Python(const std::string& program, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/usr/bin/python3", "-c", program};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = test::RunProcess(argv);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
}

void ExpectRejected(const std::string& source, const std::string& message, const std::string& out_dir) {
  const std::string out = out_dir + "/out.tar.zst";
  std::set<std::string> before = Listing(out_dir);
  std::set<std::string> source_before = Listing(std::filesystem::path(source).parent_path().string());
  test::TempDir tmp;  // the private temporary files go here, and must be gone after
  const std::vector<std::string> env = {"TMPDIR=" + tmp.path()};
  auto imported = test::RunGpuforensics({"import", source, "-o", out}, env);
  CHECK(imported.exit_code == 2);
  CHECK(imported.err == "gpuforensics import: " + message + "\n");
  CHECK(imported.out == "");
  auto analyzed = test::RunGpuforensics({"analyze", source}, env);
  CHECK(analyzed.exit_code == 2);
  CHECK(analyzed.err == "gpuforensics analyze: " + message + "\n");
  CHECK(analyzed.out == "");
  CHECK(Listing(out_dir) == before);  // no output, no temporary left beside it
  CHECK(Listing(tmp.path()).empty());
  CHECK(Listing(std::filesystem::path(source).parent_path().string()) == source_before);
}

const char* kGzipBomb = R"(
import sys, zlib
z = zlib.compressobj(1, zlib.DEFLATED, 31)
with open(sys.argv[1], "wb") as f:
    f.write(z.compress(b"____________________________________________\n\nnvidia-bug-report.sh Version: 1\n\n"))
    block = b"A" * (1 << 20)
    for _ in range(300):
        f.write(z.compress(block))
    f.write(z.flush())
)";

const char* kTarWithMember = R"(
import io, sys, tarfile
out, name, kind, target = sys.argv[1:5]
with tarfile.open(out, "w:xz") as t:
    date = tarfile.TarInfo("sosreport-n-2026/sos_commands/date/date")
    text = b"Wed Nov 18 21:30:00 CST 2026\n"
    date.size = len(text)
    t.addfile(date, io.BytesIO(text))
    info = tarfile.TarInfo(name)
    if kind == "symlink":
        info.type, info.linkname = tarfile.SYMTYPE, target
    elif kind == "device":
        info.type, info.devmajor, info.devminor = tarfile.CHRTYPE, 1, 3
    else:
        info.size = len(target)
    t.addfile(info, io.BytesIO(target.encode()) if kind == "file" else None)
)";

}  // namespace

TEST_SUITE("import_hostile") {

TEST_CASE("import: a sos report archive that climbs out, links out or holds a device is refused") {
  test::TempDir dir;
  test::TempDir out;
  const std::string archive = dir / "sosreport-n.tar.xz";
  SUBCASE("member path with ..") {
    Python(kTarWithMember, {archive, "sosreport-n-2026/../../etc/cron.d/x", "file", "evil"});
    ExpectRejected(archive, "archive member 'sosreport-n-2026/../../etc/cron.d/x' points outside the archive", out.path());
  }
  SUBCASE("absolute member path") {
    Python(kTarWithMember, {archive, "/etc/cron.d/x", "file", "evil"});
    ExpectRejected(archive, "archive member '/etc/cron.d/x' points outside the archive", out.path());
  }
  SUBCASE("a wanted file that is a link out of the report") {
    Python(kTarWithMember, {archive, "sosreport-n-2026/sos_commands/kernel/uname_-a", "symlink", "/etc/shadow"});
    ExpectRejected(archive, "'sosreport-n-2026/sos_commands/kernel/uname_-a' is a symbolic link out of the input",
                   out.path());
  }
  SUBCASE("a device member") {
    Python(kTarWithMember, {archive, "sosreport-n-2026/proc/stat", "device", ""});
    ExpectRejected(archive, "archive member 'sosreport-n-2026/proc/stat' is a device, FIFO or socket", out.path());
  }
}

TEST_CASE("import: a sos report member past the size limit is refused before it is decompressed") {
  test::TempDir dir;
  test::TempDir out;
  const std::string archive = dir / "sosreport-n.tar.gz";
  Python(R"(
import sys, tarfile
class Zeros:
    def __init__(self, n): self.n = n
    def read(self, k=-1):
        k = self.n if k < 0 else min(k, self.n)
        self.n -= k
        return bytes(k)
with tarfile.open(sys.argv[1], "w:gz", compresslevel=1) as t:
    info = tarfile.TarInfo("sosreport-n-2026/sos_commands/kernel/dmesg")
    info.size = 300 << 20
    t.addfile(info, Zeros(info.size))
)",
         {archive});
  ExpectRejected(archive, "'sosreport-n-2026/sos_commands/kernel/dmesg' is larger than the 256 MiB limit", out.path());
}

TEST_CASE("import: an nvidia-bug-report.log.gz that decompresses past the limit is refused") {
  test::TempDir dir;
  test::TempDir out;
  const std::string log = dir / "nvidia-bug-report.log.gz";
  Python(kGzipBomb, {log});
  ExpectRejected(log, "'" + log + "' is larger than the 256 MiB limit", out.path());
}

TEST_CASE("import: a must-gather whose bug report decompresses past the limit is refused") {
  test::TempDir dir;
  test::TempDir out;
  const std::string gather = dir / "must-gather";
  std::filesystem::create_directory(gather);
  test::WriteFile(gather + "/must-gather.log", "Using ARTIFACT_DIR=/must-gather\n");
  Python(kGzipBomb, {gather + "/nvidia-bug-report_node-1.log.gz"});
  ExpectRejected(gather, "'nvidia-bug-report_node-1.log.gz' is larger than the 256 MiB limit", out.path());
}

TEST_CASE("import: an unpacked sos report whose wanted file links out is refused") {
  test::TempDir dir;
  test::TempDir out;
  const std::string sos = dir / "sosreport-n-2026";
  std::filesystem::create_directories(sos + "/sos_commands/date");
  std::filesystem::create_directories(sos + "/proc");
  test::WriteFile(sos + "/sos_commands/date/date", "Wed Nov 18 21:30:00 CST 2026\n");
  std::filesystem::create_symlink("../../../../etc/shadow", sos + "/proc/stat");
  ExpectRejected(sos, "'proc/stat' is a symbolic link out of the input", out.path());
}

TEST_CASE("import: a hand-captured folder with a link out, a device, a FIFO or a huge file is refused") {
  test::TempDir dir;
  test::TempDir out;
  const std::string evidence = dir / "evidence";
  std::filesystem::create_directory(evidence);
  test::WriteFile(evidence + "/smi.txt", "GPU 0: NVIDIA H800 (UUID: GPU-8c141868-e051-2def-84a2-369843042084)\n");
  SUBCASE("symbolic link to a file outside") {
    std::filesystem::create_symlink("/etc/passwd", evidence + "/versions.txt");
    ExpectRejected(evidence, "'versions.txt' is a symbolic link out of the input", out.path());
  }
  SUBCASE("symbolic link climbing out") {
    std::filesystem::create_symlink("../../../etc/passwd", evidence + "/versions.txt");
    ExpectRejected(evidence, "'versions.txt' is a symbolic link out of the input", out.path());
  }
  SUBCASE("character device") {
    REQUIRE(mknod((evidence + "/null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
    ExpectRejected(evidence, "'null' is a device, FIFO or socket, not a file", out.path());
  }
  SUBCASE("FIFO, never opened") {
    REQUIRE(mkfifo((evidence + "/pipe").c_str(), 0644) == 0);
    ExpectRejected(evidence, "'pipe' is a device, FIFO or socket, not a file", out.path());
  }
  SUBCASE("sparse file past the size limit") {
    test::WriteFile(evidence + "/big.txt", "");
    std::filesystem::resize_file(evidence + "/big.txt", 300LL << 20);
    ExpectRejected(evidence, "'big.txt' is larger than the 256 MiB limit", out.path());
  }
}

TEST_CASE("import: a file the user may not read is refused by name") {
  if (geteuid() != 0 || access("/usr/bin/setpriv", X_OK) != 0) return;  // needs root to drop to nobody
  test::TempDir dir;
  test::TempDir out;
  const std::string evidence = dir / "evidence";
  std::filesystem::create_directory(evidence);
  chmod(dir.path().c_str(), 0755);
  chmod(out.path().c_str(), 0777);
  test::WriteFile(evidence + "/smi.txt", "GPU 0: NVIDIA H800 (UUID: GPU-8c141868-e051-2def-84a2-369843042084)\n", 0600);
  auto r = test::RunProcess({"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                             test::GpuforensicsBinary(), "import", evidence, "-o", out / "out.tar.zst"});
  CHECK(r.exit_code == 2);
  CHECK(r.err == "gpuforensics import: cannot read 'smi.txt': Permission denied\n");
  CHECK_FALSE(std::filesystem::exists(out / "out.tar.zst"));
}

TEST_CASE("import: a file that is none of the known inputs is refused") {
  test::TempDir dir;
  test::TempDir out;
  test::WriteFile(dir / "notes.txt", "just some notes\n");
  ExpectRejected(dir / "notes.txt",
                 "'" + dir / "notes.txt" +
                     "' is not a gpuforensics bundle, sos report, nvidia-bug-report log, must-gather or evidence "
                     "directory",
                 out.path());
}

}  // TEST_SUITE

}  // namespace gpuf
