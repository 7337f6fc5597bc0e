#include "cli/progress_reporter.h"

namespace gpuf {

namespace {

constexpr auto kMinRedraw = std::chrono::milliseconds(100);

std::string Size(int64_t bytes) {
  char text[32];
  if (bytes >= (1 << 20)) {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  } else {
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / (1 << 10));
  }
  return text;
}

}  // namespace

ProgressReporter::ProgressReporter(bool enabled, FILE* out, std::chrono::milliseconds redraw_every)
    : line_(enabled, out, redraw_every, [this](int64_t elapsed_s) { return Text(elapsed_s); }) {}

LoadProgressFn ProgressReporter::Callback() {
  if (!line_.enabled()) return {};
  return [this](const LoadProgress& p) { Update(p); };
}

void ProgressReporter::Update(const LoadProgress& p) {
  bool draw;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    bool new_phase = phase_ != p.phase;
    latest_ = p;
    phase_ = p.phase;
    latest_.phase = phase_.c_str();
    have_progress_ = true;
    // Thousands of small members would flood the terminal; the ticker shows the latest one.
    draw = new_phase || std::chrono::steady_clock::now() - last_draw_ >= kMinRedraw;
  }
  if (draw) line_.Redraw();
}

std::string ProgressReporter::Text(int64_t elapsed_s) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!have_progress_) return "";
  last_draw_ = std::chrono::steady_clock::now();
  return Line(latest_, elapsed_s);
}

std::string ProgressReporter::Line(const LoadProgress& p, int64_t elapsed_s) {
  std::string line = "analyzing " + std::to_string(elapsed_s) + " s: ";
  if (std::string(p.phase) == "timeline") return line + "building the timeline";
  if (std::string(p.phase) == "rules") return line + "running the rules";
  line += "loading";
  if (p.members_total > 0) line += " " + std::to_string(p.members_loaded) + " of " + std::to_string(p.members_total);
  if (!p.artifact.empty()) line += ", " + p.artifact + " (" + Size(p.artifact_bytes) + ")";
  if (p.compressed_bytes_total > 0) {
    int64_t percent = 100 * p.compressed_bytes_read / p.compressed_bytes_total;
    line += ", " + std::to_string(percent > 100 ? 100 : percent) + "% of " + Size(p.compressed_bytes_total) + " read";
  }
  return line;
}

}  // namespace gpuf
