#include "collector/secrets.h"

#include <re2/re2.h>

#include <nlohmann/json.hpp>

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
  static const RE2 re("(?i)(password|passwd|secret|token|credential|apikey|api_key|access_key|"
                      "private_key|privatekey|auth)");
  return re;
}

const RE2& EvidenceEnvPattern() {
  static const RE2 re(
      "NVIDIA_[A-Z0-9_]*|FAIL_ON_INIT_ERROR|MIG_STRATEGY|PASS_DEVICE_SPECS|DEVICE_LIST_STRATEGY|"
      "DEVICE_ID_STRATEGY|DEVICE_DISCOVERY_STRATEGY|DP_[A-Z0-9_]*|CDI_[A-Z0-9_]*|CONFIG_FILE|"
      "NODE_NAME|PATH|HOME|HOSTNAME|LD_LIBRARY_PATH|LD_PRELOAD|GOMAXPROCS|LANG|LC_ALL|TZ|"
      "KUBERNETES_SERVICE_HOST|KUBERNETES_SERVICE_PORT[A-Z0-9_]*|KUBERNETES_PORT[A-Z0-9_]*|"
      "MPS_ROOT|IMEX_[A-Z0-9_]*|GPU_[A-Z0-9_]*|CUDA_[A-Z0-9_]*");
  return re;
}

int ReplaceAll(std::string& text, const RE2& pattern, std::string_view rewrite) {
  return RE2::GlobalReplace(&text, pattern, re2::StringPiece(rewrite.data(), rewrite.size()));
}

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
      if ((key == "env" || key == "Env") && value.is_array()) {
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

bool IsEvidenceEnvName(std::string_view name) {
  if (RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), SecretNamePattern())) return false;
  return RE2::FullMatch(re2::StringPiece(name.data(), name.size()), EvidenceEnvPattern());
}

namespace {

// The part before a secret value: the key, an optional (JSON-escaped) quote,
// the separator. Group 1 keeps it; the value patterns below replace the rest.
constexpr char kSecretKey[] =
    "((?:^|[^A-Za-z0-9])(?:[A-Za-z0-9_.-]*(?:password|passwd|secret|token|credential|apikey|api_key|"
    "access_key|private_key|identitytoken)[A-Za-z0-9_.-]*|auth)\\\\?[\"']?[ \\t]*[:=][ \\t]*)";

// Values are replaced in the quoting style they were written in, so JSON
// (journal lines, runtime specs) stays valid JSON. Values already redacted
// start with '<' and are left alone.
int ScrubKeyValues(std::string& text) {
  static const RE2 escaped_quoted(std::string("(?mi)") + kSecretKey + R"re(\\"(?:[^"\\<]|\\[^"])(?:[^"\\]|\\[^"])*\\")re");
  static const RE2 quoted(std::string("(?mi)") + kSecretKey + R"re("[^"\\<\n](?:[^"\\\n]|\\.)*")re");
  static const RE2 single_quoted(std::string("(?mi)") + kSecretKey + R"re('[^'<\n][^'\n]*')re");
  static const RE2 bare(std::string("(?mi)") + kSecretKey + R"re([^\s,;}{["'<\\][^\s,;}"'\\]*)re");
  int count = 0;
  count += RE2::GlobalReplace(&text, escaped_quoted, R"(\1\\"<redacted>\\")");
  count += RE2::GlobalReplace(&text, quoted, R"(\1"<redacted>")");
  count += RE2::GlobalReplace(&text, single_quoted, R"(\1'<redacted>')");
  count += RE2::GlobalReplace(&text, bare, R"(\1<redacted>)");
  return count;
}

}  // namespace

int ScrubText(std::string& text) {
  static const RE2 private_key(
      "-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?s:.*?)-----END [A-Z0-9 ]*PRIVATE KEY-----");
  static const RE2 bearer("(?i)(bearer\\s+)[A-Za-z0-9._~+/=-]{8,}");
  static const RE2 jwt("eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]+");
  int count = 0;
  count += ReplaceAll(text, private_key, "-----BEGIN PRIVATE KEY-----<redacted>-----END PRIVATE KEY-----");
  count += ReplaceAll(text, bearer, "\\1<redacted>");
  count += ReplaceAll(text, jwt, "<redacted>");
  count += ScrubKeyValues(text);
  return count;
}

int RedactRuntimeJson(std::string& json_text) {
  json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return ScrubText(json_text);
  int count = RedactTree(doc);
  if (count > 0) json_text = doc.dump(2) + "\n";
  return count + ScrubText(json_text);
}

}  // namespace gpuf
