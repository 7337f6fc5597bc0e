#include "analyzer/rules/rule_artifacts.h"

#include <algorithm>

#include "common/artifacts.h"
#include "common/edit_distance.h"

namespace gpuf {

namespace {

std::vector<std::string_view> ArtifactNames() {
  std::vector<std::string_view> names;
  for (const auto& row : ArtifactTable()) names.push_back(row.name);
  return names;
}

std::string UnknownArtifact(std::string_view name, std::string_view where) {
  return "unknown artifact '" + std::string(name) + "' in " + std::string(where) + DidYouMean(name, ArtifactNames());
}

}  // namespace

std::string DidYouMean(std::string_view word, std::span<const std::string_view> candidates) {
  std::string_view best;
  size_t best_distance = 3;
  for (std::string_view candidate : candidates) {
    size_t d = EditDistance(word, candidate);
    if (d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  return best.empty() ? "" : "; did you mean '" + std::string(best) + "'?";
}

std::string ExpandRuleArtifact(std::string_view name, std::string_view where, std::vector<std::string>* out) {
  bool artifact = name.find('.') != std::string_view::npos || name.find('*') != std::string_view::npos;
  if (artifact) {
    if (!KnownArtifactPattern(name)) return UnknownArtifact(name, where);
    out->emplace_back(name);
    return "";
  }
  const ArtifactGroup* group = FindArtifactGroup(name);
  if (!group) {
    std::vector<std::string_view> groups;
    for (const auto& g : ArtifactGroups()) groups.push_back(g.name);
    return "unknown artifact group '" + std::string(name) + "' in " + std::string(where) + DidYouMean(name, groups);
  }
  for (auto member : group->members) out->emplace_back(member);
  return "";
}

bool ReadRuleArtifacts(YamlReader& reader, const YAML::Node& node, std::string_view what,
                       std::vector<std::string>* out) {
  auto one = [&](const YAML::Node& item) {
    std::string name;
    if (!reader.Scalar(item, what, &name)) return false;
    std::string problem = ExpandRuleArtifact(name, what, out);
    return problem.empty() || reader.Error(item, problem);
  };
  if (node.IsScalar()) return one(node);
  if (!node.IsSequence()) return reader.Error(node, std::string(what) + " must be a value or a list of values");
  for (const auto& item : node) {
    if (!one(item)) return false;
  }
  return true;
}

bool ReadRuleArtifactGroups(YamlReader& reader, const YAML::Node& node, std::string_view what,
                            std::vector<std::vector<std::string>>* out) {
  if (!node.IsSequence()) return reader.Error(node, std::string(what) + " must be a list of artifact names");
  for (const auto& item : node) {
    std::vector<std::string> group;
    if (!ReadRuleArtifacts(reader, item, what, &group)) return false;
    if (group.empty()) return reader.Error(item, std::string(what) + " has an empty list of alternatives");
    out->push_back(group);
  }
  return true;
}

std::string CheckSampleArtifact(std::string_view name, std::string_view where) {
  std::string_view bare = name.substr(0, name.find('['));
  return FindArtifact(bare) ? "" : UnknownArtifact(bare, where);
}

}  // namespace gpuf
