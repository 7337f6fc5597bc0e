#include "analyzer/render/swimlane_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>

#include "analyzer/render/html_escape.h"
#include "analyzer/render/render_text.h"
#include "analyzer/render/report_lines.h"
#include "analyzer/render/swimlane_axis.h"

namespace gpuf {

namespace {

enum class Mark { kOk, kBad, kNeutral };

struct LaneRule {
  Milestone milestone;
  std::string_view lane;   // "plugin": the lane of the event's container
  std::string_view label;  // shown beside the mark
  Mark mark;
};

constexpr LaneRule kLaneRules[] = {
    {.milestone = Milestone::kBoot, .lane = "kernel", .label = "boot", .mark = Mark::kNeutral},
    {.milestone = Milestone::kDriverLoaded, .lane = "kernel", .label = "driver loaded", .mark = Mark::kOk},
    {.milestone = Milestone::kXid, .lane = "kernel", .label = "Xid", .mark = Mark::kBad},
    {.milestone = Milestone::kPersistencedStarted, .lane = "persistenced", .label = "started", .mark = Mark::kOk},
    {.milestone = Milestone::kFabricmanagerStarted, .lane = "fabricmanager", .label = "started", .mark = Mark::kOk},
    {.milestone = Milestone::kContainerdStarted, .lane = "containerd", .label = "started", .mark = Mark::kOk},
    {.milestone = Milestone::kDaemonReload, .lane = "systemd", .label = "daemon-reload", .mark = Mark::kNeutral},
    {.milestone = Milestone::kKubeletStarted, .lane = "kubelet", .label = "started", .mark = Mark::kOk},
    {.milestone = Milestone::kKubeletSockCreated, .lane = "kubelet", .label = "kubelet.sock", .mark = Mark::kNeutral},
    {.milestone = Milestone::kPluginContainerCreated, .lane = "plugin", .label = "created", .mark = Mark::kNeutral},
    {.milestone = Milestone::kPluginContainerStarted, .lane = "plugin", .label = "started", .mark = Mark::kOk},
    {.milestone = Milestone::kPluginServiceStarted, .lane = "plugin", .label = "started", .mark = Mark::kOk},
    {.milestone = Milestone::kPluginContainerFinished, .lane = "plugin", .label = "exited", .mark = Mark::kNeutral},
    {.milestone = Milestone::kPluginNvmlInitFailed, .lane = "plugin", .label = "NVML init failed", .mark = Mark::kBad},
    {.milestone = Milestone::kPluginServing, .lane = "plugin", .label = "serving", .mark = Mark::kOk},
    {.milestone = Milestone::kPluginKubeletRestartSeen, .lane = "plugin", .label = "saw kubelet restart",
     .mark = Mark::kNeutral},
    {.milestone = Milestone::kDeviceUnhealthy, .lane = "plugin", .label = "device unhealthy", .mark = Mark::kBad},
    {.milestone = Milestone::kKubeletRegistrationReceived, .lane = "registration", .label = "kubelet got registration",
     .mark = Mark::kOk},
    {.milestone = Milestone::kPluginRegistered, .lane = "registration", .label = "registered", .mark = Mark::kOk},
    {.milestone = Milestone::kKubeletListAndWatchEnded, .lane = "registration", .label = "ListAndWatch ended",
     .mark = Mark::kBad},
    {.milestone = Milestone::kNodeConditionChanged, .lane = "cluster", .label = "condition", .mark = Mark::kNeutral},
    {.milestone = Milestone::kClusterEvent, .lane = "cluster", .label = "event", .mark = Mark::kNeutral},
    {.milestone = Milestone::kMetricDropped, .lane = "metrics", .label = "GPU count dropped", .mark = Mark::kBad},
    {.milestone = Milestone::kAlertFiring, .lane = "metrics", .label = "alert firing", .mark = Mark::kBad},
    {.milestone = Milestone::kAlertResolved, .lane = "metrics", .label = "alert resolved", .mark = Mark::kOk},
};

struct FixedLane {
  std::string_view id;
  std::string_view title;
  bool always;  // shown even when empty: an empty lane is itself evidence
};

// Order of the lanes; device-plugin containers go between kubelet and registration.
constexpr FixedLane kLanesBeforePlugins[] = {
    {"kernel", "kernel / driver", true},
    {"persistenced", "nvidia-persistenced", true},
    {"fabricmanager", "nvidia-fabricmanager", false},
    {"containerd", "containerd", true},
    {"systemd", "systemd", false},
    {"kubelet", "kubelet", true},
};
constexpr FixedLane kRegistrationLane = {"registration", "registration", true};
// The API server's record comes last: it follows from everything above it.
constexpr FixedLane kClusterLane = {"cluster", "cluster (API server)", false};
// What the metrics store recorded of the count, and the alerts: how the outage was noticed.
constexpr FixedLane kMetricsLane = {"metrics", "metrics and alerts", false};

// Geometry, in SVG user units (pixels at 100 %).
constexpr double kWidth = 1040, kPlotLeft = 214, kPlotRight = kWidth - 28;
constexpr double kHeader = 58, kFooter = 40, kRowHeight = 15, kLanePad = 14;
constexpr double kCharWidth = 6.6;  // 11 px sans, generous so labels do not collide

struct Event {
  double seconds;
  std::string label;
  Mark mark;
  const TimelineRow* row;
  int repeats = 1;  // the same mark again within kSameMoment, drawn once ("device unhealthy x8")
};

// Marks of one kind this close together are one mark with a count: eight
// GPUs going unhealthy in one second are one event to a reader.
constexpr double kSameMoment = 1.0;

struct Lane {
  std::string id;
  std::string title;
  std::vector<Event> events;
  std::optional<double> bar_from, bar_to;  // a container's life, when known
  int rows = 1;
  std::vector<int> row_of;  // per event
  double top = 0, height = 0;
};

const LaneRule* RuleFor(std::optional<Milestone> milestone) {
  for (const auto& rule : kLaneRules) {
    if (rule.milestone == milestone) return &rule;
  }
  return nullptr;
}

std::string Num(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

std::string PluginLaneId(const std::string& container_id) {
  return container_id.empty() ? "plugin-unknown" : "plugin-" + container_id.substr(0, 12);
}

// Puts each label in the first row where it does not overlap the one before.
void StackLabels(Lane& lane, const SwimlaneAxis& layout) {
  std::vector<double> row_end;
  for (const auto& e : lane.events) {
    double x = layout.X(e.seconds);
    double width = static_cast<double>(e.label.size()) * kCharWidth + 10;
    double start = x + width > kPlotRight ? x - width : x - 4;
    size_t row = 0;
    while (row < row_end.size() && start < row_end[row]) ++row;
    if (row == row_end.size()) row_end.push_back(0);
    row_end[row] = start + width;
    lane.row_of.push_back(static_cast<int>(row));
  }
  lane.rows = std::max<int>(1, static_cast<int>(row_end.size()));
}

std::vector<Lane> BuildLanes(const std::vector<TimelineRow>& milestones, int64_t boot) {
  std::map<std::string, Lane> by_id;
  std::vector<std::string> plugin_order;
  for (const auto& m : milestones) {
    if (m.boot_offset != boot || !m.since_boot_ns) continue;
    const LaneRule* rule = RuleFor(m.milestone);
    if (!rule) continue;
    std::string id(rule->lane);
    if (id == "plugin") {
      id = PluginLaneId(m.container_id);
      if (!by_id.count(id)) plugin_order.push_back(id);
    }
    Lane& lane = by_id[id];
    double seconds = static_cast<double>(*m.since_boot_ns) / 1e9;
    if (!lane.events.empty() && lane.events.back().label == rule->label &&
        seconds - lane.events.back().seconds < kSameMoment) {
      ++lane.events.back().repeats;
    } else {
      lane.events.push_back({seconds, std::string(rule->label), rule->mark, &m});
    }
    if (m.milestone == Milestone::kPluginContainerCreated || m.milestone == Milestone::kPluginContainerStarted ||
        m.milestone == Milestone::kPluginServiceStarted) {
      if (!lane.bar_from || seconds < *lane.bar_from) lane.bar_from = seconds;
    }
    if (m.milestone == Milestone::kPluginContainerFinished) lane.bar_to = seconds;
  }
  for (auto& [id, lane] : by_id) {
    for (auto& e : lane.events) {
      if (e.repeats > 1) e.label += " \xc3\x97" + std::to_string(e.repeats);
    }
  }
  std::vector<Lane> lanes;
  auto take = [&](std::string_view id, std::string title, bool always) {
    auto it = by_id.find(std::string(id));
    if (it == by_id.end() && !always) return;
    Lane lane = it == by_id.end() ? Lane{} : std::move(it->second);
    lane.id = std::string(id);
    lane.title = std::move(title);
    lanes.push_back(std::move(lane));
  };
  for (const auto& fixed : kLanesBeforePlugins) take(fixed.id, std::string(fixed.title), fixed.always);
  for (const auto& id : plugin_order) {
    take(id, id == "plugin-unknown" ? "device plugin (container ?)" : "device plugin " + id.substr(7), true);
  }
  if (plugin_order.empty()) take("plugin-none", "device plugin", true);
  take(kRegistrationLane.id, std::string(kRegistrationLane.title), kRegistrationLane.always);
  take(kClusterLane.id, std::string(kClusterLane.title), kClusterLane.always);
  take(kMetricsLane.id, std::string(kMetricsLane.title), kMetricsLane.always);
  return lanes;
}

struct Gap {
  double ready_seconds;
  double start_seconds;
  std::string ready_name;  // "nvidia-persistenced started" or "driver loaded"
};

// Driver-ready is nvidia-persistenced's start when the boot has one (the
// driver answers NVML reliably only then), else the module load.
std::optional<Gap> FindGap(const std::vector<TimelineRow>& milestones, const std::vector<Interval>& intervals,
                           int64_t boot) {
  for (auto [interval, ready, name] :
       {std::tuple{"plugin_start_after_persistenced", Milestone::kPersistencedStarted, "nvidia-persistenced started"},
        std::tuple{"plugin_start_after_driver_loaded", Milestone::kDriverLoaded, "driver loaded"}}) {
    std::string_view wanted = interval;  // clang 14 cannot capture a structured binding
    auto it = std::find_if(intervals.begin(), intervals.end(),
                           [&](const Interval& i) { return i.boot_offset == boot && i.name == wanted; });
    if (it == intervals.end()) continue;
    for (const auto& m : milestones) {
      if (m.boot_offset != boot || !m.since_boot_ns || m.milestone != ready) continue;
      double from = static_cast<double>(*m.since_boot_ns) / 1e9;
      return Gap{from, from + it->seconds, name};
    }
  }
  return std::nullopt;
}

// Ids stay unique on a page with several boots: "boot0-lane-kernel".
std::string IdPrefix(int64_t boot) { return "boot" + std::to_string(boot) + "-"; }

const char* MarkColor(Mark mark) { return mark == Mark::kBad ? "#d1242f" : mark == Mark::kOk ? "#1a7f37" : "#6e7781"; }

// "10.2 h", "25 min", "90 s".
std::string Duration(double seconds) {
  char text[32];
  if (seconds < 120)
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  else if (seconds < 7200)
    std::snprintf(text, sizeof text, "%.0f min", seconds / 60);
  else if (seconds < 172800)
    std::snprintf(text, sizeof text, "%.1f h", seconds / 3600);
  else
    std::snprintf(text, sizeof text, "%.1f d", seconds / 86400);
  return text;
}

void DrawGap(const Gap& gap, int64_t boot, const SwimlaneAxis& layout, double plot_top, double plot_bottom,
             std::ostringstream& out) {
  double a = layout.X(std::min(gap.ready_seconds, gap.start_seconds));
  double b = layout.X(std::max(gap.ready_seconds, gap.start_seconds));
  double width = std::max(b - a, 3.0);
  double seconds = gap.start_seconds - gap.ready_seconds;
  std::string amount = FormatSeconds(std::abs(seconds));
  if (std::abs(seconds) >= 120) amount += " (" + Duration(std::abs(seconds)) + ")";
  std::string label = "device plugin started " + amount + (seconds >= 0 ? " after " : " BEFORE ") + gap.ready_name;
  char value[32];
  std::snprintf(value, sizeof value, "%.3f", seconds);
  out << "<g id=\"" << IdPrefix(boot) << "gap\" class=\"gap-group\" data-seconds=\"" << value << "\">\n";
  out << "<rect class=\"gap\" x=\"" << Num(a) << "\" y=\"" << Num(plot_top) << "\" width=\"" << Num(width)
      << "\" height=\"" << Num(plot_bottom - plot_top) << "\"/>\n";
  for (double x : {layout.X(gap.ready_seconds), layout.X(gap.start_seconds)}) {
    out << "<line class=\"gap-edge\" x1=\"" << Num(x) << "\" y1=\"" << Num(plot_top - 12) << "\" x2=\"" << Num(x)
        << "\" y2=\"" << Num(plot_bottom) << "\"/>\n";
  }
  double bracket_y = plot_top - 12;
  out << "<path class=\"gap-bracket\" d=\"M" << Num(a) << " " << Num(bracket_y + 5) << " V" << Num(bracket_y) << " H"
      << Num(a + width) << " V" << Num(bracket_y + 5) << "\"/>\n";
  double text_width = static_cast<double>(label.size()) * 7.2;
  double mid = a + width / 2;
  bool right_room = mid + text_width / 2 <= kPlotRight;
  bool left_room = mid - text_width / 2 >= kPlotLeft;
  const char* anchor = right_room && left_room ? "middle" : right_room ? "start" : "end";
  double tx = right_room && left_room ? mid : right_room ? a : a + width;
  out << "<text class=\"gap-label\" x=\"" << Num(tx) << "\" y=\"" << Num(bracket_y - 5) << "\" text-anchor=\"" << anchor
      << "\">" << HtmlEscape(label) << "</text>\n</g>\n";
}

// Backgrounds go first so that the gap band can lie between them and the marks.
void DrawLaneBackground(const Lane& lane, size_t index, std::ostringstream& out) {
  out << "<rect class=\"" << (index % 2 ? "lane-bg odd" : "lane-bg") << "\" x=\"0\" y=\"" << Num(lane.top)
      << "\" width=\"" << Num(kWidth) << "\" height=\"" << Num(lane.height) << "\"/>\n";
}

void DrawLane(const Lane& lane, int64_t boot, const SwimlaneAxis& layout, const DisplayZone& zone,
              std::ostringstream& out) {
  out << "<g id=\"" << IdPrefix(boot) << "lane-" << HtmlEscape(lane.id) << "\" class=\"lane\" data-lane=\""
      << HtmlEscape(lane.title) << "\">\n";
  double mark_y = lane.top + lane.height - kLanePad;
  out << "<text class=\"lane-title\" x=\"12\" y=\"" << Num(mark_y + 4) << "\">" << HtmlEscape(lane.title)
      << "</text>\n";
  out << "<line class=\"lane-axis\" x1=\"" << Num(kPlotLeft) << "\" y1=\"" << Num(mark_y) << "\" x2=\""
      << Num(kPlotRight) << "\" y2=\"" << Num(mark_y) << "\"/>\n";
  if (lane.bar_from) {
    double from = layout.X(*lane.bar_from);
    double to = lane.bar_to ? layout.X(*lane.bar_to) : kPlotRight;
    out << "<rect class=\"life\" x=\"" << Num(from) << "\" y=\"" << Num(mark_y - 4) << "\" width=\""
        << Num(std::max(to - from, 2.0)) << "\" height=\"8\" rx=\"4\"/>\n";
  }
  if (lane.events.empty()) {
    out << "<text class=\"empty\" x=\"" << Num(kPlotLeft + 6) << "\" y=\"" << Num(mark_y - 6)
        << "\">no event in this boot</text>\n";
  }
  for (size_t i = 0; i < lane.events.size(); ++i) {
    const Event& e = lane.events[i];
    double x = layout.X(e.seconds);
    double label_y = mark_y - 10 - kRowHeight * lane.row_of[i];
    double width = static_cast<double>(e.label.size()) * kCharWidth + 10;
    bool flip = x + width > kPlotRight;
    std::string title = zone.Format(e.row->time_ns) + "  " + FormatOffset(*e.row->since_boot_ns) + "  " +
                        std::string(e.row->milestone_name()) + "\n" + e.row->message;
    if (e.repeats > 1) title += "\n(and " + std::to_string(e.repeats - 1) + " more within a second)";
    out << "<g class=\"event\"><title>" << HtmlEscape(title) << "</title>";
    if (lane.row_of[i] > 0) {
      out << "<line class=\"leader\" x1=\"" << Num(x) << "\" y1=\"" << Num(label_y + 3) << "\" x2=\"" << Num(x)
          << "\" y2=\"" << Num(mark_y - 5) << "\"/>";
    }
    out << "<circle cx=\"" << Num(x) << "\" cy=\"" << Num(mark_y) << "\" r=\"5\" fill=\"" << MarkColor(e.mark)
        << "\"/>";
    out << "<text class=\"mark-label" << (e.mark == Mark::kBad ? " bad" : "") << "\" x=\"" << Num(flip ? x + 4 : x - 4)
        << "\" y=\"" << Num(label_y) << "\"" << (flip ? " text-anchor=\"end\"" : "") << ">" << HtmlEscape(e.label)
        << "</text></g>\n";
  }
  out << "</g>\n";
}

void DrawAxis(const SwimlaneAxis& axis, double plot_top, double plot_bottom, std::ostringstream& out) {
  out << "<g class=\"axis\">\n";
  for (double t : axis.Ticks()) {
    double x = axis.X(t);
    out << "<line class=\"grid\" x1=\"" << Num(x) << "\" y1=\"" << Num(plot_top) << "\" x2=\"" << Num(x) << "\" y2=\""
        << Num(plot_bottom) << "\"/>";
    char text[32];
    std::snprintf(text, sizeof text, axis.tick_step() < 1 ? "%.1f s" : "%.0f s", t);
    out << "<text class=\"tick\" x=\"" << Num(x) << "\" y=\"" << Num(plot_bottom + 16) << "\" text-anchor=\"middle\">"
        << text << "</text>\n";
  }
  out << "</g>\n";
}

// A cut-out stretch: blank, zigzag edges, its length at the axis.
void DrawBreaks(const SwimlaneAxis& axis, double plot_top, double plot_bottom, std::ostringstream& out) {
  for (const auto& b : axis.breaks()) {
    double a = axis.X(b.from_seconds), z = axis.X(b.to_seconds);
    out << "<g class=\"break\" data-seconds=\"" << Num(b.to_seconds - b.from_seconds) << "\">";
    out << "<rect class=\"break-fill\" x=\"" << Num(a) << "\" y=\"" << Num(plot_top) << "\" width=\"" << Num(z - a)
        << "\" height=\"" << Num(plot_bottom - plot_top) << "\"/>";
    for (double x : {a, z}) {
      out << "<path class=\"break-edge\" d=\"M" << Num(x) << " " << Num(plot_top);
      for (double y = plot_top + 6; y <= plot_bottom; y += 6)
        out << " L" << Num(x + (static_cast<int>(y) % 12 < 6 ? 3 : -3)) << " " << Num(y);
      out << "\"/>";
    }
    out << "<text class=\"break-label\" x=\"" << Num((a + z) / 2) << "\" y=\"" << Num(plot_bottom + 16)
        << "\" text-anchor=\"middle\">" << HtmlEscape(Duration(b.to_seconds - b.from_seconds)) << "</text></g>\n";
  }
}

}  // namespace

std::vector<int64_t> SwimlaneBoots(const std::vector<TimelineRow>& milestones) {
  std::set<int64_t> boots;
  for (const auto& m : milestones) {
    if (m.boot_offset && m.since_boot_ns && RuleFor(m.milestone)) boots.insert(*m.boot_offset);
  }
  return std::vector<int64_t>(boots.rbegin(), boots.rend());
}

std::string RenderSwimlaneSvg(const std::vector<TimelineRow>& milestones, const std::vector<Interval>& intervals,
                              int64_t boot, const DisplayZone& zone) {
  std::vector<Lane> lanes = BuildLanes(milestones, boot);
  std::vector<double> times;
  std::optional<int64_t> boot_start_ns, collection_ns;
  for (const auto& m : milestones) {
    if (m.boot_offset != boot || !m.since_boot_ns) continue;
    if (m.milestone == Milestone::kBoot) boot_start_ns = m.time_ns;
    if (m.milestone == Milestone::kCollection) collection_ns = *m.since_boot_ns;
    if (RuleFor(m.milestone)) times.push_back(static_cast<double>(*m.since_boot_ns) / 1e9);
  }
  if (times.empty()) return "";
  SwimlaneAxis layout(times, kPlotLeft, kPlotRight);

  double y = kHeader;
  for (auto& lane : lanes) {
    StackLabels(lane, layout);
    lane.top = y;
    lane.height = kLanePad + 12 + kRowHeight * lane.rows;
    y += lane.height;
  }
  const double plot_top = kHeader, plot_bottom = y, height = y + kFooter;

  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"swimlanes\" id=\"swimlanes-boot-" << boot
      << "\" viewBox=\"0 0 " << Num(kWidth) << " " << Num(height) << "\" width=\"" << Num(kWidth) << "\" height=\""
      << Num(height) << "\" role=\"img\" aria-labelledby=\"swimlanes-title-" << boot << "\">\n";
  std::string title = "boot " + std::to_string(boot) + (boot == 0 ? " (at capture)" : "");
  if (boot_start_ns) title += ", started " + zone.Format(*boot_start_ns);
  out << "<title id=\"swimlanes-title-" << boot << "\">GPU chain swimlanes, " << HtmlEscape(title) << "</title>\n";
  out << "<text class=\"svg-title\" x=\"12\" y=\"20\">" << HtmlEscape(title) << "</text>\n";
  if (collection_ns && static_cast<double>(*collection_ns) / 1e9 > layout.max_seconds()) {
    double hours = static_cast<double>(*collection_ns) / 3.6e12;
    char note[96];
    std::snprintf(note, sizeof note, "collection at %s (%.1f h into the boot) is off the right edge",
                  FormatOffset(*collection_ns).c_str(), hours);
    out << "<text class=\"note\" x=\"" << Num(kPlotRight) << "\" y=\"20\" text-anchor=\"end\">" << HtmlEscape(note)
        << "</text>\n";
  }
  for (size_t i = 0; i < lanes.size(); ++i) DrawLaneBackground(lanes[i], i, out);
  DrawAxis(layout, plot_top, plot_bottom, out);
  if (auto gap = FindGap(milestones, intervals, boot)) DrawGap(*gap, boot, layout, plot_top, plot_bottom, out);
  DrawBreaks(layout, plot_top, plot_bottom, out);
  for (const auto& lane : lanes) DrawLane(lane, boot, layout, zone, out);
  out << "<text class=\"axis-title\" x=\"" << Num(kPlotLeft) << "\" y=\"" << Num(height - 6)
      << "\">seconds since the boot started</text>\n";
  out << "</svg>\n";
  return out.str();
}

}  // namespace gpuf
