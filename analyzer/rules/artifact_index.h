// The artifacts of one loaded bundle, as rules ask for them: by logical name
// ("host.nvidia_smi_list", or "journal.*" for a prefix), usable or not. An
// artifact is usable when its probe ran to the end: status ok, or
// nonzero_exit (a failing command's output is evidence too). A timed-out,
// skipped or failed probe is not, and says why. A journal slice of the boot
// at capture from which journald dropped lines (its rate limit, missed
// kernel messages; journal.journald says so) is usable but has gaps: a line
// not found there is unknown, not absent. So is a device-plugin log that ends
// inside the plugin's config dump: it was cut short before NVML was loaded;
// and a kernel log whose Xid lines name an earlier Xid it does not hold.
// A journal slice that timed out or was capped is usable with a gap: its
// lines are evidence, their absence is not.
#ifndef GPUF_ANALYZER_RULES_ARTIFACT_INDEX_H_
#define GPUF_ANALYZER_RULES_ARTIFACT_INDEX_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/database.h"
#include "common/status.h"
#include "common/vocabulary.h"

namespace gpuf {

// "journal.*" matches every name starting with "journal."; others match exactly.
bool ArtifactNameMatches(std::string_view pattern, std::string_view name);

struct BundleArtifact {
  int64_t artifact_id = 0;
  std::string name;
  std::string instance;
  ProbeStatus status = ProbeStatus::kError;
  std::optional<SkipReason> skip_reason;
  std::string context;  // host | container | unknown (a paste that does not say where it ran)
  // The container whose log or state it is (its ID, or its log's path when
  // the runtime's listing does not name it); "" for anything else.
  std::string container;
  bool usable = false;
  std::string gap;  // what is missing from it (journald's drops, a cut), "" for none
};

class ArtifactIndex {
 public:
  // Fails when the database does.
  static Result<ArtifactIndex> Load(Database& db, int64_t bundle_id);

  const std::vector<BundleArtifact>& artifacts() const { return artifacts_; }
  bool Usable(std::string_view pattern) const;
  // Usable, and no instance with a gap: its silence is evidence.
  bool Complete(std::string_view pattern) const;
  // What is missing from a usable instance of it; "" when nothing.
  std::string Gap(std::string_view pattern) const;
  // For each group none of whose names is usable: "a (timed_out) or b (not collected)".
  std::vector<std::string> Unmet(const std::vector<std::vector<std::string>>& groups) const;
  // "plugin.log[/var/log/pods/.../0.log]", "driver.version"; "" for an unknown id.
  std::string Label(int64_t artifact_id) const;
  // nullptr for an unknown id.
  const BundleArtifact* Find(int64_t artifact_id) const;

 private:
  std::string Why(std::string_view pattern) const;
  Status MarkJournalGaps(Database& db, int64_t bundle_id);
  Status MarkCutShortPluginLogs(Database& db, int64_t bundle_id);
  Status MarkKernelLogsWithoutTheirCause(Database& db, int64_t bundle_id);
  Status MarkUnitOnlySystemdTexts(Database& db, int64_t bundle_id);
  Status MarkContainers(Database& db, int64_t bundle_id);
  // The first gap found for an artifact is the one it keeps.
  void SetGap(int64_t artifact_id, std::string gap);

  std::vector<BundleArtifact> artifacts_;
  std::map<int64_t, size_t> by_id_;
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_ARTIFACT_INDEX_H_
