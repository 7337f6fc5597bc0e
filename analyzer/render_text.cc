#include "analyzer/render_text.h"

#include <cstdio>
#include <sstream>

namespace gpuf {

namespace {

std::string Pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  return text;
}

void RenderVerdict(const Report& r, std::ostringstream& out) {
  out << "\nGPU chain verdict\n";
  int number = 0;
  for (const auto& step : r.verdict) {
    std::string status = StepStatusName(step.status);
    if (step.status == StepStatus::kFailed) status = Upper(status);
    out << "  " << Pad(std::to_string(++number), 3) << Pad(step.name, 37) << Pad(status, 9);
    out << (step.detail.empty() ? step.missing : step.detail);
    if (!step.detail.empty() && !step.missing.empty()) out << "; " << step.missing;
    out << "\n";
  }
}

void RenderMilestones(const Report& r, const DisplayZone& zone, std::ostringstream& out) {
  out << "\nBoot timeline (milestones, " << zone.name() << "; offset since the boot started)\n";
  if (r.milestones.empty()) out << "  no timestamped milestones in the bundle\n";
  std::optional<int64_t> current_boot;
  bool first = true;
  for (const auto& m : r.milestones) {
    if (first || m.boot_offset != current_boot) {
      out << "  boot " << (m.boot_offset ? std::to_string(*m.boot_offset) : std::string("?")) << "\n";
      current_boot = m.boot_offset;
      first = false;
    }
    std::string offset = m.since_boot_ns ? FormatOffset(*m.since_boot_ns) : "";
    std::string message = m.message.size() > 90 ? m.message.substr(0, 87) + "..." : m.message;
    out << "    " << zone.Format(m.time_ns) << "  " << Pad(offset, 12) << " " << Pad(m.milestone, 31) << message << "\n";
  }
  if (r.intervals.empty()) return;
  out << "\nIntervals\n";
  for (const auto& i : r.intervals) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f s", i.seconds);
    out << "  boot " << Pad(std::to_string(i.boot_offset), 4) << Pad(i.name, 44) << seconds << "\n";
  }
}

void RenderCoverage(const Report& r, std::ostringstream& out) {
  out << "\nCoverage: " << r.artifacts_total << " artifacts, " << r.artifacts_ok << " ok, " << r.artifacts_failed
      << " failed, " << r.artifacts_skipped << " skipped";
  if (r.parse_warnings > 0) out << ", " << r.parse_warnings << " unparsed lines";
  if (r.timeline_warnings > 0) out << ", " << r.timeline_warnings << " guessed times";
  out << "\n";
  for (const auto& c : r.coverage) out << "  " << c << "\n";
}

}  // namespace

std::string FormatOffset(int64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.3fs", static_cast<double>(ns) / 1e9);
  return text;
}

std::string RenderText(const Report& r, const DisplayZone& zone) {
  std::ostringstream out;
  out << "gpuforensics report: " << r.bundle_path << "\n";
  out << "node " << (r.node.empty() ? "(unknown)" : r.node);
  if (!r.node_zone.empty()) out << " (zone " << r.node_zone << ")";
  out << ", collected " << zone.Format(r.collected_at_ns) << " by gpuforensics " << r.tool_version;
  out << (r.complete ? ", complete" : ", INCOMPLETE (" + r.incomplete_reason + ")") << "\n";
  out << "integrity: " << (r.integrity_issues.empty() ? "every member matches the manifest" : "PROBLEMS") << "\n";
  for (const auto& issue : r.integrity_issues) out << "  " << issue << "\n";
  RenderVerdict(r, out);
  RenderMilestones(r, zone, out);
  RenderCoverage(r, out);
  return out.str();
}

}  // namespace gpuf
