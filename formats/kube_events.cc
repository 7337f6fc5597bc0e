#include "formats/kube_events.h"

#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include "common/byte_pattern.h"
#include "common/parse_int.h"
#include "common/text_lines.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

std::optional<int64_t> CountOfAge(const std::string& age) {
  static const RE2 times(R"(\(x(\d+) over )", BytePatternOptions());
  int64_t n = 0;
  if (RE2::PartialMatch(age, times, &n)) return n;
  return 1;
}

std::string Scalar(const YAML::Node& map, const char* key) {
  // A key the map lacks gives an invalid node, whose IsMap() throws.
  if (!map.IsDefined() || !map.IsMap()) return "";
  const YAML::Node node = map[key];
  return node && node.IsScalar() ? node.Scalar() : "";
}

std::optional<std::string> NonEmpty(std::string s) {
  if (s.empty()) return std::nullopt;
  return s;
}

KubeEvent EventOfObject(const YAML::Node& e) {
  KubeEvent out;
  out.line = e.Mark().is_null() ? 0 : e.Mark().line + 1;
  const YAML::Node involved = e["involvedObject"] ? e["involvedObject"] : e["regarding"];
  const std::string kind = AsciiLower(Scalar(involved, "kind"));
  std::string name = Scalar(involved, "name");
  if (!name.empty()) out.object = (kind.empty() ? "" : kind + "/") + name;
  out.type = NonEmpty(Scalar(e, "type"));
  out.reason = NonEmpty(Scalar(e, "reason"));
  std::string count = Scalar(e, "count");
  if (!count.empty()) out.count = Int64Or(count, 1);
  const YAML::Node source = e["source"];
  std::string component = Scalar(source, "component");
  if (component.empty()) component = Scalar(e, "reportingComponent");
  if (!component.empty()) {
    std::string host = Scalar(source, "host");
    out.source = component + (host.empty() ? "" : ", " + host);
  }
  for (const char* when : {"lastTimestamp", "eventTime", "firstTimestamp"}) {
    auto ns = ParseRfc3339(Scalar(e, when));
    if (ns.ok()) {
      out.last_seen_ns = *ns;
      break;
    }
  }
  out.message = Scalar(e, "message");
  if (out.message.empty()) out.message = Scalar(e, "note");
  return out;
}

// JSON or YAML: an EventList's items, a bare list, or one Event.
bool ParseStructured(std::string_view text, KubeEvents& out) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception&) {
    return false;
  }
  YAML::Node items = root.IsMap() && root["items"] ? root["items"] : root;
  if (items.IsMap()) {
    if (!items["reason"] && !items["message"]) return false;
    out.events.push_back(EventOfObject(items));
    return true;
  }
  if (!items.IsSequence()) return false;
  for (const auto& e : items) {
    if (e.IsMap()) out.events.push_back(EventOfObject(e));
  }
  return true;
}

}  // namespace

bool IsKubectlNoise(std::string_view line) {
  static const RE2 noise(
      R"(^\s*(?:\.{2,}\s*|…\s*|`+\s*|-{2,}[\s-]*|\S*[#$>] .*|(?:sudo )?(?:kubectl|k|oc) .*|Events:\s*|Type\s+Reason\s+Age\s+From\s+Message\s*|LAST SEEN\s+TYPE.*|NAMESPACE\s+LAST SEEN.*|<none>\s*)$)",
      BytePatternOptions());
  return Trim(line).empty() || RE2::FullMatch(line, noise);
}

std::optional<KubeEvent> ParseKubeEventRow(std::string_view line) {
  // describe: Type Reason Age From Message; From and Message follow two or more blanks.
  static const RE2 describe(
      R"(^\s*(Normal|Warning)\s+(\S+)\s+(<unknown>|<invalid>|\S+(?: \(x\d+ over [^)]*\))?)\s+(\S+(?:,? \S+)*?)\s{2,}(\S.*?)\s*$)",
      BytePatternOptions());
  // get events: [NAMESPACE] LAST SEEN TYPE REASON OBJECT MESSAGE.
  static const RE2 get(
      R"(^\s*(?:\S+\s+)??(\S+(?: \(x\d+ over [^)]*\))?)\s+(Normal|Warning)\s+(\S+)\s+([\w.-]+/\S+)\s+(\S.*?)\s*$)",
      BytePatternOptions());
  // Kubernetes 1.4: {From}	SubObjectPath	Type	Reason	Message (tabs, some doubled).
  static const RE2 old(R"(^\s*\{([^}]*)\}\t+(\S*)\t+(Normal|Warning)\t+(\S+)\t+(.*?)\s*$)", BytePatternOptions());
  KubeEvent e;
  std::string type, reason, age, source, object, message, path;
  if (RE2::FullMatch(line, describe, &type, &reason, &age, &source, &message)) {
    e.type = type;
    e.reason = reason;
    e.age = age;
    e.count = CountOfAge(age);
    e.source = source;
  } else if (RE2::FullMatch(line, get, &age, &type, &reason, &object, &message)) {
    e.type = type;
    e.reason = reason;
    e.age = age;
    e.count = CountOfAge(age);
    e.object = object;
  } else if (RE2::FullMatch(line, old, &source, &path, &type, &reason, &message)) {
    e.type = type;
    e.reason = reason;
    e.source = source;
    if (!path.empty()) e.object = path;
  } else {
    return std::nullopt;
  }
  e.message = message;
  return e;
}

KubeEvents ParseKubeEvents(std::string_view text) {
  KubeEvents out;
  std::string_view head = Trim(text.substr(0, 4096));
  if ((!head.empty() && (head.front() == '{' || head.front() == '[')) || head.rfind("apiVersion:", 0) == 0 ||
      head.rfind("kind:", 0) == 0 || head.rfind("items:", 0) == 0 || head.rfind("- ", 0) == 0) {
    if (ParseStructured(text, out)) return out;
  }
  ForEachLine(text, [&](int number, std::string_view line) {
    if (auto e = ParseKubeEventRow(line)) {
      e->line = number;
      out.events.push_back(std::move(*e));
      return;
    }
    if (IsKubectlNoise(line)) return;
    if (!out.events.empty()) {
      out.events.back().message += "\n" + std::string(Trim(line));
      return;
    }
    out.warnings.push_back({number, "not an event row: " + std::string(Trim(line).substr(0, 80))});
  });
  return out;
}

}  // namespace gpuf
