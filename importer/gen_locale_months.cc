// Build-time generator of the month-name table (importer/locale_months.h)
// from glibc's locale sources, so that a journal printed under any locale
// glibc ships reads as well as one printed under C:
//
//   gen_locale_months /usr/share/i18n/locales OUT.cc
//
// Each locale's LC_TIME gives `abmon` and, for languages that decline month
// names, `ab_alt_mon` (what %b prints since glibc 2.27); `copy "xx_YY"`
// takes the section of another locale. Values are written as <Uxxxx> code
// points or plain UTF-8, separated by ';', continued by the escape character
// at the end of a line. A token that means different months in different
// locales keeps every meaning with the number of locales that use it; the
// reader prefers the C locale's, then the commonest.
//
// Exit status 1 with one line on stderr when the directory holds no locale
// with month names (Debian: the `locales` package installs them).
#include <dirent.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void AppendUtf8(unsigned long cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The logical lines of the LC_TIME section: comments dropped, continuations joined.
std::vector<std::string> TimeSection(const std::string& text) {
  char escape = '/';
  char comment = '%';
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line, joined;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("escape_char", 0) == 0 && line.find_last_not_of(" \t") != std::string::npos) {
      escape = line[line.find_last_not_of(" \t")];
    }
    if (line.rfind("comment_char", 0) == 0 && line.find_last_not_of(" \t") != std::string::npos) {
      comment = line[line.find_last_not_of(" \t")];
    }
    size_t first = line.find_first_not_of(" \t");
    if (joined.empty() && (first == std::string::npos || line[first] == comment)) continue;
    if (!inside) {
      if (line.rfind("LC_TIME", 0) == 0) inside = true;
      continue;
    }
    if (line.rfind("END LC_TIME", 0) == 0) break;
    size_t last = line.find_last_not_of(" \t");
    if (last != std::string::npos && line[last] == escape) {
      joined += line.substr(0, last);
      continue;
    }
    joined += line;
    lines.push_back(joined);
    joined.clear();
  }
  return lines;
}

std::vector<std::string> QuotedValues(const std::string& line) {
  std::vector<std::string> values;
  size_t i = 0;
  while ((i = line.find('"', i)) != std::string::npos) {
    std::string value;
    ++i;
    while (i < line.size() && line[i] != '"') {
      if (line[i] == '<' && i + 2 < line.size() && line[i + 1] == 'U') {
        size_t close = line.find('>', i);
        if (close != std::string::npos) {
          AppendUtf8(std::stoul(line.substr(i + 2, close - i - 2), nullptr, 16), value);
          i = close + 1;
          continue;
        }
      }
      value += line[i++];
    }
    values.push_back(value);
    ++i;
  }
  return values;
}

std::string Trim(const std::string& s) {
  size_t a = s.find_first_not_of(' ');
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(' ') - a + 1);
}

// The 12 names of `key` in locale `name`, following `copy`; empty when none.
std::vector<std::string> Months(const std::string& dir, const std::string& name, const std::string& key, int depth) {
  if (depth > 8) return {};
  std::vector<std::string> section = TimeSection(ReadFile(dir + "/" + name));
  std::string copied;
  for (const auto& line : section) {
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    std::string body = line.substr(first);
    if (body.rfind(key, 0) == 0 && body.size() > key.size() && (body[key.size()] == ' ' || body[key.size()] == '\t')) {
      std::vector<std::string> values = QuotedValues(body);
      return values.size() == 12 ? values : std::vector<std::string>{};
    }
    if (body.rfind("copy", 0) == 0) {
      std::vector<std::string> values = QuotedValues(body);
      if (!values.empty()) copied = values[0];
    }
  }
  return copied.empty() ? std::vector<std::string>{} : Months(dir, copied, key, depth + 1);
}

std::string Escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7F) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
      out += "\"\"";  // end the hex escape before the next character
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: gen_locale_months LOCALES_DIR OUT.cc\n");
    return 2;
  }
  const std::string dir = argv[1];
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) {
    std::fprintf(stderr, "gen_locale_months: cannot read '%s' (install the locales package)\n", dir.c_str());
    return 1;
  }
  std::set<std::string> names;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') names.insert(e->d_name);
  }
  closedir(d);
  std::map<std::pair<std::string, int>, std::set<std::string>> users;  // (token, month) -> locales
  int locales = 0;
  for (const auto& name : names) {
    bool any = false;
    for (const char* key : {"abmon", "ab_alt_mon"}) {
      std::vector<std::string> months = Months(dir, name, key, 0);
      for (size_t m = 0; m < months.size(); ++m) {
        std::string token = Trim(months[m]);
        if (token.empty()) continue;
        users[{token, static_cast<int>(m) + 1}].insert(name);
        any = true;
      }
    }
    locales += any;
  }
  if (locales == 0) {
    std::fprintf(stderr, "gen_locale_months: no locale with month names in '%s'\n", dir.c_str());
    return 1;
  }
  std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
  out << "// Generated by importer/gen_locale_months.cc from " << dir << " (" << locales
      << " locales with month names). Do not edit.\n"
      << "#include \"importer/locale_months.h\"\n\nnamespace gpuf {\n\n"
      << "const LocaleMonthRow kLocaleMonthRows[] = {\n";
  for (const auto& [key, who] : users) {
    out << "    {\"" << Escape(key.first) << "\", " << key.second << ", " << who.size() << "},\n";
  }
  out << "};\n\nconst size_t kLocaleMonthRowCount = " << users.size() << ";\nconst int kLocaleMonthLocales = "
      << locales << ";\n\n}  // namespace gpuf\n";
  out.close();
  if (!out) {
    std::fprintf(stderr, "gen_locale_months: cannot write '%s'\n", argv[2]);
    return 1;
  }
  return 0;
}
