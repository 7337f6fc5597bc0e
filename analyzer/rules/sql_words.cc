#include "analyzer/rules/sql_words.h"

#include <cctype>
#include <optional>
#include <span>

#include "analyzer/rules/rule_artifacts.h"
#include "common/artifacts.h"
#include "common/vocabulary.h"

namespace gpuf {

namespace {

struct Token {
  enum Kind { kWord, kString, kSymbol } kind;
  std::string text;  // a word as written, a string unquoted, a symbol
  size_t offset;
};

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::vector<Token> Tokenize(std::string_view sql) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < sql.size()) {
    char c = sql[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (sql.substr(i, 2) == "--") {
      i = sql.find('\n', i);
      if (i == std::string_view::npos) break;
    } else if (sql.substr(i, 2) == "/*") {
      i = sql.find("*/", i + 2);
      if (i == std::string_view::npos) break;
      i += 2;
    } else if (c == '\'' || c == '"') {
      size_t start = i++;
      std::string text;
      while (i < sql.size()) {
        if (sql[i] == c && i + 1 < sql.size() && sql[i + 1] == c) {
          text += c;
          i += 2;
        } else if (sql[i] == c) {
          ++i;
          break;
        } else {
          text += sql[i++];
        }
      }
      // A double-quoted text is an identifier in SQL.
      tokens.push_back({c == '\'' ? Token::kString : Token::kWord, text, start});
    } else if (IsWordChar(c)) {
      size_t start = i;
      while (i < sql.size() && IsWordChar(sql[i])) ++i;
      tokens.push_back({Token::kWord, std::string(sql.substr(start, i - start)), start});
    } else {
      size_t n = 1;
      for (std::string_view two : {"<>", "!=", "==", "<=", ">=", "||"}) {
        if (sql.substr(i, 2) == two) n = 2;
      }
      tokens.push_back({Token::kSymbol, std::string(sql.substr(i, n)), i});
      i += n;
    }
  }
  return tokens;
}

// What a column's values must be one of.
struct Vocabulary {
  std::string_view what;  // "milestone"
  bool (*known)(std::string_view word);
  std::vector<std::string_view> (*names)();
};

template <typename E>
bool KnownWord(std::string_view word) {
  return Parse<E>(word).has_value();
}

template <typename E>
std::vector<std::string_view> WordNames() {
  auto names = Names<E>();
  return {names.begin(), names.end()};
}

bool KnownArtifactName(std::string_view word) { return FindArtifact(word) != nullptr; }

std::vector<std::string_view> ArtifactNameList() {
  std::vector<std::string_view> names;
  for (const auto& row : ArtifactTable()) names.push_back(row.name);
  return names;
}

struct VocabularyColumn {
  std::string_view table;
  std::string_view column;
  Vocabulary vocabulary;
};

const VocabularyColumn kColumns[] = {
    {"artifacts", "status", {"probe status", KnownWord<ProbeStatus>, WordNames<ProbeStatus>}},
    {"artifacts", "skip_reason", {"skip reason", KnownWord<SkipReason>, WordNames<SkipReason>}},
    {"artifacts", "name", {"artifact", KnownArtifactName, ArtifactNameList}},
    {"events", "milestone", {"milestone", KnownWord<Milestone>, WordNames<Milestone>}},
    {"findings", "severity", {"severity", KnownWord<Severity>, WordNames<Severity>}},
    {"findings", "confidence", {"confidence", KnownWord<Confidence>, WordNames<Confidence>}},
    {"rule_runs", "outcome", {"rule outcome", KnownWord<RuleOutcome>, WordNames<RuleOutcome>}},
};

const VocabularyColumn* FindColumn(std::string_view table, std::string_view column) {
  for (const auto& c : kColumns) {
    if (c.table == table && c.column == column) return &c;
  }
  return nullptr;
}

bool IsClauseWord(const std::string& upper) {
  for (std::string_view w : {"WHERE", "ON", "JOIN", "LEFT", "INNER", "CROSS", "NATURAL", "USING", "GROUP", "ORDER",
                             "LIMIT", "UNION", "EXCEPT", "INTERSECT", "HAVING", "WINDOW", "AS", "OUTER", "FULL",
                             "RIGHT", "SELECT", "WITH", "INDEXED", "NOT"}) {
    if (upper == w) return true;
  }
  return false;
}

class WordChecker {
 public:
  WordChecker(std::string_view sql, const SchemaColumns& schema) : tokens_(Tokenize(sql)), schema_(schema) {}

  std::vector<SqlWordProblem> Run() {
    FindTables();
    for (size_t i = 0; i < tokens_.size(); ++i) CheckComparison(i);
    return problems_;
  }

 private:
  bool Is(size_t i, std::string_view upper) const {
    return i < tokens_.size() && tokens_[i].kind != Token::kString && Upper(tokens_[i].text) == upper;
  }
  bool IsWord(size_t i) const { return i < tokens_.size() && tokens_[i].kind == Token::kWord; }
  bool IsString(size_t i) const { return i < tokens_.size() && tokens_[i].kind == Token::kString; }

  // FROM t [AS] a, u [AS] b ... and JOIN t [AS] a.
  void FindTables() {
    for (size_t i = 0; i < tokens_.size(); ++i) {
      if (!Is(i, "FROM") && !Is(i, "JOIN")) continue;
      size_t j = i + 1;
      while (IsWord(j) && schema_.count(tokens_[j].text)) {
        const std::string& table = tokens_[j].text;
        tables_.insert(table);
        aliases_[table].insert(table);
        ++j;
        if (Is(j, "AS")) ++j;
        if (IsWord(j) && !IsClauseWord(Upper(tokens_[j].text))) aliases_[tokens_[j++].text].insert(table);
        if (!Is(j, ",")) break;
        ++j;
      }
    }
  }

  // The vocabulary of the column at token i (qualified or not), or nullptr;
  // *next is the token after the column.
  const VocabularyColumn* ColumnAt(size_t i, size_t* next) const {
    if (!IsWord(i) || (i > 0 && tokens_[i - 1].text == ".")) return nullptr;
    std::set<std::string> tables;
    std::string column;
    if (i + 2 < tokens_.size() && tokens_[i + 1].text == "." && IsWord(i + 2)) {
      auto it = aliases_.find(tokens_[i].text);
      if (it == aliases_.end()) return nullptr;
      tables = it->second;
      column = tokens_[i + 2].text;
      *next = i + 3;
    } else {
      column = tokens_[i].text;
      for (const auto& t : tables_) {
        if (schema_.at(t).count(column)) tables.insert(t);
      }
      *next = i + 1;
    }
    const VocabularyColumn* found = nullptr;
    for (const auto& t : tables) {
      const VocabularyColumn* c = FindColumn(t, column);
      if (!c || (found && found != c)) return nullptr;
      found = c;
    }
    return found;
  }

  void CheckComparison(size_t i) {
    size_t k = 0;
    const VocabularyColumn* c = ColumnAt(i, &k);
    if (!c) return;
    if (k < tokens_.size() && tokens_[k].kind == Token::kSymbol) {
      const std::string& op = tokens_[k].text;
      if ((op == "=" || op == "==" || op == "<>" || op == "!=") && IsString(k + 1)) Check(*c, k + 1);
      return;
    }
    if (Is(k, "IS")) {
      size_t w = Is(k + 1, "NOT") ? k + 2 : k + 1;
      if (IsString(w)) Check(*c, w);
      return;
    }
    size_t in = Is(k, "NOT") ? k + 1 : k;
    if (!Is(in, "IN") || in + 1 >= tokens_.size() || tokens_[in + 1].text != "(") return;
    for (size_t w = in + 2; IsString(w); w += 2) {
      Check(*c, w);
      if (w + 1 >= tokens_.size() || tokens_[w + 1].text != ",") break;
    }
  }

  void Check(const VocabularyColumn& c, size_t word) {
    const Token& t = tokens_[word];
    if (c.vocabulary.known(t.text)) return;
    auto names = c.vocabulary.names();
    problems_.push_back({t.offset, "unknown " + std::string(c.vocabulary.what) + " '" + t.text + "' (" +
                                       std::string(c.table) + "." + std::string(c.column) + ")" +
                                       DidYouMean(t.text, names)});
  }

  std::vector<Token> tokens_;
  const SchemaColumns& schema_;
  std::set<std::string> tables_;
  std::map<std::string, std::set<std::string>> aliases_;
  std::vector<SqlWordProblem> problems_;
};

}  // namespace

std::vector<SqlWordProblem> CheckSqlWords(std::string_view sql, const SchemaColumns& schema) {
  return WordChecker(sql, schema).Run();
}

}  // namespace gpuf
