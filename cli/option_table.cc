#include "cli/option_table.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace gpuf {

namespace po = boost::program_options;

namespace {

constexpr size_t kMaxFlagColumn = 28;  // wider flags put their description below

// "-o, --output PATH (=x)" or "--db FILE".
std::string Flags(const po::option_description& option) {
  const std::string short_name = option.canonical_display_name(po::command_line_style::allow_dash_for_short);
  std::string flags;
  if (short_name.size() == 2 && short_name[0] == '-' && short_name[1] != '-') flags = short_name;
  if (!option.long_name().empty()) flags += (flags.empty() ? "--" : ", --") + option.long_name();
  const std::string parameter = option.format_parameter();
  if (!parameter.empty()) flags += (parameter.front() == '[' ? "" : " ") + parameter;
  return flags;
}

std::vector<std::string> WordsOf(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// `text` in lines of at most `width` columns, each starting at column `indent`.
std::string Wrapped(const std::string& text, size_t indent, size_t width) {
  std::string out, line;
  for (const auto& word : WordsOf(text)) {
    if (!line.empty() && indent + line.size() + 1 + word.size() > width) {
      out += std::string(indent, ' ') + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += std::string(indent, ' ') + line + "\n";
  return out;
}

}  // namespace

std::string OptionTable(const po::options_description& options, int width) {
  std::vector<std::string> flags;
  size_t column = 0;
  for (const auto& o : options.options()) {
    flags.push_back(Flags(*o));
    if (flags.back().size() <= kMaxFlagColumn) column = std::max(column, flags.back().size());
  }
  const size_t indent = 2 + column + 2;
  std::string out;
  for (size_t i = 0; i < flags.size(); ++i) {
    const std::string description = Wrapped(options.options()[i]->description(), indent, width);
    std::string head = "  " + flags[i];
    if (description.empty()) {
      out += head + "\n";
    } else if (flags[i].size() <= column) {
      out += head + std::string(indent - head.size(), ' ') + description.substr(indent);
    } else {
      out += head + "\n" + description;
    }
  }
  return out;
}

}  // namespace gpuf
