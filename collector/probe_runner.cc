#include "collector/probe_runner.h"

#include <fnmatch.h>
#include <linux/magic.h>
#include <sys/statfs.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "collector/bounded_copy.h"
#include "collector/journal_splitter.h"
#include "collector/listing.h"
#include "collector/nvidia_pci.h"
#include "collector/run_each.h"
#include "collector/secrets.h"
#include "collector/subprocess.h"
#include "common/bundle_layout.h"
#include "common/file_io.h"
#include "common/journal_match.h"
#include "common/text_lines.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

std::string StagingPath(const ProbeEnvironment& env, int sequence, std::string_view stream) {
  return env.staging_dir + "/" + std::to_string(sequence) + "." + std::string(stream);
}

ManifestArtifact BaseArtifact(const ProbeTask& task) {
  ManifestArtifact a;
  a.name = task.name;
  a.instance = task.instance;
  a.phase = task.phase;
  a.context = task.context;
  a.container_id = task.container_id;
  a.kind = std::string(ArtifactKindName(StoredKind(task.kind)));
  if (task.kind == ProbeKind::kCommand) a.argv = task.argv;
  if (task.kind != ProbeKind::kCommand) {
    std::string joined;
    for (const auto& p : task.paths) joined += (joined.empty() ? "" : " ") + p;
    a.path = joined;
  }
  a.started_at_unix_ns = WallClockNowNs();
  a.ended_at_unix_ns = a.started_at_unix_ns;
  return a;
}

void SetStatus(ManifestArtifact& a, ProbeStatus status) { a.status = status; }

void MarkSkipped(ManifestArtifact& a, SkipReason reason, std::string detail) {
  SetStatus(a, ProbeStatus::kSkipped);
  a.skip_reason = reason;
  a.error = std::move(detail);
}

// Replaces a staged file's content: written new beside it, then renamed
// over it, so a failure (a full disk on a broken node) leaves the old
// content whole and says so.
Status RewriteStaged(const std::string& path, std::string_view text) {
  const std::string next = path + ".rewritten";
  Status written = WriteWholeFile(next, text);
  if (written.ok() && std::rename(next.c_str(), path.c_str()) != 0) {
    written = Status::IoError("renaming '" + next + "'", std::strerror(errno));
  }
  if (!written.ok()) std::remove(next.c_str());
  return written;
}

// Applies the task's redaction to a staged file; the number of values
// replaced, or why it could not be done.
Result<int> RedactStagedFile(const std::string& path, Redaction redaction) {
  GPUF_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path));
  int count = RedactText(text, redaction);
  if (count > 0) GPUF_RETURN_IF_ERROR(RewriteStaged(path, text));
  return count;
}

// Rewrites each JSON-object line with its keys sorted; other lines stay.
Status SortJsonLinesInFile(const std::string& path) {
  GPUF_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path));
  std::string sorted;
  sorted.reserve(text.size());
  ForEachLine(text, [&](int, std::string_view line) {
    auto doc = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (doc.is_object()) {
      sorted += doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } else {
      sorted += line;
    }
    sorted += '\n';
  });
  return RewriteStaged(path, sorted);
}

// Records a finished stream; sizes come from the file after redaction. A
// stream whose redaction failed is not stored at all: its staged bytes may
// still hold what redaction was to remove.
Status AddOutput(ProbeResult& result, std::string_view stream, const CappedFile& file, Redaction redaction) {
  if (!file.write_status().ok()) {
    std::remove(file.path().c_str());
    return Status::IoError("staging it failed", file.write_status().message());
  }
  auto redacted = RedactStagedFile(file.path(), redaction);
  if (!redacted.ok()) {
    std::remove(file.path().c_str());
    return Status::IoError("redaction failed", redacted.status().message());
  }
  result.artifact.redactions += *redacted;
  ManifestOutput out;
  out.stream = std::string(stream);
  out.truncated = file.truncated();
  out.dropped_bytes = file.dropped_bytes();
  result.artifact.outputs.push_back(out);
  result.staged.push_back({std::string(stream), file.path()});
  if (file.truncated()) result.artifact.truncated = true;
  return Status::Ok();
}

// Removes the staged files and the outputs the manifest would list.
void ForgetOutputs(ProbeResult& result) {
  for (const auto& staged : result.staged) std::remove(staged.staging_path.c_str());
  result.staged.clear();
  result.artifact.outputs.clear();
}

// The artifact keeps no output when one could not be staged or redacted,
// and the collection is then incomplete (collect.cc).
void DropOutputs(ProbeResult& result, const Status& why) {
  ForgetOutputs(result);
  SetStatus(result.artifact, ProbeStatus::kError);
  result.artifact.error = "output dropped: " + why.message();
  result.not_stored = true;
}

// journalctl's words for a boot the journal does not hold: the first boot
// since the journal began, or a volatile journal (systemd 239-252, 253+).
bool SaysNoSuchBoot(std::string_view journalctl_stderr) {
  for (std::string_view words : {"No such boot ID in journal", "No journal boot entry found",
                                 "no persistent journal was found"}) {
    if (journalctl_stderr.find(words) != std::string_view::npos) return true;
  }
  return false;
}

// A journal slice of a boot the journal does not hold is not a failed
// probe: nothing was there to read. The first line of its stderr is kept
// as the reason.
void MarkMissingBoot(ProbeResult& result, const std::string& stderr_path) {
  auto said = ReadWholeFile(stderr_path);
  if (!said.ok() || !SaysNoSuchBoot(*said)) return;
  std::string first_line = said->substr(0, said->find('\n'));
  ForgetOutputs(result);
  MarkSkipped(result.artifact, SkipReason::kNotFound, "the journal holds no such boot: " + first_line);
}

// The command as the host runs it, or why it cannot start now.
std::optional<PreparedCommand> PrepareCommand(const ProbeTask& task, const ProbeEnvironment& env,
                                              ManifestArtifact& a) {
  PreparedCommand command = env.exec->Prepare(task.argv);
  if (command.executable.empty()) {
    MarkSkipped(a, SkipReason::kToolMissing, command.missing);
    return std::nullopt;
  }
  a.executable = command.executable;
  a.argv = command.argv;
  if (MonotonicNowNs() >= env.deadline_monotonic_ns) {
    MarkSkipped(a, SkipReason::kDeadline, "the collection deadline passed before this probe started");
    return std::nullopt;
  }
  return command;
}

int64_t ProbeDeadline(const ProbeTask& task, const ProbeEnvironment& env) {
  return std::min(MonotonicNowNs() + task.timeout_ns, env.deadline_monotonic_ns);
}

CommandOutcome Run(const ProbeTask& task, const ProbeEnvironment& env, const PreparedCommand& command,
                   ByteSink& out, ByteSink& err, int64_t deadline_ns, std::function<bool()> stop_when = {}) {
  CommandSpec spec;
  spec.executable = command.executable;
  spec.argv = command.argv;
  spec.extra_env = task.extra_env;
  spec.deadline_monotonic_ns = deadline_ns;
  spec.stop_when = std::move(stop_when);
  return RunCommand(spec, out, err, env.interrupt);
}

// Stores a finished command's two streams and the status its outcome gives.
void RecordCommand(const ProbeTask& task, const ProbeEnvironment& env, const CommandOutcome& outcome,
                   const CappedFile& out, const CappedFile& err, ProbeResult& result) {
  ManifestArtifact& a = result.artifact;
  a.duration_ns = outcome.duration_ns;
  a.exit_code = outcome.exit_code;
  a.signal = outcome.signal;
  a.timed_out = outcome.timed_out;
  a.abandoned = outcome.abandoned;
  if (!outcome.started) {
    SetStatus(a, ProbeStatus::kError);
    a.error = outcome.start_error;
    return;
  }
  if (task.json_lines && env.reproducible) (void)SortJsonLinesInFile(out.path());
  Status stored = AddOutput(result, kStreamStdout, out, RedactionFor(a.name));
  Status stored_err = AddOutput(result, kStreamStderr, err, Redaction::kText);
  if (stored.ok()) stored = stored_err;
  if (!stored.ok()) {
    DropOutputs(result, stored);
  } else if (outcome.interrupted) {
    SetStatus(a, ProbeStatus::kInterrupted);
  } else if (outcome.timed_out) {
    SetStatus(a, ProbeStatus::kTimedOut);
    a.error = outcome.abandoned ? "did not exit after SIGKILL; abandoned" : "";
  } else if (outcome.stopped) {
    SetStatus(a, ProbeStatus::kOk);  // ended on purpose: its reader had all it keeps
  } else if (outcome.signal) {
    SetStatus(a, ProbeStatus::kSignaled);
  } else {
    SetStatus(a, outcome.exit_code == 0 ? ProbeStatus::kOk : ProbeStatus::kNonzeroExit);
    if (outcome.exit_code != 0 && task.json_lines) MarkMissingBoot(result, err.path());
  }
}

void RunCommandProbe(const ProbeTask& task, int sequence, const ProbeEnvironment& env,
                     ProbeResult& result) {
  ManifestArtifact& a = result.artifact;
  std::optional<PreparedCommand> command = PrepareCommand(task, env, a);
  if (!command) return;
  CappedFile out(StagingPath(env, sequence, kStreamStdout), task.cap_bytes, task.keep);
  CappedFile err(StagingPath(env, sequence, kStreamStderr), task.stderr_cap_bytes, KeepMode::kTail);
  Status opened = out.Open();
  if (opened.ok()) opened = err.Open();
  if (!opened.ok()) {
    SetStatus(a, ProbeStatus::kError);
    a.error = opened.message();
    return;
  }
  CommandOutcome outcome = Run(task, env, *command, out, err, ProbeDeadline(task, env));
  (void)out.Finish();
  (void)err.Finish();
  RecordCommand(task, env, outcome, out, err, result);
}

// The read that goes on from where the splitter stopped the whole one:
// older entries (the task reads newest first), the open slices' only.
std::vector<std::string> NarrowerJournalArgv(const ProbeTask& task, const JournalSplitter& splitter) {
  std::vector<std::string> argv = task.argv;
  argv.push_back("--cursor=" + splitter.narrow_cursor());
  for (auto& arg : JournalMatchArgs(splitter.open_match())) argv.push_back(std::move(arg));
  return argv;
}

// One journalctl run for all the task's slices, narrowed midway when the
// splitter asks (journal_splitter.h): each slice keeps its own capped file,
// and every artifact records the read (its command, the narrower one, exit
// status, timing and stderr).
void RunJournalRead(const ProbeTask& task, int sequence, const ProbeEnvironment& env,
                    std::vector<ProbeResult>& slices) {
  std::optional<PreparedCommand> command = PrepareCommand(task, env, slices[0].artifact);
  for (size_t i = 1; i < slices.size(); ++i) {
    ManifestArtifact& a = slices[i].artifact;
    a.executable = slices[0].artifact.executable;
    a.argv = slices[0].artifact.argv;
    a.status = slices[0].artifact.status;
    a.skip_reason = slices[0].artifact.skip_reason;
    a.error = slices[0].artifact.error;
  }
  if (!command) return;
  std::vector<std::unique_ptr<CappedFile>> outs, errs;
  std::vector<JournalSplitter::Slice> routes;
  CappedFile err(StagingPath(env, sequence, kStreamStderr), task.stderr_cap_bytes, KeepMode::kTail);
  Status opened = err.Open();
  for (size_t i = 0; i < slices.size() && opened.ok(); ++i) {
    const std::string prefix = std::to_string(i) + ".";
    outs.push_back(std::make_unique<CappedFile>(StagingPath(env, sequence, prefix + std::string(kStreamStdout)),
                                                task.cap_bytes, task.keep));
    errs.push_back(std::make_unique<CappedFile>(StagingPath(env, sequence, prefix + std::string(kStreamStderr)),
                                                task.stderr_cap_bytes, KeepMode::kTail));
    opened = outs.back()->Open();
    if (opened.ok()) opened = errs.back()->Open();
    routes.push_back({JournalSliceMatch(*FindJournalSlice(task.journal_slices[i])), outs.back().get()});
  }
  if (!opened.ok()) {
    for (auto& slice : slices) {
      SetStatus(slice.artifact, ProbeStatus::kError);
      slice.artifact.error = opened.message();
    }
    return;
  }
  JournalSplitter splitter(std::move(routes));
  const int64_t deadline = ProbeDeadline(task, env);
  CommandOutcome outcome = Run(task, env, *command, splitter, err, deadline, [&] { return splitter.narrowing(); });
  std::optional<std::vector<std::string>> narrowed_argv;
  if (outcome.stopped) {
    narrowed_argv.emplace();  // empty: every slice was full
    if (!splitter.open_slices().empty()) {
      PreparedCommand narrower = env.exec->Prepare(NarrowerJournalArgv(task, splitter));
      *narrowed_argv = narrower.argv;
      splitter.Continue();
      const int64_t whole_read_ns = outcome.duration_ns;
      outcome = Run(task, env, narrower, splitter, err, deadline);
      outcome.duration_ns += whole_read_ns;
    }
  }
  (void)splitter.Finish();
  (void)err.Finish();
  auto said = ReadWholeFile(err.path());
  std::remove(err.path().c_str());
  // Putting a slice back in time order and redacting it reads and rewrites
  // its file: two slices are done at a time, on the cores the read left.
  // Each is held in memory meanwhile (up to its cap, twice while redacting),
  // so no more than two: the collector runs on a node in trouble.
  constexpr size_t kSlicesAtOnce = 2;
  RunEach(slices.size(), std::min(CoreCount(), kSlicesAtOnce), [&](size_t i) {
    (void)outs[i]->Finish();
    if (said.ok()) (void)errs[i]->Write(*said);
    (void)errs[i]->Finish();
    slices[i].artifact.journal_narrowed_argv = narrowed_argv;
    RecordCommand(task, env, outcome, *outs[i], *errs[i], slices[i]);
  });
}

// Copies a driver file under the probe's timeout (bounded_copy.h); a read
// the driver did not answer in time leaves what it had, marked timed out.
Status CopyDriverFile(const ProbeTask& task, const ProbeEnvironment& env, CappedFile& sink, ManifestArtifact& a) {
  const std::string& path = task.paths.at(0);
  GPUF_ASSIGN_OR_RETURN(int fd, env.host->OpenForCopy(path, task.cap_bytes, task.keep, IsForbiddenHostPath));
  const int64_t started = MonotonicNowNs();
  BoundedCopy copy = CopyOpenedWithin(fd, path, sink, std::min(started + task.timeout_ns, env.deadline_monotonic_ns));
  a.duration_ns = MonotonicNowNs() - started;
  a.timed_out = copy.timed_out;
  a.abandoned = copy.abandoned;
  if (copy.abandoned) a.error = "the driver did not answer the read, and its reader outlived SIGKILL; abandoned";
  return copy.status;
}

void RunFileProbe(const ProbeTask& task, int sequence, const ProbeEnvironment& env,
                  ProbeResult& result) {
  ManifestArtifact& a = result.artifact;
  const std::string& path = task.paths.at(0);
  if (IsForbiddenHostPath(path)) {
    MarkSkipped(a, SkipReason::kDeniedByPolicy, "'" + path + "' may hold secrets and is never read");
    return;
  }
  CappedFile content(StagingPath(env, sequence, kStreamContent), task.cap_bytes, task.keep);
  Status status = content.Open();
  // Checked again where the path leads: a link the plugin can plant in its
  // own directory must not carry a kubeconfig into the bundle.
  if (status.ok()) {
    status = task.driver_read ? CopyDriverFile(task, env, content, a)
                              : env.host->CopyFile(path, content, task.cap_bytes, task.keep, IsForbiddenHostPath);
  }
  (void)content.Finish();
  if (!content.write_status().ok()) {
    std::remove(content.path().c_str());
    return DropOutputs(result, Status::IoError("staging it failed", content.write_status().message()));
  }
  if (!status.ok()) {
    std::remove(content.path().c_str());
    if (status.code() == Status::Code::kNotFound) {
      MarkSkipped(a, SkipReason::kNotFound, status.message());
    } else if (status.code() == Status::Code::kUnsupported) {
      MarkSkipped(a, SkipReason::kDeniedByPolicy, status.message());
    } else if (status.code() == Status::Code::kBadInput) {
      MarkSkipped(a, SkipReason::kNotRegularFile, status.message());
    } else if (status.message().find("Permission denied") != std::string::npos) {
      MarkSkipped(a, SkipReason::kPermissionDenied, status.message());
    } else {
      SetStatus(a, ProbeStatus::kError);
      a.error = status.message();
    }
    return;
  }
  Status stored = AddOutput(result, kStreamContent, content, RedactionFor(task.name));
  if (!stored.ok()) return DropOutputs(result, stored);
  SetStatus(a, a.timed_out ? ProbeStatus::kTimedOut : ProbeStatus::kOk);
}

Status WriteTable(ProbeResult& result, const ProbeEnvironment& env, int sequence,
                  const std::string& text, int64_t cap_bytes) {
  CappedFile content(StagingPath(env, sequence, kStreamContent), cap_bytes, KeepMode::kHead);
  GPUF_RETURN_IF_ERROR(content.Open());
  GPUF_RETURN_IF_ERROR(content.Write(text));
  GPUF_RETURN_IF_ERROR(content.Finish());
  return AddOutput(result, kStreamContent, content, Redaction::kText);
}

std::string ListingText(const ProbeTask& task, const ProbeEnvironment& env) {
  std::string text = kListingHeader;
  for (const auto& pattern : task.paths) {
    for (const auto& path : ExpandHostGlob(*env.host, pattern)) {
      auto info = env.host->Lstat(path);
      if (info.ok()) text += ListingLine(*info);
    }
  }
  return text;
}

std::string PciTableText(const ProbeTask& task, const ProbeEnvironment& env) {
  std::string text = kPciTableHeader;
  for (const auto& f : ReadNvidiaPciFunctions(*env.host, task.paths.at(0))) {
    text += EscapeField(f.address) + "\t0x10de\t" + EscapeField(f.device) + "\t" + EscapeField(f.pci_class) + "\n";
  }
  return text;
}

std::string StatfsText(const ProbeTask& task, const ProbeEnvironment& env) {
  struct statfs fs {};
  if (statfs(env.host->Outside(task.paths.at(0)).c_str(), &fs) != 0) return "";
  switch (static_cast<unsigned long>(fs.f_type)) {
    case CGROUP2_SUPER_MAGIC: return "cgroup2fs\n";
    case TMPFS_MAGIC: return "tmpfs\n";
    case CGROUP_SUPER_MAGIC: return "cgroupfs\n";
  }
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%lx\n", static_cast<unsigned long>(fs.f_type));
  return hex;
}

}  // namespace

std::vector<std::string> ExpandHostGlob(const HostRoot& host, const std::string& pattern) {
  std::vector<std::string> matches = {""};
  size_t pos = 1;
  while (pos <= pattern.size()) {
    size_t slash = pattern.find('/', pos);
    if (slash == std::string::npos) slash = pattern.size();
    std::string component = pattern.substr(pos, slash - pos);
    pos = slash + 1;
    if (component.empty()) continue;
    std::vector<std::string> next;
    bool wildcard = component.find_first_of("*?[") != std::string::npos;
    for (const auto& prefix : matches) {
      std::string dir = prefix.empty() ? "/" : prefix;
      if (!wildcard) {
        next.push_back(JoinHostPath(dir, component));
        continue;
      }
      auto names = host.ListDir(dir);
      if (!names.ok()) continue;
      for (const auto& name : *names) {
        if (fnmatch(component.c_str(), name.c_str(), FNM_PERIOD) == 0) next.push_back(JoinHostPath(dir, name));
      }
    }
    matches = std::move(next);
  }
  // Without wildcards the path is returned whether or not it exists.
  std::vector<std::string> existing;
  for (const auto& m : matches) {
    if (!m.empty() && host.Lstat(m).ok()) existing.push_back(m);
  }
  return existing;
}

namespace {

// The task's artifacts as planned: one, or one per slice of a journal read.
std::vector<ProbeResult> PlannedResults(const ProbeTask& task) {
  std::vector<ProbeResult> results(std::max<size_t>(1, task.journal_slices.size()));
  for (size_t i = 0; i < results.size(); ++i) {
    results[i].artifact = BaseArtifact(task);
    if (task.journal_slices.empty()) continue;
    results[i].artifact.name = task.journal_slices[i];
    results[i].artifact.journal_match = JournalMatchArgs(JournalSliceMatch(*FindJournalSlice(task.journal_slices[i])));
  }
  return results;
}

void RunPlanned(const ProbeTask& task, int sequence, const ProbeEnvironment& env, std::vector<ProbeResult>& results) {
  ProbeResult& result = results[0];
  ManifestArtifact& a = result.artifact;
  if (task.skip_reason || (env.interrupt && env.interrupt->load())) {
    for (auto& r : results) {
      if (task.skip_reason) {
        MarkSkipped(r.artifact, *task.skip_reason, task.skip_detail);
      } else {
        MarkSkipped(r.artifact, SkipReason::kInterrupted, "the collection was interrupted before this probe started");
      }
    }
    return;
  }
  if (!task.journal_slices.empty()) return RunJournalRead(task, sequence, env, results);
  switch (task.kind) {
    case ProbeKind::kCommand: RunCommandProbe(task, sequence, env, result); break;
    case ProbeKind::kFile: RunFileProbe(task, sequence, env, result); break;
    case ProbeKind::kListing:
    case ProbeKind::kPciTable:
    case ProbeKind::kStatfs: {
      std::string text = task.kind == ProbeKind::kListing    ? ListingText(task, env)
                         : task.kind == ProbeKind::kPciTable ? PciTableText(task, env)
                                                             : StatfsText(task, env);
      Status s = WriteTable(result, env, sequence, text, task.cap_bytes);
      SetStatus(a, s.ok() ? ProbeStatus::kOk : ProbeStatus::kError);
      a.error = s.ok() ? "" : s.message();
      result.not_stored = !s.ok();
      break;
    }
  }
}

}  // namespace

ProbeResult RunProbe(const ProbeTask& task, int sequence, const ProbeEnvironment& env) {
  std::vector<ProbeResult> results = PlannedResults(task);  // each start on the wall clock
  const int64_t started = MonotonicNowNs();
  RunPlanned(task, sequence, env, results);
  // The end as the wall clock reads it when the probe is done, not its start
  // plus a monotonic duration: the next phase starts after this reading, so
  // the manifest can show that nothing touched the driver before the passive
  // probes of what it can change had ended.
  const int64_t ended = WallClockNowNs();
  for (auto& r : results) {
    ManifestArtifact& a = r.artifact;
    if (a.duration_ns == 0) a.duration_ns = MonotonicNowNs() - started;
    a.ended_at_unix_ns = std::max(a.started_at_unix_ns, ended);
  }
  ProbeResult first = std::move(results[0]);
  first.more.assign(std::make_move_iterator(results.begin() + 1), std::make_move_iterator(results.end()));
  return first;
}

}  // namespace gpuf
