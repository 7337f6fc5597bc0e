#include "importer/systemctl_status.h"

#include <re2/re2.h>

#include "common/byte_pattern.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

struct Unit {
  std::string id, description, load_state, file_state, active_state, sub_state, result;
};

void Emit(const Unit& u, ConvertedStatus& out) {
  if (u.id.empty()) return;
  if (!out.show.empty()) out.show += "\n";
  out.show += "Id=" + u.id + "\n";
  if (!u.description.empty()) out.show += "Description=" + u.description + "\n";
  if (!u.load_state.empty()) out.show += "LoadState=" + u.load_state + "\n";
  if (!u.file_state.empty()) out.show += "UnitFileState=" + u.file_state + "\n";
  if (!u.active_state.empty()) out.show += "ActiveState=" + u.active_state + "\n";
  if (!u.sub_state.empty()) out.show += "SubState=" + u.sub_state + "\n";
  if (!u.result.empty()) out.show += "Result=" + u.result + "\n";
  if (out.first_unit.empty()) out.first_unit = u.id;
  ++out.units;
}

}  // namespace

ConvertedStatus ConvertSystemctlStatus(std::string_view text) {
  static const RE2 head(R"(^(?:(?:●|×|\*) )?(\S+\.(?:service|socket|scope|mount|timer))(?: - (.*))?$)",
                        BytePatternOptions());
  static const RE2 loaded(R"(^\s+Loaded: (\S+)(?: \([^;)]*(?:; (\w[\w-]*))?)?)", BytePatternOptions());
  static const RE2 active(R"(^\s+Active: (\S+)(?: \(([^)]*)\))?)", BytePatternOptions());
  static const RE2 job(R"(^Job for (\S+) failed because (.*)$)", BytePatternOptions());
  static const RE2 key(R"(^\s+[A-Z][\w ]*: )", BytePatternOptions());
  ConvertedStatus out;
  Unit unit;
  bool in_status = false;  // between a unit's head line and the blank line after its CGroup tree
  ForEachLine(text, [&](int, std::string_view line) {
    std::string id, description, first, second;
    if (RE2::FullMatch(line, head, &id, &description) && line.find(' ') != 0) {
      Emit(unit, out);
      unit = Unit{id, description, "", "", "", "", ""};
      in_status = true;
      return;
    }
    if (RE2::FullMatch(line, job, &id, &description)) {
      Emit(unit, out);
      // "the control process exited with error code", "a timeout was exceeded", ...
      std::string result = description.find("timeout") != std::string::npos ? "timeout" : "exit-code";
      unit = Unit{id, "", "", "", "failed", "failed", result};
      in_status = false;
      return;
    }
    if (in_status && RE2::PartialMatch(line, loaded, &first, &second)) {
      unit.load_state = first;
      unit.file_state = second;
      return;
    }
    if (in_status && RE2::PartialMatch(line, active, &first, &second)) {
      unit.active_state = first;
      // "running", "dead", or "Result: start-limit" for a failed unit.
      if (second.rfind("Result: ", 0) == 0) {
        unit.result = second.substr(8);
      } else {
        unit.sub_state = second;
      }
      if (unit.active_state == "active" && unit.result.empty()) unit.result = "success";
      return;
    }
    if (in_status && (RE2::PartialMatch(line, key) || line.find("─") != std::string_view::npos)) return;
    if (Trim(line).empty()) {
      in_status = false;
      return;
    }
    if (!in_status) out.journal_tail += std::string(line) + "\n";
  });
  Emit(unit, out);
  return out;
}

}  // namespace gpuf
