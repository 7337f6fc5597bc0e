#include "importer/input_shapes.h"

#include <re2/re2.h>

#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>

#include "common/byte_pattern.h"
#include "common/text_lines.h"
#include "formats/klog.h"
#include "importer/boot_list.h"
#include "importer/journal_text.h"
#include "importer/saved_outputs.h"

namespace gpuf {

namespace {

// The patterns below are literals of this file, compiled once each.
const RE2& Re(const char* pattern) {
  static std::mutex mutex;
  static std::map<const char*, std::unique_ptr<RE2>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& re = cache[pattern];
  if (!re) re = std::make_unique<RE2>(pattern, BytePatternOptions());
  return *re;
}

bool Has(std::string_view text, const char* pattern) { return RE2::PartialMatch(text, Re(pattern)); }
bool Is(std::string_view text, const char* pattern) { return RE2::FullMatch(text, Re(pattern)); }

// --- document shapes: what the whole text holds ----------------------------

bool UptimeSince(std::string_view t) { return Is(t, R"(\s*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s*)"); }
// journalctl --list-boots, its old form and systemd 255's table: an offset,
// a boot id, and the first entry's weekday and time.
bool BootList(std::string_view t) { return !ParseBootList(t, 0).empty(); }
bool DateText(std::string_view t) {
  return Is(t, R"(\s*\w{3}, +\d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}\s*)") ||
         Has(t, R"((?m)^\s*Time zone: )");
}
bool Statfs(std::string_view t) { return Is(t, R"(\s*(cgroup2fs|tmpfs|cgroupfs)\s*)"); }

// nvidia-smi -L, or the error nvidia-smi printed instead of anything else.
bool SmiListOrError(std::string_view t) {
  return Has(t, R"((?m)^GPU \d+: .*\(UUID: GPU-)") ||
         Has(t, R"(\A\s*(?:Failed to initialize NVML|NVIDIA-SMI has failed|No devices were found|Unable to determine the device handle))");
}
bool SmiTable(std::string_view t) { return Has(t, R"((?m)^\|\s+NVIDIA-SMI \d)"); }
bool SmiQuery(std::string_view t) {
  // A grep of it keeps a section's heading over its keys ("    Fabric" over
  // "        State : Completed").
  return Has(t, R"(==+NVSMI LOG==+)") ||
         Has(t, R"((?m)^\s+(?:Product Name|GPU UUID|Persistence Mode|CliqueId|ClusterUUID|Bus Id)\s+: )") ||
         Has(t, R"((?m)^\s*Fabric\s*\n\s+State\s+: )");
}
bool SmiMigList(std::string_view t) { return Has(t, R"((?m)^\|\s+(?:GPU instances|Compute instances):)"); }
bool SystemctlStatus(std::string_view t) {
  return Has(t, R"((?m)^(?:●|×|\*) \S+\.(?:service|socket|scope|mount) - )") ||
         (Has(t, R"((?m)^\s+Loaded: )") && Has(t, R"((?m)^\s+Active: )"));
}
bool SystemctlStartFailed(std::string_view t) { return Has(t, R"((?m)^Job for \S+ failed because )"); }
bool DescribePod(std::string_view t) {
  return Has(t, R"((?m)^\s*(?:Init Containers|Containers|QoS Class|Tolerations|Volumes):\s*$)") ||
         Has(t, R"((?m)^\s+(?:State|Last State|Container ID|Image ID|Restart Count|Exit Code):)") ||
         (Has(t, R"((?m)^Status:\s+\w)") && Has(t, R"((?m)^(?:Reason|Message):\s)")) ||
         Has(t, R"((?m)^Message:\s+\S)") || Has(t, R"((?m)^Namespace:\s+\S)") ||
         (Has(t, R"((?m)^Events:\s*$)") && !Has(t, R"((?m)^Capacity:)"));
}
bool DescribeNode(std::string_view t) {
  return Has(t, R"((?m)^(?:Capacity|Allocatable|Allocated resources|System Info|Addresses|Conditions):\s*$)") ||
         (Has(t, R"((?m)^Roles:\s)") && Has(t, R"((?m)^Labels:\s)")) || Has(t, R"((?m)^Labels:\s*$)") ||
         // The Labels row alone, where its first label is one only Nodes carry.
         Has(t, R"((?m)^Labels:\s+(?:nvidia\.com/|feature\.node\.kubernetes\.io/|node\.kubernetes\.io/|node-role\.kubernetes\.io/|(?:beta\.)?kubernetes\.io/(?:hostname|arch|os)=))");
}
bool NodeYaml(std::string_view t) {
  return Has(t, R"((?m)^kind: Node\s*$)") || Has(t, R"((?m)^\s*(?:allocatable|capacity):\s*$)");
}
// JSON: the Node, its allocatable or labels through jq, an event list, a pod.
bool NodeJson(std::string_view t) {
  return Has(t, R"re(\A\s*(?:[{\[]|"[\w./-]+":\s))re") &&
         (Has(t, R"re("kind":\s*"Node")re") ||
          Has(t, R"re((?m)^\s*"(?:cpu|memory|pods|nvidia\.com/[\w.-]+|kubernetes\.io/hostname|node-role\.kubernetes\.io/[\w-]+)":\s)re"));
}
bool EventsJsonOrYaml(std::string_view t) {
  return Has(t, R"re("kind":\s*"(?:Event|EventList)")re") || Has(t, R"((?m)^kind: (?:Event|EventList)\s*$)") ||
         (Has(t, R"((?m)^\s*(?:- )?involvedObject:\s*$)") && Has(t, R"((?m)^\s*reason: )"));
}
bool PodObject(std::string_view t) {
  return (Has(t, R"((?m)^kind: Pod\s*$)") || Has(t, R"("kind":\s*"Pod")")) &&
         (Has(t, R"((?m)^status:\s*$)") || Has(t, R"("containerStatuses")"));
}
bool CrictlInspect(std::string_view t) { return Has(t, R"("runtimeSpec")") || Has(t, R"("podSandboxId")"); }
bool CrictlTable(std::string_view t) { return Has(t, R"((?m)^CONTAINER\s+IMAGE\s+CREATED\s+STATE)"); }
bool DriverVersion(std::string_view t) { return Has(t, R"((?m)^NVRM version: )"); }
bool StaticPod(std::string_view t) { return Has(t, R"((?m)^kind: Pod\s*$)"); }
bool DevListing(std::string_view t) { return Has(t, R"((?m)^[cl-][rwx-]{9}.* /dev/(?:nvidia|char/))"); }
bool SocketListing(std::string_view t) { return Has(t, R"((?m)^s[rwx-]{9}.* kubelet\.sock\s*$)"); }
bool Versions(std::string_view t) {
  return Has(t, R"((?m)^(?:containerd (?:containerd\.io |github\.com/containerd/containerd)|runc version |NVIDIA Container Toolkit CLI version |cli-version: |Kubernetes v\d|systemd \d+ \())");
}
// A container runtime's or the NVIDIA hook's error, pasted alone.
bool RuntimeErrors(std::string_view t) {
  return Has(t, R"(failed to create (?:containerd task|shim task|shim)|failed to (?:start|create|get) sandbox|OCI runtime (?:create|start) failed|error running (?:prestart |createContainer )?hook|(?:prestart|createRuntime|createContainer|startContainer|poststart) hook #\d+: |nvidia-container-cli(?:\.real)?: \w+ error|Error response from daemon|(?m)^(?:INFO|WARN|ERRO)\[\d{4}\] )");
}
// The kubelet's refusal to admit a pod, quoted alone: an event row, or the
// pod's status message ("Pod Allocate failed due to device plugin ...").
// They name the device plugin but are the kubelet's words, not the plugin's.
// Both are recognised by their first line.
bool AdmissionEvent(std::string_view t) {
  return Is(FirstLine(TrimLeft(t)), R"(\s*(?:\S+\s+)?Warning\s+UnexpectedAdmissionError\s.*)");
}
bool AdmissionMessage(std::string_view t) {
  return Is(FirstLine(TrimLeft(t)),
            R"(\s*(?:Pod |Message:\s+)?(?:Allocate failed due to|Update plugin resources failed due to|Pod was rejected: ).*)");
}
// The GPU Operator's toolkit container, in logrus's logfmt: it installs the
// NVIDIA runtime and writes the container runtime's configuration. Other
// operator components log the same way (dcgm-exporter, the MIG manager) and
// are not the runtime's.
bool ToolkitContainerLog(std::string_view t) {
  return Has(t, R"re((?m)^(?:\S+ )?time="\d{4}-\d\d-\d\dT[^"]*" level=\w+ msg=)re") &&
         Has(t, R"((?i)nvidia-toolkit|nvidia-container-(?:toolkit|runtime|cli)|nvidia-ctk|unable to (?:load|setup) (?:config|runtime)|config\.toml)");
}

// A device plugin's output without any time stamp (v1.8, or one fatal line
// quoted): a line starts with the plugin's own words. NVML named inside
// another tool's line (an strace of nvidia-smi, a wrapper's error) is not it.
bool UnstampedPluginOutput(std::string_view t) {
  int lines = 0;
  ForEachLine(t, [&](int, std::string_view l) { lines += !Trim(l).empty(); });
  return lines > 0 && lines <= 6 &&
         Has(t, R"((?mi)^\s*(?:loading NVML|Failed to (?:start|initialize) NVML|error starting plugins|)"
                R"(error creating plugin manager|Retr(?:ei|ie)ving plugins|Starting (?:FS|OS) watcher|Starting GRPC server|)"
                R"(Starting to serve|Registered device plugin|Fetching devices|Could not (?:start|register) device plugin|)"
                R"(If this is a GPU node|You can check the prerequisites))");
}

// --- line shapes: most output lines match ------------------------------------

const std::vector<InputShape>& Table() {
  using C = Conversion;
  using V = ShapeView;
  static const std::vector<InputShape> shapes = {
      {"uptime -s", "", UptimeSince, "", C::kUptimeSince, V::kHost, ""},
      {"journalctl --list-boots", "", BootList, "boot.list_boots", C::kAsIs, V::kHost, ""},
      {"date -R / timedatectl", "", DateText, "", C::kAsIs, V::kHost, ""},
      {"stat -fc %T /sys/fs/cgroup", "", Statfs, "cgroup.statfs", C::kAsIs, V::kHost, ""},
      {"nvidia-smi -L or its NVML error", "", SmiListOrError, "", C::kNvidiaSmi, V::kAsSaved, ""},
      {"nvidia-smi table", "", SmiTable, "", C::kNvidiaSmi, V::kAsSaved, ""},
      {"nvidia-smi mig -lgi", "", SmiMigList, "", C::kAsIs, V::kAsSaved, "no table holds MIG instances"},
      {"nvidia-smi -q", "", SmiQuery, "", C::kSmiQuery, V::kAsSaved, ""},
      {"systemctl status", "", SystemctlStatus, "systemd.units", C::kSystemctlStatus, V::kHost, ""},
      {"systemctl start error", "", SystemctlStartFailed, "systemd.units", C::kSystemctlStatus, V::kHost, ""},
      {"kubectl get events -o json or yaml", "", EventsJsonOrYaml, "k8s.events", C::kAsIs, V::kApi, ""},
      {"kubectl get pod -o yaml or json", "", PodObject, "k8s.pod_text", C::kAsIs, V::kApi, ""},
      {"crictl inspect", "", CrictlInspect, "plugin.inspect", C::kPluginInspect, V::kHost, ""},
      {"crictl ps -a", "", CrictlTable, "runtime.crictl_ps", C::kCrictlTable, V::kHost, ""},
      {"kubectl describe node", "", DescribeNode, "k8s.node_text", C::kAsIs, V::kApi, ""},
      {"kubectl describe pod", "", DescribePod, "k8s.pod_text", C::kAsIs, V::kApi, ""},
      {"kubectl get node -o yaml", "", NodeYaml, "k8s.node_text", C::kAsIs, V::kApi, ""},
      {"kubectl get node -o json (or a jq part of it)", "", NodeJson, "k8s.node_text", C::kAsIs, V::kApi, ""},
      {"pod manifest", "", StaticPod, "config.static_pod", C::kStaticPod, V::kHost, ""},
      {"/proc/driver/nvidia/version", "", DriverVersion, "driver.version", C::kAsIs, V::kHost, ""},
      {"ls -l of kubelet's device-plugins", "", SocketListing, "kubelet.device_plugins", C::kLsListing, V::kHost, ""},
      {"ls -l /dev/nvidia* /dev/char", "", DevListing, "dev.nvidia_nodes", C::kLsListing, V::kAsSaved, ""},
      {"--version outputs", "", Versions, "", C::kVersions, V::kHost, ""},

      {"dmesg", R"(^\s*(?:<\d{1,3}>)?\[ *\d+\.\d+(?: <[ \d.]+>)?\] )", nullptr, "journal.kernel", C::kDmesg, V::kHost, ""},
      {"dmesg -T", R"(^\s*\[\S+ +\S+ +\d{1,2} \d\d:\d\d:\d\d \d{4}\] )", nullptr, "journal.kernel", C::kDmesg, V::kHost, ""},
      {"dmesg --time-format iso", R"(^(?:\w+ *:\w+ *: )?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d,\d+[+-]\d\d:?\d\d )", nullptr,
       "journal.kernel", C::kDmesg, V::kHost, ""},
      {"talosctl dmesg", R"(^(?:\S+: )?[a-z]+: +[a-z]+: \[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\]: )", nullptr,
       "journal.kernel", C::kDmesg, V::kHost, ""},
      {"dmesg -H", R"(^\[(?:[^\d\s\]]+ ?\d{1,2} \d\d:\d\d| *\+\d+\.\d+)\] )", nullptr, "journal.kernel", C::kDmesg, V::kHost, ""},
      {"/dev/kmsg", R"(^\d+,\d+,\d+,[^;]*;)", nullptr, "journal.kernel", C::kDmesg, V::kHost, ""},
      {"lspci", R"(^(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7] [0-9A-Za-z][^:\[]*(?: \[[0-9a-fA-F]{4}\])?: \S)",
       nullptr, "pci.nvidia_functions", C::kLspci, V::kHost, ""},
      {"kernel messages without stamps", R"(^(?:NVRM|nvidia-(?:nvlink|nvswitch\d*|modeset|uvm|drm|peermem|fs)|nvidia|mlx5_core|pcieport|xhci_hcd|NVSwitch): )",
       nullptr, "journal.kernel", C::kDmesg, V::kHost, ""},
      {"journal or syslog text", "", nullptr, "", C::kJournalText, V::kHost, ""},  // tested by the journal parser
      {"klog", R"(^(?:\S+\.log\.[A-Z]+\.\d{8}-\d{6}\.\d+:)?[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [^ \]]+:\d+\])", nullptr,
       "", C::kKlogLog, V::kContainer, ""},
      {"Go log", R"(^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d )", nullptr, "", C::kKlogLog, V::kContainer, ""},
      {"CRI log file", R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+(?:Z|[+-]\d\d:\d\d) (?:stdout|stderr) [FP] )", nullptr, "",
       C::kKlogLog, V::kContainer, ""},
      {"kubectl logs --timestamps", R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z )", nullptr, "", C::kKlogLog,
       V::kContainer, ""},
      {"kubectl logs --prefix", R"(^\[pod/[^\] ]+\] )", nullptr, "", C::kKlogLog, V::kContainer, ""},
      {"cgroup v1 devices.list", R"(^[abc] (?:\d+|\*):(?:\d+|\*) [rwm]+\s*$)", nullptr, "plugin.devices_list", C::kAsIs,
       V::kContainer, ""},
      {"kubectl get events", R"(^\s*(?:LAST SEEN\s+TYPE\s+REASON|\S+\s+(?:Normal|Warning)\s+\S+\s+[\w.-]+/\S+\s+\S))", nullptr,
       "k8s.events", C::kAsIs, V::kApi, ""},
      {"kubectl describe Events rows", R"(^\s*(?:Type\s+Reason\s+Age\s+From\s+Message|(?:Normal|Warning)\s+\S+\s+\S.*?\s{2,}\S+\s{2,}\S))",
       nullptr, "k8s.events", C::kAsIs, V::kApi, ""},
      {"kubectl describe Events rows (Kubernetes 1.4)", R"(^\s*\{[^}]+\}\t)", nullptr, "k8s.events", C::kAsIs, V::kApi, ""},
      {"kubectl get pods", R"(^(?:(?:NAMESPACE\s+)?NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE|(?:\S+\s+)?\S+\s+\d+/\d+\s+\S.*?\s+\d+(?: \([^)]*\))?\s+(?:\d+[smhdy]\w*\b.*|\S+\s*)$))",
       nullptr, "k8s.pods", C::kAsIs, V::kApi, ""},
      {"kubectl get nodes", R"(^(?:NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION|\S+\s+(?:Ready|NotReady)\S*\s+\S+\s+\S+\s+v\d))", nullptr,
       "", C::kAsIs, V::kApi, "no table holds node readiness"},
      {"kubectl get runtimeclasses", R"(^(?:NAME\s+HANDLER\s+AGE|\S+\s+\S+\s+\d+[smhdy]\w*)\s*$)", nullptr, "", C::kAsIs,
       V::kApi, "no table holds RuntimeClasses"},

      // Last resorts: documents tried only when no line shape holds most lines.
      {"container runtime or NVIDIA hook error", "", RuntimeErrors, "runtime.errors", C::kAsIs, V::kHost, ""},
      {"kubelet admission event", "", AdmissionEvent, "k8s.events", C::kAsIs, V::kApi, ""},
      {"kubelet admission message", "", AdmissionMessage, "k8s.pod_text", C::kAsIs, V::kApi, ""},
      {"GPU Operator toolkit container log", "", ToolkitContainerLog, "runtime.errors", C::kAsIs, V::kHost, ""},
      {"device plugin output without stamps", "", UnstampedPluginOutput, "", C::kKlogLog, V::kContainer, ""},
  };
  return shapes;
}

}  // namespace

const std::vector<InputShape>& InputShapes() { return Table(); }

std::string KlogWriter(std::string_view text) {
  static const RE2 kubelet_file(
      R"(^(?:kubelet\w*|kuberuntime_\w+|pod_workers|event|scope\w*|manager|endpoint|client|remote_runtime|)"
      R"(cpu_manager|topology_manager|pod_container_deletor|reconciler\w*|operation_generator|container_manager_linux|)"
      R"(generic|pleg|status_manager|apiserver|plugin_watcher|checkpoint\w*|asm_amd64)\.go$|^asm_amd64\.s$)",
      BytePatternOptions());
  static const RE2 plugin_words(
      R"((?i)NVML|device plugin|Retr(?:ei|ie)ving plugins|FS watcher|Starting GRPC server|Loading configuration|XidCriticalError|)"
      R"(marked unhealthy|Marking it unhealthy|support heal\w*checking|error starting plugins|failOnInitError|)"
      R"(migStrategy|deviceListStrategy|)"
      R"(nvidiaDriverRoot|)"
      // GKE's nvidia-gpu-device-plugin
      R"(device-plugin (?:started|registered|server))",
      BytePatternOptions());
  // nvidia-smi's own words, as a workload pod that runs it logs them: no
  // header, no closing period (and, since R535, the library's version on
  // the next line). The plugin's NVML failures carry either.
  static const RE2 smi_failure(R"(Failed to initialize NVML: [^.]*|NVML library version: [0-9.]+)",
                               BytePatternOptions());
  int klog = 0, toolkit = 0, kubelet = 0, pid_one = 0, golog = 0, plugin_lines = 0;
  ForEachLine(text, [&](int, std::string_view raw) {
    std::string_view line = StripGlogFilePrefix(raw);
    // Container log prefixes: the CRI time and stream, kubectl's time or pod.
    static const RE2 prefix(R"(^(?:\[pod/[^\] ]+\] )?(?:\d{4}-\d\d-\d\dT\S+ (?:(?:stdout|stderr) [FP] )?)?)",
                            BytePatternOptions());
    re2::StringPiece rest(line.data(), line.size());
    RE2::Consume(&rest, prefix);
    line = std::string_view(rest.data(), rest.size());
    const bool go_header = ParseGoLogHeader(line).has_value();
    if (go_header) ++golog;
    auto h = ParseKlogHeader(line);
    if (RE2::PartialMatch(line, plugin_words) && (go_header || h || !RE2::FullMatch(line, smi_failure))) {
      ++plugin_lines;
    }
    if (!h) return;
    ++klog;
    if (Is(h->file, R"(\w+\.c)")) ++toolkit;
    if (h->pid == 1) ++pid_one;
    if (RE2::FullMatch(h->file, kubelet_file) && h->message.find("Registered device plugin") == std::string::npos) {
      ++kubelet;
    }
  });
  if (klog > 0 && toolkit * 2 > klog) return "toolkit";
  if (klog > 0 && kubelet > 0 && pid_one == 0 && golog == 0 && !Has(text, R"((?i)FS watcher|Retr(?:ei|ie)ving plugins|XidCriticalError|Starting GRPC server|Registered device plugin|Starting to serve|device-plugin (?:started|registered|server))")) {
    return "kubelet";
  }
  if (plugin_lines > 0 || pid_one > 0) return "plugin";
  return "";
}

namespace {

// The terminal's width when the text was copied from a terminal that wrapped
// it: the length of its longest lines, when at least two share it and none
// is longer; 0 otherwise.
size_t WrapWidth(std::string_view text) {
  constexpr size_t kNarrowest = 60;
  size_t width = 0;
  int at_width = 0;
  ForEachLine(text, [&](int, std::string_view line) {
    if (line.size() > width) {
      width = line.size();
      at_width = 0;
    }
    if (line.size() == width) ++at_width;
  });
  return width >= kNarrowest && at_width >= 2 ? width : 0;
}

// Lines a terminal wrapped joined again: a line that does not begin a
// record of the shape continues the line before when that one filled the
// terminal's width. A blank line, an indented one (a record's own
// continuation) and journalctl's "-- Boot ..." markers never continue one.
template <typename Begins>
std::string Unwrapped(const std::string& text, Begins begins_record) {
  const size_t width = WrapWidth(text);
  if (width == 0) return text;
  std::string out;
  out.reserve(text.size());
  size_t previous = 0;  // the length of the physical line before
  ForEachLine(text, [&](int, std::string_view line) {
    const bool own_line = line.empty() || line.front() == ' ' || line.front() == '\t' || line.starts_with("-- ");
    if (previous == width && !out.empty() && !own_line && !begins_record(line)) {
      out.pop_back();  // its '\n'
    }
    out.append(line);
    out += '\n';
    previous = line.size();
  });
  return out;
}

}  // namespace

Recognised RecogniseInput(std::string_view text, std::string_view file_name) {
  Recognised r;
  r.saved = CleanSavedText(text);
  const std::string& body = r.saved.text;
  if (Trim(body).empty()) return r;
  const auto& shapes = Table();
  for (const auto& shape : shapes) {
    if (shape.document != nullptr && shape.document(body)) {
      r.shape = &shape;
      break;
    }
    if (shape.document == nullptr) break;  // document shapes come first
  }
  if (r.shape == nullptr) {
    // Line shapes: the one most lines match, when they are most of the lines
    // that do not merely continue the line before.
    constexpr int kLimit = 400;
    static const auto* patterns = [] {
      auto* v = new std::vector<std::unique_ptr<RE2>>();
      for (const auto& s : Table())
        v->push_back(s.line.empty() ? nullptr : std::make_unique<RE2>(s.line, BytePatternOptions()));
      return v;
    }();
    // A Go program's panic ("panic: ...", "goroutine 1 [running]:", then
    // frames) continues the log it ends, whatever the log's shape.
    static const RE2 go_trace(R"(^(?:panic: |fatal error: |goroutine \d+ \[))", BytePatternOptions());
    std::vector<int> matched(shapes.size(), 0);
    int considered = 0;
    bool in_go_trace = false;
    ForEachLine(body, [&](int, std::string_view line) {
      if (Trim(line).empty() || considered >= kLimit) return;
      in_go_trace = in_go_trace || RE2::PartialMatch(line, go_trace);
      bool any = false;
      for (size_t i = 0; i < shapes.size(); ++i) {
        const InputShape& s = shapes[i];
        if (s.document != nullptr) continue;
        bool hit = s.conversion == Conversion::kJournalText ? IsJournalLine(line)
                                                              : (*patterns)[i] && RE2::PartialMatch(line, *(*patterns)[i]);
        if (hit) {
          ++matched[i];
          any = true;
        }
      }
      if (any || (line.front() != ' ' && line.front() != '\t' && !in_go_trace)) ++considered;
    });
    size_t best = shapes.size();
    for (size_t i = 0; i < shapes.size(); ++i) {
      if (matched[i] > 0 && (best == shapes.size() || matched[i] > matched[best])) best = i;
    }
    if (best < shapes.size() && matched[best] * 2 > considered) {
      r.shape = &shapes[best];
      r.lines_matched = matched[best];
      r.lines_considered = considered;
      const InputShape& shape = shapes[best];
      const RE2* pattern = (*patterns)[best].get();
      r.saved.text = Unwrapped(body, [&](std::string_view line) {
        return shape.conversion == Conversion::kJournalText ? IsJournalLine(line)
                                                            : pattern && RE2::PartialMatch(line, *pattern);
      });
    }
  }
  // The last resorts, the document shapes after the line shapes: an error
  // pasted alone, the kubelet refusing a pod, a plugin's unstamped lines.
  if (r.shape == nullptr) {
    bool after_lines = false;
    for (const auto& shape : shapes) {
      after_lines = after_lines || shape.document == nullptr;
      if (after_lines && shape.document != nullptr && shape.document(body)) {
        r.shape = &shape;
        break;
      }
    }
  }
  // nvidia-smi typed at a prompt and failing: its error is nvidia-smi's,
  // whatever a preloaded library printed before it (HAMi's "[4pdvGPU Warn(...)]").
  if (r.shape == nullptr || r.shape->conversion == Conversion::kKlogLog) {
    static const RE2 ran_smi(R"(^(?:sudo )?nvidia-smi(?: -L)?\s*$)", BytePatternOptions());
    static const RE2 smi_error(
        R"((?m)^\s*(?:Failed to initialize NVML|NVIDIA-SMI has failed|No devices were found|Unable to determine the device handle))",
        BytePatternOptions());
    if (!r.saved.commands.empty() && RE2::FullMatch(r.saved.commands.back(), ran_smi) &&
        RE2::PartialMatch(body, smi_error)) {
      for (const auto& shape : shapes) {
        if (shape.document == SmiListOrError) r.shape = &shape;
      }
      r.lines_matched = r.lines_considered = 0;
    }
  }
  if (r.shape == nullptr) return r;
  switch (r.shape->view) {
    case ShapeView::kHost: r.view = {View::kHost, "the node's by nature"}; break;
    case ShapeView::kContainer: r.view = {View::kContainer, "a container's by nature"}; break;
    case ShapeView::kApi: r.view = {View::kUnknown, "the API server's"}; break;
    case ShapeView::kAsSaved:
      r.view = r.saved.view.view != View::kUnknown ? r.saved.view : ViewFromFileName(file_name);
      break;
  }
  return r;
}

}  // namespace gpuf
