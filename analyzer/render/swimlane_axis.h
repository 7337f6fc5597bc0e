// The time axis of the swimlane picture: seconds since the boot started,
// mapped to x, with long idle stretches cut out. A node that ran for ten
// hours before its plugin was restarted would otherwise squeeze the boot's
// first minute into a few pixels; a stretch with no event that takes most of
// the range becomes a narrow break marked with its length.
#ifndef GPUF_ANALYZER_RENDER_SWIMLANE_AXIS_H_
#define GPUF_ANALYZER_RENDER_SWIMLANE_AXIS_H_

#include <vector>

namespace gpuf {

class SwimlaneAxis {
 public:
  struct Break {
    double from_seconds;
    double to_seconds;
  };

  // `event_seconds`: every time to place; the axis runs from 0 to a little
  // past the last. `left`/`right`: the plot's x range.
  SwimlaneAxis(std::vector<double> event_seconds, double left, double right);

  double X(double seconds) const;
  double max_seconds() const { return max_seconds_; }
  const std::vector<Break>& breaks() const { return breaks_; }
  // Tick times: a round step over the time that is drawn, none inside a break.
  std::vector<double> Ticks() const;
  double tick_step() const { return tick_step_; }
  static constexpr double kBreakWidth = 34;  // pixels a break takes

 private:
  double left_, right_;
  double max_seconds_ = 1;
  double scale_ = 1;  // pixels per second outside the breaks
  double tick_step_ = 1;
  std::vector<Break> breaks_;
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_SWIMLANE_AXIS_H_
