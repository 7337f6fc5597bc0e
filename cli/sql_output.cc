#include "cli/sql_output.h"

#include <nlohmann/json.hpp>

#include "common/csv_field.h"
#include "common/json_bytes.h"

namespace gpuf {

namespace {

std::string JsonString(std::string_view bytes) { return JsonForBytes(bytes, NonUtf8::kEscaped).dump(); }

std::string JsonValue(const Statement& statement, int column) {
  switch (statement.ColumnType(column)) {
    case ValueType::kNull:
      return "null";
    case ValueType::kInteger:
      return std::to_string(statement.ColumnInt(column));
    case ValueType::kReal:
      return nlohmann::json(statement.ColumnDouble(column)).dump();
    default:
      return JsonString(statement.ColumnView(column));
  }
}

}  // namespace

std::string SqlOutput::Begin() const {
  if (format_ == SqlFormat::kJson) return "[";
  std::string line;
  for (int i = 0; i < statement_.ColumnCount(); ++i) {
    if (i) line += format_ == SqlFormat::kCsv ? "," : "\t";
    line += format_ == SqlFormat::kCsv ? CsvField(statement_.ColumnName(i)) : statement_.ColumnName(i);
  }
  return line + "\n";
}

std::string SqlOutput::Row() {
  ++rows_;
  if (format_ == SqlFormat::kCsv) return CsvRow();
  if (format_ == SqlFormat::kJson) return (rows_ > 1 ? ",\n" : "") + JsonRow();
  return TextRow();
}

std::string SqlOutput::End() const { return format_ == SqlFormat::kJson ? "]\n" : ""; }

std::string SqlOutput::TextRow() const {
  std::string line;
  for (int i = 0; i < statement_.ColumnCount(); ++i) {
    if (i) line += '\t';
    line += statement_.ColumnView(i);
  }
  return line + "\n";
}

// Numbers as they are: only text can be taken for a formula.
std::string SqlOutput::CsvRow() const {
  std::string line;
  for (int i = 0; i < statement_.ColumnCount(); ++i) {
    if (i) line += ',';
    const ValueType type = statement_.ColumnType(i);
    const bool number = type == ValueType::kInteger || type == ValueType::kReal;
    line += number ? std::string(statement_.ColumnView(i)) : CsvField(statement_.ColumnView(i));
  }
  return line + "\n";
}

std::string SqlOutput::JsonRow() const {
  std::string object = "{";
  for (int i = 0; i < statement_.ColumnCount(); ++i) {
    if (i) object += ",";
    object += JsonString(statement_.ColumnName(i)) + ":" + JsonValue(statement_, i);
  }
  return object + "}";
}

}  // namespace gpuf
