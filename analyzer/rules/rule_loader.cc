#include "analyzer/rules/rule_loader.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "analyzer/rules/builtin_rules.h"
#include "analyzer/rules/rule_parser.h"
#include "common/file_io.h"

namespace gpuf {

namespace fs = std::filesystem;

namespace {

void AddRule(const std::string& file, Result<Rule> rule, RuleSet& set, std::map<std::string, std::string>& file_of_id) {
  std::string id = fs::path(file).stem().string();
  if (!rule.ok()) {
    set.errors.push_back({file, id, rule.status().message()});
  } else if (file_of_id.count(rule->id)) {
    set.errors.push_back({file, id, file + ":1: id '" + id + "' is already defined in " + file_of_id[rule->id]});
  } else {
    file_of_id[rule->id] = file;
    set.rules.push_back(std::move(*rule));
  }
}

}  // namespace

Result<RuleSet> LoadRules(const std::vector<std::string>& dirs) {
  RuleSet set;
  std::map<std::string, std::string> file_of_id;
  for (const auto& dir : dirs) {
    if (dir == kBuiltinRules) {
      for (const auto& file : BuiltinRuleFiles()) {
        const std::string name = "rules/" + std::string(file.name);
        AddRule(name, ParseRuleText(name, file.text), set, file_of_id);
      }
      continue;
    }
    auto files = ListFolder(dir, ".yaml");
    if (!files.ok()) return Status::NotFound("reading rules folder '" + dir + "'", files.status().message());
    for (const auto& path : *files) AddRule(path, ParseRuleFile(path), set, file_of_id);
  }
  return set;
}

std::string BuiltinRulesDir() { return std::string(kBuiltinRules); }

}  // namespace gpuf
