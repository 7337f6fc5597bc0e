#include "cli/progress_reporter.h"

#include <string>

namespace gpuf {

namespace {

constexpr auto kRedrawEvery = std::chrono::milliseconds(100);

}  // namespace

ProgressReporter::ProgressReporter(bool enabled, FILE* out) : enabled_(enabled), out_(out) {}

ProgressReporter::~ProgressReporter() {
  if (drawn_) std::fputs("\r\x1b[K", out_);
  std::fflush(out_);
}

LoadProgressFn ProgressReporter::Callback() {
  if (!enabled_) return {};
  return [this](const LoadProgress& p) { Update(p); };
}

void ProgressReporter::Update(const LoadProgress& p) {
  auto now = std::chrono::steady_clock::now();
  bool phase_change = std::string(p.phase) != "loading";
  if (!phase_change && drawn_ && now - last_ < kRedrawEvery) return;
  last_ = now;
  drawn_ = true;
  char line[160];
  if (std::string(p.phase) == "loading" && p.compressed_bytes_total > 0) {
    bool mib = p.compressed_bytes_total >= (1 << 20);
    double total = static_cast<double>(p.compressed_bytes_total) / (mib ? 1 << 20 : 1 << 10);
    int percent = static_cast<int>(100 * p.compressed_bytes_read / p.compressed_bytes_total);
    std::snprintf(line, sizeof line, "analyzing: loading %d%% of %.1f %s, %lld members", percent > 100 ? 100 : percent,
                  total, mib ? "MiB" : "KiB", static_cast<long long>(p.members_loaded));
  } else if (std::string(p.phase) == "loading") {
    std::snprintf(line, sizeof line, "analyzing: loading, %lld members", static_cast<long long>(p.members_loaded));
  } else {
    std::snprintf(line, sizeof line, "analyzing: %s", std::string(p.phase) == "timeline" ? "building the timeline"
                                                                                         : "running the rules");
  }
  std::fprintf(out_, "\r\x1b[K%s", line);
  std::fflush(out_);
}

}  // namespace gpuf
