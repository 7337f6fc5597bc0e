#include "analyzer/rules/sample_parser.h"

#include <cmath>
#include <cstdlib>

#include "analyzer/rules/diagnosis_vocab.h"
#include "analyzer/rules/rule_artifacts.h"
#include "common/time_format.h"
#include "common/vocabulary.h"

namespace gpuf {

namespace {

// "fail confirmed" -> {fail, confirmed}; "pass" -> {pass, ""}; "history
// likely" -> {history, likely}: a finding about a fault that healed or an
// earlier boot.
bool ReadExpect(YamlReader& reader, const YAML::Node& node, RuleSample& s) {
  std::string text;
  if (!reader.Scalar(node, "expect", &text)) return false;
  size_t space = text.find(' ');
  s.expect_result = text.substr(0, space);
  s.expect_confidence = space == std::string::npos ? "" : text.substr(space + 1);
  bool finding = s.expect_result == "fail" || s.expect_result == "warn" || s.expect_result == "history";
  bool other = s.expect_result == "pass" || s.expect_result == "skipped" || s.expect_result == "unknown" ||
               s.expect_result == "ruled-out";
  if ((finding && Parse<Confidence>(s.expect_confidence)) || (other && s.expect_confidence.empty())) return true;
  return reader.Error(node, "expect is 'fail|warn|history confirmed|likely|possible', 'pass', 'ruled-out', "
                            "'unknown' or 'skipped', not '" + text + "'");
}

bool ReadLine(YamlReader& reader, const std::string& artifact, const YAML::Node& node, SampleLine& line) {
  line.artifact = artifact;
  std::string text;
  if (node.IsMap()) {
    if (!reader.Fields(node, "a log line", {"at", "text", "identifier", "unit"}, {"text"}) ||
        !reader.Scalar(node["text"], "text", &line.text, false)) {
      return false;
    }
    if (node["identifier"] && !reader.Scalar(node["identifier"], "identifier", &line.identifier)) return false;
    if (node["unit"] && !reader.Scalar(node["unit"], "unit", &line.unit)) return false;
    if (node["at"]) {
      std::string at;
      if (!reader.Scalar(node["at"], "at", &at)) return false;
      line.time_ns = SampleTimeNs(at);
      if (!line.time_ns) return reader.Error(node["at"], "at is seconds after the sample epoch or an RFC 3339 time");
    }
    return true;
  }
  if (!reader.Scalar(node, "a log line", &text, false)) return false;
  if (!text.empty() && text.front() == '[') {
    size_t close = text.find(']');
    line.time_ns = close == std::string::npos ? std::nullopt : SampleTimeNs(text.substr(1, close - 1));
    if (!line.time_ns) return reader.Error(node, "a line starts with [seconds] or [RFC 3339 time]");
    text.erase(0, close + 1);
    if (!text.empty() && text.front() == ' ') text.erase(0, 1);
  }
  line.text = text;
  return true;
}

// `node` maps names to lists; calls item(name, entry) for each entry in order.
template <typename Fn>
bool ForEachListed(YamlReader& reader, const YAML::Node& node, const std::string& what, const std::string& key,
                   Fn item) {
  if (!node.IsMap()) return reader.Error(node, what + " must map " + key + "s to lists");
  for (const auto& pair : node) {
    std::string name;
    if (!reader.Scalar(pair.first, "a " + key, &name)) return false;
    if (!pair.second.IsSequence()) return reader.Error(pair.second, "the " + what + " of '" + name + "' must be a list");
    for (const auto& entry : pair.second) {
      if (!item(name, entry)) return false;
    }
  }
  return true;
}

// A sample names artifacts of the table; a misspelled one would stand for
// nothing the rule reads.
bool CheckArtifactKeys(YamlReader& reader, const YAML::Node& node, std::string_view where) {
  if (!node.IsMap()) return true;  // the caller says what is wrong with it
  for (const auto& pair : node) {
    if (!pair.first.IsScalar()) continue;
    std::string problem = CheckSampleArtifact(pair.first.Scalar(), where);
    if (!problem.empty()) return reader.Error(pair.first, problem);
  }
  return true;
}

bool ReadLogs(YamlReader& reader, const YAML::Node& node, RuleSample& s) {
  if (!CheckArtifactKeys(reader, node, "a sample's logs")) return false;
  return ForEachListed(reader, node, "logs", "artifact name", [&](const std::string& artifact, const YAML::Node& entry) {
    SampleLine line;
    if (!ReadLine(reader, artifact, entry, line)) return false;
    s.lines.push_back(line);
    return true;
  });
}

bool ReadRows(YamlReader& reader, const YAML::Node& node, RuleSample& s) {
  return ForEachListed(reader, node, "rows", "table name", [&](const std::string& table, const YAML::Node& entry) {
    if (!entry.IsMap()) return reader.Error(entry, "a row maps column names to values");
    SampleRow row;
    row.table = table;
    row.mark = YamlReader::MarkOf(entry);
    for (const auto& cell : entry) {
      std::string column;
      if (!reader.Scalar(cell.first, "a column name", &column)) return false;
      if (cell.second.IsNull()) {
        row.columns.emplace_back(column, std::nullopt);
        continue;
      }
      std::string value;
      if (!reader.Scalar(cell.second, "a column value", &value, false)) return false;
      if (column == "artifact") {
        std::string problem = CheckSampleArtifact(value, "a sample's row");
        if (!problem.empty()) return reader.Error(cell.second, problem);
      }
      row.columns.emplace_back(column, value);
    }
    s.rows.push_back(row);
    return true;
  });
}

bool ReadArtifacts(YamlReader& reader, const YAML::Node& node, RuleSample& s) {
  if (!node.IsMap()) return reader.Error(node, "artifacts must map artifact names to their status");
  if (!CheckArtifactKeys(reader, node, "a sample's artifacts")) return false;
  for (const auto& item : node) {
    std::string name;
    std::string status;
    if (!reader.Scalar(item.first, "an artifact name", &name) ||
        !reader.Choice(item.second, "artifact status", Names<ProbeStatus>(), &status)) {
      return false;
    }
    s.artifacts.emplace_back(name, status);
  }
  return true;
}

bool ReadSample(YamlReader& reader, const YAML::Node& node, RuleSample& s) {
  s.mark = YamlReader::MarkOf(node);
  if (!reader.Fields(node, "a sample",
                     {"name", "expect", "summary", "near_miss", "bundle", "artifacts", "logs", "rows"},
                     {"name", "expect"}) ||
      !reader.Scalar(node["name"], "name", &s.name) || !ReadExpect(reader, node["expect"], s)) {
    return false;
  }
  if (node["near_miss"]) {
    std::string flag;
    if (!reader.Choice(node["near_miss"], "near_miss", {"true"}, &flag)) return false;
    s.near_miss = true;
    if (s.expect_result != "pass" && s.expect_result != "ruled-out" && s.expect_result != "history") {
      return reader.Error(node["near_miss"], "a near miss is not the issue: it expects pass, ruled-out or history");
    }
  }
  if (node["summary"] && !reader.Scalar(node["summary"], "summary", &s.expect_summary)) return false;
  if (node["bundle"]) {
    if (node["artifacts"] || node["logs"] || node["rows"]) {
      return reader.Error(node, "a sample is a bundle or inline evidence, not both");
    }
    return reader.Scalar(node["bundle"], "bundle", &s.bundle);
  }
  if (node["artifacts"] && !ReadArtifacts(reader, node["artifacts"], s)) return false;
  if (node["logs"] && !ReadLogs(reader, node["logs"], s)) return false;
  return !node["rows"] || ReadRows(reader, node["rows"], s);
}

}  // namespace

std::optional<int64_t> SampleTimeNs(std::string_view text) {
  std::string s(text);
  char* end = nullptr;
  double seconds = std::strtod(s.c_str(), &end);
  if (!s.empty() && end == s.c_str() + s.size() && std::isfinite(seconds)) {
    return kSampleEpochNs + static_cast<int64_t>(std::llround(seconds * 1e9));
  }
  auto parsed = ParseRfc3339(text);
  if (!parsed.ok()) return std::nullopt;
  return *parsed;
}

bool ReadSamples(YamlReader& reader, const YAML::Node& node, std::vector<RuleSample>* out) {
  if (!node.IsSequence()) return reader.Error(node, "samples must be a list");
  for (const auto& item : node) {
    RuleSample s;
    if (!ReadSample(reader, item, s)) return false;
    out->push_back(s);
  }
  bool positive = false;
  bool negative = false;
  for (const auto& s : *out) {
    positive = positive || s.positive();
    negative = negative || s.expect_result == "pass" || s.expect_result == "ruled-out" || s.expect_result == "history";
  }
  if (!positive || !negative) {
    return reader.Error(node, "samples need at least one positive (fail or warn) and one negative (pass, ruled-out "
                              "or history) sample");
  }
  return true;
}

}  // namespace gpuf
