#include "analyzer/render_text.h"

#include <sstream>

namespace gpuf {

std::string RenderText(const Report& r) {
  std::ostringstream out;
  out << "gpuforensics report: " << r.bundle_path << "\n";
  out << "node " << (r.node.empty() ? "(unknown)" : r.node) << ", collected " << r.collected_at_utc
      << " by gpuforensics " << r.tool_version;
  out << (r.complete ? ", complete" : ", INCOMPLETE (" + r.incomplete_reason + ")") << "\n";
  out << "integrity: " << (r.integrity_issues.empty() ? "every member matches the manifest" : "PROBLEMS") << "\n";
  for (const auto& issue : r.integrity_issues) out << "  " << issue << "\n";

  out << "\nGPU chain\n";
  size_t width = 0;
  for (const auto& f : r.chain) width = std::max(width, f.step.size());
  for (const auto& f : r.chain) {
    out << "  " << f.step << std::string(width - f.step.size() + 2, ' ') << f.value;
    if (!f.evidence.empty()) out << "  [" << f.evidence << "]";
    out << "\n";
  }

  out << "\nJournal\n";
  if (r.journal_counts.empty()) out << "  no journal slices in the bundle\n";
  for (const auto& j : r.journal_counts) out << "  " << j << "\n";

  out << "\nCoverage: " << r.artifacts_total << " artifacts, " << r.artifacts_ok << " ok, " << r.artifacts_failed
      << " failed, " << r.artifacts_skipped << " skipped";
  if (r.load_warnings > 0) out << ", " << r.load_warnings << " unparsed lines";
  out << "\n";
  for (const auto& c : r.coverage) out << "  " << c << "\n";
  return out.str();
}

}  // namespace gpuf
