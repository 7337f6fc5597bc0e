#include "formats/kubelet_log.h"

#include "common/text_lines.h"
#include "formats/regex_cascade.h"

#include <re2/re2.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

namespace gpuf {

namespace {

re2::StringPiece Piece(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

RE2::Options Latin1Options() {
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingLatin1);
  return options;
}

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

// The kubelet refusing a pod the devices it asks for: the device manager's
// words, or the admit handler's ("Update plugin resources failed due to").
bool IsAllocateFailure(std::string_view text) {
  return text.find("Allocate failed due to") != std::string_view::npos ||
         text.find("Update plugin resources failed due to") != std::string_view::npos;
}

void ReadAllocateFailure(std::string_view text, KubeletEvent* e) {
  static const RE2 failure(R"((?:Allocate|Update plugin resources) failed due to (.*), which is unexpected)", RE2::Latin1);
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
  if (StartsWith(m, "\"Kubelet version\"")) {
    e.kind = K::kKubeletStarting;
    e.detail = Field(m, "kubeletVersion");
  } else if (StartsWith(m, "\"Got registration request from device plugin with resource\"")) {
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
    if (reason != "UnexpectedAdmissionError" && !IsAllocateFailure(message)) {
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

// The older wordings (free text after the klog header), in the order tried.
// All but the last begin the message, so the set's scan of a line that is
// none of them ends within its first words; the last, which may be anywhere,
// is tried only on a line that has its words.
enum KubeletPattern { kRegistration, kListAndWatch, kConnect, kZero, kCheckpoint, kContinueAfter, kRebooted };

const RegexCascade& KubeletPatterns() {
  static const RegexCascade cascade(
      {
          R"re(Got registration request from device plugin with resource name "?([^"\s]+)"?)re",
          R"(listAndWatch ended unexpectedly for device plugin (\S+) with error (.*))",
          R"(Unable to connect to device plugin client with socket path (\S+?):? (.*))",
          R"(Zero out resource (\S+) capacity in existing node\.?)",
          R"re(Failed to (?:retrieve checkpoint for|read data from checkpoint) "?([^":\s]+)"?:? (.*))re",
          R"(Continue after failing to read checkpoint file\. )"
          R"(Device allocation info may NOT be up-to-date\.? ?(?:Err: )?(.*))",
      },
      Latin1Options());
  return cascade;
}

// Anywhere in the line: the node's own event text is quoted inside other messages.
constexpr std::string_view kRebootedWords = " has been rebooted, boot id: ";

const RE2& RebootedPattern() {
  static const RE2 rebooted(R"((?s).*?Node (\S+) has been rebooted, boot id: ([0-9a-fA-F-]+).*)", Latin1Options());
  return rebooted;
}

int FirstKubeletPattern(std::string_view text) {
  int which = KubeletPatterns().FirstFullMatch(text);
  if (which >= 0) return which;
  if (text.find(kRebootedWords) != std::string_view::npos && RE2::FullMatch(Piece(text), RebootedPattern())) {
    return kRebooted;
  }
  return -1;
}

KubeletEventKind CheckpointKind(const std::string& error, KubeletEventKind otherwise) {
  return error.find("corrupt") != std::string::npos ? KubeletEventKind::kCheckpointCorrupted : otherwise;
}

KubeletEvent Unstructured(std::string_view text) {
  using K = KubeletEventKind;
  KubeletEvent e;
  re2::StringPiece m = Piece(text);
  int which = FirstKubeletPattern(text);
  const RE2* re = which < 0 ? nullptr : which == kRebooted ? &RebootedPattern() : &KubeletPatterns().pattern(which);
  switch (which) {
    case kRegistration:
      RE2::FullMatch(m, *re, &e.resource);
      e.kind = K::kRegistrationRequest;
      break;
    case kListAndWatch:
      RE2::FullMatch(m, *re, &e.resource, &e.error);
      e.kind = K::kListAndWatchEnded;
      break;
    case kConnect:
      RE2::FullMatch(m, *re, &e.path, &e.error);
      e.kind = K::kPluginConnectFailed;
      break;
    case kZero:
      RE2::FullMatch(m, *re, &e.resource);
      e.kind = K::kZeroOutCapacity;
      break;
    case kCheckpoint:
      RE2::FullMatch(m, *re, &e.detail, &e.error);
      e.kind = CheckpointKind(e.error, K::kCheckpointNotFound);
      break;
    case kContinueAfter:
      RE2::FullMatch(m, *re, &e.error);
      e.kind = CheckpointKind(e.error, K::kCheckpointReadFailed);
      break;
    case kRebooted:
      RE2::FullMatch(m, *re, &e.node, &e.boot_id);
      e.kind = K::kNodeRebooted;
      break;
    default:
      if (IsAllocateFailure(text)) {
        // The pod's status message or event, as kubectl and kubelet show it.
        e.kind = K::kAdmissionError;
        ReadAllocateFailure(text, &e);
      }
      break;
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
    case KubeletEventKind::kKubeletStarting: return "kubelet_starting";
  }
  return "unknown";
}

namespace {

constexpr std::string_view kKubeletIdentifiers[] = {"kubelet", "k3s", "microk8s.daemon-kubelite"};
constexpr std::string_view kKubeletUnits[] = {"kubelet.service", "k3s.service", "k3s-agent.service",
                                              "snap.microk8s.daemon-kubelite.service"};

}  // namespace

bool IsKubeletIdentifier(std::string_view identifier) {
  for (std::string_view known : kKubeletIdentifiers) {
    if (identifier == known) return true;
  }
  return false;
}

bool IsKubeletUnit(std::string_view unit) {
  for (std::string_view known : kKubeletUnits) {
    if (unit == known) return true;
  }
  return false;
}

// A kubelet run with --logging-format=json writes one object a line,
// {"ts":1580306777.04728,"v":0,"msg":"...","resourceName":"nvidia.com/gpu"};
// its text form is the structured klog message: "msg" key="value" ...
std::optional<std::string> StructuredFromJson(std::string_view message) {
  // nlohmann::json, not ordered_json: the latter copies each value as it
  // parses, a recursion as deep as the nesting, which a hostile line makes
  // deep enough to overflow the stack. Keys come out sorted; the classifier
  // looks fields up by name.
  const auto doc = nlohmann::json::parse(message, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  auto msg = doc.find("msg");
  if (msg == doc.end() || !msg->is_string()) return std::nullopt;
  auto quoted = [](const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  };
  std::string text = quoted(msg->get_ref<const std::string&>());
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    const std::string& key = it.key();
    const auto& value = it.value();
    // Nested values name nothing the classifier reads (and printing one recurses too).
    if (key == "msg" || key == "ts" || key == "v" || key == "caller" || value.is_structured()) continue;
    text += " " + key + "=" +
            (value.is_string() ? quoted(value.get<std::string>())
                               : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  return text;
}

KubeletEvent ClassifyKubeletMessage(std::string_view message) {
  message = TrimRight(message);
  if (!message.empty() && message.front() == '{') {
    if (auto text = StructuredFromJson(message)) return ClassifyKubeletMessage(*text);
  }
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

namespace {

// PID 1's wordings, in the order they are tried: the first that matches the
// whole message decides. Each has the captures its handler below reads.
enum SystemdPattern {
  kRequested, kFinished, kRejected, kExited, kControlExited, kFailedResult, kFailedOld, kRestartCounter, kRestartOld,
  kDeactivated, kVanished, kStarting, kStarted, kStopping, kStopped, kFailedToStart, kReloadingUnit, kReloaded,
};

const RegexCascade& SystemdPatterns() {
  static const RegexCascade cascade(
      {
          R"((Reloading|Reexecuting) requested from client PID (\d+))"
          R"((?: \('([^']*)'\))?(?: \(unit ([^)]*)\))?\.\.\.)",
          R"(Reloading finished in (\d+) ms\.)",
          R"((?:Reloading|Reexecution) request rejected due to rate limit\.)",
          R"((\S+): [Mm]ain process exited, code=(\w+), status=(\S+?)\.?)",
          R"((\S+): [Cc]ontrol process exited, code=(\w+), status=(\S+?)\.?)",
          R"((\S+): Failed with result '([^']*)'\.)",
          R"(Unit (\S+) entered failed state\.|(\S+\.[a-z]+) failed\.)",
          R"((\S+): Scheduled restart job, restart counter is at (\d+)\.)",
          R"((\S+): Service (?:RestartSec=\S+ expired|hold-off time over), scheduling restart\.)",
          R"((\S+): Deactivated successfully\.)",
          R"((\S+): Current command vanished from the unit file.*)",
          R"(Starting (.+?)(?:\.\.\.|\.))",
          R"(Started (.+)\.)",
          R"(Stopping (.+?)(?:\.\.\.|\.))",
          R"(Stopped (.+)\.)",
          R"(Failed to start (.+)\.)",
          R"(Reloading (.+)\.\.\.)",
          R"(Reloaded (.+)\.)",
      },
      Latin1Options());
  return cascade;
}

// "Started X." and its kin: the job's kind, and the unit named in X.
SystemdEventKind JobKind(int pattern) {
  using K = SystemdEventKind;
  switch (pattern) {
    case kStarting: return K::kUnitStarting;
    case kStarted: return K::kUnitStarted;
    case kStopping: return K::kUnitStopping;
    case kStopped: return K::kUnitStopped;
    case kFailedToStart: return K::kUnitFailed;
    case kReloadingUnit: return K::kUnitReloading;
    case kReloaded: return K::kUnitReloaded;
    default: return K::kUnknown;
  }
}

}  // namespace

SystemdEvent ClassifySystemdMessage(std::string_view message) {
  using K = SystemdEventKind;
  re2::StringPiece m = Piece(TrimRight(message));
  SystemdEvent e;
  if (m == "Reloading.") {
    e.kind = K::kDaemonReload;
    return e;
  }
  if (m == "Reloading...") {
    e.kind = K::kDaemonReloading;
    return e;
  }
  const RegexCascade& patterns = SystemdPatterns();
  int which = patterns.FirstFullMatch(std::string_view(m.data(), m.size()));
  if (which < 0) return e;
  const RE2& re = patterns.pattern(which);
  std::string verb, number, text;
  switch (which) {
    case kRequested:
      RE2::FullMatch(m, re, &verb, &number, &e.caller_comm, &e.caller_unit);
      e.kind = verb == "Reloading" ? K::kDaemonReloadRequested : K::kDaemonReexecRequested;
      if (number.size() < 19) e.caller_pid = std::stoll(number);
      break;
    case kFinished:
      RE2::FullMatch(m, re, &number);
      e.kind = K::kDaemonReloadFinished;
      if (number.size() < 19) e.duration_ms = std::stoll(number);
      break;
    case kRejected:
      e.kind = K::kDaemonReloadRejected;
      break;
    case kExited:
      RE2::FullMatch(m, re, &e.unit, &e.exit_code, &e.exit_status);
      e.kind = K::kMainProcessExited;
      break;
    case kControlExited:
      // A Type=forking or oneshot unit's start (or stop) command failing is
      // the unit failing: systemctl status then says "Active: failed".
      RE2::FullMatch(m, re, &e.unit, &e.exit_code, &e.exit_status);
      if (e.exit_status == "0/SUCCESS" || e.exit_status == "0") {
        e.kind = K::kUnknown;
        e.unit.clear();
        break;
      }
      e.kind = K::kUnitFailed;
      e.result = e.exit_code == "exited" ? "exit-code" : e.exit_code == "killed" ? "signal" : "core-dump";
      break;
    case kFailedResult:
      RE2::FullMatch(m, re, &e.unit, &e.result);
      e.kind = K::kUnitFailed;
      break;
    case kFailedOld:
      RE2::FullMatch(m, re, &e.unit, &text);
      e.kind = K::kUnitFailed;
      if (e.unit.empty()) e.unit = text;
      break;
    case kRestartCounter:
      RE2::FullMatch(m, re, &e.unit, &number);
      e.kind = K::kRestartScheduled;
      if (number.size() < 9) e.restart_counter = std::stoi(number);
      break;
    case kRestartOld:
      RE2::FullMatch(m, re, &e.unit);
      e.kind = K::kRestartScheduled;
      break;
    case kDeactivated:
      RE2::FullMatch(m, re, &e.unit);
      e.kind = K::kUnitDeactivated;
      break;
    case kVanished:
      RE2::FullMatch(m, re, &e.unit);
      e.kind = K::kCommandVanished;
      break;
    default:
      RE2::FullMatch(m, re, &text);
      e.kind = JobKind(which);
      SplitUnitAndDescription(text, &e);
      break;
  }
  return e;
}

}  // namespace gpuf
