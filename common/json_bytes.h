// Bytes from a node in JSON. Hostnames, file names, arguments and log lines
// are bytes, not UTF-8 (Latin-1 consoles, damaged journals), and JSON text
// must be UTF-8. Two answers, both lossless and both marked:
//  - kByteArray, for what the project reads back (the manifest): a value that
//    is not UTF-8 becomes an array of its byte values, as `journalctl -o json`
//    writes such fields; BytesFromJson reads either form back.
//  - kEscaped, for what people and their tools read (reports, timelines):
//    each byte that is not part of valid UTF-8 is written as the four
//    characters \xNN.
// Object keys are always escaped. Neither function throws.
#ifndef GPUF_COMMON_JSON_BYTES_H_
#define GPUF_COMMON_JSON_BYTES_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace gpuf {

enum class NonUtf8 { kByteArray, kEscaped };

bool IsUtf8(std::string_view bytes);

// One byte as the four characters \xNN.
std::string EscapedByte(unsigned char byte);

// `bytes` with every byte outside valid UTF-8 sequences written as \xNN.
std::string EscapeNonUtf8(std::string_view bytes);

// A JSON value for `bytes`: a string when they are UTF-8, else as `policy` says.
nlohmann::json JsonForBytes(std::string_view bytes, NonUtf8 policy = NonUtf8::kByteArray);

// A string, or an array of byte values 0..255; nullopt for anything else.
std::optional<std::string> BytesFromJson(const nlohmann::json& value);

// `doc` as JSON text, every string in it made UTF-8 by `policy` first when needed.
std::string DumpJson(const nlohmann::json& doc, int indent, NonUtf8 policy);
std::string DumpJson(const nlohmann::ordered_json& doc, int indent, NonUtf8 policy);

// Appends `bytes` to `out` as a quoted JSON string, as DumpJson with
// kEscaped writes it, without building a value: for writers of millions
// of lines (the timeline's JSON Lines).
void AppendJsonString(std::string& out, std::string_view bytes);

}  // namespace gpuf

#endif  // GPUF_COMMON_JSON_BYTES_H_
