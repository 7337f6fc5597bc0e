#include "common/csv_field.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_CASE("A CSV field is quoted only when it must be") {
  CHECK(CsvField("plain text") == "plain text");
  CHECK(CsvField("a,b") == "\"a,b\"");
  CHECK(CsvField("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(CsvField("two\nlines") == "\"two\nlines\"");
}

TEST_CASE("A CSV field a spreadsheet would run as a formula starts with a quote mark") {
  CHECK(CsvField("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"");
  CHECK(CsvField("-1") == "\"'-1\"");
  CHECK(CsvField("@SUM") == "\"'@SUM\"");
}

}  // namespace gpuf
