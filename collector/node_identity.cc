#include "collector/node_identity.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>

#include "collector/kubelet_flags.h"
#include "common/byte_pattern.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

constexpr int64_t kMaxConfigBytes = 1 << 20;
constexpr int64_t kMaxLogBytes = 32 << 20;

std::string Join(std::string_view dir, std::string_view name) {
  return std::string(dir) + (dir.empty() || dir.back() != '/' ? "/" : "") + std::string(name);
}

std::string Basename(std::string_view path) {
  size_t slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// A Node name the kubelet would accept, lower-cased as the kubelet does.
std::string NodeNameOrEmpty(std::string_view value) {
  std::string name = AsciiLower(std::string(Trim(value, " \t\r\n\"'")));
  return NodeNameProblem(name) ? "" : name;
}

// The Node name a command line sets, "" when none.
std::string NameFromArgv(const std::vector<std::string>& argv) {
  if (argv.empty()) return "";
  std::string tool = Basename(argv[0]);
  if (tool == "k3s" || tool == "rke2" || argv[0] == "--node-name") {
    std::string name = NodeNameOrEmpty(FlagValue(argv, "node-name"));
    if (!name.empty()) return name;
  }
  return NodeNameOrEmpty(FlagValue(argv, "hostname-override"));
}

// A running kubelet's flags are the ones in effect: units and flag files
// then only say what the next start would use. k3s and RKE2 read their
// config.yaml at start, so it counts beside their processes.
bool InEffect(const ArgvSource& source, bool running) {
  return !running || source.kind == ArgvSource::kRunning ||
         (source.kind == ArgvSource::kFlagFile && EndsWith(source.from, ".yaml"));
}

std::string HostnameOverrideInConfig(std::string_view text) {
  std::string_view trimmed = TrimLeft(text);
  if (!trimmed.empty() && trimmed[0] == '{') {
    auto doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_object() && doc.contains("hostnameOverride") && doc["hostnameOverride"].is_string()) {
      return NodeNameOrEmpty(doc["hostnameOverride"].get<std::string>());
    }
    return "";
  }
  std::string name;
  ForEachLine(text, [&](int, std::string_view line) {
    if (line.substr(0, 17) == "hostnameOverride:") name = NodeNameOrEmpty(line.substr(17));
  });
  return name;
}

std::vector<std::string> ConfigFiles(const HostFiles& host, const std::vector<ArgvSource>& argvs,
                                     const PlatformRow* platform) {
  std::vector<std::string> paths;
  for (const auto& source : argvs) {
    std::string config = FlagValue(source.argv, "config");
    if (!config.empty() && config.find('$') == std::string::npos) {
      paths.push_back(config);
      break;
    }
  }
  if (platform) {
    for (auto p : PlatformWords(platform->kubelet_config)) paths.emplace_back(p);
  }
  paths.emplace_back("/var/lib/kubelet/config.yaml");
  std::vector<std::string> files;
  for (const auto& path : paths) {
    auto names = host.List(path);
    if (names.empty()) {
      files.push_back(path);
      continue;
    }
    for (const auto& name : names) files.push_back(Join(path, name));  // a drop-in directory
  }
  return files;
}

struct StaticPod {
  std::string name_space = "default";
  std::string name;
};

// metadata.name and metadata.namespace of a static pod manifest (YAML or JSON).
StaticPod StaticPodOf(std::string_view text) {
  StaticPod pod;
  std::string_view trimmed = TrimLeft(text);
  if (!trimmed.empty() && trimmed[0] == '{') {
    auto doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (!doc.is_object() || !doc.contains("metadata") || !doc["metadata"].is_object()) return pod;
    const auto& meta = doc.at("metadata");
    if (meta.contains("name") && meta.at("name").is_string()) pod.name = meta.at("name").get<std::string>();
    if (meta.contains("namespace") && meta.at("namespace").is_string()) {
      pod.name_space = meta.at("namespace").get<std::string>();
    }
    return pod;
  }
  bool in_metadata = false;
  size_t indent = std::string_view::npos;
  ForEachLine(text, [&](int, std::string_view line) {
    if (line.empty() || Trim(line).empty() || Trim(line)[0] == '#') return;
    size_t lead = line.find_first_not_of(' ');
    if (lead == 0) {
      in_metadata = line.substr(0, 9) == "metadata:";
      indent = std::string_view::npos;
      return;
    }
    if (!in_metadata) return;
    if (indent == std::string_view::npos) indent = lead;
    if (lead != indent) return;
    std::string_view field = line.substr(lead);
    if (field.substr(0, 5) == "name:") pod.name = std::string(Trim(field.substr(5), " \t\"'"));
    if (field.substr(0, 10) == "namespace:") pod.name_space = std::string(Trim(field.substr(10), " \t\"'"));
  });
  return pod;
}

// A DaemonSet's pod "<name>-x7k2p" also starts with "<name>-": its random
// suffix (Kubernetes' alphabet, five characters) is no Node name.
bool LooksGenerated(std::string_view candidate) {
  size_t dash = candidate.rfind('-');
  std::string_view last = dash == std::string_view::npos ? candidate : candidate.substr(dash + 1);
  return last.size() == 5 && last.find_first_not_of("bcdfghjklmnpqrstvwxz2456789") == std::string_view::npos;
}

// The <node> of /var/log/pods/<ns>_<static pod>-<node>_<uid>: the name most
// static pods agree on, one that does not look generated before one that
// does, the first in order when they still tie.
ManifestNameStep MirrorPodStep(const HostFiles& host, const PlatformRow* platform) {
  std::vector<std::string> dirs;
  if (platform) {
    for (auto d : PlatformWords(platform->static_pod_dirs)) dirs.emplace_back(d);
  }
  if (std::find(dirs.begin(), dirs.end(), "/etc/kubernetes/manifests") == dirs.end()) {
    dirs.emplace_back("/etc/kubernetes/manifests");
  }
  const std::vector<std::string> pod_dirs = host.List("/var/log/pods");
  std::map<std::string, int> votes;
  std::vector<std::pair<std::string, std::string>> order;  // name, where
  for (const auto& dir : dirs) {
    for (const auto& file : host.List(dir)) {
      auto text = host.Read(Join(dir, file), kMaxConfigBytes);
      if (!text) continue;
      StaticPod pod = StaticPodOf(*text);
      if (pod.name.empty()) continue;
      const std::string prefix = pod.name_space + "_" + pod.name + "-";
      for (const auto& entry : pod_dirs) {
        if (entry.rfind(prefix, 0) != 0) continue;
        std::string rest = entry.substr(prefix.size());
        size_t underscore = rest.rfind('_');
        if (underscore == std::string::npos) continue;
        std::string node = NodeNameOrEmpty(rest.substr(0, underscore));
        if (node.empty()) continue;
        if (votes[node]++ == 0) order.emplace_back(node, "/var/log/pods/" + entry);
      }
    }
  }
  ManifestNameStep step{"mirror_pod", "", ""};
  int best = 0;
  for (const auto& [node, where] : order) {
    int score = 2 * votes[node] - (LooksGenerated(node) ? 1 : 0);
    if (score > best) {
      best = score;
      step.from = where;
      step.value = node;
    }
  }
  return step;
}

ManifestNameStep JournalStep(const NodeIdentityInputs& in) {
  ManifestNameStep step{"kubelet_journal", "", ""};
  const PlatformRow* platform = in.platform.distribution;
  if (platform && platform->kubelet_log != "journal" && !platform->kubelet_log.empty()) {
    const std::string file(platform->kubelet_log);
    if (auto text = in.host->Read(file, kMaxLogBytes)) {
      step.value = NodeNameFromKubeletLog(*text);
      if (!step.value.empty()) step.from = file;
    }
  }
  if (step.value.empty() && in.kubelet_journal) {
    step.value = NodeNameFromKubeletLog(in.kubelet_journal());
    if (!step.value.empty()) step.from = "journal";
  }
  return step;
}

bool IsKubeletConfiguration(const NodeIdentityInputs& in, const std::string& path) {
  auto head = in.read_head ? in.read_head(path) : in.host->Read(path, 512);
  return head && LeadingDocumentKind(*head) == "KubeletConfiguration";
}

void ResolveKubeconfig(const NodeIdentityInputs& in, const std::vector<ArgvSource>& argvs, NodeIdentity& id) {
  if (!in.option_kubeconfig.empty()) {
    id.kubeconfig = in.option_kubeconfig;
    id.kubeconfig_source = "option";
    return;
  }
  if (!in.env_kubeconfig.empty()) {
    id.kubeconfig = in.env_kubeconfig;
    id.kubeconfig_source = "env";
    return;
  }
  std::vector<std::pair<std::string, std::string>> candidates;  // path, source
  for (const auto& source : argvs) {
    std::string path = FlagValue(source.argv, "kubeconfig");
    if (!path.empty() && path.find('$') == std::string::npos) candidates.emplace_back(path, "kubelet_flag");
  }
  if (in.platform.distribution) {
    for (auto p : PlatformWords(in.platform.distribution->kubeconfig)) candidates.emplace_back(p, "platform");
  }
  for (const auto& row : PlatformTable()) {
    for (auto p : PlatformWords(row.kubeconfig)) candidates.emplace_back(p, "platform");
  }
  for (const auto& [path, source] : candidates) {
    if (!in.host->Exists(path) || IsKubeletConfiguration(in, path)) continue;
    id.kubeconfig = path;
    id.kubeconfig_source = source;
    return;
  }
  if (in.in_cluster) id.kubeconfig_source = "in_cluster";
}

}  // namespace

std::string LeadingDocumentKind(std::string_view head) {
  std::string kind, api_version;
  std::string_view text = TrimLeft(head);
  if (!text.empty() && text[0] == '{') {
    static const RE2 pair(R"re(^\s*,?\s*"([A-Za-z]+)"\s*:\s*"([^"]*)")re", BytePatternOptions());
    re2::StringPiece rest(text.data() + 1, text.size() - 1);
    std::string key, value;
    while (RE2::Consume(&rest, pair, &key, &value)) {
      if (key == "kind") kind = value;
      else if (key == "apiVersion") api_version = value;
      else break;
    }
  } else {
    bool stop = false;
    ForEachLine(text, [&](int, std::string_view line) {
      std::string_view t = TrimRight(line);
      if (stop || t.empty() || t[0] == '#' || t == "---") return;
      if (t.substr(0, 5) == "kind:") {
        kind = std::string(Trim(t.substr(5), " \t\"'"));
      } else if (t.substr(0, 11) == "apiVersion:") {
        api_version = std::string(Trim(t.substr(11), " \t\"'"));
      } else {
        stop = true;
      }
    });
  }
  if (!kind.empty()) return kind;
  return api_version.rfind("kubelet.config.k8s.io/", 0) == 0 ? "KubeletConfiguration" : "";
}

std::string NodeNameFromKubeletLog(std::string_view text) {
  static const RE2 structured(R"re("Successfully registered node" node="([^"]+)")re", BytePatternOptions());
  static const RE2 plain(R"re(Successfully registered node ([A-Za-z0-9.-]+))re", BytePatternOptions());
  static const RE2 running(R"re(Running kubelet .*--hostname-override=([A-Za-z0-9.-]+))re", BytePatternOptions());
  std::string name;
  ForEachLine(text, [&](int, std::string_view line) {
    if (line.find("Successfully registered node") == std::string_view::npos &&
        line.find("Running kubelet") == std::string_view::npos) {
      return;
    }
    re2::StringPiece piece(line.data(), line.size());
    std::string found;
    if (RE2::PartialMatch(piece, structured, &found) || RE2::PartialMatch(piece, plain, &found) ||
        RE2::PartialMatch(piece, running, &found)) {
      if (std::string n = NodeNameOrEmpty(found); !n.empty()) name = n;
    }
  });
  return name;
}

ManifestNameStep KubeletFlagStep(const std::vector<ArgvSource>& argvs) {
  ManifestNameStep step{"kubelet_flag", "", ""};
  const bool running = !argvs.empty() && argvs.front().kind == ArgvSource::kRunning;
  for (const auto& source : argvs) {
    if (!InEffect(source, running)) continue;
    step.value = NameFromArgv(source.argv);
    if (step.value.empty()) continue;
    step.from = source.from;
    break;
  }
  return step;
}

ManifestNameStep KubeletConfigStep(const NodeIdentityInputs& in, const std::vector<ArgvSource>& argvs) {
  ManifestNameStep step{"kubelet_config", "", ""};
  for (const auto& file : ConfigFiles(*in.host, argvs, in.platform.distribution)) {
    auto text = in.host->Read(file, kMaxConfigBytes);
    if (!text || (step.value = HostnameOverrideInConfig(*text)).empty()) continue;
    step.from = file;
    break;
  }
  return step;
}

NodeIdentity ResolveNodeIdentity(const NodeIdentityInputs& in) {
  NodeIdentity id;
  id.hostname = in.hostname;
  const std::vector<ArgvSource> argvs = KubeletArgvSources(*in.host, in.platform.distribution);
  auto decide = [&](ManifestNameStep step) {
    id.steps.push_back(step);
    if (step.value.empty()) return false;
    id.node_name = step.value;
    id.node_name_source = step.source;
    return true;
  };
  bool named = decide({"option", in.option_node.empty() ? "" : "--node", in.option_node}) ||
               decide({"node_object", in.node_object_name.empty() ? "" : "--node-object", in.node_object_name}) ||
               decide({"env", in.env_node_name.empty() ? "" : "$NODE_NAME", in.env_node_name});
  // A Node given whole must be this node's: the kubelet's own name, where the node shows one, must agree.
  if (named && id.node_name_source == "node_object") {
    for (const auto& step :
         {KubeletFlagStep(argvs), KubeletConfigStep(in, argvs), MirrorPodStep(*in.host, in.platform.distribution)}) {
      if (step.value.empty()) continue;
      id.kubelet_name = step;
      break;
    }
  }
  named = named || decide(KubeletFlagStep(argvs)) || decide(KubeletConfigStep(in, argvs));
  named = named || decide(MirrorPodStep(*in.host, in.platform.distribution)) || decide(JournalStep(in));
  if (!named) {
    std::string name = NodeNameOrEmpty(in.hostname);
    decide({"hostname", name.empty() ? "" : "hostname", name});
  }
  ResolveKubeconfig(in, argvs, id);
  return id;
}

std::optional<std::string> NodeNameProblem(std::string_view name) {
  if (name.empty()) return "it is empty";
  if (name.size() > 253) return "it is longer than 253 characters";
  const auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  for (char c : name) {
    if (!alnum(c) && c != '-' && c != '.') return "a Node's name holds only a-z, 0-9, '-' and '.'";
  }
  if (!alnum(name.front()) || !alnum(name.back())) return "a Node's name starts and ends with a letter or digit";
  return std::nullopt;
}

}  // namespace gpuf
