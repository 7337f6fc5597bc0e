#include "collector/redact/literal_learner.h"

#include <re2/re2.h>

#include <nlohmann/json.hpp>
#include <optional>

#include "common/artifacts.h"
#include "common/byte_pattern.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

using nlohmann::json;

// Where a name is written with its meaning. `cue` is a plain substring the
// line must hold before the pattern is tried: most lines hold none.
struct LearnRule {
  std::string_view cue;
  const char* pattern;             // group 1 (and 2 when `second` is set)
  Family first;
  std::optional<Family> second;
};

const LearnRule kRules[] = {
    {"_HOSTNAME", R"re("_HOSTNAME"\s*:\s*"([^"\\]+)")re", Family::kHostname, {}},
    {"node=", R"re(\bnode=\\*"([A-Za-z0-9][A-Za-z0-9.-]*)\\*")re", Family::kHostname, {}},
    {"kubernetes.io/hostname", R"re("kubernetes\.io/hostname"\s*:\s*"([^"\\]+)")re", Family::kHostname, {}},
    {"nodeName", R"re("nodeName"\s*:\s*"([^"\\]+)")re", Family::kHostname, {}},
    {"hostname-override", R"re(--hostname-override[= ]([A-Za-z0-9.-]+))re", Family::kHostname, {}},
    {"_MACHINE_ID", R"re("_MACHINE_ID"\s*:\s*"([0-9a-f]{32})")re", Family::kMachineId, {}},
    {"/home/", R"re(/home/([a-z_][a-z0-9_.-]{1,31}))re", Family::kUsername, {}},
    {"user", R"re(\b(?:for|by|of) user\s+([a-z_][a-z0-9_.-]{1,31}))re", Family::kUsername, {}},
    {"USER=", R"re(\b(?:USER|LOGNAME|SUDO_USER)=([a-z_][a-z0-9_.-]{1,31}))re", Family::kUsername, {}},
    {"Accepted ", R"re(Accepted [a-z/-]+ for ([a-z_][a-z0-9_.-]{1,31}))re", Family::kUsername, {}},
    {" : TTY=", R"re(([a-z_][a-z0-9_.-]{1,31}) : TTY=)re", Family::kUsername, {}},
    {"pod.namespace", R"re("io\.kubernetes\.pod\.namespace"\s*:\s*"([^"\\]+)")re", Family::kNamespace, {}},
    {"pod.name", R"re("io\.kubernetes\.pod\.name"\s*:\s*"([^"\\]+)")re", Family::kPod, {}},
    {"\"namespace\"", R"re("namespace"\s*:\s*"([^"\\]+)")re", Family::kNamespace, {}},
    {"pod=", R"re(\bpods?=\\*"\[?([a-z0-9.-]+)/([a-z0-9.-]+))re", Family::kNamespace, Family::kPod},
    {"/pods/", R"re(/pods/([a-z0-9.-]+)_([a-z0-9.-]+)_)re", Family::kNamespace, Family::kPod},
    {"<serial>", R"re(<serial>\s*([0-9A-Za-z]+)\s*</serial>)re", Family::kGpuSerial, {}},
    {"erial", R"re((?i)serial number\s*:\s*([0-9A-Za-z]{6,}))re", Family::kGpuSerial, {}},
};

const std::vector<std::unique_ptr<RE2>>& CompiledRules() {
  static const auto* compiled = [] {
    auto* v = new std::vector<std::unique_ptr<RE2>>;
    RE2::Options o = BytePatternOptions();
    for (const auto& r : kRules) v->push_back(std::make_unique<RE2>(r.pattern, o));
    return v;
  }();
  return *compiled;
}

bool ZoneLike(std::string_view s) {
  static const RE2 zone(R"([a-z]{2,}(-[a-z]+)+-?\d*[a-z]?|[a-z]+\d?(-[a-z])?)", BytePatternOptions());
  return RE2::FullMatch(re2::StringPiece(s.data(), s.size()), zone);
}

// "aws:///us-east-1a/i-0abc", "gce://project/zone/name",
// "azure:///subscriptions/<id>/resourceGroups/<rg>/.../virtualMachines/3",
// "cn-hangzhou.i-bp1abc": every part that names the customer's resources.
void LearnProviderId(TextRedactor* redactor, std::string_view id) {
  size_t scheme = id.find("://");
  std::string_view rest = scheme == std::string_view::npos ? id : id.substr(scheme + 3);
  static const std::set<std::string_view> kWords = {"subscriptions", "resourceGroups", "providers",
                                                    "Microsoft.Compute", "virtualMachineScaleSets",
                                                    "virtualMachines"};
  size_t start = 0;
  while (start <= rest.size()) {
    size_t slash = rest.find('/', start);
    std::string_view part = rest.substr(start, slash == std::string_view::npos ? rest.npos : slash - start);
    start = slash == std::string_view::npos ? rest.size() + 1 : slash + 1;
    if (part.empty() || kWords.count(part)) continue;
    size_t from = 0;  // Alibaba writes region.instance
    while (from <= part.size()) {
      size_t dot = part.find('.', from);
      std::string_view piece = part.substr(from, dot == std::string_view::npos ? part.npos : dot - from);
      from = dot == std::string_view::npos ? part.size() + 1 : dot + 1;
      if (!piece.empty() && !ZoneLike(piece)) redactor->AddLiteral(Family::kCloudId, piece);
    }
  }
}

}  // namespace

void LiteralLearner::LearnFromManifest(const Manifest& m) {
  if (!m.plugin_pattern.empty()) redactor_->KeepPodsMatching(m.plugin_pattern);
  redactor_->AddLiteral(Family::kHostname, m.hostname);
  redactor_->AddLiteral(Family::kHostname, m.node_name);
  for (const auto& step : m.node_name_steps) {
    redactor_->AddLiteral(Family::kHostname, step.value);
  }
  redactor_->AddLiteral(Family::kMachineId, m.machine_id);
  for (const auto& a : m.artifacts) {
    BeginMember("manifest");
    Line(a.instance);
    Line(a.source_file);
    Line(a.path);
    for (const auto& arg : a.argv) Line(arg);
    EndMember();
  }
}

void LiteralLearner::BeginMember(std::string_view artifact_name) {
  artifact_ = std::string(artifact_name);
  whole_.clear();
  first_line_ = true;
}

void LiteralLearner::Line(std::string_view line) {
  if (first_line_) {
    first_line_ = false;
    if (artifact_ == artifact::kHostHostname) redactor_->AddLiteral(Family::kHostname, Trim(line));
    if (artifact_ == artifact::kHostMachineId) redactor_->AddLiteral(Family::kMachineId, Trim(line));
  }
  if (artifact_ == artifact::kK8sNode && whole_.size() < (32 << 20)) {
    whole_.append(line);
    whole_ += '\n';
  }
  if (line.find("providerID") != std::string_view::npos) {
    static const RE2 provider(R"re("providerID"\s*:\s*"([^"\\]+)")re", BytePatternOptions());
    re2::StringPiece id;
    if (RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), provider, &id)) {
      LearnProviderId(redactor_, std::string_view(id.data(), id.size()));
    }
  }
  const auto& compiled = CompiledRules();
  for (size_t i = 0; i < std::size(kRules); ++i) {
    const LearnRule& rule = kRules[i];
    if (line.find(rule.cue) == std::string_view::npos) continue;
    re2::StringPiece input(line.data(), line.size());
    re2::StringPiece one, two;
    while (rule.second ? RE2::FindAndConsume(&input, *compiled[i], &one, &two)
                       : RE2::FindAndConsume(&input, *compiled[i], &one)) {
      redactor_->AddLiteral(rule.first, std::string_view(one.data(), one.size()));
      if (rule.second) redactor_->AddLiteral(*rule.second, std::string_view(two.data(), two.size()));
      if (input.empty()) break;
    }
  }
}

void LiteralLearner::EndMember() {
  if (artifact_ == artifact::kK8sNode) LearnNodeJson(whole_);
  whole_.clear();
}

void LiteralLearner::LearnNodeJson(const std::string& text) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return;
  auto learn = [&](const json& value, Family family) {
    if (value.is_string()) redactor_->AddLiteral(family, value.get<std::string>());
  };
  if (doc.contains("metadata") && doc["metadata"].is_object()) {
    const json& meta = doc["metadata"];
    if (meta.contains("name")) learn(meta["name"], Family::kHostname);
    if (meta.contains("labels") && meta["labels"].is_object() && meta["labels"].contains("kubernetes.io/hostname")) {
      learn(meta["labels"]["kubernetes.io/hostname"], Family::kHostname);
    }
  }
  if (doc.contains("status") && doc["status"].is_object() && doc["status"].contains("addresses") &&
      doc["status"]["addresses"].is_array()) {
    for (const auto& address : doc["status"]["addresses"]) {
      if (!address.is_object() || !address.contains("type") || !address.contains("address")) continue;
      const json& type = address["type"];
      if (type == "Hostname" || type == "InternalDNS" || type == "ExternalDNS") learn(address["address"], Family::kHostname);
    }
  }
}

}  // namespace gpuf
