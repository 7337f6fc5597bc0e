#include "importer/locale_months.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("locale_months") {

TEST_CASE("MonthOfToken: month names as %b prints them in glibc's locales") {
  CHECK(kLocaleMonthLocales > 100);  // made from the locale sources, not a short list
  CHECK(MonthOfToken("Jan") == 1);   // C, although one locale prints "Jan" for June
  CHECK(MonthOfToken("Dec") == 12);
  CHECK(MonthOfToken("11月") == 11);  // zh_CN, ja_JP (padding blank dropped)
  CHECK(MonthOfToken("1月") == 1);
  CHECK(MonthOfToken("11월") == 11);  // ko_KR
  CHECK(MonthOfToken("Mai") == 5);    // de_DE
  CHECK(MonthOfToken("Mär") == 3);
  CHECK(MonthOfToken("janv.") == 1);  // fr_FR
  CHECK(MonthOfToken("Note") == 0);
  CHECK(MonthOfToken("") == 0);
}

}  // TEST_SUITE

}  // namespace gpuf
