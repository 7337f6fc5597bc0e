// One line at the bottom of a terminal that says what is going on, redrawn
// in place ("\r", erase, text) by a ticker thread a few times a second, so
// that long quiet work still shows it goes on; lasting lines can be printed
// above it; it is erased when it goes away, so that what follows on the
// terminal (a report, a triage) starts clean. Used by analyze's and
// collect's progress; they decide what the line says.
#ifndef GPUF_CLI_LIVE_LINE_H_
#define GPUF_CLI_LIVE_LINE_H_

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace gpuf {

// `text` cut to fit in fewer than `columns` columns (code points), so that
// the terminal never wraps it: a wrapped line cannot be redrawn in place and
// leaves its first part behind. `columns` <= 0 (width unknown) keeps it.
std::string FitToColumns(const std::string& text, int columns);

class LiveLine {
 public:
  // The line for this many whole seconds since the start; "" draws nothing.
  // Called on the ticker's thread and on Redraw's caller's, never at once.
  using TextFn = std::function<std::string(int64_t elapsed_s)>;

  // Draws on `out` only when `enabled` (the caller checks isatty); `period`
  // is the ticker's (tests make it long).
  LiveLine(bool enabled, FILE* out, std::chrono::milliseconds period, TextFn text);
  ~LiveLine();  // stops the ticker, erases the line
  LiveLine(const LiveLine&) = delete;
  LiveLine& operator=(const LiveLine&) = delete;

  bool enabled() const { return enabled_; }
  // Draws now. The caller must not hold a lock that `text` takes.
  void Redraw();
  // Prints `line` (no newline needed) where the live line was, then the live line below it.
  void Print(const std::string& line);

 private:
  void DrawLocked();
  void Tick();

  const bool enabled_;
  FILE* const out_;
  const std::chrono::milliseconds period_;
  const TextFn text_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable stop_;
  bool stopping_ = false;
  bool drawn_ = false;
  std::thread ticker_;
};

}  // namespace gpuf

#endif  // GPUF_CLI_LIVE_LINE_H_
