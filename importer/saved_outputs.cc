#include "importer/saved_outputs.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "common/json_bytes.h"
#include "common/text_lines.h"
#include "common/time_format.h"
#include "formats/klog.h"
#include "formats/nvidia_smi_query_text.h"

namespace gpuf {

namespace {

// crictl prints short states ("Running"); the JSON has the CRI enum.
std::string CriState(std::string_view state) {
  if (state == "Running") return "CONTAINER_RUNNING";
  if (state == "Exited") return "CONTAINER_EXITED";
  if (state == "Created") return "CONTAINER_CREATED";
  return "CONTAINER_UNKNOWN";
}

// "2026-11-18T03:18:17.378842643Z rest" -> time and rest.
std::optional<int64_t> LeadingRfc3339(std::string_view line, std::string_view& rest) {
  size_t space = line.find(' ');
  if (space == std::string_view::npos || space < 20 || line[4] != '-' || line[10] != 'T') return std::nullopt;
  auto ns = ParseRfc3339(line.substr(0, space));
  if (!ns.ok()) return std::nullopt;
  rest = line.substr(space + 1);
  return *ns;
}

// "[pod/x/container] text" -> "text"
std::string_view StripKubectlPrefix(std::string_view line) {
  if (line.rfind("[pod/", 0) != 0) return line;
  size_t close = line.find("] ");
  return close == std::string_view::npos ? line : line.substr(close + 2);
}

}  // namespace

bool LooksLikeCriLog(std::string_view text) {
  bool cri = false;
  bool seen = false;
  ForEachLine(text, [&](int, std::string_view line) {
    if (seen || Trim(line).empty()) return;
    seen = true;
    std::string_view rest;
    if (!LeadingRfc3339(line, rest)) return;
    cri = (rest.rfind("stdout ", 0) == 0 || rest.rfind("stderr ", 0) == 0) && rest.size() >= 9 &&
          (rest[7] == 'F' || rest[7] == 'P') && (rest.size() == 8 || rest[8] == ' ');
  });
  return cri;
}

Converted CrictlTableToJson(std::string_view table) {
  Converted out;
  std::vector<std::pair<std::string, size_t>> columns;  // header word, start column
  nlohmann::json containers = nlohmann::json::array();
  ForEachLine(table, [&](int, std::string_view line) {
    if (Trim(line).empty()) return;
    if (columns.empty()) {
      if (line.rfind("CONTAINER", 0) != 0) {
        ++out.lines_skipped;
        return;
      }
      // Header words are separated by two or more spaces ("POD ID").
      size_t i = 0;
      while (i < line.size()) {
        size_t start = i;
        while (i < line.size() && !(line[i] == ' ' && (i + 1 >= line.size() || line[i + 1] == ' '))) ++i;
        columns.emplace_back(std::string(line.substr(start, i - start)), start);
        while (i < line.size() && line[i] == ' ') ++i;
      }
      return;
    }
    std::map<std::string, std::string> cells;
    for (size_t c = 0; c < columns.size(); ++c) {
      size_t start = columns[c].second;
      size_t end = c + 1 < columns.size() ? columns[c + 1].second : line.size();
      if (start >= line.size()) break;
      cells[columns[c].first] = std::string(Trim(line.substr(start, end - start)));
    }
    const std::string& id = cells["CONTAINER"];
    if (id.empty() || id.find(' ') != std::string::npos) {
      ++out.lines_skipped;
      return;
    }
    nlohmann::json c = {{"id", id},
                        {"podSandboxId", cells["POD ID"]},
                        {"metadata", {{"name", cells["NAME"]}, {"attempt", cells["ATTEMPT"]}}},
                        {"image", {{"image", cells["IMAGE"]}}},
                        {"imageRef", cells["IMAGE"]},
                        {"state", CriState(cells["STATE"])},
                        {"labels", nlohmann::json::object()}};
    if (!cells["POD"].empty()) c["labels"]["io.kubernetes.pod.name"] = cells["POD"];
    c["labels"]["io.kubernetes.container.name"] = cells["NAME"];
    containers.push_back(c);
    ++out.rows;
  });
  out.text = DumpJson(nlohmann::json{{"containers", containers}}, 2, NonUtf8::kEscaped) + "\n";
  return out;
}

ConvertedLog ConvertPluginLog(std::string_view text, int year, int64_t fallback_ns) {
  ConvertedLog out;
  if (LooksLikeCriLog(text)) {
    out.form = PluginLogForm::kCriFile;
    out.text = std::string(text);
    return out;
  }
  struct Line {
    std::optional<int64_t> ns;
    std::string text;
  };
  std::vector<Line> lines;
  ForEachLine(text, [&](int, std::string_view raw) {
    if (raw.empty()) return;
    std::string_view line = StripKubectlPrefix(raw);
    std::string_view rest;
    if (auto ns = LeadingRfc3339(line, rest)) {
      lines.push_back({ns, std::string(rest)});
    } else if (auto go = ParseGoLogHeader(line)) {
      auto utc = UnixNsFromUtcCivil(go->year, go->month, go->day, go->hour, go->minute, go->second);
      lines.push_back({utc ? std::optional<int64_t>(*utc + int64_t{go->microsecond} * 1000) : std::nullopt,
                       std::string(line)});
    } else if (auto klog = ParseKlogHeader(line)) {
      auto utc = UnixNsFromUtcCivil(year, klog->month, klog->day, klog->hour, klog->minute, klog->second);
      lines.push_back({utc ? std::optional<int64_t>(*utc + int64_t{klog->microsecond} * 1000) : std::nullopt,
                       std::string(line)});
    } else {
      lines.push_back({std::nullopt, std::string(line)});
    }
  });
  std::optional<int64_t> previous;
  for (const auto& l : lines) {
    if (l.ns) {
      previous = l.ns;
      break;
    }
  }
  for (const auto& l : lines) {
    if (l.ns) {
      previous = l.ns;
    } else {
      ++out.lines_timed_by_neighbour;
    }
    out.text += FormatRfc3339Utc(previous.value_or(fallback_ns)) + " " + l.text + "\n";
  }
  return out;
}

ConvertedSmiQuery SmiQueryToList(std::string_view query) {
  ConvertedSmiQuery out;
  const NvidiaSmiXml parsed = ParseNvidiaSmiQueryText(query);
  out.gpus = static_cast<int>(parsed.gpus.size());
  Converted& list = out.list;
  for (const NvidiaSmiGpu& g : parsed.gpus) {
    if (!g.uuid) continue;
    list.text += "GPU " + std::to_string(list.rows) + ": " + g.product_name.value_or("") + " (UUID: " + *g.uuid + ")\n";
    ++list.rows;
  }
  return out;
}

}  // namespace gpuf
