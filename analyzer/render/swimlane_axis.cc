#include "analyzer/render/swimlane_axis.h"

#include <algorithm>
#include <cmath>

namespace gpuf {

namespace {

// A stretch without events is cut when it is this long and takes this
// share of the range.
constexpr double kMinBreakSeconds = 120;
constexpr double kMinBreakShare = 0.35;
constexpr double kMarginShare = 0.04;  // room after the last event for its label

double NiceStep(double range) {
  double raw = range / 8;
  double magnitude = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (raw <= m * magnitude) return m * magnitude;
  }
  return 10 * magnitude;
}

}  // namespace

SwimlaneAxis::SwimlaneAxis(std::vector<double> times, double left, double right) : left_(left), right_(right) {
  times.push_back(0);
  std::sort(times.begin(), times.end());
  double last = std::max(times.back(), 1.0);
  for (size_t i = 1; i < times.size(); ++i) {
    double length = times[i] - times[i - 1];
    if (length >= kMinBreakSeconds && length >= kMinBreakShare * last) {
      // Keep a little time on both sides so marks near the break stay apart from it.
      double pad = 0.02 * (last - length) + 1;
      breaks_.push_back({times[i - 1] + pad, times[i] - pad});
    }
  }
  double cut = 0;
  for (const auto& b : breaks_) cut += b.to_seconds - b.from_seconds;
  double drawn = last - cut;
  max_seconds_ = last + drawn * kMarginShare;
  double pixels = right_ - left_ - kBreakWidth * static_cast<double>(breaks_.size());
  scale_ = pixels / (max_seconds_ - cut);
  tick_step_ = NiceStep(max_seconds_ - cut);
}

double SwimlaneAxis::X(double seconds) const {
  seconds = std::clamp(seconds, 0.0, max_seconds_);
  double x = left_, cursor = 0;
  for (const auto& b : breaks_) {
    if (seconds <= b.from_seconds) return x + (seconds - cursor) * scale_;
    x += (b.from_seconds - cursor) * scale_;
    if (seconds < b.to_seconds) return x + kBreakWidth * (seconds - b.from_seconds) / (b.to_seconds - b.from_seconds);
    x += kBreakWidth;
    cursor = b.to_seconds;
  }
  return x + (seconds - cursor) * scale_;
}

std::vector<double> SwimlaneAxis::Ticks() const {
  std::vector<double> ticks;
  for (double t = 0; t <= max_seconds_ + 1e-9; t += tick_step_) {
    bool hidden = false;
    for (const auto& b : breaks_) {
      // Leave out ticks in a break and those too close to its edges to be read.
      double slack = tick_step_ * 0.4;
      hidden = hidden || (t > b.from_seconds - slack && t < b.to_seconds + slack);
    }
    if (!hidden) ticks.push_back(t);
  }
  return ticks;
}

}  // namespace gpuf
