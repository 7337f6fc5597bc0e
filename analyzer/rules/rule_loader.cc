#include "analyzer/rules/rule_loader.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <system_error>

#include "analyzer/rules/rule_parser.h"

#ifndef GPUF_RULES_DIR
#define GPUF_RULES_DIR "rules"
#endif

namespace gpuf {

namespace fs = std::filesystem;

Result<RuleSet> LoadRules(const std::vector<std::string>& dirs) {
  RuleSet set;
  std::map<std::string, std::string> file_of_id;
  for (const auto& dir : dirs) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().extension() == ".yaml") files.push_back(it->path());
    }
    if (ec) return Status::NotFound("reading rules folder '" + dir + "'", ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
      std::string id = path.stem().string();
      auto rule = ParseRuleFile(path.string());
      if (!rule.ok()) {
        set.errors.push_back({path.string(), id, rule.status().message()});
      } else if (file_of_id.count(rule->id)) {
        set.errors.push_back({path.string(), id,
                              path.string() + ":1: id '" + id + "' is already defined in " + file_of_id[rule->id]});
      } else {
        file_of_id[rule->id] = path.string();
        set.rules.push_back(std::move(*rule));
      }
    }
  }
  return set;
}

std::string BuiltinRulesDir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path installed = exe.parent_path().parent_path() / "share" / "gpuforensics" / "rules";
    if (fs::is_directory(installed, ec)) return installed.string();
  }
  return GPUF_RULES_DIR;
}

}  // namespace gpuf
