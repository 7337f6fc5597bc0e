#include "collector/secrets.h"

#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "collector/env_line_stream.h"
#include "common/byte_pattern.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

using nlohmann::json;

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

const RE2& SecretNamePattern() {
  static const RE2 re(
      "(?i)(password|passwd|secret|token|credential|apikey|api_key|access_key|"
      "private_key|privatekey|auth)",
      BytePatternOptions());
  return re;
}

// The GPU stack's configuration variables (the device plugin's, the
// container toolkit's, CUDA's, GFD's) and the process basics, whose values
// the rules and people read. Documented in docs/redaction.md.
constexpr std::string_view kEvidenceEnvNames[] = {
    "NVIDIA_*", "FAIL_ON_INIT_ERROR", "MIG_STRATEGY", "PASS_DEVICE_SPECS", "DEVICE_LIST_STRATEGY",
    "DEVICE_ID_STRATEGY", "DEVICE_DISCOVERY_STRATEGY", "DP_*", "CDI_*", "CONFIG_FILE", "NODE_NAME", "PATH", "HOME",
    "HOSTNAME", "LD_LIBRARY_PATH", "LD_PRELOAD", "GOMAXPROCS", "LANG", "LC_ALL", "TZ", "KUBERNETES_SERVICE_HOST",
    "KUBERNETES_SERVICE_PORT*", "KUBERNETES_PORT*", "MPS_ROOT", "IMEX_*", "GPU_*", "CUDA_*",
};

// Artifacts whose text is a container or pod spec in JSON (a YAML one is
// covered by the scrubber's line forms).
constexpr std::string_view kSpecArtifacts[] = {
    "k8s.node_pods", "runtime.crictl_info", "plugin.inspect", "runtime.ctr_container_info", "config.static_pod",
};

constexpr std::string_view kLastApplied = "kubectl.kubernetes.io/last-applied-configuration";

std::string RedactedValue() { return std::string(kRedacted); }

// "--token=abc" -> "--token=<redacted>"; "--token" "abc" -> next is redacted.
int RedactArgs(json& args) {
  if (!args.is_array()) return 0;
  int count = 0;
  bool redact_next = false;
  for (auto& arg : args) {
    if (!arg.is_string()) continue;
    std::string text = arg.get<std::string>();
    if (redact_next) {
      arg = RedactedValue();
      redact_next = false;
      ++count;
      continue;
    }
    if (StartsWith(text, "-")) {
      size_t eq = text.find('=');
      std::string flag = text.substr(0, eq);
      if (RE2::PartialMatch(flag, SecretNamePattern())) {
        if (eq == std::string::npos) {
          redact_next = true;
        } else {
          arg = flag + "=" + RedactedValue();
          ++count;
        }
        continue;
      }
    }
    int scrubbed = ScrubText(text);
    if (scrubbed > 0) {
      arg = text;
      count += scrubbed;
    }
  }
  return count;
}

// OCI spec form: ["NAME=value", ...]
int RedactEnvStrings(json& env) {
  if (!env.is_array()) return 0;
  int count = 0;
  for (auto& entry : env) {
    if (!entry.is_string()) continue;
    std::string text = entry.get<std::string>();
    size_t eq = text.find('=');
    if (eq == std::string::npos) continue;
    std::string name = text.substr(0, eq);
    if (IsEvidenceEnvName(name)) continue;
    entry = name + "=" + RedactedValue();
    ++count;
  }
  return count;
}

// CRI and Kubernetes form: [{"key"|"name": NAME, "value": value}, ...]
int RedactEnvObjects(json& env) {
  if (!env.is_array()) return 0;
  int count = 0;
  for (auto& entry : env) {
    if (!entry.is_object()) continue;
    std::string name;
    for (const char* key : {"key", "name"}) {
      auto it = entry.find(key);
      if (it != entry.end() && it->is_string()) name = it->get<std::string>();
    }
    auto value = entry.find("value");
    if (value == entry.end() || !value->is_string()) continue;
    if (IsEvidenceEnvName(name)) continue;
    *value = RedactedValue();
    ++count;
  }
  return count;
}

// Walks the document and applies the env/args rules wherever those keys
// appear, whatever the producer's nesting (crictl, ctr and kubectl differ).
int RedactTree(json& node) {
  int count = 0;
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string& key = it.key();
      json& value = it.value();
      if (key == kLastApplied && value.is_string()) {
        if (value.get<std::string>() != kRedacted) {
          value = RedactedValue();
          ++count;
        }
      } else if ((key == "env" || key == "Env") && value.is_array()) {
        count += RedactEnvStrings(value) + RedactEnvObjects(value);
      } else if (key == "envs" && value.is_array()) {
        count += RedactEnvObjects(value);
      } else if ((key == "args" || key == "Args" || key == "command") && value.is_array()) {
        count += RedactArgs(value);
      } else {
        count += RedactTree(value);
      }
    }
  } else if (node.is_array()) {
    for (auto& item : node) count += RedactTree(item);
  }
  return count;
}

}  // namespace

bool IsForbiddenHostPath(std::string_view path) {
  static constexpr std::string_view kForbiddenPrefixes[] = {
      "/var/lib/kubelet/pki",  "/etc/kubernetes/pki", "/var/run/secrets", "/run/secrets",
      "/var/lib/kubelet/pods", "/root/",              "/home/",           "/etc/ssh",
      "/etc/shadow",           "/etc/gshadow",        "/proc/1/environ"};
  for (auto prefix : kForbiddenPrefixes) {
    if (StartsWith(path, prefix)) return true;
  }
  if (StartsWith(path, "/etc/kubernetes/") && EndsWith(path, ".conf")) return true;  // kubeconfigs
  for (auto suffix : {".key", ".pem", ".crt", ".p12", "/environ", ".kubeconfig"}) {
    if (EndsWith(path, suffix)) return true;
  }
  return false;
}

std::span<const std::string_view> CredentialFiles() {
  static constexpr std::string_view kFiles[] = {"/etc/kubernetes/kubelet.conf",
                                                "/etc/kubernetes/admin.conf",
                                                "/etc/kubernetes/bootstrap-kubelet.conf",
                                                "/etc/kubernetes/super-admin.conf",
                                                "/var/lib/kubelet/kubeconfig",
                                                "/var/lib/kubelet/pki/kubelet-client-current.pem",
                                                "/var/lib/kubelet/pki/kubelet.key",
                                                "/etc/rancher/rke2/rke2.yaml",
                                                "/etc/rancher/k3s/k3s.yaml",
                                                "/root/.kube/config"};
  return kFiles;
}

bool LooksLikeCredentialFile(std::string_view head) {
  static const RE2 pem_key(R"(\A\s*-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)", BytePatternOptions());
  static const RE2 kubeconfig(R"re((?m)^\s*"?kind"?\s*:\s*"?Config"?\s*,?\s*$)re", BytePatternOptions());
  static const RE2 user_secret(
      R"re((?m)^\s*"?(?:client-key-data|token|password|id-token|refresh-token|client-secret)"?\s*:)re",
      BytePatternOptions());
  const re2::StringPiece text(head.data(), head.size());
  if (RE2::PartialMatch(text, pem_key)) return true;
  return RE2::PartialMatch(text, kubeconfig) && RE2::PartialMatch(text, user_secret);
}

std::span<const std::string_view> EvidenceEnvNames() { return kEvidenceEnvNames; }

bool IsEvidenceEnvName(std::string_view name) {
  if (RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), SecretNamePattern())) return false;
  for (std::string_view entry : kEvidenceEnvNames) {
    if (entry.ends_with('*') ? StartsWith(name, entry.substr(0, entry.size() - 1)) : name == entry) return true;
  }
  return false;
}

Redaction RedactionFor(std::string_view artifact_name) {
  for (std::string_view spec : kSpecArtifacts) {
    if (artifact_name == spec) return Redaction::kRuntimeJson;
  }
  return Redaction::kText;
}

int RedactText(std::string& text, Redaction redaction) {
  return redaction == Redaction::kRuntimeJson ? RedactRuntimeJson(text) : ScrubText(text);
}

namespace {

// The part before a secret value: the key, an optional (JSON-escaped) quote,
// the separator. Group 1 keeps it; a keyed pass's pattern replaces the rest.
constexpr char kSecretKey[] =
    "((?:^|[^A-Za-z0-9])(?:[A-Za-z0-9_.-]*(?:password|passwd|passphrase|secret|token|credential|apikey|api_key|"
    "api-key|access_key|private_key|identitytoken|key-data|key_data)[A-Za-z0-9_.-]*|auth|[A-Za-z0-9.-]*_pass|pass)"
    "\\\\?[\"']?[ \\t]*[:=][ \\t]*)";

struct ScrubPass {
  std::string_view pattern;
  std::string_view rewrite;
  bool keyed = false;  // the pattern is the value after kSecretKey
};

// Applied in this order. Keyed values are replaced in the quoting style they
// were written in, so JSON (journal lines, runtime specs) stays valid JSON.
// Values already redacted start with '<' and are left alone: no pass makes
// text that another pass matches, so a pass whose pattern matches nowhere in
// the text as it came can be skipped.
constexpr ScrubPass kScrubPasses[] = {
    {"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?s:.*?)-----END [A-Z0-9 ]*PRIVATE KEY-----",
     "-----BEGIN PRIVATE KEY-----<redacted>-----END PRIVATE KEY-----"},
    {"(?i)(bearer\\s+)[A-Za-z0-9._~+/=-]{8,}", "\\1<redacted>"},
    {"(?i)(authorization[\"']?\\s*[:=]\\s*[\"']?basic\\s+)[A-Za-z0-9._~+/=-]{4,}", "\\1<redacted>"},
    // A JWT, signed or not ("alg":"none" leaves the third part empty).
    {"eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*", "<redacted>"},
    // scheme://[user]:password@host, redis://:pw@host included.
    {"([A-Za-z][A-Za-z0-9+.-]*://[^/\\s:@\"'<]*:)[^/\\s@\"'<]+@", "\\1<redacted>@"},
    // "--password v", "-token v": the value after a secret-named flag.
    {"(?i)((?:^|[\\s\"'])--?[A-Za-z0-9_.-]*(?:password|passwd|passphrase|secret|token|"
     "api-?key)[A-Za-z0-9_.-]*[ \\t]+)[^\\s<\"'-][^\\s\"']*",
     "\\1<redacted>"},
    // The value as the next argument: ["--token", "v"] in JSON and flow YAML (block YAML: EnvValueScrubber).
    {"(?i)([\"'](?:--?[A-Za-z0-9_.-]*(?:password|passwd|passphrase|secret|token|api-?key)[A-Za-z0-9_.-]*)[\"']"
     "[ \t]*,[ \t]*[\"'])[^\"'<-][^\"']*",
     "\\1<redacted>"},
    // Cookie and Set-Cookie headers: session identifiers, whole.
    {"(?i)(\\b(?:set-)?cookie[ \t]*:[ \t]*)[^\\s<][^\\n]*", "\\1<redacted>"},
    // Tokens known by their shape: GitHub, Slack, GitLab.
    {"\\b(?:gh[pousr]_[A-Za-z0-9]{30,}|xox[abprs]-[A-Za-z0-9-]{10,}|glpat-[A-Za-z0-9_-]{20,})", "<redacted>"},
    {R"re(\\"(?:[^"\\<]|\\[^"])(?:[^"\\]|\\[^"])*\\")re", R"(\1\\"<redacted>\\")", true},
    {R"re("[^"\\<\n](?:[^"\\\n]|\\.)*")re", R"(\1"<redacted>")", true},
    {R"re('[^'<\n][^'\n]*')re", R"(\1'<redacted>')", true},
    {R"re([^\s,;}{["'<\\][^\s,;}"'\\]*)re", R"(\1<redacted>)", true},
};

// The passes compiled once, with one RE2::Set of them that tells in a single
// scan which can match: most text holds no secret, and each pass is a scan.
class ScrubPasses {
 public:
  static const ScrubPasses& Get() {
    static const ScrubPasses passes;
    return passes;
  }

  // The passes that match somewhere in `text`, in order; all of them when
  // the set cannot tell (its automaton ran out of memory).
  std::vector<size_t> MatchingSomewhere(std::string_view text) const {
    std::vector<int> hits;
    RE2::Set::ErrorInfo error{};
    bool answered = set_compiled_ && (set_.Match(re2::StringPiece(text.data(), text.size()), &hits, &error) ||
                                      error.kind == RE2::Set::kNoError);
    std::vector<size_t> passes;
    for (size_t i = 0; i < std::size(kScrubPasses); ++i) {
      if (!answered || std::find(hits.begin(), hits.end(), static_cast<int>(i)) != hits.end()) passes.push_back(i);
    }
    return passes;
  }

  const RE2& pattern(size_t i) const { return *patterns_[i]; }

 private:
  ScrubPasses() : set_(SetOptions(), RE2::UNANCHORED) {
    bool added = true;
    for (const auto& pass : kScrubPasses) {
      std::string pattern = pass.keyed ? "(?mi)" + std::string(kSecretKey) + std::string(pass.pattern)
                                       : std::string(pass.pattern);
      patterns_.push_back(std::make_unique<RE2>(pattern, BytePatternOptions()));
      added = added && set_.Add(pattern, nullptr) >= 0;
    }
    set_compiled_ = added && set_.Compile();
  }

  // Quiet: running out of memory only means every pass runs.
  static RE2::Options SetOptions() { return BytePatternOptions(); }

  std::vector<std::unique_ptr<RE2>> patterns_;
  RE2::Set set_;
  bool set_compiled_ = false;
};

// Every line of `text` through one EnvLineStream, in place.
int ScrubEnvLines(std::string& text) {
  if (text.find("value") == std::string::npos && text.find(kLastApplied) == std::string::npos &&
      text.find("- -") == std::string::npos) {
    return 0;
  }
  EnvLineStream stream;
  std::string out;
  out.reserve(text.size());
  const EnvLineStream::Sink append = [&](std::string& line, const std::string& ending) { out += line + ending; };
  int count = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t newline = text.find('\n', start);
    size_t end = newline == std::string::npos ? text.size() : newline;
    count += stream.Line(text.substr(start, end - start), newline != std::string::npos ? "\n" : "", append);
    start = end + 1;
  }
  count += stream.Finish(append);
  if (count > 0) text = std::move(out);
  return count;
}

}  // namespace

int ScrubText(std::string& text) {
  const ScrubPasses& passes = ScrubPasses::Get();
  int count = 0;
  for (size_t i : passes.MatchingSomewhere(text)) {
    const std::string_view rewrite = kScrubPasses[i].rewrite;
    count += RE2::GlobalReplace(&text, passes.pattern(i), re2::StringPiece(rewrite.data(), rewrite.size()));
  }
  count += ScrubEnvLines(text);
  return count;
}

namespace {

int Indent(std::string_view line) {
  size_t n = line.find_first_not_of(' ');
  return n == std::string_view::npos ? -1 : static_cast<int>(n);
}

// A cheap test before the flag patterns: one of the words they need, in any case.
bool NamesSecret(std::string_view line) {
  const std::string lower = AsciiLower(line);
  for (std::string_view word : {"pass", "secret", "token", "key"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  return false;
}

bool AlreadyRedacted(std::string_view value) {
  return value.starts_with("<redacted>") || value.starts_with("\"<redacted>") || value.starts_with("'<redacted>");
}

// The end of a quoted value that starts at `at` (its closing quote), or npos.
size_t ClosingQuote(std::string_view line, size_t at) {
  char quote = line[at];
  for (size_t i = at + 1; i < line.size(); ++i) {
    if (quote == '"' && line[i] == '\\') {
      ++i;
    } else if (line[i] == quote) {
      return i;
    }
  }
  return std::string_view::npos;
}

}  // namespace

int EnvValueScrubber::FlowForms(std::string& line) {
  // {name: X, value: y} (YAML flow) and {"name"|"key": "X", "value": "y"} (JSON on one line).
  static const RE2 flow(R"re(\{\s*"?(?:name|key)"?\s*:\s*"?([A-Za-z_][A-Za-z0-9_.\-]*)"?\s*,\s*"?value"?\s*:\s*)re"
                        R"re(("(?:[^"\\]|\\.)*"|'[^']*'|[^,}\s][^,}]*))re",
                        BytePatternOptions());
  // {"value": "y", "name": "X"}: the same entry, value first.
  static const RE2 value_first(
      R"re(\{\s*"?value"?\s*:\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^,}\s][^,}]*?)\s*,\s*"?(?:name|key)"?\s*:\s*"?)re"
      R"re(([A-Za-z_][A-Za-z0-9_.\-]*))re",
      BytePatternOptions());
  static const RE2 last_applied(
      R"re(("kubectl\.kubernetes\.io/last-applied-configuration"\s*:\s*)"(?:[^"\\<]|\\.)(?:[^"\\]|\\.)*")re",
      BytePatternOptions());
  // The JSON form again inside a JSON string (a log line holding a spec): {\"name\":\"X\",\"value\":\"y\"}.
  static const RE2 escaped(
      R"re(\{\s*\\"(?:name|key)\\"\s*:\s*\\"([A-Za-z_][A-Za-z0-9_.\-]*)\\"\s*,\s*\\"value\\"\s*:\s*)re"
      R"re((\\"(?:[^"\\]|\\[^"])*\\"))re",
      BytePatternOptions());
  int count = 0;
  if (line.find(kLastApplied) != std::string::npos) count += RE2::GlobalReplace(&line, last_applied, R"(\1"<redacted>")");
  if (line.find('{') == std::string::npos) return count;
  for (const RE2* form : {&flow, &escaped, &value_first}) {
    size_t from = 0;
    re2::StringPiece name, value;
    while (from < line.size()) {
      re2::StringPiece rest(line.data() + from, line.size() - from);
      const bool matched = form == &value_first ? RE2::PartialMatch(rest, *form, &value, &name)
                                                : RE2::PartialMatch(rest, *form, &name, &value);
      if (!matched) break;
      size_t value_at = static_cast<size_t>(value.data() - line.data());
      size_t value_end = value_at + value.size();
      std::string_view text(value.data(), value.size());
      while (!text.empty() && text.back() == ' ') text.remove_suffix(1), --value_end;
      std::string_view bare = text.starts_with("\\\"") ? text.substr(2) : text;
      if (IsEvidenceEnvName(std::string_view(name.data(), name.size())) || AlreadyRedacted(bare)) {
        from = value_end;
        continue;
      }
      std::string replacement = text.starts_with("\\\"") ? "\\\"<redacted>\\\""
                                : text.front() == '"'     ? "\"<redacted>\""
                                : text.front() == '\''   ? "'<redacted>'"
                                                          : "<redacted>";
      line.replace(value_at, value_end - value_at, replacement);
      from = value_at + replacement.size();
      ++count;
    }
  }
  return count;
}

// "- --token" (its column remembered) and, on the next line at that column,
// "- value" (replaced). -1 when the line is neither, else the count replaced.
int EnvValueScrubber::NextArgument(std::string& line, int previous_flag_column) {
  static const RE2 secret_flag(
      R"re((?i)^(\s*-\s+)["']?--?[A-Za-z0-9_.-]*(?:password|passwd|passphrase|secret|token|api-?key)[A-Za-z0-9_.-]*)re"
      R"re(["']?\s*$)re",
      BytePatternOptions());
  static const RE2 plain_item(R"re(^(\s*-\s+["']?)([^\s"'<-][^\s"']*))re", BytePatternOptions());
  re2::StringPiece prefix, value;
  if (RE2::FullMatch(line, secret_flag, &prefix)) {
    flag_column_ = static_cast<int>(prefix.size());
    return 0;
  }
  if (previous_flag_column < 0 || !RE2::PartialMatch(line, plain_item, &prefix, &value)) return -1;
  const size_t column = prefix.size() - (prefix.ends_with("\"") || prefix.ends_with("'") ? 1 : 0);
  if (static_cast<int>(column) != previous_flag_column) return -1;
  const size_t at = static_cast<size_t>(value.data() - line.data());
  line.replace(at, value.size(), "<redacted>");
  return 1;
}

int EnvValueScrubber::Line(std::string& line) {
  // name: X / "key": "X", (block YAML, pretty JSON) and the value on the next line.
  static const RE2 name_line(R"re(^(\s*(?:-\s+)?)"?(?:name|key)"?\s*:\s*"?([A-Za-z_][A-Za-z0-9_.\-]*)"?\s*,?\s*$)re",
                             BytePatternOptions());
  static const RE2 value_line(
      R"re(^(\s*(?:-\s+)?)"?(value|kubectl\.kubernetes\.io/last-applied-configuration)"?\s*:[ \t]*)re",
      BytePatternOptions());
  const int indent = Indent(line);
  if (dropping_above_ >= 0) {
    if (indent < 0) return 0;  // blank lines stay inside a block value
    if (indent > dropping_above_) {
      line.clear();  // a line of a block value ("value: |"), dropped
      return 0;
    }
    dropping_above_ = -1;
  }
  const int previous_name_column = name_column_;
  const bool previous_is_evidence = name_is_evidence_;
  const int previous_flag_column = flag_column_;
  name_column_ = -1;
  flag_column_ = -1;
  // Only a list item naming a secret, or the item after one, can be a flag's list form: most lines are neither.
  if (previous_flag_column >= 0 || (line.find("- ") != std::string::npos && NamesSecret(line))) {
    if (int n = NextArgument(line, previous_flag_column); n >= 0) return n;
  }
  // Most lines hold none of the words the forms need: a few memchr scans.
  auto has = [&](std::string_view word) { return line.find(word) != std::string::npos; };
  if (!has("name") && !has("key") && !has("value") && !has("last-applied")) return 0;
  int count = FlowForms(line);
  re2::StringPiece prefix, name;
  if (RE2::FullMatch(line, name_line, &prefix, &name)) {
    name_column_ = static_cast<int>(prefix.size());
    name_is_evidence_ = IsEvidenceEnvName(std::string_view(name.data(), name.size()));
    return count;
  }
  re2::StringPiece key;
  if (!RE2::PartialMatch(line, value_line, &prefix, &key)) return count;
  const bool last_applied = key.size() > 5;
  if (!last_applied && (static_cast<int>(prefix.size()) != previous_name_column || previous_is_evidence)) return count;
  // Where the value starts: after the key, its quote and the colon.
  size_t at = line.find(':', prefix.size() + key.size()) + 1;
  while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
  std::string_view value(line.data() + at, line.size() - at);
  if (AlreadyRedacted(value)) return count;
  if (value.empty() || value[0] == '|' || value[0] == '>') {
    // A block value: its lines follow, indented deeper than the key.
    dropping_above_ = static_cast<int>(prefix.size());
    line.replace(at, std::string::npos, "<redacted>");
    return count + 1;
  }
  if (value[0] == '"' || value[0] == '\'') {
    size_t close = ClosingQuote(line, at);
    if (close == std::string::npos) close = line.size() - 1;
    line.replace(at, close + 1 - at, std::string(1, value[0]) + "<redacted>" + std::string(1, value[0]));
    return count + 1;
  }
  size_t end = line.size();
  if (line.back() == ',') --end;  // a JSON number or boolean before the next field
  line.replace(at, end - at, "<redacted>");
  return count + 1;
}

int RedactRuntimeJson(std::string& json_text) {
  json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return ScrubText(json_text);
  int count = RedactTree(doc);
  if (count > 0) json_text = doc.dump(2) + "\n";
  return count + ScrubText(json_text);
}

}  // namespace gpuf
