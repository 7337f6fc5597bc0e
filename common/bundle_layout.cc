#include "common/bundle_layout.h"

#include <cstdio>
#include <ctime>

namespace gpuf {

namespace {

// Node names come from the host; keep only characters that are safe in a
// file name on every system the bundle may travel to.
std::string SafeFileComponent(std::string_view text) {
  std::string out;
  for (char c : text) {
    bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '_' || c == '.';
    out += safe ? c : '_';
  }
  if (out.empty() || out[0] == '.') out.insert(out.begin(), '_');
  return out.substr(0, 100);
}

}  // namespace

std::string ArtifactMemberPath(int sequence, std::string_view name, std::string_view stream) {
  char seq[16];
  std::snprintf(seq, sizeof seq, "%04d", sequence);
  return std::string(kArtifactsDir) + seq + "-" + SafeFileComponent(name) + "." + std::string(stream);
}

std::string DefaultBundleFileName(std::string_view node, long long unix_ns) {
  std::time_t seconds = static_cast<std::time_t>(unix_ns / 1000000000LL);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  return "gpuforensics-" + SafeFileComponent(node.empty() ? "node" : node) + "-" + stamp +
         std::string(kBundleSuffix);
}

}  // namespace gpuf
