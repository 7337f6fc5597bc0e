#include "formats/cgroup_facts.h"

#include <charconv>

#include "common/text_lines.h"

namespace gpuf {

namespace {

std::vector<std::string_view> SplitWhitespace(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t pos = 0;
  while (true) {
    pos = line.find_first_not_of(" \t", pos);
    if (pos == std::string_view::npos) return fields;
    size_t end = line.find_first_of(" \t", pos);
    if (end == std::string_view::npos) end = line.size();
    fields.push_back(line.substr(pos, end - pos));
    pos = end;
  }
}

bool ToInt(std::string_view text, int64_t& out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size() && out >= 0;
}

// "*" -> nullopt (any); digits -> the number.
bool ToDeviceNumber(std::string_view text, std::optional<int64_t>& out) {
  if (text == "*") {
    out.reset();
    return true;
  }
  int64_t value = 0;
  if (!ToInt(text, value)) return false;
  out = value;
  return true;
}

bool IsAccess(std::string_view text) {
  return !text.empty() && text.size() <= 3 && text.find_first_not_of("rwm") == std::string_view::npos;
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string UnescapeOctal(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    bool octal = text[i] == '\\' && i + 3 < text.size();
    if (octal) {
      for (size_t k = 1; k <= 3; ++k) octal = octal && text[i + k] >= '0' && text[i + k] <= '7';
    }
    if (!octal) {
      out += text[i];
      continue;
    }
    out += static_cast<char>((text[i + 1] - '0') * 64 + (text[i + 2] - '0') * 8 + (text[i + 3] - '0'));
    i += 3;
  }
  return out;
}

bool HasOption(std::string_view options, std::string_view wanted) {
  size_t start = 0;
  while (start <= options.size()) {
    size_t comma = options.find(',', start);
    if (comma == std::string_view::npos) comma = options.size();
    if (options.substr(start, comma - start) == wanted) return true;
    start = comma + 1;
  }
  return false;
}

bool IsBpftoolHeader(const std::vector<std::string_view>& f) {
  return f.size() >= 2 && f[0] == "ID" && f[1] == "AttachType";
}

}  // namespace

DevicesList ParseDevicesList(std::string_view text) {
  DevicesList list;
  ForEachLine(text, [&](int number, std::string_view line) {
    auto f = SplitWhitespace(line);
    if (f.empty()) return;
    DeviceRule rule;
    rule.line = number;
    size_t colon = f.size() == 3 ? f[1].find(':') : std::string_view::npos;
    bool ok = colon != std::string_view::npos && f[0].size() == 1 &&
              (f[0] == "a" || f[0] == "b" || f[0] == "c") && ToDeviceNumber(f[1].substr(0, colon), rule.major) &&
              ToDeviceNumber(f[1].substr(colon + 1), rule.minor) && IsAccess(f[2]);
    if (!ok) {
      list.warnings.push_back({number, "not a devices.list rule: " + std::string(line)});
      return;
    }
    rule.type = f[0][0];
    rule.access = std::string(f[2]);
    list.rules.push_back(std::move(rule));
  });
  return list;
}

bool DevicesListAllowsReadWrite(const std::vector<DeviceRule>& rules, int64_t major, int64_t minor) {
  for (const auto& rule : rules) {
    if (rule.type != 'a' && rule.type != 'c') continue;
    if (rule.major && *rule.major != major) continue;
    if (rule.minor && *rule.minor != minor) continue;
    if (rule.access.find('r') != std::string::npos && rule.access.find('w') != std::string::npos) return true;
  }
  return false;
}

CgroupLayout ParseCgroupMountinfo(std::string_view mountinfo) {
  CgroupLayout layout;
  bool any_v1 = false, v2_root = false, v2_unified = false, any_v2 = false;
  ForEachLine(mountinfo, [&](int number, std::string_view line) {
    auto f = SplitWhitespace(line);
    if (f.empty()) return;
    size_t dash = 6;
    while (dash < f.size() && f[dash] != "-") ++dash;
    if (dash + 3 >= f.size()) {
      layout.warnings.push_back({number, "not a mountinfo line: " + std::string(line)});
      return;
    }
    std::string mount_point = UnescapeOctal(f[4]);
    std::string_view fs_type = f[dash + 1];
    std::string_view super_options = f[dash + 3];
    if (fs_type == "cgroup") {
      any_v1 = true;
      if (HasOption(super_options, "devices")) {
        layout.v1_devices = true;
        layout.devices_mount = mount_point;
      }
    } else if (fs_type == "cgroup2") {
      any_v2 = true;
      if (mount_point == "/sys/fs/cgroup") v2_root = true;
      if (mount_point == "/sys/fs/cgroup/unified") v2_unified = true;
    }
  });
  if (v2_root) {
    layout.mode = "v2";
  } else if (any_v1) {
    layout.mode = v2_unified ? "hybrid" : "v1";
  } else if (any_v2) {
    layout.mode = "v2";
  } else {
    layout.warnings.push_back({0, "no cgroup or cgroup2 mount"});
  }
  return layout;
}

std::string SystemdUnitProperties::Get(const std::string& key) const {
  auto it = values.find(key);
  return it == values.end() || it->second.empty() ? "" : it->second.back();
}

SystemdShow ParseSystemctlShow(std::string_view text) {
  SystemdShow show;
  bool in_unit = false;
  ForEachLine(text, [&](int number, std::string_view line) {
    if (line.empty()) {
      in_unit = false;
      return;
    }
    size_t eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      show.warnings.push_back({number, "not a KEY=VALUE line: " + std::string(line)});
      return;
    }
    if (!in_unit) {
      show.units.push_back({number, {}, {}});
      in_unit = true;
    }
    std::string key(line.substr(0, eq));
    show.units.back().values[key].emplace_back(line.substr(eq + 1));
    show.units.back().lines[key] = number;
  });
  return show;
}

BpfCgroupPrograms ParseBpftoolCgroup(std::string_view text) {
  BpfCgroupPrograms out;
  std::string cgroup_path;
  ForEachLine(text, [&](int number, std::string_view line) {
    std::string_view trimmed = TrimRight(line, " \t");
    auto f = SplitWhitespace(trimmed);
    if (f.empty() || IsBpftoolHeader(f) || (f.size() == 1 && f[0] == "CgroupPath")) return;
    if (trimmed.substr(0, 6) == "Error:") {
      // bpftool stops walking here; the rows before it stand.
      out.warnings.push_back({number, std::string(trimmed)});
      return;
    }
    if (trimmed[0] == '/') {
      cgroup_path = std::string(trimmed);
      return;
    }
    BpfCgroupProgram program;
    program.line = number;
    program.cgroup_path = cgroup_path;
    if (f.size() < 2 || f.size() > 4 || !ToInt(f[0], program.id)) {
      out.warnings.push_back({number, "not a bpftool cgroup row: " + std::string(trimmed)});
      return;
    }
    program.attach_type = std::string(f[1]);
    // Flags and name are both optional, so three columns are ambiguous;
    // bpftool only ever prints these two flag words.
    size_t next = 2;
    if (next < f.size() && (f[next] == "multi" || f[next] == "override")) {
      program.attach_flags = std::string(f[next++]);
    }
    if (next < f.size()) program.name = std::string(f[next++]);
    if (next != f.size()) {
      out.warnings.push_back({number, "not a bpftool cgroup row: " + std::string(trimmed)});
      return;
    }
    out.programs.push_back(std::move(program));
  });
  return out;
}

}  // namespace gpuf
