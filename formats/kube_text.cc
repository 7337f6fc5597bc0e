#include "formats/kube_text.h"

#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include <map>

#include "common/byte_pattern.h"
#include "common/parse_int.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

// A wide terminal puts two fields on one row, ~100 blanks apart:
//   "    Reason:       StartError      <blanks>      Message:      failed to ..."
// Each part keeps the row's indentation.
std::vector<std::string> SplitWideRow(std::string_view line) {
  static const RE2 next_key(R"(^[A-Z][A-Za-z ]*:(?:\s|$))", BytePatternOptions());
  constexpr std::string_view kWide = "          ";
  size_t indent = line.find_first_not_of(' ');
  if (indent == std::string_view::npos) return {std::string(line)};
  size_t i = line.find(kWide, indent);
  while (i != std::string_view::npos) {
    size_t j = line.find_first_not_of(' ', i);
    if (j == std::string_view::npos) break;
    if (RE2::PartialMatch(line.substr(j), next_key)) {
      std::vector<std::string> parts{std::string(TrimRight(line.substr(0, i)))};
      auto tail = SplitWideRow(std::string(indent, ' ') + std::string(line.substr(j)));
      parts.insert(parts.end(), tail.begin(), tail.end());
      return parts;
    }
    i = line.find(kWide, j);
  }
  return {std::string(line)};
}

struct Key {
  int indent = 0;
  std::string name;
  std::string value;
};

std::optional<Key> ParseKey(std::string_view line) {
  static const RE2 key(R"(^(\s*)([A-Z][A-Za-z ]*?):(?:\s+(.*?))?\s*$)", BytePatternOptions());
  std::string indent, name, value;
  if (!RE2::FullMatch(line, key, &indent, &name, &value)) return std::nullopt;
  return Key{static_cast<int>(indent.size()), name, value};
}

std::optional<std::string> NonEmpty(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return s;
}

bool IsBlockField(const std::string& name) {
  return name == "Reason" || name == "Message" || name == "Exit Code" || name == "Signal" || name == "Started" ||
         name == "Finished";
}

// kubectl get pod -o yaml|json.
bool ParsePodObject(std::string_view text, KubePodText& out) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception&) {
    return false;
  }
  if (!root.IsMap() || !root["status"] || !root["status"].IsMap()) return false;
  auto scalar = [](const YAML::Node& map, const char* key) -> std::string {
    if (!map || !map.IsMap() || !map[key] || !map[key].IsScalar()) return "";
    return map[key].Scalar();
  };
  auto line_of = [](const YAML::Node& n) { return n.Mark().is_null() ? 0 : n.Mark().line + 1; };
  const YAML::Node meta = root["metadata"];
  std::optional<std::string> pod = NonEmpty(scalar(meta, "name"));
  std::optional<std::string> ns = NonEmpty(scalar(meta, "namespace"));
  const YAML::Node status = root["status"];
  KubePodState p;
  p.line = line_of(status);
  p.pod = pod;
  p.namespace_ = ns;
  p.which = "pod";
  p.state = NonEmpty(scalar(status, "phase"));
  p.reason = NonEmpty(scalar(status, "reason"));
  p.message = NonEmpty(scalar(status, "message"));
  out.states.push_back(p);
  for (const char* list : {"initContainerStatuses", "containerStatuses"}) {
    const YAML::Node statuses = status[list];
    if (!statuses || !statuses.IsSequence()) continue;
    for (const auto& c : statuses) {
      for (const char* which : {"state", "lastState"}) {
        const YAML::Node st = c[which];
        if (!st || !st.IsMap() || st.size() == 0) continue;
        for (const auto& kv : st) {
          KubePodState s;
          s.line = line_of(kv.second);
          s.pod = pod;
          s.namespace_ = ns;
          s.container = NonEmpty(scalar(c, "name"));
          s.init_container = std::string(list) == "initContainerStatuses";
          s.which = std::string(which) == "state" ? "state" : "last_state";
          std::string state = kv.first.Scalar();
          if (!state.empty()) state[0] = static_cast<char>(state[0] - 'a' + 'A');
          s.state = state;
          s.reason = NonEmpty(scalar(kv.second, "reason"));
          s.message = NonEmpty(scalar(kv.second, "message"));
          std::string code = scalar(kv.second, "exitCode");
          if (!code.empty()) s.exit_code = Int64Or(code, 0);
          std::string restarts = scalar(c, "restartCount");
          if (!restarts.empty()) s.restart_count = Int64Or(restarts, 0);
          out.states.push_back(s);
        }
      }
    }
  }
  return true;
}

}  // namespace

KubePodText ParseKubePodText(std::string_view text) {
  KubePodText out;
  std::string_view head = Trim(text.substr(0, 4096));
  if ((!head.empty() && head.front() == '{') || head.rfind("apiVersion:", 0) == 0 || head.rfind("kind:", 0) == 0) {
    if (ParsePodObject(text, out)) return out;
  }
  std::optional<std::string> pod, ns, container;
  std::optional<bool> init;
  KubePodState pod_row;
  bool pod_row_seen = false;
  std::map<std::string, int64_t> restarts;  // by container ("" when unnamed)
  int block = -1;                           // index into out.states of the open State/Last State
  std::optional<std::string>* continuing = nullptr;  // a Message whose next lines continue it
  bool in_events = false;
  ForEachLine(text, [&](int number, std::string_view raw) {
    // An Events row is never split: its message may hold "Word:" after wide padding.
    std::vector<std::string> parts =
        ParseKubeEventRow(raw) ? std::vector<std::string>{std::string(raw)} : SplitWideRow(raw);
    for (const std::string& line : parts) {
      if (auto e = ParseKubeEventRow(line)) {
        e->line = number;
        out.events.push_back(std::move(*e));
        continuing = nullptr;
        continue;
      }
      if (in_events) {
        if (IsKubectlNoise(line)) continue;
        if (!out.events.empty()) {
          out.events.back().message += "\n" + std::string(Trim(line));
        } else {
          out.warnings.push_back({number, "not an event row: " + std::string(Trim(line).substr(0, 80))});
        }
        continue;
      }
      auto key = ParseKey(line);
      if (!key) {
        static const RE2 container_head(R"(^\s+([a-z0-9][\w.-]*):\s*$)", BytePatternOptions());
        std::string name;
        if (RE2::FullMatch(line, container_head, &name)) {
          container = name;
          block = -1;
          continuing = nullptr;
          continue;
        }
        if (continuing != nullptr && !IsKubectlNoise(line)) {
          **continuing += "\n" + std::string(Trim(line));
          continue;
        }
        continuing = nullptr;
        continue;  // the many other fields of a description
      }
      continuing = nullptr;
      const std::string& k = key->name;
      if (key->indent == 0) {
        block = -1;
        if (k == "Name" && !pod) pod = NonEmpty(key->value);
        if (k == "Namespace" && !ns) ns = NonEmpty(key->value);
        if (k == "Containers") init = false;
        if (k == "Init Containers") init = true;
        if (k == "Events") in_events = true;
        if (k == "Status" || k == "Reason" || k == "Message") {
          if (!pod_row_seen) pod_row.line = number;
          pod_row_seen = true;
          auto& field = k == "Status" ? pod_row.state : k == "Reason" ? pod_row.reason : pod_row.message;
          field = NonEmpty(key->value);
          if (k == "Message") continuing = &pod_row.message;
        }
        continue;
      }
      if (k == "State" || k == "Last State") {
        KubePodState s;
        s.line = number;
        s.container = container;
        s.init_container = init;
        s.which = k == "State" ? "state" : "last_state";
        s.state = NonEmpty(key->value);
        out.states.push_back(s);
        block = static_cast<int>(out.states.size()) - 1;
        continue;
      }
      if (k == "Restart Count") {
        restarts[container.value_or("")] = Int64Or(key->value, 0);
        block = -1;
        continue;
      }
      if (block >= 0 && IsBlockField(k)) {
        KubePodState& s = out.states[block];
        if (k == "Reason") s.reason = NonEmpty(key->value);
        if (k == "Exit Code") s.exit_code = Int64Or(key->value, 0);
        if (k == "Message") {
          s.message = key->value;
          continuing = &s.message;
        }
        continue;
      }
      block = -1;
    }
  });
  if (pod_row_seen) {
    pod_row.which = "pod";
    out.states.insert(out.states.begin(), pod_row);
  }
  for (auto& s : out.states) {
    s.pod = pod;
    s.namespace_ = ns;
    if (s.which != "pod") {
      auto it = restarts.find(s.container.value_or(""));
      if (it != restarts.end()) s.restart_count = it->second;
    }
  }
  return out;
}

KubePodText ParseKubeGetPods(std::string_view text) {
  KubePodText out;
  static const RE2 header(R"(^(NAMESPACE\s+)?NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\b.*$)", BytePatternOptions());
  static const RE2 row(R"(^(?:(\S+)\s+)??(\S+)\s+(\d+/\d+)\s+(\S.*?)\s+(\d+)(?: \([^)]*\))?\s+(\d+[smhdy]\w*)\b.*$)",
                       BytePatternOptions());
  std::map<std::string, size_t> columns;
  ForEachLine(text, [&](int number, std::string_view line) {
    if (RE2::FullMatch(line, header)) {
      columns.clear();
      for (const char* name : {"NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE"}) {
        size_t at = line.find(name);
        if (at != std::string_view::npos) columns[name] = at;
      }
      return;
    }
    if (IsKubectlNoise(line)) return;
    KubePodState s;
    s.line = number;
    s.which = "get";
    std::string ns, name, ready, status, restarts, age;
    if (RE2::FullMatch(line, row, &ns, &name, &ready, &status, &restarts, &age)) {
      if (!ns.empty()) s.namespace_ = ns;
      s.pod = name;
      s.ready = ready;
      s.state = status;
      s.restart_count = Int64Or(restarts, 0);
      out.states.push_back(s);
      return;
    }
    out.warnings.push_back({number, "not a kubectl get pods row: " + std::string(Trim(line).substr(0, 80))});
  });
  return out;
}

namespace {

enum class Block { kNone, kCapacity, kAllocatable, kLabels };

Block BlockOf(const std::string& name) {
  if (name == "capacity" || name == "Capacity") return Block::kCapacity;
  if (name == "allocatable" || name == "Allocatable") return Block::kAllocatable;
  if (name == "labels" || name == "Labels") return Block::kLabels;
  return Block::kNone;
}

}  // namespace

KubeNodeText ParseKubeNodeText(std::string_view text) {
  KubeNodeText out;
  static const RE2 jq_path(R"(jq .*\.(allocatable|capacity|labels)\b)", BytePatternOptions());
  static const RE2 block_head(
      R"re(^(\s*)"?(Capacity|Allocatable|Labels|capacity|allocatable|labels)"?:\s*(\{)?\s*(.*?)\s*$)re",
      BytePatternOptions());
  // A quantity or label value is one word; what follows it is a person's note ("<=== here").
  static const RE2 pair(R"re(^\s*"?([\w./-]+)"?:\s+"?([^",\s]*)"?,?(?:\s.*)?$)re", BytePatternOptions());
  static const RE2 label(R"(^\s*([\w./-]+)=(\S*)\s*$)", BytePatternOptions());
  Block block = Block::kNone;
  int block_indent = -1;
  int block_rows = 0;
  bool block_flat = false;  // rows at the head's own depth: a paste lost kubectl's indentation
  Block jq = Block::kNone;
  auto add = [&](int number, const std::string& key, const std::string& value) {
    ++block_rows;
    if (block == Block::kLabels) {
      out.labels.push_back({number, key, value});
    } else if (key.find('/') != std::string::npos) {
      out.resources.push_back({block == Block::kCapacity ? "capacity" : "allocatable", key, value});
      out.resource_lines.push_back(number);
    }
  };
  ForEachLine(text, [&](int number, std::string_view line) {
    std::string path;
    if (RE2::PartialMatch(line, jq_path, &path)) jq = BlockOf(path);
    if (IsKubectlNoise(line)) return;
    std::string indent, name, brace, value;
    if (RE2::FullMatch(line, block_head, &indent, &name, &brace, &value)) {
      block = BlockOf(name);
      block_indent = static_cast<int>(indent.size());
      block_rows = 0;
      block_flat = false;
      std::string k, v;
      if (block == Block::kLabels && RE2::FullMatch(value, label, &k, &v)) add(number, k, v);
      return;
    }
    std::string_view trimmed = Trim(line);
    if (trimmed == "{" && jq != Block::kNone && block == Block::kNone) {
      block = jq;
      block_indent = -1;
      return;
    }
    if (trimmed == "}" || trimmed == "},") {
      block = Block::kNone;
      return;
    }
    int line_indent = static_cast<int>(line.find_first_not_of(' '));
    std::string k, v;
    if (block != Block::kNone && block_indent >= 0 && line_indent <= block_indent) {
      const bool row_at_head_depth = line_indent == block_indent && block != Block::kLabels &&
                                     (block_rows == 0 || block_flat) && RE2::FullMatch(line, pair, &k, &v) &&
                                     !v.empty();
      block_flat = row_at_head_depth;
      if (!row_at_head_depth) block = Block::kNone;
    }
    if (block == Block::kNone && jq != Block::kNone && trimmed.front() == '"') block = jq;
    if (block == Block::kNone) return;
    if (block == Block::kLabels && RE2::FullMatch(line, label, &k, &v)) {
      add(number, k, v);
      return;
    }
    if (RE2::FullMatch(line, pair, &k, &v)) {
      add(number, k, v);
      return;
    }
    out.warnings.push_back({number, "not a key and value: " + std::string(trimmed.substr(0, 80))});
  });
  return out;
}

}  // namespace gpuf
