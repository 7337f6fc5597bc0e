#include "analyzer/rules/sql_functions.h"

#include <sqlite3.h>

#include <memory>
#include <string>

#include "formats/pattern_options.h"

namespace gpuf {

namespace {

void DeletePattern(void* p) { delete static_cast<RE2*>(p); }

// The pattern in argument `index`: SQLite keeps a compiled one with the
// statement while the argument is constant. `fresh` owns a newly compiled one
// that Remember() hands to SQLite once the function is done with it (SQLite
// may free aux data as soon as it is set).
struct PatternArg {
  const RE2* re = nullptr;
  std::unique_ptr<RE2> fresh;
  int index = 0;

  void Remember(sqlite3_context* ctx) {
    if (fresh) sqlite3_set_auxdata(ctx, index, fresh.release(), DeletePattern);
  }
};

bool GetPattern(sqlite3_context* ctx, sqlite3_value** argv, int index, PatternArg& arg) {
  arg.index = index;
  arg.re = static_cast<const RE2*>(sqlite3_get_auxdata(ctx, index));
  if (arg.re) return true;
  const unsigned char* text = sqlite3_value_text(argv[index]);
  if (!text) {
    sqlite3_result_error(ctx, "regexp: the pattern is NULL", -1);
    return false;
  }
  re2::StringPiece pattern(reinterpret_cast<const char*>(text), sqlite3_value_bytes(argv[index]));
  arg.fresh = std::make_unique<RE2>(pattern, RulePatternOptions());
  if (!arg.fresh->ok()) {
    std::string message = "regexp: pattern '" + arg.fresh->pattern() + "' does not compile: " + arg.fresh->error();
    sqlite3_result_error(ctx, message.c_str(), -1);
    return false;
  }
  arg.re = arg.fresh.get();
  return true;
}

re2::StringPiece TextArg(sqlite3_value* value) {
  const unsigned char* text = sqlite3_value_text(value);
  return re2::StringPiece(reinterpret_cast<const char*>(text), sqlite3_value_bytes(value));
}

// regexp(pattern, text)
void Regexp(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[1]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  PatternArg pattern;
  if (!GetPattern(ctx, argv, 0, pattern)) return;
  sqlite3_result_int(ctx, RE2::PartialMatch(TextArg(argv[1]), *pattern.re) ? 1 : 0);
  pattern.Remember(ctx);
}

// regexp_capture(text, pattern[, group])
void RegexpCapture(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  PatternArg pattern;
  if (!GetPattern(ctx, argv, 1, pattern)) return;
  int group = 1;
  if (argc == 3 && sqlite3_value_type(argv[2]) == SQLITE_INTEGER) {
    group = sqlite3_value_int(argv[2]);
  } else if (argc == 3) {
    const unsigned char* name = sqlite3_value_text(argv[2]);
    auto it = pattern.re->NamedCapturingGroups().find(name ? reinterpret_cast<const char*>(name) : "");
    group = it == pattern.re->NamedCapturingGroups().end() ? -1 : it->second;
  }
  re2::StringPiece text = TextArg(argv[0]);
  std::vector<re2::StringPiece> groups(pattern.re->NumberOfCapturingGroups() + 1);
  if (group >= 0 && group < static_cast<int>(groups.size()) &&
      pattern.re->Match(text, 0, text.size(), RE2::UNANCHORED, groups.data(), static_cast<int>(groups.size())) &&
      groups[group].data() != nullptr) {
    sqlite3_result_text(ctx, groups[group].data(), static_cast<int>(groups[group].size()), SQLITE_TRANSIENT);
  } else {
    sqlite3_result_null(ctx);
  }
  pattern.Remember(ctx);
}

int InstallFunctions(sqlite3* db, char**, const sqlite3_api_routines*) {
  const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  sqlite3_create_function(db, "regexp", 2, flags, nullptr, Regexp, nullptr, nullptr);
  sqlite3_create_function(db, "regexp_capture", 2, flags, nullptr, RegexpCapture, nullptr, nullptr);
  sqlite3_create_function(db, "regexp_capture", 3, flags, nullptr, RegexpCapture, nullptr, nullptr);
  return SQLITE_OK;
}

// Runs before main, so every Database the program creates has the functions.
const bool kInstalled = [] {
  sqlite3_auto_extension(reinterpret_cast<void (*)(void)>(InstallFunctions));
  return true;
}();

}  // namespace

Status CheckRuleSqlFunctions(Database& db) {
  auto probe = db.Prepare("SELECT regexp('^a', 'abc'), regexp_capture('abc', 'b(c)')");
  if (!probe.ok() || !kInstalled) {
    return Status::Internal("regexp() is missing from this database", "it was opened before start-up");
  }
  return Status::Ok();
}

}  // namespace gpuf
