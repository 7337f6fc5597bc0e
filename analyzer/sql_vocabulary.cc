#include "analyzer/sql_vocabulary.h"

#include <nlohmann/json.hpp>

#include "common/artifacts.h"
#include "common/vocabulary.h"

namespace gpuf {

namespace {

// The word of "$kind(word)", or nullopt when `name` is not of that form.
std::optional<std::string_view> Argument(std::string_view name, std::string_view kind) {
  if (name.size() < kind.size() + 3 || name[0] != '$' || name.substr(1, kind.size()) != kind ||
      name[kind.size() + 1] != '(' || name.back() != ')') {
    return std::nullopt;
  }
  return name.substr(kind.size() + 2, name.size() - kind.size() - 3);
}

}  // namespace

Result<std::optional<std::string>> SqlVocabularyValue(std::string_view name) {
  if (auto word = Argument(name, "artifact")) {
    if (!FindArtifact(*word)) return Status::InvalidArgument("SQL parameter " + std::string(name), "no such artifact");
    return std::optional<std::string>(*word);
  }
  if (auto word = Argument(name, "group")) {
    const ArtifactGroup* group = FindArtifactGroup(*word);
    if (!group) return Status::InvalidArgument("SQL parameter " + std::string(name), "no such artifact group");
    nlohmann::json members = nlohmann::json::array();
    for (auto member : group->members) members.push_back(member);
    return std::optional<std::string>(members.dump());
  }
  if (auto word = Argument(name, "milestone")) {
    if (!Parse<Milestone>(*word)) return Status::InvalidArgument("SQL parameter " + std::string(name), "no such milestone");
    return std::optional<std::string>(*word);
  }
  if (auto word = Argument(name, "names")) {
    std::span<const std::string_view> names;
    if (*word == "severity") names = Names<Severity>();
    if (*word == "confidence") names = Names<Confidence>();
    if (names.empty()) return Status::InvalidArgument("SQL parameter " + std::string(name), "no such word list");
    nlohmann::json list = nlohmann::json::array();
    for (auto n : names) list.push_back(n);
    return std::optional<std::string>(list.dump());
  }
  return std::optional<std::string>();
}

}  // namespace gpuf
