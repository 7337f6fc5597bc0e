#include "formats/json_syntax.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

namespace gpuf {

namespace {

using json = nlohmann::json;

// A SAX pass over the same text recovers the message and where it stopped.
class SyntaxErrorSax : public json::json_sax_t {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(json::number_integer_t) override { return true; }
  bool number_unsigned(json::number_unsigned_t) override { return true; }
  bool number_float(json::number_float_t, const json::string_t&) override { return true; }
  bool string(json::string_t&) override { return true; }
  bool binary(json::binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(json::string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&, const json::exception& ex) override {
    position_ = position;
    message_ = ex.what();
    return false;
  }

  size_t position_ = 0;
  std::string message_;
};

}  // namespace

ParseWarning JsonSyntaxWarning(std::string_view text, int first_line) {
  SyntaxErrorSax sax;
  json::sax_parse(text.begin(), text.end(), &sax);
  std::string message = sax.message_;
  if (message.rfind("[json.exception.", 0) == 0) message.erase(0, message.find("] ") + 2);
  if (message.rfind("parse error at line ", 0) == 0) message.erase(0, message.find(": ") + 2);
  if (message.empty()) message = "not valid JSON";
  std::string_view before = text.substr(0, std::min(sax.position_, text.size()));
  return {first_line + static_cast<int>(std::count(before.begin(), before.end(), '\n')), message};
}

}  // namespace gpuf
