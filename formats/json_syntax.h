// Where and why a JSON text failed to parse, as a ParseWarning.
// nlohmann's DOM parser (allow_exceptions=false) only says that it failed.
#ifndef GPUF_FORMATS_JSON_SYNTAX_H_
#define GPUF_FORMATS_JSON_SYNTAX_H_

#include <string_view>

#include "common/parse_warning.h"

namespace gpuf {

// "[json.exception.parse_error.101] parse error at line 1, column 9: syntax
// error ..." -> {first_line + lines before the stop, "syntax error ..."}.
ParseWarning JsonSyntaxWarning(std::string_view text, int first_line = 1);

}  // namespace gpuf

#endif  // GPUF_FORMATS_JSON_SYNTAX_H_
