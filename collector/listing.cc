#include "collector/listing.h"

#include <sys/sysmacros.h>

#include <cstdio>

namespace gpuf {

namespace {

char TypeLetter(mode_t mode) {
  if (S_ISREG(mode)) return 'f';
  if (S_ISDIR(mode)) return 'd';
  if (S_ISLNK(mode)) return 'l';
  if (S_ISCHR(mode)) return 'c';
  if (S_ISBLK(mode)) return 'b';
  if (S_ISSOCK(mode)) return 's';
  if (S_ISFIFO(mode)) return 'p';
  return '?';
}

}  // namespace

std::string EscapeField(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\\': out += "\\\\"; break;
      default: out += c;
    }
  }
  return out;
}

std::string ListingLine(const DirEntryInfo& entry) {
  const struct stat& st = entry.st;
  char type = TypeLetter(st.st_mode);
  std::string major, minor;
  if (type == 'c' || type == 'b') {
    major = std::to_string(::major(st.st_rdev));
    minor = std::to_string(::minor(st.st_rdev));
  }
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  long long mtime_ns = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  return EscapeField(entry.path) + "\t" + type + "\t" + mode + "\t" + std::to_string(st.st_uid) +
         "\t" + std::to_string(st.st_gid) + "\t" + major + "\t" + minor + "\t" +
         std::to_string(static_cast<long long>(st.st_size)) + "\t" + std::to_string(mtime_ns) + "\t" +
         EscapeField(entry.link_target) + "\n";
}

}  // namespace gpuf
