#include "analyzer/rules/literal_prefilter.h"

#include <cctype>

namespace gpuf {

namespace {

constexpr size_t kMinLiteral = 3;

// Index just past the group or class that starts at `i` ('(' or '['), or
// text.size() when it is not closed.
size_t SkipBracketed(std::string_view text, size_t i) {
  int depth = 0;
  bool in_class = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\') {
      ++i;
    } else if (in_class) {
      if (c == ']') {
        in_class = false;
        if (depth == 0) return i + 1;
      }
    } else if (c == '[') {
      in_class = true;
      // "[]" and "[^]" start with a literal ']'.
      if (i + 1 < text.size() && text[i + 1] == '^') ++i;
      if (i + 1 < text.size() && text[i + 1] == ']') ++i;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (--depth == 0) return i + 1;
    }
  }
  return text.size();
}

// Splits at '|' outside groups and classes.
std::vector<std::string_view> TopLevelBranches(std::string_view pattern) {
  std::vector<std::string_view> branches;
  size_t start = 0;
  size_t i = 0;
  while (i < pattern.size()) {
    char c = pattern[i];
    if (c == '\\') {
      i += 2;
    } else if (c == '(' || c == '[') {
      i = SkipBracketed(pattern, i);
    } else if (c == '|') {
      branches.push_back(pattern.substr(start, i - start));
      start = ++i;
    } else {
      ++i;
    }
  }
  branches.push_back(pattern.substr(start));
  return branches;
}

// The longest run of bytes every match of a branch (no top-level '|') must
// contain: plain characters and escaped punctuation, with a quantified last
// character dropped.
std::string BranchLiteral(std::string_view branch) {
  std::string best;
  std::string run;
  auto end_run = [&] {
    if (run.size() > best.size()) best = run;
    run.clear();
  };
  size_t i = 0;
  while (i < branch.size()) {
    unsigned char c = static_cast<unsigned char>(branch[i]);
    if (c == '\\') {
      unsigned char next = i + 1 < branch.size() ? static_cast<unsigned char>(branch[i + 1]) : 0;
      if (next != 0 && std::ispunct(next)) {
        run += static_cast<char>(next);
      } else {
        end_run();  // \d, \s, \b, \x41, \Q...: not a plain byte we can rely on
      }
      i += 2;
    } else if (c == '(' || c == '[') {
      end_run();
      i = SkipBracketed(branch, i);
    } else if (c == '*' || c == '?' || c == '{') {
      if (!run.empty()) run.pop_back();  // the quantified character may be absent
      end_run();
      ++i;
      if (c == '{') {
        while (i < branch.size() && branch[i] != '}') ++i;
        ++i;
      }
    } else if (c == '+') {
      end_run();  // the character is there at least once, but what follows is not adjacent
      ++i;
    } else if (c == '.' || c == '^' || c == '$' || c >= 0x80) {
      end_run();
      ++i;
    } else {
      run += static_cast<char>(c);
      ++i;
    }
  }
  end_run();
  return best.size() >= kMinLiteral ? best : "";
}

}  // namespace

std::vector<std::string> DerivePrefilter(std::string_view pattern) {
  // Inline flags may fold case (?i) or change what '.' and '^' mean; such a
  // pattern is matched without a prefilter.
  if (pattern.find("(?") != std::string_view::npos) {
    for (size_t at = pattern.find("(?"); at != std::string_view::npos; at = pattern.find("(?", at + 2)) {
      char flag = at + 2 < pattern.size() ? pattern[at + 2] : ':';
      if (flag != ':' && flag != 'P') return {};
    }
  }
  std::vector<std::string> literals;
  for (std::string_view branch : TopLevelBranches(pattern)) {
    std::string literal = BranchLiteral(branch);
    if (literal.empty()) return {};
    literals.push_back(literal);
  }
  return literals;
}

}  // namespace gpuf
