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
    : enabled_(enabled), out_(out), redraw_every_(redraw_every) {
  if (enabled_) ticker_ = std::thread([this] { Tick(); });
}

ProgressReporter::~ProgressReporter() {
  if (!enabled_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  stop_.notify_all();
  ticker_.join();
  if (drawn_) std::fputs("\r\x1b[K", out_);
  std::fflush(out_);
}

LoadProgressFn ProgressReporter::Callback() {
  if (!enabled_) return {};
  return [this](const LoadProgress& p) { Update(p); };
}

void ProgressReporter::Update(const LoadProgress& p) {
  std::lock_guard<std::mutex> lock(mutex_);
  bool new_phase = phase_ != p.phase;
  latest_ = p;
  phase_ = p.phase;
  latest_.phase = phase_.c_str();
  have_progress_ = true;
  // Thousands of small members would flood the terminal; the ticker shows the latest one.
  if (new_phase || std::chrono::steady_clock::now() - last_draw_ >= kMinRedraw) Draw();
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

void ProgressReporter::Draw() {
  if (!have_progress_) return;
  auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start_);
  std::fprintf(out_, "\r\x1b[K%s", Line(latest_, elapsed.count()).c_str());
  std::fflush(out_);
  drawn_ = true;
  last_draw_ = std::chrono::steady_clock::now();
}

void ProgressReporter::Tick() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_.wait_for(lock, redraw_every_, [this] { return stopping_; })) Draw();
}

}  // namespace gpuf
