// `gpuforensics redact` streams: its peak memory does not grow with the
// bundle. A bundle with one large log member (GPUF_REDACT_LARGE_MB, 512 by
// default) is redacted next to a small one and both peak RSS compared. Not
// a timing test: the throughput is printed, bench/redact.sh measures it.
#include <archive.h>
#include <archive_entry.h>
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "collector/bundle_writer.h"
#include "common/bundle_layout.h"
#include "common/manifest.h"
#include "common/sha256.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

// CRI log lines as a device plugin writes them, each with a node name, an
// address and a MAC (256 distinct addresses: the map stays small).
long long WriteLogLines(const std::string& path, int64_t megabytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  REQUIRE(f);
  long long lines = 0, written = 0;
  char line[512];
  while (written < megabytes * 1000000) {
    int n = std::snprintf(line, sizeof line,
                          "2026-11-18T11:18:17.%09lld+08:00 stderr F I1118 03:18:17.378842       1 server.go:%lld] "
                          "\"Connected to kubelet\" node=\"gpu-stream-3\" peer=\"10.9.%lld.%lld\" "
                          "mac=\"0c:42:a1:00:%02llx:%02llx\" resource=\"nvidia.com/gpu\" devices=8\n",
                          lines % 1000000000, lines % 900 + 100, lines / 16 % 16, lines % 16,
                          static_cast<unsigned long long>(lines / 16 % 16), static_cast<unsigned long long>(lines % 16));
    std::fwrite(line, 1, static_cast<size_t>(n), f);
    written += n;
    ++lines;
  }
  std::fclose(f);
  return lines;
}

std::string MakeBundle(const test::TempDir& dir, const std::string& name, int64_t megabytes, int64_t* lines) {
  const std::string member_file = dir / (name + ".log");
  *lines = WriteLogLines(member_file, megabytes);
  Manifest m;
  m.format = std::string(kBundleFormatName);
  m.format_version = kBundleFormatVersion;
  m.tool_name = "gpuforensics";
  m.tool_version = "0.1.0";
  m.hostname = m.node_name = "gpu-stream-3";
  m.started_at_unix_ns = m.ended_at_unix_ns = 1763435897000000000LL;
  ManifestArtifact a;
  a.name = "plugin.log";
  a.instance = "/var/log/pods/kube-system_nvidia-device-plugin-gpu-stream-3_uid/nvidia-device-plugin-ctr/0.log";
  a.kind = "file";
  a.path = a.instance;
  a.context = "host";
  a.phase = 1;
  a.status = ProbeStatus::kOk;
  ManifestOutput o;
  o.stream = std::string(kStreamContent);
  o.member = ArtifactMemberPath(1, a.name, o.stream);
  o.sha256 = *Sha256OfFile(member_file);
  o.size_bytes = static_cast<int64_t>(std::filesystem::file_size(member_file));
  a.outputs.push_back(o);
  m.artifacts.push_back(a);
  const std::string bundle = dir / (name + ".tar.zst");
  REQUIRE(WriteBundle(bundle, SerializeManifest(m), {{o.member, member_file}}, 1763435897).ok());
  std::filesystem::remove(member_file);
  return bundle;
}

struct Redacted {
  long max_rss_kib;
  double seconds;
  nlohmann::json manifest;
};

// Reads the redacted bundle as a stream (a whole member would not fit the
// point of the test): the manifest, and the one member hashed and searched.
struct Streamed {
  nlohmann::json manifest;
  std::string member_sha256;
  bool originals_left = false;
};

Streamed ReadStreaming(const std::string& path) {
  Streamed s;
  archive* a = archive_read_new();
  archive_read_support_filter_zstd(a);
  archive_read_support_format_tar(a);
  REQUIRE(archive_read_open_filename(a, path.c_str(), 1 << 16) == ARCHIVE_OK);
  archive_entry* entry;
  for (int index = 0; archive_read_next_header(a, &entry) == ARCHIVE_OK; ++index) {
    std::string manifest, tail;
    Sha256 hash;
    char buf[1 << 16];
    la_ssize_t n;
    while ((n = archive_read_data(a, buf, sizeof buf)) > 0) {
      std::string_view chunk(buf, static_cast<size_t>(n));
      if (index == 0) {
        manifest.append(chunk);
        continue;
      }
      hash.Update(chunk);
      std::string window = tail + std::string(chunk);  // a match may straddle two chunks
      if (window.find("gpu-stream-3") != std::string::npos || window.find("peer=\"10.9.") != std::string::npos) {
        s.originals_left = true;
      }
      tail = window.substr(window.size() - std::min<size_t>(window.size(), 32));
    }
    if (index == 0) s.manifest = nlohmann::json::parse(manifest);
    if (index == 1) s.member_sha256 = hash.HexDigest();
  }
  archive_read_free(a);
  return s;
}

// Measured by /usr/bin/time, which forks: a posix_spawn child's ru_maxrss
// would include this test process's own memory from before the exec.
Redacted RedactAndMeasure(const test::TempDir& dir, const std::string& bundle) {
  const std::string out = bundle + ".redacted.tar.zst", rss = dir / "rss";
  auto run =
      test::RunProcess({"/usr/bin/time", "-f", "%M", "-o", rss, test::GpuforensicsBinary(), "redact", bundle, out});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  run.max_rss_kib = std::stol(test::ReadFile(rss));
  Streamed streamed = ReadStreaming(out);
  CHECK_FALSE(streamed.originals_left);
  CHECK(streamed.member_sha256 == streamed.manifest["artifacts"][0]["outputs"][0]["sha256"]);
  Redacted r{run.max_rss_kib, run.seconds, streamed.manifest};
  std::filesystem::remove(out);
  return r;
}

int64_t Count(const nlohmann::json& manifest, const std::string& class_name) {
  for (const auto& c : manifest["artifacts"][0]["redaction_counts"]) {
    if (c["class"] == class_name) return c["count"];
  }
  return 0;
}

}  // namespace

TEST_SUITE("redact_stream") {

TEST_CASE("redact: peak memory does not grow with the bundle") {
  const char* env = std::getenv("GPUF_REDACT_LARGE_MB");
#if defined(__SANITIZE_ADDRESS__)
  const int64_t default_large_mb = 64;  // the memory bound is not checked there (below): keep the run short
#else
  const int64_t default_large_mb = 512;
#endif
  const int64_t large_mb = env ? std::atoll(env) : default_large_mb;
  test::TempDir dir;
  int64_t small_lines = 0, large_lines = 0;
  const std::string small = MakeBundle(dir, "small", 16, &small_lines);
  Redacted s = RedactAndMeasure(dir, small);
  std::filesystem::remove(small);
  const std::string large = MakeBundle(dir, "large", large_mb, &large_lines);
  Redacted l = RedactAndMeasure(dir, large);

  // Every line had its address, MAC and node name replaced: the work was done.
  CHECK(Count(l.manifest, "ipv4") == large_lines);
  CHECK(Count(l.manifest, "mac") == large_lines);
  CHECK(Count(l.manifest, "hostname") == large_lines + 2);  // and in the manifest's instance and path
  CHECK(Count(s.manifest, "ipv4") == small_lines);

  MESSAGE("redact peak RSS: " << s.max_rss_kib << " KiB for 16 MB, " << l.max_rss_kib << " KiB for " << large_mb
                              << " MB; " << large_mb / l.seconds << " MB/s (uncompressed) on this machine");
#if !defined(__SANITIZE_ADDRESS__)  // AddressSanitizer's shadow memory and quarantine inflate RSS
  CHECK(l.max_rss_kib < s.max_rss_kib + 16 * 1024);
  CHECK(l.max_rss_kib < 64 * 1024);
#endif
}

}  // TEST_SUITE

}  // namespace gpuf
