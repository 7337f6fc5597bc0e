#include "cli/live_line.h"

#include <sys/ioctl.h>

namespace gpuf {

namespace {

// Read at each draw: the window may have been resized since the last.
int ColumnsOf(FILE* out) {
  winsize size{};
  return ioctl(fileno(out), TIOCGWINSZ, &size) == 0 ? size.ws_col : 0;
}

bool StartsCodePoint(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

}  // namespace

std::string FitToColumns(const std::string& text, int columns) {
  if (columns <= 0) return text;
  int used = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!StartsCodePoint(text[i])) continue;
    if (++used == columns) return text.substr(0, i);
  }
  return text;
}

LiveLine::LiveLine(bool enabled, FILE* out, std::chrono::milliseconds period, TextFn text)
    : enabled_(enabled), out_(out), period_(period), text_(std::move(text)) {
  if (enabled_) ticker_ = std::thread([this] { Tick(); });
}

LiveLine::~LiveLine() {
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

void LiveLine::DrawLocked() {
  auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start_);
  std::string text = FitToColumns(text_(elapsed.count()), ColumnsOf(out_));
  if (text.empty()) return;
  std::fprintf(out_, "\r\x1b[K%s", text.c_str());
  std::fflush(out_);
  drawn_ = true;
}

void LiveLine::Redraw() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  DrawLocked();
}

void LiveLine::Print(const std::string& line) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::fprintf(out_, "%s%s\n", drawn_ ? "\r\x1b[K" : "", line.c_str());
  drawn_ = false;
  DrawLocked();
}

void LiveLine::Tick() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_.wait_for(lock, period_, [this] { return stopping_; })) DrawLocked();
}

}  // namespace gpuf
