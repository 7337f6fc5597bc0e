#include "importer/saved_text.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>

#include "common/byte_pattern.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

// Prompts as people paste them, the command in group 2 (group 1: the prompt's host, if any).
//   root@node4:~# dmesg -T           [root@test-node1 system]# systemctl status kubelet -l
//   bash-5.1# systemctl status ...   (host) # nvidia-smi -L      $ kubectl logs ...     ~ ❯❯❯ nvidia-smi
//   (venv) root@node1:~/kubespray# nvidia-smi    (a Python or conda environment's name first)
//   `[root@gpu1 ~]# kubectl logs ...              (a stray backtick left from the page's inline code)
const RE2& PromptPattern() {
  static const RE2 prompt(
      R"(^`*(?:\([\w.-]+\) )?(?:(?:\S*@(\S+?):\S*|\[\S*@(\S+)[^\]]*\]|bash(?:-[\d.]+)?|sh(?:-[\d.]+)?|\((?:host|container|node|pod)\) ?|~ ?(?:❯)+) ?[#$>] ?|[#$>] )(.+)$)",
      BytePatternOptions());
  return prompt;
}

// The first word of what follows a bare "$ ", "# " or "> " must be a tool
// people run on a node, or a "# comment" would be taken for a command.
bool KnownTool(std::string_view command) {
  static const RE2 tool(
      R"(^(?:sudo |time )?(?:kubectl|k|oc|crictl|ctr|nerdctl|docker|podman|nvidia-smi|nvidia-ctk|nvidia-container-cli|)"
      R"(nvidia-bug-report\.sh|dmesg|journalctl|systemctl|service|cat|grep|egrep|zgrep|tail|head|less|ls|ll|lspci|lsmod|)"
      R"(modinfo|modprobe|uname|runc|crun|ldconfig|rpm|dpkg|apt|yum|dnf|helm|strace|bpftrace|bpftool|jq|find|stat|)"
      R"(mount|findmnt|ps|top|hostnamectl|timedatectl|date|uptime|sheltie|apiclient|sos|sosreport|containerd|kubelet|)"
      R"(dcgmi|nv-fabricmanager|nvidia-persistenced|echo|env|printenv|cd|\./|/)(?:\s|$|/))",
      BytePatternOptions());
  return RE2::PartialMatch(command, tool);
}

const RE2& ExecPattern() {
  // `docker run IMAGE nvidia-smi` runs it in a new container as surely as exec does in an old one.
  static const RE2 exec(
      R"(\b(?:kubectl|oc|crictl|docker|nerdctl|podman) +exec\b|\bctr .*task exec\b|)"
      R"(\b(?:docker|nerdctl|podman) +(?:container +)?run(?:\s|$)|\bctr +(?:-\S+ +)*run(?:\s|$)|\bkubectl +run(?:\s|$))",
      BytePatternOptions());
  return exec;
}

// What a container printed, read back through its runtime or the API.
const RE2& LogsPattern() {
  static const RE2 logs(R"(\b(?:kubectl|k|oc|crictl|docker|nerdctl|podman) +logs\b)", BytePatternOptions());
  return logs;
}

bool IsHexId(std::string_view host) {
  if (host.size() != 12 && host.size() != 64) return false;
  return std::all_of(host.begin(), host.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

// Lines a person added that are not output: elisions, markers, a grep
// separator, a lone backtick, the banner of the Ansible task that ran the command.
bool IsNoise(std::string_view line) {
  static const RE2 noise(
      R"(^\s*(?:\.{3,}|…|(?:·){3,}|`+|--|-{8,}|-{3,} ?[A-Za-z][\w ]* ?-{3,}|(?:TASK|PLAY|RUNNING HANDLER) \[[^\]]*\] \*{3,})\s*$)",
      BytePatternOptions());
  return RE2::FullMatch(line, noise);
}

// A line the page showed in bold ("**[root@node003 ~]# kubectl get pods**",
// "  **nvidia.com/gpu:  0**"): markdown's markers around it, not output.
std::string WithoutBold(std::string_view line) {
  size_t start = line.find_first_not_of(' ');
  std::string_view rest = Trim(line);
  if (start == std::string_view::npos || rest.size() <= 4 || rest.substr(0, 2) != "**" ||
      rest.substr(rest.size() - 2) != "**") {
    return std::string(line);
  }
  return std::string(line.substr(0, start)) + std::string(rest.substr(2, rest.size() - 4));
}

// An output a page indented as a whole (a code block inside a list item):
// the blanks every line shares are the page's, not the output's.
std::string WithoutCommonIndent(const std::string& text) {
  size_t common = std::string::npos;
  ForEachLine(text, [&](int, std::string_view line) {
    size_t indent = line.find_first_not_of(' ');
    if (indent != std::string_view::npos) common = std::min(common, indent);
  });
  if (common == 0 || common == std::string::npos) return text;
  std::string out;
  ForEachLine(text, [&](int, std::string_view line) {
    out.append(line.size() >= common ? line.substr(common) : std::string_view());
    out += '\n';
  });
  return out;
}

}  // namespace

std::string_view ViewName(View view) {
  switch (view) {
    case View::kHost: return "host";
    case View::kContainer: return "container";
    case View::kUnknown: break;
  }
  return "unknown";
}

// The prompts of fish, zsh themes and starship end in a symbol, not in
// $ or #; what follows must be a tool people run, as after a bare "$ ".
//   ~ ❯❯❯ docker run ...    ➜  ~ kubectl logs ...    user@host ~> sudo nvidia-smi    node% dmesg -T
std::string SymbolPromptCommand(std::string_view line) {
  // Patterns are Latin-1 (bytes): a multi-byte symbol repeats as a group.
  static const RE2 themed(R"(^`*➜\s+\S+(?: git:\([^)]*\))?(?: ✗)? (.+)$)", BytePatternOptions());
  static const RE2 symbol(
      R"(^`*(?:\([\w.-]+\) )?(?:\S+@\S+ )?(?:(?:[~/]\S*|[\w.-]+) ?)?(?:(?:❯)+|➜|λ|»|›|→|>|%)\s+(.+)$)",
      BytePatternOptions());
  for (const RE2* prompt : {&themed, &symbol}) {
    std::string command;
    if (RE2::FullMatch(line, *prompt, &command) && KnownTool(command)) return std::string(Trim(command));
  }
  return "";
}

std::string PromptCommand(std::string_view line) {
  std::string user_host, bracket_host, command;
  if (!RE2::FullMatch(line, PromptPattern(), &user_host, &bracket_host, &command)) {
    if (std::string symbol = SymbolPromptCommand(line); !symbol.empty()) return symbol;
    // "cmd: nvidia-smi | head -n 4": a transcript's own command marker.
    static const RE2 cmd(R"(^cmd: (.+)$)", BytePatternOptions());
    if (RE2::FullMatch(line, cmd, &command) && KnownTool(command)) return command;
    // A command line pasted without a prompt: "kubectl logs -n x pod -p".
    // At most one blank before it (a paste's indentation); an indented line is a value, not a command.
    std::string_view trimmed = Trim(line);
    if (line.size() > 1 && line[0] == ' ' && line[1] == ' ') return "";
    static const RE2 bare(
        R"(^(?:sudo )?(?:kubectl|k|oc|crictl|docker|journalctl|systemctl|helm|nvidia-smi|nvidia-ctk|dmesg|cat|ls|ll|)"
        R"(lspci|lsmod|strace|bpftrace|uname) \S.*$)",
        BytePatternOptions());
    if (RE2::FullMatch(trimmed, bare)) return std::string(trimmed);
    return "";
  }
  size_t start = line.find_first_not_of('`');
  char first = start == std::string_view::npos ? '\0' : line[start];
  bool bare_prompt = user_host.empty() && bracket_host.empty() && (first == '$' || first == '#' || first == '>');
  if (bare_prompt && !KnownTool(command)) return "";
  return std::string(Trim(command));
}

ViewSign ViewFromFileName(std::string_view file_name) {
  const std::string lower = AsciiLower(file_name);
  for (std::string_view word : {"container", "inside", "plugin", "ctr", "exec", "pod"}) {
    if (lower.find(word) != std::string::npos) return {View::kContainer, "file name '" + std::string(file_name) + "'"};
  }
  for (std::string_view word : {"host", "node"}) {
    if (lower.find(word) != std::string::npos) return {View::kHost, "file name '" + std::string(file_name) + "'"};
  }
  return {};
}

std::vector<SavedPiece> SplitTranscript(std::string_view text) {
  std::vector<SavedPiece> pieces(1);
  bool output_seen = false;  // in the current piece
  ForEachLine(text, [&](int, std::string_view line) {
    std::string command = PromptCommand(line);
    if (!command.empty()) {
      if (output_seen) {
        pieces.push_back({command, ""});
        output_seen = false;
      } else {
        pieces.back().command = command;  // commands in a row: the last one's output follows
      }
    } else if (!Trim(line).empty() && !IsNoise(line)) {
      output_seen = true;
    }
    pieces.back().text.append(line);
    pieces.back().text += '\n';
  });
  return pieces;
}

SavedText CleanSavedText(std::string_view text) {
  SavedText out;
  std::string original_first;
  ForEachLine(text, [&](int, std::string_view raw) {
    const std::string unwrapped = WithoutBold(raw);
    std::string_view line = unwrapped;
    if (original_first.empty() && !Trim(line).empty()) original_first = std::string(Trim(line));
    std::string command = PromptCommand(line);
    if (!command.empty()) {
      out.commands.push_back(command);
      out.dropped.emplace_back(line);
      std::string user_host, bracket_host, rest;
      RE2::FullMatch(line, PromptPattern(), &user_host, &bracket_host, &rest);
      std::string host = !user_host.empty() ? user_host : bracket_host;
      if (IsHexId(host)) {
        out.view = {View::kContainer, "prompt host " + host + " is a container id"};
      } else if (line.rfind("(container)", 0) == 0) {
        out.view = {View::kContainer, "prompt labelled (container)"};
      } else if (line.rfind("(host)", 0) == 0 || line.rfind("(node)", 0) == 0) {
        out.view = {View::kHost, "prompt labelled " + std::string(line.substr(0, line.find(')') + 1))};
      } else if (RE2::PartialMatch(command, ExecPattern())) {
        out.view = {View::kContainer, "run with `" + command.substr(0, command.find(" --") == std::string::npos
                                                                           ? command.size()
                                                                           : command.find(" --")) + "`"};
      } else if (RE2::PartialMatch(command, LogsPattern())) {
        out.view = {View::kContainer, "a container's log (`" + command.substr(0, command.find(' ', command.find("logs"))) + "`)"};
      } else if (command.find("sheltie") != std::string::npos) {
        out.view = {View::kHost, "Bottlerocket's sheltie gives the host's shell"};
      }
      return;
    }
    if (IsNoise(line)) {
      out.dropped.emplace_back(line);
      return;
    }
    if (out.first_line.empty() && !Trim(line).empty()) out.first_line = std::string(Trim(line));
    out.text.append(line);
    out.text += '\n';
  });
  if (out.first_line.empty()) out.first_line = original_first;
  out.text = WithoutCommonIndent(out.text);
  return out;
}

}  // namespace gpuf
