#include "collector/kubelet_flags.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "common/text_lines.h"

namespace gpuf {

namespace {

// Files that hold kubelet flags on kubeadm-style nodes whatever the platform.
constexpr std::string_view kFlagFiles[] = {"/var/lib/kubelet/kubeadm-flags.env", "/etc/default/kubelet",
                                           "/etc/sysconfig/kubelet"};
constexpr int64_t kMaxConfigBytes = 1 << 20;
constexpr size_t kMaxProcesses = 100000;

std::string Join(std::string_view dir, std::string_view name) {
  return std::string(dir) + (dir.empty() || dir.back() != '/' ? "/" : "") + std::string(name);
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Shell-like words: whitespace separates, double and single quotes group.
std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else {
        word += c;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

// Every KEY=value of an environment file, later ones winning.
void ReadEnvFile(std::string_view text, std::map<std::string, std::string>& env) {
  ForEachLine(text, [&](int, std::string_view line) {
    line = Trim(line);
    if (line.empty() || line[0] == '#') return;
    if (line.substr(0, 7) == "export ") line = TrimLeft(line.substr(7));
    size_t eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0) return;
    std::string key(line.substr(0, eq));
    if (auto value = EnvFileValue(line, key)) env[key] = *value;
  });
}

// ${NAME} and $NAME from `env`; an unknown name expands to nothing, as systemd does.
std::string Expand(std::string_view text, const std::map<std::string, std::string>& env) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i];
      continue;
    }
    size_t start = i + 1, end;
    bool braced = text[start] == '{';
    if (braced) {
      end = text.find('}', start);
      if (end == std::string_view::npos) {
        out += text.substr(i);
        break;
      }
      ++start;
    } else {
      end = start;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
      if (end == start) {
        out += '$';
        continue;
      }
    }
    auto it = env.find(std::string(text.substr(start, end - start)));
    if (it != env.end()) out += it->second;
    i = braced ? end : end - 1;
  }
  return out;
}

// The unit file and its drop-ins in the order systemd applies them: the
// unit from the first directory that has it, then every NAME.d/*.conf by
// name, a name in an earlier directory hiding the same name in a later one.
std::vector<std::string> UnitFiles(const HostFiles& host, const std::vector<std::string>& dirs,
                                   const std::string& unit) {
  std::vector<std::string> files;
  for (const auto& dir : dirs) {
    if (host.Exists(Join(dir, unit))) {
      files.push_back(Join(dir, unit));
      break;
    }
  }
  std::map<std::string, std::string> dropins;
  for (const auto& dir : dirs) {
    const std::string d = Join(dir, unit + ".d");
    for (const auto& name : host.List(d)) {
      if (EndsWith(name, ".conf") && !dropins.count(name)) dropins[name] = Join(d, name);
    }
  }
  for (const auto& [name, path] : dropins) files.push_back(path);
  return files;
}

// The ExecStart= in effect, with Environment= and EnvironmentFile= applied.
std::optional<ArgvSource> KubeletFromUnit(const HostFiles& host, const std::vector<std::string>& dirs,
                                          const std::string& unit) {
  std::map<std::string, std::string> env;
  std::vector<std::string> env_files;
  std::string exec_start, exec_from;
  for (const auto& path : UnitFiles(host, dirs, unit)) {
    auto text = host.Read(path, kMaxConfigBytes);
    if (!text) continue;
    std::string joined;
    bool in_service = false;
    ForEachLine(*text, [&](int, std::string_view raw) {
      std::string_view line = TrimRight(raw);
      if (!line.empty() && line.back() == '\\') {
        joined += std::string(line.substr(0, line.size() - 1)) + " ";
        return;
      }
      joined += std::string(line);
      std::string_view full = Trim(joined);
      if (!full.empty() && full[0] == '[') {
        in_service = full == "[Service]";
      } else if (in_service && full.substr(0, 12) == "Environment=") {
        for (const auto& assignment : Words(full.substr(12))) {
          size_t eq = assignment.find('=');
          if (eq != std::string::npos && eq > 0) env[assignment.substr(0, eq)] = assignment.substr(eq + 1);
        }
      } else if (in_service && full.substr(0, 16) == "EnvironmentFile=") {
        std::string_view file = Trim(full.substr(16));
        if (!file.empty() && file[0] == '-') file.remove_prefix(1);
        env_files.emplace_back(file);
      } else if (in_service && full.substr(0, 10) == "ExecStart=") {
        exec_start = std::string(Trim(full.substr(10)));
        exec_from = path;
      }
      joined.clear();
    });
  }
  if (exec_start.empty()) return std::nullopt;
  for (const auto& file : env_files) {
    if (auto text = host.Read(file, kMaxConfigBytes)) ReadEnvFile(*text, env);
  }
  // Prefixes such as "-" or "@" change how systemd runs the command, not its argv.
  while (!exec_start.empty() && std::string_view("-@:+!").find(exec_start[0]) != std::string_view::npos) {
    exec_start.erase(0, 1);
  }
  return ArgvSource{ArgvSource::kUnit, exec_from, Words(Expand(exec_start, env))};
}

// Command lines of running kubelets, and of k3s and rke2 (whose kubelet
// runs inside them or as their child).
std::vector<ArgvSource> RunningKubelets(const HostFiles& host) {
  std::vector<ArgvSource> found;
  size_t seen = 0;
  for (const auto& pid : host.List("/proc")) {
    if (++seen > kMaxProcesses) break;
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    auto comm = host.Read("/proc/" + pid + "/comm", 64);
    if (!comm) continue;
    std::string name(TrimRight(*comm));
    if (name != "kubelet" && name != "hyperkube" && name.rfind("k3s", 0) != 0 && name.rfind("rke2", 0) != 0) continue;
    auto cmdline = host.Read("/proc/" + pid + "/cmdline", 256 * 1024);
    if (!cmdline || cmdline->empty()) continue;
    std::vector<std::string> argv;
    size_t start = 0;
    while (start < cmdline->size()) {
      size_t end = cmdline->find('\0', start);
      if (end == std::string::npos) end = cmdline->size();
      argv.push_back(cmdline->substr(start, end - start));
      start = end + 1;
    }
    found.push_back({ArgvSource::kRunning, "/proc/" + pid + "/cmdline", argv});
  }
  return found;
}

std::vector<std::string> FlagFiles(const PlatformRow* platform) {
  std::vector<std::string> files;
  if (platform) {
    for (auto f : PlatformWords(platform->kubelet_flag_files)) files.emplace_back(f);
  }
  for (auto f : kFlagFiles) {
    if (std::find(files.begin(), files.end(), f) == files.end()) files.emplace_back(f);
  }
  return files;
}

}  // namespace

std::vector<ArgvSource> KubeletArgvSources(const HostFiles& host, const PlatformRow* platform) {
  std::vector<ArgvSource> sources = RunningKubelets(host);
  std::vector<std::string> units = {"kubelet.service"};
  if (platform) {
    for (auto u : PlatformWords(platform->kubelet_units)) {
      if (u != "kubelet.service") units.emplace_back(u);
    }
  }
  const std::vector<std::string> dirs = SystemdUnitDirs(platform);
  for (const auto& unit : units) {
    if (auto source = KubeletFromUnit(host, dirs, unit)) sources.push_back(*source);
  }
  for (const auto& file : FlagFiles(platform)) {
    auto text = host.Read(file, kMaxConfigBytes);
    if (!text) continue;
    if (EndsWith(file, ".yaml")) {
      // k3s and RKE2: "node-name: gpu-7" (a list form is not a name).
      ForEachLine(*text, [&](int, std::string_view line) {
        if (line.substr(0, 10) == "node-name:") {
          sources.push_back({ArgvSource::kFlagFile, file, {"--node-name", std::string(line.substr(10))}});
        }
      });
      continue;
    }
    std::map<std::string, std::string> env;
    ReadEnvFile(*text, env);
    for (const auto& [key, value] : env) {
      if (value.find("--") != std::string::npos) sources.push_back({ArgvSource::kFlagFile, file, Words(value)});
    }
  }
  return sources;
}

std::string FlagValue(const std::vector<std::string>& argv, std::string_view name) {
  const std::string flag = "--" + std::string(name);
  std::string value;
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string_view arg = argv[i];
    if (arg == flag && i + 1 < argv.size()) {
      value = argv[i + 1];  // the last one wins, as in the kubelet
    } else if (arg.size() > flag.size() && arg.substr(0, flag.size()) == flag && arg[flag.size()] == '=') {
      value = std::string(arg.substr(flag.size() + 1));
    }
  }
  return value;
}

}  // namespace gpuf
