#include "formats/message_catalogue.h"

#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <optional>

#include "common/event_kinds.h"
#include "common/file_io.h"
#include "formats/embedded_yaml.h"
#include "formats/pattern_options.h"
#include "formats/yaml_reader.h"

namespace gpuf {

namespace {

constexpr int64_t kMaxMessageFileBytes = 1 << 20;

// The entry's event is on the line: its pattern matches, its unless (null
// for none) does not.
bool Says(const RE2& pattern, const RE2* unless, std::string_view line) {
  return RE2::PartialMatch(line, pattern) && !(unless && RE2::PartialMatch(line, *unless));
}

bool Taken(const MessageCatalogue& catalogue, const std::string& id) {
  return std::any_of(catalogue.entries.begin(), catalogue.entries.end(),
                     [&](const MessageEntry& e) { return e.id == id; });
}

class EntryReader {
 public:
  EntryReader(YamlReader& reader, const MessageCatalogue& catalogue) : reader_(reader), catalogue_(catalogue) {}

  bool Read(const YAML::Node& item, MessageEntry& e) {
    if (!reader_.Fields(item, "a catalogue entry",
                        {"id", "event", "set", "pattern", "unless", "versions", "source", "example", "lookalike",
                         "note"},
                        {"id", "event", "pattern", "versions", "source", "example", "lookalike"}) ||
        !reader_.Scalar(item["id"], "id", &e.id) || !reader_.Scalar(item["event"], "event", &e.event) ||
        !reader_.Scalar(item["pattern"], "pattern", &e.pattern) ||
        !reader_.Scalar(item["versions"], "versions", &e.versions) ||
        !reader_.Scalar(item["source"], "source", &e.source) ||
        !reader_.Scalar(item["example"], "example", &e.example) ||
        !reader_.Scalar(item["lookalike"], "lookalike", &e.lookalike)) {
      return false;
    }
    if (item["note"] && !reader_.Scalar(item["note"], "note", &e.note)) return false;
    if (item["unless"] && !reader_.Scalar(item["unless"], "unless", &e.unless)) return false;
    e.line = YamlReader::MarkOf(item["id"]).line + 1;
    if (!IsKebab(e.id)) return reader_.Error(item["id"], "id '" + e.id + "' is not kebab-case (a-z, 0-9, '-')");
    if (Taken(catalogue_, e.id)) return reader_.Error(item["id"], "id '" + e.id + "' is already in the catalogue");
    if (e.source.rfind("https://", 0) != 0) return reader_.Error(item["source"], "source must be an https:// URL");
    const EventKindRow* kind = FindEventKind(e.event);
    if (!kind) return reader_.Error(item["event"], "unknown event kind '" + e.event + "' (common/event_kinds.cc)");
    return ReadSet(item["set"], *kind, e) && CheckPattern(item, *kind, e);
  }

 private:
  bool ReadSet(const YAML::Node& node, const EventKindRow& kind, MessageEntry& e) {
    if (!node) return true;
    if (!node.IsMap()) return reader_.Error(node, "set must be a map of field: value");
    for (const auto& pair : node) {
      std::string field, value;
      if (!reader_.Scalar(pair.first, "a field", &field) || !reader_.Scalar(pair.second, "a value", &value)) {
        return false;
      }
      if (!KindHasField(kind, field)) {
        return reader_.Error(pair.first, "'" + field + "' is not a field of " + e.event + " (" +
                                             std::string(kind.fields) + ")");
      }
      e.set.emplace_back(field, value);
    }
    return true;
  }

  bool CheckPattern(const YAML::Node& item, const EventKindRow& kind, const MessageEntry& e) {
    RE2 re(e.pattern, RulePatternOptions());
    if (!re.ok()) return reader_.Error(item["pattern"], "pattern does not compile: " + re.error());
    for (const auto& [name, index] : re.NamedCapturingGroups()) {
      if (!KindHasField(kind, name)) {
        return reader_.Error(item["pattern"], "capture '" + name + "' is not a field of " + e.event + " (" +
                                                  std::string(kind.fields) + ")");
      }
    }
    std::optional<RE2> unless;
    if (!e.unless.empty()) {
      unless.emplace(e.unless, RulePatternOptions());
      if (!unless->ok()) return reader_.Error(item["unless"], "unless does not compile: " + unless->error());
    }
    const RE2* exclude = unless ? &*unless : nullptr;
    if (!Says(re, exclude, e.example)) return reader_.Error(item["example"], "the pattern does not match it");
    if (Says(re, exclude, e.lookalike)) return reader_.Error(item["lookalike"], "the pattern matches it");
    return true;
  }

  YamlReader& reader_;
  const MessageCatalogue& catalogue_;
};

void ReadDocument(YamlReader& reader, const YAML::Node& doc, MessageCatalogue& catalogue) {
  std::string component;
  if (!reader.Fields(doc, "a catalogue file", {"component", "entries"}, {"component", "entries"}) ||
      !reader.Scalar(doc["component"], "component", &component)) {
    return;
  }
  const YAML::Node entries = doc["entries"];
  if (!entries.IsSequence()) {
    reader.Error(entries, "entries must be a list");
    return;
  }
  for (const auto& item : entries) {
    // Each entry on its own: one refused entry leaves the others in.
    YamlReader entry_reader(reader.file(), reader.text());
    MessageEntry e;
    e.file = reader.file();
    e.component = component;
    if (EntryReader(entry_reader, catalogue).Read(item, e)) {
      catalogue.entries.push_back(std::move(e));
    } else {
      catalogue.errors.push_back(entry_reader.status().message());
    }
  }
}

}  // namespace

bool EntrySays(const MessageEntry& entry, std::string_view line) {
  RE2 pattern(entry.pattern, RulePatternOptions());
  if (entry.unless.empty()) return Says(pattern, nullptr, line);
  RE2 unless(entry.unless, RulePatternOptions());
  return Says(pattern, &unless, line);
}

std::string AnyWordingOf(const MessageCatalogue& catalogue, std::string_view event) {
  // An alternation may not repeat a group's name: (?P<error>...) in two
  // wordings becomes (?:...). An escaped "\\(" is not a group.
  static const RE2 named_group(R"((^|[^\\])\(\?P?<[A-Za-z_][A-Za-z0-9_]*>)");
  std::string any;
  for (const MessageEntry* e : catalogue.Of(event, {})) {
    std::string plain = e->pattern;
    while (RE2::Replace(&plain, named_group, "\\1(?:")) {
    }
    any += (any.empty() ? "(?:" : "|(?:") + plain + ")";
  }
  return any;
}

std::vector<const MessageEntry*> MessageCatalogue::Of(std::string_view event, const FieldFilters& where) const {
  std::vector<const MessageEntry*> out;
  for (const auto& e : entries) {
    if (e.event != event) continue;
    bool all = std::all_of(where.begin(), where.end(), [&](const FieldFilter& filter) {
      // "None of these", "absent" and a pattern are decided on each line (KeepWhere),
      // once the line is the event of its first wording: a line a specific
      // entry says with a reason is not the generic one's without.
      if (filter.negated || filter.values.empty()) return true;
      for (const auto& [field, value] : e.set) {
        if (field == filter.field) return filter.Holds(value);
      }
      // Compared on each line it matches (KeepWhere).
      return e.pattern.find("(?P<" + filter.field + ">") != std::string::npos;
    });
    if (all) out.push_back(&e);
  }
  return out;
}

void ReadMessageFile(const std::string& file, std::string_view text, MessageCatalogue& catalogue) {
  YamlReader reader(file, text);
  try {
    ReadDocument(reader, YAML::Load(std::string(text)), catalogue);
  } catch (const YAML::Exception& e) {
    reader.ErrorAt({e.mark.line, e.mark.column}, e.msg);
  } catch (const std::exception& e) {
    reader.ErrorAt({0, 0}, e.what());
  }
  if (!reader.status().ok()) catalogue.errors.push_back(reader.status().message());
}

const MessageCatalogue& BuiltinMessages() {
  static const MessageCatalogue catalogue = [] {
    MessageCatalogue c;
    for (const auto& file : BuiltinMessageFiles()) ReadMessageFile("messages/" + std::string(file.name), file.text, c);
    return c;
  }();
  return catalogue;
}

namespace {

MessageCatalogue*& SiteCatalogue() {
  static MessageCatalogue* site = nullptr;
  return site;
}

}  // namespace

const MessageCatalogue& ActiveMessages() { return SiteCatalogue() ? *SiteCatalogue() : BuiltinMessages(); }

Status UseMessageFolders(const std::vector<std::string>& dirs) {
  if (dirs.empty()) return Status::Ok();
  GPUF_ASSIGN_OR_RETURN(MessageCatalogue loaded, LoadMessages(dirs));
  if (loaded.errors.size() > BuiltinMessages().errors.size()) {
    return Status::BadInput("a site wording is refused", loaded.errors[BuiltinMessages().errors.size()]);
  }
  static MessageCatalogue site;
  site = std::move(loaded);
  SiteCatalogue() = &site;
  return Status::Ok();
}

Result<MessageCatalogue> LoadMessages(const std::vector<std::string>& dirs) {
  MessageCatalogue catalogue = BuiltinMessages();
  for (const auto& dir : dirs) {
    auto files = ListFolder(dir, ".yaml");
    if (!files.ok()) return Status::NotFound("reading messages folder '" + dir + "'", files.status().message());
    for (const auto& path : *files) {
      auto text = ReadWholeFile(path, kMaxMessageFileBytes);
      if (!text.ok()) {
        catalogue.errors.push_back(path + ":1: " + text.status().message());
        continue;
      }
      ReadMessageFile(path, *text, catalogue);
    }
  }
  return catalogue;
}

}  // namespace gpuf
