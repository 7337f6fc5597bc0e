#include "analyzer/rules/artifact_index.h"

#include <re2/re2.h>

#include <set>

#include "common/artifacts.h"
#include "common/byte_pattern.h"
#include "common/journal_slices.h"
#include "common/text_lines.h"
#include "formats/plugin_log.h"

namespace gpuf {

bool ArtifactNameMatches(std::string_view pattern, std::string_view name) {
  if (!pattern.empty() && pattern.back() == '*') return name.substr(0, pattern.size() - 1) == pattern.substr(0, pattern.size() - 1);
  return name == pattern;
}

namespace {

// A journal slice whose journalctl timed out, or that the cap cut, holds part
// of its boot: what it holds is evidence, a line it lacks is not known to be
// absent. (The collector reads slices newest first, so the part is the newest.)
void MarkPartialJournalSlice(BundleArtifact& a, bool truncated) {
  if (FindJournalSlice(a.name) == nullptr) return;
  if (a.status == ProbeStatus::kTimedOut) {
    a.usable = true;
    a.gap = "its journalctl timed out: only part of the boot was read";
  } else if (a.usable && truncated) {
    a.gap = "the cap cut it: its oldest lines were dropped";
  }
}

}  // namespace

Result<ArtifactIndex> ArtifactIndex::Load(Database& db, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare("SELECT artifact_id, name, instance, status, skip_reason, truncated, context "
                                                "FROM artifacts WHERE bundle_id = ? ORDER BY artifact_id"));
  s.Bind(1, bundle_id);
  ArtifactIndex index;
  while (s.Step()) {
    BundleArtifact a;
    a.artifact_id = s.ColumnInt(0);
    a.name = s.ColumnText(1);
    a.instance = s.ColumnText(2);
    // The schema's CHECK constraints hold both columns to their word lists.
    a.status = Parse<ProbeStatus>(s.ColumnText(3)).value_or(ProbeStatus::kError);
    a.skip_reason = Parse<SkipReason>(s.ColumnText(4));
    a.usable = a.status == ProbeStatus::kOk || a.status == ProbeStatus::kNonzeroExit;
    a.context = s.ColumnText(6);
    MarkPartialJournalSlice(a, s.ColumnInt(5) != 0);
    index.by_id_[a.artifact_id] = index.artifacts_.size();
    index.artifacts_.push_back(a);
  }
  GPUF_RETURN_IF_ERROR(s.status());
  GPUF_RETURN_IF_ERROR(index.MarkJournalGaps(db, bundle_id));
  GPUF_RETURN_IF_ERROR(index.MarkCutShortPluginLogs(db, bundle_id));
  GPUF_RETURN_IF_ERROR(index.MarkKernelLogsWithoutTheirCause(db, bundle_id));
  GPUF_RETURN_IF_ERROR(index.MarkUnitOnlySystemdTexts(db, bundle_id));
  GPUF_RETURN_IF_ERROR(index.MarkContainers(db, bundle_id));
  return index;
}

Status ArtifactIndex::MarkJournalGaps(Database& db, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(
      "SELECT j.event, j.event_subject, j.message FROM journal_entries j JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = ? AND a.name = ? AND j.boot_offset = 0 "
      "AND j.event IN ('messages_suppressed', 'kernel_messages_missed') ORDER BY j.line"));
  s.Bind(1, bundle_id);
  s.Bind(2, std::string(artifact::kJournalJournald));
  while (s.Step()) {
    const JournalSliceRow* slice = s.ColumnText(0) == "kernel_messages_missed" ? FindJournalSlice(artifact::kJournalKernel)
                                                                              : JournalSliceForUnit(s.ColumnText(1));
    if (!slice) continue;
    for (auto& a : artifacts_) {
      if (a.name == slice->name && a.instance == "boot:0" && a.gap.empty()) a.gap = "journald: " + s.ColumnText(2);
    }
  }
  return s.status();
}

// A saved journal text whose systemd lines all speak of a unit ("Started
// kubelet.service") is what `journalctl -u UNIT` prints: the manager's own
// lines (a daemon-reload, "Startup finished") never come with it, so their
// absence there says nothing. The collector's own slice is whole by
// construction; only an imported one is judged by its lines.
Status ArtifactIndex::MarkUnitOnlySystemdTexts(Database& db, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(
      "SELECT a.artifact_id FROM artifacts a JOIN bundles b USING (bundle_id) "
      "WHERE a.bundle_id = ? AND a.name = ? AND b.origin_kind IS NOT NULL "
      "AND EXISTS (SELECT 1 FROM journal_entries j WHERE j.artifact_id = a.artifact_id) "
      "AND NOT EXISTS (SELECT 1 FROM journal_entries j WHERE j.artifact_id = a.artifact_id "
      "                AND ifnull(j.event_subject, '') = '')"));
  s.Bind(1, bundle_id);
  s.Bind(2, std::string(artifact::kJournalSystemd));
  while (s.Step()) {
    SetGap(s.ColumnInt(0), "a saved text of systemd's lines about some units only (journalctl -u): the manager's "
                           "own lines, a daemon-reload among them, are not in it");
  }
  return s.status();
}

// A container's log and the probes run inside it or on its state are
// keyed by its ID or its log's path (the artifact's instance). A plugin
// log whose container the runtime's listing does not hold is still one
// container's: its path names it; so is another pod's saved log.
Status ArtifactIndex::MarkContainers(Database& db, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(
      Statement s,
      db.Prepare("SELECT a.artifact_id, c.id FROM artifacts a JOIN containers c "
                 "ON c.bundle_id = a.bundle_id AND a.instance <> '' AND (a.instance = c.id OR a.instance = c.log_path) "
                 "WHERE a.bundle_id = ?"));
  s.Bind(1, bundle_id);
  while (s.Step()) {
    auto it = by_id_.find(s.ColumnInt(0));
    if (it != by_id_.end()) artifacts_[it->second].container = AsciiLower(s.ColumnText(1));
  }
  GPUF_RETURN_IF_ERROR(s.status());
  for (auto& a : artifacts_) {
    const bool pod_log = a.name == artifact::kSavedText && a.context == "container";
    if (a.container.empty() && (a.name == artifact::kPluginLog || pod_log) && !a.instance.empty()) {
      a.container = a.instance;
    }
  }
  return Status::Ok();
}

Status ArtifactIndex::MarkCutShortPluginLogs(Database& db, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(
      "SELECT DISTINCT w.artifact_id FROM parse_warnings w JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = ? AND w.message = ?"));
  s.Bind(1, bundle_id);
  s.Bind(2, std::string(kConfigDumpCutShort));
  while (s.Step()) SetGap(s.ColumnInt(0), "it ends inside the plugin's config dump, before NVML was loaded: cut short");
  return s.status();
}

// "NVRM: Xid (PCI:0000:dc:00): 45, pid=..., Ch 00000001 caused by previous
// Xid 149": the driver names the Xid a channel teardown follows. A kernel log
// that holds the teardown and not that Xid starts after it. The artifact is
// tested before the text: the journal has no index by artifact, and LIKE on
// every entry of every slice cost more than the rest of the index.
Status ArtifactIndex::MarkKernelLogsWithoutTheirCause(Database& db, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(
      "SELECT j.artifact_id, j.message FROM journal_entries j "
      "WHERE j.artifact_id IN (SELECT artifact_id FROM artifacts WHERE bundle_id = ? AND name = ? "
      "AND instance = 'boot:0') AND j.message LIKE '%NVRM: Xid%' ORDER BY j.line"));
  s.Bind(1, bundle_id);
  s.Bind(2, std::string(artifact::kJournalKernel));
  static const RE2 xid(R"(NVRM: Xid \([^)]*\): (\d+))", BytePatternOptions());
  static const RE2 cause(R"(caused by previous Xid (\d+))", BytePatternOptions());
  std::map<int64_t, std::set<std::string>> seen;
  std::map<int64_t, std::set<std::string>> missing;
  while (s.Step()) {
    int64_t id = s.ColumnInt(0);
    std::string message = s.ColumnText(1);
    std::string number, earlier;
    if (RE2::PartialMatch(message, xid, &number)) seen[id].insert(number);
    if (RE2::PartialMatch(message, cause, &earlier) && !seen[id].count(earlier)) missing[id].insert(earlier);
  }
  GPUF_RETURN_IF_ERROR(s.status());
  for (const auto& [id, numbers] : missing) {
    std::string list;
    for (const auto& n : numbers) list += (list.empty() ? "Xid " : ", ") + n;
    SetGap(id, "its Xid lines follow an earlier " + list + " that it does not hold: it starts late");
  }
  return Status::Ok();
}

void ArtifactIndex::SetGap(int64_t artifact_id, std::string gap) {
  auto it = by_id_.find(artifact_id);
  if (it != by_id_.end() && artifacts_[it->second].gap.empty()) artifacts_[it->second].gap = std::move(gap);
}

bool ArtifactIndex::Usable(std::string_view pattern) const {
  for (const auto& a : artifacts_) {
    if (a.usable && ArtifactNameMatches(pattern, a.name)) return true;
  }
  return false;
}

bool ArtifactIndex::Complete(std::string_view pattern) const {
  bool usable = false;
  for (const auto& a : artifacts_) {
    if (!ArtifactNameMatches(pattern, a.name)) continue;
    if (a.usable && !a.gap.empty()) return false;
    usable = usable || a.usable;
  }
  return usable;
}

std::string ArtifactIndex::Gap(std::string_view pattern) const {
  for (const auto& a : artifacts_) {
    if (a.usable && !a.gap.empty() && ArtifactNameMatches(pattern, a.name)) return a.gap;
  }
  return "";
}

std::string ArtifactIndex::Why(std::string_view pattern) const {
  std::string statuses;
  for (const auto& a : artifacts_) {
    if (!ArtifactNameMatches(pattern, a.name)) continue;
    std::string status(Name(a.status));
    if (a.skip_reason) status += ": " + Word(*a.skip_reason);
    if (!a.gap.empty()) status += "; " + a.gap;
    if (statuses.find(status) == std::string::npos) statuses += (statuses.empty() ? "" : ", ") + status;
  }
  return std::string(pattern) + " (" + (statuses.empty() ? "not collected" : statuses) + ")";
}

std::vector<std::string> ArtifactIndex::Unmet(const std::vector<std::vector<std::string>>& groups) const {
  std::vector<std::string> unmet;
  for (const auto& group : groups) {
    bool met = false;
    std::string why;
    for (const auto& name : group) {
      met = met || Usable(name);
      why += (why.empty() ? "" : " or ") + Why(name);
    }
    if (!met) unmet.push_back(why);
  }
  return unmet;
}

std::string ArtifactIndex::Label(int64_t artifact_id) const {
  auto it = by_id_.find(artifact_id);
  if (it == by_id_.end()) return "";
  const BundleArtifact& a = artifacts_[it->second];
  return a.instance.empty() ? a.name : a.name + "[" + a.instance + "]";
}

const BundleArtifact* ArtifactIndex::Find(int64_t artifact_id) const {
  auto it = by_id_.find(artifact_id);
  return it == by_id_.end() ? nullptr : &artifacts_[it->second];
}

}  // namespace gpuf
