#include "analyzer/render/render_fleet.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "common/json_bytes.h"

namespace gpuf {

namespace {

using Json = nlohmann::ordered_json;

// One printf-formatted line; the fields are short names and numbers.
template <typename... Args>
void AppendLine(std::string& out, const char* format, Args... args) {
  char line[512];
  std::snprintf(line, sizeof line, format, args...);
  out += line;
}

long long L(int64_t v) { return static_cast<long long>(v); }

}  // namespace

std::string RenderFleetText(const FleetSummary& s) {
  std::string out;
  AppendLine(out, "fleet: %lld bundles, %lld analyzed, from %lld nodes\n", L(s.bundles), L(s.analyzed), L(s.nodes));
  if (s.with_gaps > 0) {
    AppendLine(out, "  %lld of them incomplete or with members missing or not matching the manifest\n", L(s.with_gaps));
  }

  out += "\nnodes by finding\n";
  if (s.findings.empty()) out += "  (none)\n";
  for (const auto& f : s.findings) {
    AppendLine(out, "  %6lld  %-8s  %s\n", L(f.nodes), f.severity.c_str(), f.rule_id.c_str());
  }

  out += "\nnodes by chain step not ok (failed, unknown)\n";
  if (s.steps.empty()) out += "  (every step ok on every node)\n";
  for (const auto& step : s.steps) {
    AppendLine(out, "  %2lld  %-34s %6lld failed  %6lld unknown\n", L(step.step_number), step.step_name.c_str(),
               L(step.failed_nodes), L(step.unknown_nodes));
  }

  out += "\nnodes by component version\n";
  for (const auto& v : s.versions) {
    AppendLine(out, "  %-28s %-24s %6lld\n", v.component.c_str(), v.version.c_str(), L(v.nodes));
  }

  AppendLine(out, "\nintervals of the boot at capture (nodes; negative: order reversed; within: 0 to %g s)\n",
             s.within_seconds);
  AppendLine(out, "  %-42s %6s %8s %7s %10s %10s %10s\n", "interval", "nodes", "negative", "within", "min s",
             "median s", "max s");
  for (const auto& i : s.intervals) {
    AppendLine(out, "  %-42s %6lld %8lld %7lld %10.3f %10.3f %10.3f\n", i.name.c_str(), L(i.nodes), L(i.negative),
               L(i.within), i.min_seconds, i.median_seconds, i.max_seconds);
  }
  if (!s.detections.empty()) {
    out +=
        "\ndetection delay by cluster and cause (nodes; median seconds from the cause's first sign to the drop, "
        "from the drop to the alert)\n";
    AppendLine(out, "  %-36s %-36s %6s %12s %12s %9s\n", "cluster (kube-system uid)", "cause", "nodes", "to drop s",
               "to alert s", "no alert");
  }
  for (const auto& d : s.detections) {
    const auto seconds = [](const std::optional<double>& v) {
      char text[32];
      std::snprintf(text, sizeof text, "%.0f", v.value_or(0));
      return v ? std::string(text) : std::string("-");
    };
    AppendLine(out, "  %-36s %-36s %6lld %12s %12s %9lld\n", d.cluster_uid.empty() ? "?" : d.cluster_uid.c_str(),
               d.cause_rule.empty() ? "?" : d.cause_rule.c_str(), L(d.nodes), seconds(d.median_cause_to_drop_s).c_str(),
               seconds(d.median_drop_to_alert_s).c_str(), L(d.without_alert));
  }
  return out;
}

std::string RenderFleetJson(const FleetSummary& s) {
  Json findings = Json::array(), steps = Json::array(), versions = Json::array(), intervals = Json::array();
  for (const auto& f : s.findings) findings.push_back({{"rule_id", f.rule_id}, {"severity", f.severity}, {"nodes", f.nodes}});
  for (const auto& step : s.steps) {
    steps.push_back({{"step", step.step_number},
                     {"name", step.step_name},
                     {"failed_nodes", step.failed_nodes},
                     {"unknown_nodes", step.unknown_nodes}});
  }
  for (const auto& v : s.versions) {
    versions.push_back({{"component", v.component}, {"version", v.version}, {"nodes", v.nodes}});
  }
  for (const auto& i : s.intervals) {
    intervals.push_back({{"name", i.name},
                         {"nodes", i.nodes},
                         {"negative", i.negative},
                         {"within", i.within},
                         {"min_seconds", i.min_seconds},
                         {"median_seconds", i.median_seconds},
                         {"max_seconds", i.max_seconds}});
  }
  Json detections = Json::array();
  for (const auto& d : s.detections) {
    const auto nullable = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
    detections.push_back({{"cluster_uid", d.cluster_uid.empty() ? Json(nullptr) : Json(d.cluster_uid)},
                          {"cause_rule", d.cause_rule.empty() ? Json(nullptr) : Json(d.cause_rule)},
                          {"nodes", d.nodes},
                          {"median_cause_to_drop_seconds", nullable(d.median_cause_to_drop_s)},
                          {"median_drop_to_alert_seconds", nullable(d.median_drop_to_alert_s)},
                          {"without_alert", d.without_alert}});
  }
  Json doc = {{"format", "gpuforensics-fleet"},
              {"format_version", kFleetJsonVersion},
              {"bundles", s.bundles},
              {"analyzed", s.analyzed},
              {"nodes", s.nodes},
              {"with_gaps", s.with_gaps},
              {"within_seconds", s.within_seconds},
              {"findings", findings},
              {"chain_steps_not_ok", steps},
              {"versions", versions},
              {"intervals", intervals},
              {"detections", detections}};
  return DumpJson(doc, 2, NonUtf8::kEscaped) + "\n";
}

}  // namespace gpuf
