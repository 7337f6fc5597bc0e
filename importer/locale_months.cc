#include "importer/locale_months.h"

#include <string>
#include <unordered_map>

namespace gpuf {

namespace {

constexpr std::string_view kCMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

struct Choice {
  int month = 0;
  int locales = 0;
};

const std::unordered_map<std::string, Choice>& Table() {
  static const auto* table = [] {
    auto* t = new std::unordered_map<std::string, Choice>();
    for (size_t i = 0; i < kLocaleMonthRowCount; ++i) {
      const LocaleMonthRow& row = kLocaleMonthRows[i];
      Choice& c = (*t)[row.token];
      if (row.locales > c.locales) c = {row.month, row.locales};
    }
    for (int m = 0; m < 12; ++m) (*t)[std::string(kCMonths[m])] = {m + 1, 1 << 30};
    return t;
  }();
  return *table;
}

}  // namespace

int MonthOfToken(std::string_view token) {
  auto it = Table().find(std::string(token));
  return it == Table().end() ? 0 : it->second.month;
}

}  // namespace gpuf
