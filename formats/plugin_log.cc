#include "formats/plugin_log.h"

#include "common/text_lines.h"
#include "formats/klog.h"
#include "formats/plugin_wording.h"
#include "formats/regex_cascade.h"

#include <re2/re2.h>

#include <memory>
#include <nlohmann/json.hpp>

namespace gpuf {

namespace {

using nlohmann::json;

enum class Slot { kNone, kResource, kPath, kDevice, kXid, kError, kDetail };

struct Pattern {
  PluginEventKind kind;
  const char* regex;  // matched against the whole message
  Slot first = Slot::kNone;
  Slot second = Slot::kNone;
};

// Order matters only where one wording is a prefix of another.
const Pattern kPatterns[] = {
    {PluginEventKind::kVersionBanner, R"("Starting NVIDIA Device Plugin"(?: version=(.*))?)", Slot::kDetail},
    {PluginEventKind::kLoadingNvml, R"(Loading NVML|Initializing NVML\.)"},
    {PluginEventKind::kFsWatcherStarted, R"(Starting FS watcher(?:\.| for (.+)))", Slot::kPath},
    {PluginEventKind::kOsWatcherStarted, R"(Starting OS watcher\.)"},
    {PluginEventKind::kStartingPlugins, R"(Starting Plugins\.)"},
    {PluginEventKind::kLoadingConfig,
     R"(Loading configuration\.|Updating config with default resource matching patterns\.)"},
    {PluginEventKind::kConfigDump, R"(\s*Running with config:.*)"},
    {PluginEventKind::kRetrievingPlugins, R"((Retreiving|Retrieving) plugins\.)", Slot::kDetail},
    {PluginEventKind::kNonNvmlPlatform, kPluginNonNvmlPlatformPattern, Slot::kError},
    {PluginEventKind::kNonNvmlPlatform, kPluginNvmlNotDetectedPattern, Slot::kError},
    {PluginEventKind::kPlatformDetected, R"(Detected ((?:.+ )?platform: .*))", Slot::kDetail},
    {PluginEventKind::kIncompatiblePlatform, R"(Incompatible platform detected|Incompatible strategy detected (.*))",
     Slot::kDetail},
    {PluginEventKind::kNvmlInitFailed, kPluginNvmlFailedPattern, Slot::kError},
    {PluginEventKind::kNvmlInitFailed, kPluginNvmlFailedV017Pattern, Slot::kError},
    {PluginEventKind::kGrpcServerStarting, R"(Starting GRPC server for '([^']*)')", Slot::kResource},
    {PluginEventKind::kGrpcServerCrashed, R"(GRPC server for '([^']*)' crashed with error: (.*))", Slot::kResource,
     Slot::kError},
    {PluginEventKind::kGrpcServerCrashed, R"(GRPC server for '([^']*)' has repeatedly crashed recently\. Quitting)",
     Slot::kResource},
    {PluginEventKind::kServing, kPluginServingPattern, Slot::kResource, Slot::kPath},
    {PluginEventKind::kServing, kPluginServingV08Pattern, Slot::kPath},
    {PluginEventKind::kServeFailed, R"(Could not start device plugin for '([^']*)': (.*))", Slot::kResource,
     Slot::kError},
    {PluginEventKind::kRegistered, kPluginRegisteredPattern, Slot::kResource},
    {PluginEventKind::kRegistered, kPluginRegisteredV08Pattern},
    {PluginEventKind::kRegistrationFailed, R"(Could not register device plugin: (.*))", Slot::kError},
    {PluginEventKind::kRegistrationFailed, R"(Failed to start plugin: (.*))", Slot::kError},
    {PluginEventKind::kKubeletUnreachable, R"(Could not contact Kubelet.*)"},
    {PluginEventKind::kStartRetry, R"(Failed to start one or more plugins\. Retrying in (\S+?)\.\.\.)", Slot::kDetail},
    {PluginEventKind::kNoDevices, R"(No devices found\. Waiting indefinitely\.)"},
    {PluginEventKind::kKubeletSocketCreated, R"(inotify: (\S+) created, restarting\.)", Slot::kPath},
    {PluginEventKind::kSighup, R"(Received SIGHUP, restarting\.)"},
    {PluginEventKind::kShutdownSignal, R"re(Received signal "?([^"]*?)"?, shutting down\.)re", Slot::kDetail},
    {PluginEventKind::kStoppingPlugins, R"(Stopping plugins\.)"},
    {PluginEventKind::kStoppedServing, R"(Stopping to serve '([^']*)' on (\S+))", Slot::kResource, Slot::kPath},
    {PluginEventKind::kXidCritical, R"(XidCriticalError: Xid=(\d+) on Device=([^;,\s]+)[;,].*)", Slot::kXid,
     Slot::kDevice},
    {PluginEventKind::kAllDevicesUnhealthy, R"(XidCriticalError: Xid=(\d+), All devices will go unhealthy\.)",
     Slot::kXid},
    {PluginEventKind::kAllDevicesUnhealthy, R"((.*); (?i:marking all devices as unhealthy)\.?)", Slot::kError},
    {PluginEventKind::kDeviceUnhealthy, R"('([^']*)' device marked unhealthy: (\S+))", Slot::kResource, Slot::kDevice},
    {PluginEventKind::kHealthCheckDeviceError,
     R"((?i:unable) to get device handle from UUID: (.*); marking it as unhealthy)", Slot::kError},
    {PluginEventKind::kHealthCheckDeviceError,
     R"((?i:unabled?) to determine the supported events for (\S+): (.*); marking it as unhealthy)", Slot::kDevice,
     Slot::kError},
    {PluginEventKind::kHealthCheckDeviceError, R"(Marking device (\S+) as unhealthy: (.*))", Slot::kDevice,
     Slot::kError},
    {PluginEventKind::kHealthCheckDeviceError, R"(Device (\S+) is too old to support healthchecking\.)", Slot::kDevice},
    {PluginEventKind::kHealthCheckDeviceError,
     R"(Could not determine device placement for (\S+): (.*); marking it unhealthy\.)", Slot::kDevice, Slot::kError},
    {PluginEventKind::kHealthCheckFailed,
     R"(Failed to start health check: (.*?); continuing with health checks disabled)", Slot::kError},
    {PluginEventKind::kIgnoredXids, R"(Ignoring the following XIDs for health checks: (.*))", Slot::kDetail},
    {PluginEventKind::kExitError, R"(error starting plugins: (.*))", Slot::kError},
    // GKE's own plugin, nvidia-gpu-device-plugin (formats/plugin_wording.h;
    // cmd/nvidia_gpu/nvidia_gpu.go and pkg/gpu/nvidia/manager.go).
    {PluginEventKind::kStartingPlugins, R"(device-plugin started)"},
    {PluginEventKind::kNvmlInitFailed, kGkePluginNvmlFailedPattern, Slot::kError},
    {PluginEventKind::kGrpcServerStarting, R"(starting device-plugin server at: (\S+))", Slot::kPath},
    {PluginEventKind::kServing, kGkePluginServingPattern},
    {PluginEventKind::kRegistered, kGkePluginRegisteredPattern},
    {PluginEventKind::kKubeletUnreachable, R"(no kubelet\.sock to register\.)"},
    {PluginEventKind::kKubeletSocketCreated, R"(\s*(\S+) recreated, stopping device-plugin server)", Slot::kPath},
    {PluginEventKind::kStoppedServing, R"(stopping device-plugin server at: (\S+))", Slot::kPath},
    {PluginEventKind::kDeviceUnhealthy, R"(device-plugin: (\S+) device marked as Unhealthy)", Slot::kDevice},
    {PluginEventKind::kAdvice, R"(You can (?:check the prerequisites|learn how to set the runtime) at: .*|)"
                               R"(If this is (?:not )?a GPU node, .*)"},
};

const RegexCascade& Compiled() {
  static const RegexCascade cascade = [] {
    std::vector<std::string> regexes;
    for (const Pattern& p : kPatterns) regexes.push_back(p.regex);
    RE2::Options options;
    options.set_encoding(RE2::Options::EncodingLatin1);  // log text is bytes, not always UTF-8
    options.set_dot_nl(true);  // a banner joined with its continuation lines
    return RegexCascade(regexes, options);
  }();
  return cascade;
}

void Assign(Slot slot, const std::string& value, PluginEvent* e) {
  switch (slot) {
    case Slot::kResource: e->resource = value; break;
    case Slot::kPath: e->path = value; break;
    case Slot::kDevice: e->device = value; break;
    case Slot::kXid:
      if (!value.empty() && value.size() < 9) e->xid = std::stoi(value);
      break;
    case Slot::kError: e->error = value; break;
    case Slot::kDetail: e->detail = value; break;
    case Slot::kNone: break;
  }
}

// The banner's value is klog's multi-line form (version=<\n\tsha\n\tcommit:
// ...\n >), a quoted string, or, when only its first line is at hand, "<".
std::string BannerVersion(std::string_view value) {
  if (!value.empty() && value.front() == '<') {
    value.remove_prefix(1);
    while (!value.empty() &&
           (value.front() == '\n' || value.front() == '\t' || value.front() == ' ')) {
      value.remove_prefix(1);
    }
    return std::string(value.substr(0, value.find('\n')));
  }
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    value = value.substr(1, value.size() - 2);
  }
  return std::string(value.substr(0, value.find(' ')));
}

}  // namespace

const char* PluginEventKindName(PluginEventKind kind) {
  switch (kind) {
    case PluginEventKind::kUnknown: return "unknown";
    case PluginEventKind::kVersionBanner: return "version_banner";
    case PluginEventKind::kLoadingNvml: return "loading_nvml";
    case PluginEventKind::kFsWatcherStarted: return "fs_watcher_started";
    case PluginEventKind::kOsWatcherStarted: return "os_watcher_started";
    case PluginEventKind::kStartingPlugins: return "starting_plugins";
    case PluginEventKind::kLoadingConfig: return "loading_config";
    case PluginEventKind::kConfigDump: return "config_dump";
    case PluginEventKind::kRetrievingPlugins: return "retrieving_plugins";
    case PluginEventKind::kPlatformDetected: return "platform_detected";
    case PluginEventKind::kNonNvmlPlatform: return "non_nvml_platform";
    case PluginEventKind::kIncompatiblePlatform: return "incompatible_platform";
    case PluginEventKind::kNvmlInitFailed: return "nvml_init_failed";
    case PluginEventKind::kGrpcServerStarting: return "grpc_server_starting";
    case PluginEventKind::kGrpcServerCrashed: return "grpc_server_crashed";
    case PluginEventKind::kServing: return "serving";
    case PluginEventKind::kServeFailed: return "serve_failed";
    case PluginEventKind::kRegistered: return "registered";
    case PluginEventKind::kRegistrationFailed: return "registration_failed";
    case PluginEventKind::kKubeletUnreachable: return "kubelet_unreachable";
    case PluginEventKind::kStartRetry: return "start_retry";
    case PluginEventKind::kNoDevices: return "no_devices";
    case PluginEventKind::kKubeletSocketCreated: return "kubelet_socket_created";
    case PluginEventKind::kSighup: return "sighup";
    case PluginEventKind::kShutdownSignal: return "shutdown_signal";
    case PluginEventKind::kStoppingPlugins: return "stopping_plugins";
    case PluginEventKind::kStoppedServing: return "stopped_serving";
    case PluginEventKind::kXidCritical: return "xid_critical";
    case PluginEventKind::kAllDevicesUnhealthy: return "all_devices_unhealthy";
    case PluginEventKind::kDeviceUnhealthy: return "device_unhealthy";
    case PluginEventKind::kHealthCheckDeviceError: return "health_check_device_error";
    case PluginEventKind::kHealthCheckFailed: return "health_check_failed";
    case PluginEventKind::kIgnoredXids: return "ignored_xids";
    case PluginEventKind::kExitError: return "exit_error";
    case PluginEventKind::kAdvice: return "advice";
  }
  return "unknown";
}

PluginEvent ClassifyPluginMessage(std::string_view message) {
  message = TrimRight(message);
  re2::StringPiece text(message.data(), message.size());
  PluginEvent event;
  int which = Compiled().FirstFullMatch(message);
  if (which >= 0) {
    const RE2& re = Compiled().pattern(which);
    const Pattern& pattern = kPatterns[which];
    std::string first, second;
    const RE2::Arg a1(&first), a2(&second);
    const RE2::Arg* args[] = {&a1, &a2};
    RE2::FullMatchN(text, re, args, re.NumberOfCapturingGroups());
    event.kind = pattern.kind;
    Assign(pattern.first, first, &event);
    Assign(pattern.second, second, &event);
  }
  if (event.kind == PluginEventKind::kVersionBanner) {
    event.version = BannerVersion(event.detail);
    event.detail.clear();
  } else if (event.kind == PluginEventKind::kRetrievingPlugins) {
    // The typo was fixed in v0.15.0.
    event.version_hint = event.detail == "Retreiving" ? "<=v0.14" : ">=v0.15";
    event.detail.clear();
  }
  return event;
}

namespace {

const json* FindKey(std::initializer_list<const json*> scopes, const char* key) {
  for (const json* scope : scopes) {
    if (scope == nullptr || !scope->is_object()) continue;
    auto it = scope->find(key);
    if (it != scope->end() && !it->is_null()) return &*it;
  }
  return nullptr;
}

const json* Child(const json* parent, const char* key) {
  if (parent == nullptr || !parent->is_object()) return nullptr;
  auto it = parent->find(key);
  return it == parent->end() || !it->is_object() ? nullptr : &*it;
}

std::string StringOf(const json* value) {
  return value != nullptr && value->is_string() ? value->get<std::string>() : "";
}

std::optional<bool> BoolOf(const json* value) {
  if (value == nullptr || !value->is_boolean()) return std::nullopt;
  return value->get<bool>();
}

void AddName(const std::string& name, std::vector<std::string>* names) {
  if (name.empty()) return;
  for (const auto& n : *names) {
    if (n == name) return;
  }
  names->push_back(name);
}

// Names under a list of {"name": ...} objects; key is "name" or "rename".
void AddNamesFrom(const json* list, const char* key, std::vector<std::string>* names) {
  if (list == nullptr || !list->is_array()) return;
  for (const auto& item : *list) {
    if (item.is_object()) AddName(StringOf(FindKey({&item}, key)), names);
  }
}

PluginConfig ReadConfig(const json& doc) {
  const json* flags = Child(&doc, "flags");
  const json* plugin = Child(flags != nullptr ? flags : &doc, "plugin");
  PluginConfig c;
  c.fail_on_init_error = BoolOf(FindKey({flags, &doc}, "failOnInitError"));
  c.mig_strategy = StringOf(FindKey({flags, &doc}, "migStrategy"));
  c.nvidia_driver_root = StringOf(FindKey({flags, &doc}, "nvidiaDriverRoot"));
  c.device_discovery_strategy = StringOf(FindKey({flags, &doc}, "deviceDiscoveryStrategy"));
  c.pass_device_specs = BoolOf(FindKey({plugin, flags, &doc}, "passDeviceSpecs"));
  c.device_id_strategy = StringOf(FindKey({plugin, flags, &doc}, "deviceIDStrategy"));
  const json* list = FindKey({plugin, flags, &doc}, "deviceListStrategy");
  if (list != nullptr && list->is_string()) {
    c.device_list_strategy.push_back(list->get<std::string>());
  } else if (list != nullptr && list->is_array()) {
    for (const auto& s : *list) {
      if (s.is_string()) c.device_list_strategy.push_back(s.get<std::string>());
    }
  }
  const json* resources = Child(&doc, "resources");
  AddNamesFrom(FindKey({resources}, "gpus"), "name", &c.resource_names);
  AddNamesFrom(FindKey({resources}, "mig"), "name", &c.resource_names);
  const json* sharing = Child(&doc, "sharing");
  for (const char* mode : {"timeSlicing", "mps"}) {
    AddNamesFrom(FindKey({Child(sharing, mode)}, "resources"), "rename", &c.resource_names);
  }
  return c;
}

// Counts braces outside JSON strings; returns true once they balance after
// the first '{'.
bool FeedBraces(std::string_view text, int* depth, bool* started, bool* in_string) {
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (*in_string) {
      if (ch == '\\') {
        ++i;
      } else if (ch == '"') {
        *in_string = false;
      }
      continue;
    }
    if (ch == '"') {
      *in_string = true;
    } else if (ch == '{') {
      ++*depth;
      *started = true;
    } else if (ch == '}') {
      --*depth;
    }
    if (*started && *depth <= 0) return true;
  }
  return false;
}

}  // namespace

void PluginConfigFinder::Add(const LogMessage& m) {
  if (open_ && Continue(m)) return;
  std::string_view first = TrimLeft(m.text, " \t\n");
  if (first.substr(0, kHeader.size()) != kHeader) return;
  open_ = true;
  header_line_ = m.line;
  body_ = TrimLeft(first.substr(kHeader.size()), " \t\n");
  depth_ = 0;
  started_ = in_string_ = false;
  if (FeedBraces(body_, &depth_, &started_, &in_string_)) Read();
}

// True when `m` belongs to the open dump. A line that cannot begin its JSON
// closes the dump and is read as any other line.
bool PluginConfigFinder::Continue(const LogMessage& m) {
  if (!started_ && TrimLeft(m.text, " \t\n").substr(0, 1) != "{") {
    Close();
    return false;
  }
  if (body_.size() + m.text.size() >= kMaxBodyBytes) {
    scan_.warnings.push_back({header_line_, "config dump over 1 MiB; not read"});
    open_ = false;
    return true;
  }
  body_ += '\n';
  body_ += m.text;
  if (FeedBraces(m.text, &depth_, &started_, &in_string_)) Read();
  return true;
}

void PluginConfigFinder::Read() {
  open_ = false;
  json doc = json::parse(body_, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    scan_.warnings.push_back({header_line_, "config dump is not a JSON object"});
    return;
  }
  PluginConfig config = ReadConfig(doc);
  config.line = header_line_;
  scan_.configs.push_back(std::move(config));
}

void PluginConfigFinder::Close() {
  if (!open_) return;
  open_ = false;
  scan_.warnings.push_back({header_line_, started_ ? kConfigDumpCutShort : "no JSON after 'Running with config:'"});
}

PluginConfigScan PluginConfigFinder::Finish() {
  Close();
  body_.clear();
  PluginConfigScan found = std::move(scan_);
  scan_ = {};
  return found;
}

PluginConfigScan FindPluginConfigs(const std::vector<LogMessage>& messages) {
  PluginConfigFinder finder;
  for (const LogMessage& m : messages) finder.Add(m);
  return finder.Finish();
}

PluginLine ReadPluginHeader(const std::string& text) {
  PluginLine line;
  if (auto klog = ParseKlogHeader(text)) {
    line.severity = std::string(1, klog->severity);
    line.source_file = klog->file + ":" + std::to_string(klog->source_line);
    line.message = klog->message;
  } else if (auto golog = ParseGoLogHeader(text)) {
    line.message = golog->message;
  } else {
    line.message = text;
  }
  return line;
}

void ClassifyPluginLine(PluginLine& line) {
  PluginEvent event = ClassifyPluginMessage(line.message);
  if (event.kind != PluginEventKind::kUnknown) line.event = PluginEventKindName(event.kind);
  else line.event.reset();
}

PluginLine ReadPluginLine(const std::string& text) {
  PluginLine line = ReadPluginHeader(text);
  ClassifyPluginLine(line);
  return line;
}

}  // namespace gpuf
