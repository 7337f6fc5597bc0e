#include "common/exit_codes.h"

namespace gpuf {

namespace {

// When several hold, a command exits with the first that applies in this
// order: 64, 70, 73, 74, 2, 1, 3 (a broken chain matters more than a
// missing member).
constexpr ExitStatusRow kExitStatuses[] = {
    {kExitOk, "ok",
     "done: the chain is not broken and no finding is at medium severity or above; everything was written", "*"},
    {kExitFindings, "findings",
     "the GPU chain is BROKEN or a finding is at medium severity or above (analyze, one bundle or many; rules run; "
     "watch); verify: a member does not match the manifest; rules list, lint, test: a rule has a problem",
     "analyze rules watch verify"},
    {kExitBadInput, "bad_input",
     "the input is not a readable bundle, capture, database or rule folder, or --root is not a node's root (one "
     "line on stderr says why); a FIFO or device is refused without being read",
     "collect watch analyze redact verify timeline diff sql fleet import rules"},
    {kExitIncomplete, "incomplete",
     "the bundle is incomplete (collect was interrupted, ran past its deadline or could not write a probe's "
     "output), members the manifest names are "
     "missing or do not match it, a rule could not run (none did, or one failed), or a sql statement ran past "
     "--timeout; what could be read is still reported",
     "collect watch analyze timeline diff sql fleet rules"},
    {kExitUsage, "usage", "bad command line", "*"},
    {kExitInternal, "internal", "internal error (a bug, or a library failing in an unexpected way)", "*"},
    {kExitCantCreate, "cant_create",
     "the output path exists (--force replaces a regular file, never anything else), is not a regular file, or "
     "--db names a file that is not a database of the kind this command writes",
     "collect watch analyze redact import rules"},
    {kExitIoError, "io_error", "the output could not be written (disk full, no permission, stdout closed or full)",
     "*"},
};

// Words wrapped at 80 columns under a hanging indent, as boost prints options.
std::string Wrapped(std::string_view text, size_t indent) {
  std::string out, line;
  const size_t width = 80 - indent;
  while (!text.empty()) {
    size_t space = text.find(' ');
    std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
    }
    line += (line.empty() ? "" : " ") + std::string(word);
  }
  return out + line;
}

}  // namespace

std::span<const ExitStatusRow> ExitStatuses() { return kExitStatuses; }

bool AppliesTo(const ExitStatusRow& row, std::string_view command) {
  if (command.empty() || row.commands == "*") return true;
  std::string_view list = row.commands;
  while (!list.empty()) {
    size_t space = list.find(' ');
    if (list.substr(0, space) == command) return true;
    if (space == std::string_view::npos) break;
    list.remove_prefix(space + 1);
  }
  return false;
}

std::string ExitStatusHelp(std::string_view command) {
  std::string out = "exit status:\n";
  for (const auto& row : kExitStatuses) {
    if (!AppliesTo(row, command)) continue;
    std::string code = std::to_string(row.code);
    out += "  " + code + std::string(5 - code.size(), ' ') + Wrapped(row.meaning, 7) + "\n";
  }
  return out;
}

std::string ExitStatusMarkdown() {
  std::string out = "| exit status | name | meaning | commands |\n|---|---|---|---|\n";
  for (const auto& row : kExitStatuses) {
    out += "| " + std::to_string(row.code) + " | `" + std::string(row.name) + "` | " + std::string(row.meaning) +
           " | " + (row.commands == "*" ? std::string("all") : std::string(row.commands)) + " |\n";
  }
  return out;
}

}  // namespace gpuf
