// Month names as `%b` prints them under every locale glibc ships: journalctl's
// short format and syslog files are written in the printing host's locale
// ("11月 15 14:15:47", "Mai 22 08:07:35", "janv. 05 ..."). The table is
// generated at build time from glibc's locale sources
// (importer/gen_locale_months.cc), never typed by hand.
#ifndef GPUF_IMPORTER_LOCALE_MONTHS_H_
#define GPUF_IMPORTER_LOCALE_MONTHS_H_

#include <cstddef>
#include <string_view>

namespace gpuf {

struct LocaleMonthRow {
  const char* token;  // as %b prints it, without the padding blanks ("1月", "Mär", "janv.")
  int month;          // 1..12
  int locales;        // how many locales print it for this month
};

extern const LocaleMonthRow kLocaleMonthRows[];
extern const size_t kLocaleMonthRowCount;
extern const int kLocaleMonthLocales;  // locales the table was made from

// 1..12, or 0 when no locale prints `token` as a month. A token several
// locales use for different months means what the C locale says, else what
// most locales say ("Jan" is January although one locale prints it for June).
int MonthOfToken(std::string_view token);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_LOCALE_MONTHS_H_
