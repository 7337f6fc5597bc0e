#include "analyzer/parsers/kubelet_log.h"
#include "common/text_lines.h"

#include <re2/re2.h>

#include <memory>
#include <vector>

namespace gpuf {

namespace {

re2::StringPiece Piece(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

bool IsKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-' || c == '/';
}

// True at the end of text, or before " key=".
bool AtFieldBoundary(std::string_view text, size_t pos) {
  if (pos == text.size()) return true;
  if (text[pos] != ' ') return false;
  while (pos < text.size() && text[pos] == ' ') ++pos;
  size_t start = pos;
  while (pos < text.size() && IsKeyChar(text[pos])) ++pos;
  return pos == text.size() ? pos == start : (pos > start && text[pos] == '=');
}

// The value of key=... in a structured klog message; "" when absent. Quoted
// values end at a quote before the next key or the end, so that messages
// copied without their backslashes still read whole. Escapes are kept: the
// values are compared and shown, never re-parsed.
std::string Field(std::string_view text, std::string_view key) {
  size_t at = 0;
  while ((at = text.find(key, at)) != std::string_view::npos) {
    size_t eq = at + key.size();
    if (at > 0 && text[at - 1] == ' ' && eq < text.size() && text[eq] == '=') break;
    at = eq;
  }
  if (at == std::string_view::npos) return "";
  size_t pos = at + key.size() + 1;
  if (pos < text.size() && text[pos] == '"') {
    size_t first_close = std::string_view::npos;
    for (size_t i = pos + 1; i < text.size(); ++i) {
      if (text[i] == '\\') {
        ++i;
      } else if (text[i] == '"') {
        if (first_close == std::string_view::npos) first_close = i;
        if (AtFieldBoundary(text, i + 1)) {
          first_close = i;
          break;
        }
      }
    }
    if (first_close == std::string_view::npos) return std::string(text.substr(pos + 1));
    return std::string(text.substr(pos + 1, first_close - pos - 1));
  }
  size_t end = text.find(' ', pos);
  return std::string(text.substr(pos, end == std::string_view::npos ? end : end - pos));
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

void ReadAllocateFailure(std::string_view text, KubeletEvent* e) {
  static const RE2 failure(R"(Allocate failed due to (.*), which is unexpected)", RE2::Latin1);
  static const RE2 unavailable(R"(unavailable for (\S+?)\. Requested)", RE2::Latin1);
  static const RE2 unhealthy(R"(cannot allocate unhealthy devices (\S+?),? which)", RE2::Latin1);
  std::string error;
  if (RE2::PartialMatch(Piece(text), failure, &error)) e->error = error;
  if (!RE2::PartialMatch(Piece(text), unavailable, &e->resource)) {
    RE2::PartialMatch(Piece(text), unhealthy, &e->resource);
  }
}

KubeletEvent Structured(std::string_view m) {
  KubeletEvent e;
  using K = KubeletEventKind;
  if (StartsWith(m, "\"Got registration request from device plugin with resource\"")) {
    e.kind = K::kRegistrationRequest;
    e.resource = Field(m, "resourceName");
  } else if (StartsWith(m, "\"Registered client\"")) {
    e.kind = K::kRegisteredClient;
    e.resource = Field(m, "name");
  } else if (StartsWith(m, "\"Device plugin connected\"")) {
    e.kind = K::kPluginConnected;
    e.resource = Field(m, "resourceName");
  } else if (StartsWith(m, "\"Updated capacity for device plugin\"")) {
    e.kind = K::kCapacityUpdated;
    e.resource = Field(m, "plugin");
    e.detail = Field(m, "capacity");
  } else if (StartsWith(m, "\"ListAndWatch ended unexpectedly for device plugin\"")) {
    e.kind = K::kListAndWatchEnded;
    e.resource = Field(m, "resource");
    e.error = Field(m, "err");
  } else if (StartsWith(m, "\"Unable to connect to device plugin client with socket path\"")) {
    e.kind = K::kPluginConnectFailed;
    e.path = Field(m, "path");
    e.error = Field(m, "err");
  } else if (StartsWith(m, "\"Failed to connect to new client\"")) {
    e.kind = K::kPluginConnectFailed;
    e.resource = Field(m, "resource");
    e.error = Field(m, "err");
  } else if (StartsWith(m, "\"Zero out resource capacity in existing node\"")) {
    e.kind = K::kZeroOutCapacity;
    e.resource = Field(m, "resourceName");
    e.node = Field(m, "node");
  } else if (StartsWith(m, "\"Failed to read data from checkpoint\"")) {
    e.error = Field(m, "err");
    e.detail = Field(m, "checkpoint");
    e.kind = e.error.find("corrupt") != std::string::npos ? K::kCheckpointCorrupted
                                                          : K::kCheckpointNotFound;
  } else if (StartsWith(m, "\"Continue after failing to read checkpoint file.")) {
    e.error = Field(m, "err");
    e.kind = e.error.find("corrupt") != std::string::npos ? K::kCheckpointCorrupted
                                                          : K::kCheckpointReadFailed;
  } else if (StartsWith(m, "\"Pod admission denied\"")) {
    std::string reason = Field(m, "reason");
    std::string message = Field(m, "message");
    if (reason != "UnexpectedAdmissionError" &&
        message.find("Allocate failed due to") == std::string::npos) {
      return e;
    }
    e.kind = K::kAdmissionError;
    e.pod = Field(m, "pod");
    e.detail = reason;
    ReadAllocateFailure(message, &e);
    if (e.error.empty()) e.error = message;
  } else if (StartsWith(m, "\"Recording event message for node\"") &&
             Field(m, "event") == "Rebooted") {
    e.kind = K::kNodeRebooted;
    e.node = Field(m, "node");
  }
  return e;
}

KubeletEvent Unstructured(std::string_view m) {
  static const RE2 registration(
      R"re(Got registration request from device plugin with resource name "?([^"\s]+)"?)re",
      RE2::Latin1);
  static const RE2 list_and_watch(
      R"(listAndWatch ended unexpectedly for device plugin (\S+) with error (.*))", RE2::Latin1);
  static const RE2 connect(
      R"(Unable to connect to device plugin client with socket path (\S+?):? (.*))", RE2::Latin1);
  static const RE2 zero(R"(Zero out resource (\S+) capacity in existing node\.?)", RE2::Latin1);
  static const RE2 checkpoint(
      R"re(Failed to (?:retrieve checkpoint for|read data from checkpoint) "?([^":\s]+)"?:? (.*))re",
      RE2::Latin1);
  static const RE2 continue_after(
      R"(Continue after failing to read checkpoint file\. )"
      R"(Device allocation info may NOT be up-to-date\.? ?(?:Err: )?(.*))",
      RE2::Latin1);
  static const RE2 rebooted(R"(Node (\S+) has been rebooted, boot id: ([0-9a-fA-F-]+))", RE2::Latin1);
  using K = KubeletEventKind;
  KubeletEvent e;
  if (RE2::FullMatch(Piece(m), registration, &e.resource)) {
    e.kind = K::kRegistrationRequest;
  } else if (RE2::FullMatch(Piece(m), list_and_watch, &e.resource, &e.error)) {
    e.kind = K::kListAndWatchEnded;
  } else if (RE2::FullMatch(Piece(m), connect, &e.path, &e.error)) {
    e.kind = K::kPluginConnectFailed;
  } else if (RE2::FullMatch(Piece(m), zero, &e.resource)) {
    e.kind = K::kZeroOutCapacity;
  } else if (RE2::FullMatch(Piece(m), checkpoint, &e.detail, &e.error)) {
    e.kind = e.error.find("corrupt") != std::string::npos ? K::kCheckpointCorrupted
                                                          : K::kCheckpointNotFound;
  } else if (RE2::FullMatch(Piece(m), continue_after, &e.error)) {
    e.kind = e.error.find("corrupt") != std::string::npos ? K::kCheckpointCorrupted
                                                          : K::kCheckpointReadFailed;
  } else if (RE2::PartialMatch(Piece(m), rebooted, &e.node, &e.boot_id)) {
    e.kind = K::kNodeRebooted;
  } else if (m.find("Allocate failed due to") != std::string_view::npos) {
    // The pod's status message or event, as kubectl and kubelet show it.
    e.kind = K::kAdmissionError;
    ReadAllocateFailure(m, &e);
  }
  return e;
}

}  // namespace

const char* KubeletEventKindName(KubeletEventKind kind) {
  switch (kind) {
    case KubeletEventKind::kUnknown: return "unknown";
    case KubeletEventKind::kRegistrationRequest: return "registration_request";
    case KubeletEventKind::kRegisteredClient: return "registered_client";
    case KubeletEventKind::kPluginConnected: return "plugin_connected";
    case KubeletEventKind::kCapacityUpdated: return "capacity_updated";
    case KubeletEventKind::kListAndWatchEnded: return "list_and_watch_ended";
    case KubeletEventKind::kPluginConnectFailed: return "plugin_connect_failed";
    case KubeletEventKind::kZeroOutCapacity: return "zero_out_capacity";
    case KubeletEventKind::kCheckpointNotFound: return "checkpoint_not_found";
    case KubeletEventKind::kCheckpointCorrupted: return "checkpoint_corrupted";
    case KubeletEventKind::kCheckpointReadFailed: return "checkpoint_read_failed";
    case KubeletEventKind::kAdmissionError: return "admission_error";
    case KubeletEventKind::kNodeRebooted: return "node_rebooted";
  }
  return "unknown";
}

KubeletEvent ClassifyKubeletMessage(std::string_view message) {
  message = TrimRight(message);
  if (!message.empty() && message.front() == '"') {
    KubeletEvent e = Structured(message);
    if (e.kind != KubeletEventKind::kUnknown) return e;
  }
  return Unstructured(message);
}

namespace {

// "kubelet.service - kubelet: The Kubernetes Node Agent" (systemd >= ~250),
// "kubelet: The Kubernetes Node Agent" (older), or a bare unit name for units
// without a Description=.
void SplitUnitAndDescription(const std::string& text, SystemdEvent* e) {
  static const RE2 unit_name(
      R"([^\s/]+\.(?:service|socket|target|device|mount|automount|swap|timer|path|slice|scope))",
      RE2::Latin1);
  static const RE2 unit_then_description(
      R"(([^\s/]+\.(?:service|socket|target|device|mount|automount|swap|timer|path|slice|scope)) - (.*))",
      RE2::Latin1);
  if (RE2::FullMatch(text, unit_then_description, &e->unit, &e->description)) return;
  if (RE2::FullMatch(text, unit_name)) {
    e->unit = text;
  } else {
    e->description = text;
  }
}

struct JobPattern {
  SystemdEventKind kind;
  const char* regex;  // one capture: what systemd printed for the unit
};

}  // namespace

const char* SystemdEventKindName(SystemdEventKind kind) {
  switch (kind) {
    case SystemdEventKind::kUnknown: return "unknown";
    case SystemdEventKind::kUnitStarting: return "unit_starting";
    case SystemdEventKind::kUnitStarted: return "unit_started";
    case SystemdEventKind::kUnitStopping: return "unit_stopping";
    case SystemdEventKind::kUnitStopped: return "unit_stopped";
    case SystemdEventKind::kUnitFailed: return "unit_failed";
    case SystemdEventKind::kMainProcessExited: return "main_process_exited";
    case SystemdEventKind::kRestartScheduled: return "restart_scheduled";
    case SystemdEventKind::kUnitDeactivated: return "unit_deactivated";
    case SystemdEventKind::kUnitReloading: return "unit_reloading";
    case SystemdEventKind::kUnitReloaded: return "unit_reloaded";
    case SystemdEventKind::kCommandVanished: return "command_vanished";
    case SystemdEventKind::kDaemonReload: return "daemon_reload";
    case SystemdEventKind::kDaemonReloadRequested: return "daemon_reload_requested";
    case SystemdEventKind::kDaemonReloading: return "daemon_reloading";
    case SystemdEventKind::kDaemonReloadFinished: return "daemon_reload_finished";
    case SystemdEventKind::kDaemonReloadRejected: return "daemon_reload_rejected";
    case SystemdEventKind::kDaemonReexecRequested: return "daemon_reexec_requested";
  }
  return "unknown";
}

SystemdEvent ClassifySystemdMessage(std::string_view message) {
  using K = SystemdEventKind;
  static const RE2 requested(
      R"((Reloading|Reexecuting) requested from client PID (\d+))"
      R"((?: \('([^']*)'\))?(?: \(unit ([^)]*)\))?\.\.\.)",
      RE2::Latin1);
  static const RE2 finished(R"(Reloading finished in (\d+) ms\.)", RE2::Latin1);
  static const RE2 rejected(R"((?:Reloading|Reexecution) request rejected due to rate limit\.)",
                            RE2::Latin1);
  static const RE2 exited(R"((\S+): [Mm]ain process exited, code=(\w+), status=(\S+?)\.?)",
                          RE2::Latin1);
  static const RE2 failed_result(R"((\S+): Failed with result '([^']*)'\.)", RE2::Latin1);
  static const RE2 failed_old(R"(Unit (\S+) entered failed state\.|(\S+\.[a-z]+) failed\.)",
                              RE2::Latin1);
  static const RE2 restart_counter(R"((\S+): Scheduled restart job, restart counter is at (\d+)\.)",
                                   RE2::Latin1);
  static const RE2 restart_old(
      R"((\S+): Service (?:RestartSec=\S+ expired|hold-off time over), scheduling restart\.)",
      RE2::Latin1);
  static const RE2 deactivated(R"((\S+): Deactivated successfully\.)", RE2::Latin1);
  static const RE2 vanished(R"((\S+): Current command vanished from the unit file.*)", RE2::Latin1);
  static const JobPattern kJobs[] = {
      {K::kUnitStarting, R"(Starting (.+?)(?:\.\.\.|\.))"},
      {K::kUnitStarted, R"(Started (.+)\.)"},
      {K::kUnitStopping, R"(Stopping (.+?)(?:\.\.\.|\.))"},
      {K::kUnitStopped, R"(Stopped (.+)\.)"},
      {K::kUnitFailed, R"(Failed to start (.+)\.)"},
      {K::kUnitReloading, R"(Reloading (.+)\.\.\.)"},
      {K::kUnitReloaded, R"(Reloaded (.+)\.)"},
  };
  static const std::vector<std::unique_ptr<RE2>> jobs = [] {
    std::vector<std::unique_ptr<RE2>> v;
    for (const JobPattern& p : kJobs) v.push_back(std::make_unique<RE2>(p.regex, RE2::Latin1));
    return v;
  }();

  re2::StringPiece m = Piece(TrimRight(message));
  SystemdEvent e;
  std::string verb, pid, text, counter;
  if (m == "Reloading.") {
    e.kind = K::kDaemonReload;
  } else if (m == "Reloading...") {
    e.kind = K::kDaemonReloading;
  } else if (RE2::FullMatch(m, requested, &verb, &pid, &e.caller_comm, &e.caller_unit)) {
    e.kind = verb == "Reloading" ? K::kDaemonReloadRequested : K::kDaemonReexecRequested;
    if (pid.size() < 19) e.caller_pid = std::stoll(pid);
  } else if (RE2::FullMatch(m, finished, &pid)) {
    e.kind = K::kDaemonReloadFinished;
    if (pid.size() < 19) e.duration_ms = std::stoll(pid);
  } else if (RE2::FullMatch(m, rejected)) {
    e.kind = K::kDaemonReloadRejected;
  } else if (RE2::FullMatch(m, exited, &e.unit, &e.exit_code, &e.exit_status)) {
    e.kind = K::kMainProcessExited;
  } else if (RE2::FullMatch(m, failed_result, &e.unit, &e.result)) {
    e.kind = K::kUnitFailed;
  } else if (RE2::FullMatch(m, failed_old, &e.unit, &text)) {
    e.kind = K::kUnitFailed;
    if (e.unit.empty()) e.unit = text;
  } else if (RE2::FullMatch(m, restart_counter, &e.unit, &counter)) {
    e.kind = K::kRestartScheduled;
    if (counter.size() < 9) e.restart_counter = std::stoi(counter);
  } else if (RE2::FullMatch(m, restart_old, &e.unit)) {
    e.kind = K::kRestartScheduled;
  } else if (RE2::FullMatch(m, deactivated, &e.unit)) {
    e.kind = K::kUnitDeactivated;
  } else if (RE2::FullMatch(m, vanished, &e.unit)) {
    e.kind = K::kCommandVanished;
  } else {
    for (size_t i = 0; i < jobs.size(); ++i) {
      if (RE2::FullMatch(m, *jobs[i], &text)) {
        e.kind = kJobs[i].kind;
        SplitUnitAndDescription(text, &e);
        break;
      }
    }
  }
  return e;
}

}  // namespace gpuf
