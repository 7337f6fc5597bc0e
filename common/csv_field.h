// One CSV field (RFC 4180) of text that came from a node: quoted when it
// holds a comma, quote or line break; a cell a spreadsheet would run as a
// formula (= + - @, or a tab or CR before one) starts with a quote mark.
#ifndef GPUF_COMMON_CSV_FIELD_H_
#define GPUF_COMMON_CSV_FIELD_H_

#include <string>
#include <string_view>

namespace gpuf {

std::string CsvField(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_COMMON_CSV_FIELD_H_
