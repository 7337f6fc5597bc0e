// The message catalogue (messages/*.yaml, docs/inputs.md "Add a wording"):
// every known wording of the components in the GPU chain, each an entry
// that turns a line into an event of a kind of common/event_kinds.h, with
// the fields it captures or sets, the versions that print it, a cited
// source, a real line it must match and a look-alike it must not. Rules ask
// for an event with `message: KIND` (rules/README.md) and read every line
// of every input for it, whatever file the line came in.
//
// The built-in catalogue is compiled into the binary from messages/ at
// build time, as the rules are.
#ifndef GPUF_FORMATS_MESSAGE_CATALOGUE_H_
#define GPUF_FORMATS_MESSAGE_CATALOGUE_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "formats/field_filter.h"

namespace gpuf {

using FieldValues = std::vector<std::pair<std::string, std::string>>;

struct MessageEntry {
  std::string id;         // kebab-case, unique in the catalogue
  std::string file;       // "messages/nvml.yaml"; where it was read
  int line = 0;           // 1-based line of its `id`
  std::string component;  // the file's component
  std::string event;      // an EventKinds() name
  FieldValues set;        // fields the entry sets whatever the line says (reason: lib_mismatch)
  std::string pattern;    // RE2, partial match; named captures are fields of the event
  // RE2: a line the pattern matches that this matches too is not the
  // event (a look-alike RE2 cannot exclude in one pattern); "" for none.
  std::string unless;
  std::string versions;   // which versions print it
  std::string source;     // https:// URL of a thread or of the component's source at a tag
  std::string example;    // a real line it matches
  std::string lookalike;  // a real line of the same or a neighbouring component it must not match
  std::string note;       // what a rule must know of it, "" for nothing
};

struct MessageCatalogue {
  std::vector<MessageEntry> entries;
  std::vector<std::string> errors;  // whole "file:line: message" texts of files or entries refused

  // The entries of `event` that may pass every filter of `where`: a value
  // the entry sets, or a field it captures (each line decides); a filter of
  // none-of, absence or a pattern keeps every entry, each line deciding once its first
  // wording made it the event. In catalogue order.
  std::vector<const MessageEntry*> Of(std::string_view event, const FieldFilters& where) const;
};

// One RE2 that a line matches when some entry of `event` says it (each
// entry's pattern, its captures made plain groups; an entry's `unless` is
// not applied): for a rule's `not_also`, a line that is also another
// event. "" when no entry says `event`.
std::string AnyWordingOf(const MessageCatalogue& catalogue, std::string_view event);

// Whether `line` is the entry's event: its pattern matches and its
// `unless` does not. Compiles both on each call (for checks and tests; the
// scanner compiles them once).
bool EntrySays(const MessageEntry& entry, std::string_view line);

// Reads one catalogue file into `catalogue`: an entry is refused (an error,
// and left out) when a field is missing or unknown, its event kind or a
// field it sets or captures is not the kind's, its pattern does not compile,
// its example does not match, its look-alike does, or its id is taken.
void ReadMessageFile(const std::string& file, std::string_view text, MessageCatalogue& catalogue);

// The built-in catalogue, read once.
const MessageCatalogue& BuiltinMessages();

// The built-in catalogue and the *.yaml files of `dirs` (a site's wordings,
// --messages); fails with NotFound when a folder cannot be listed.
Result<MessageCatalogue> LoadMessages(const std::vector<std::string>& dirs);

// The catalogue rules are read against: the built-in one, or what
// UseMessageFolders made it. A program's option, like --rules: set once,
// before any rule is read, and read-only after.
const MessageCatalogue& ActiveMessages();

// Adds a site's folders to the active catalogue; fails with NotFound for a
// folder that cannot be listed and with BadInput naming the first entry
// refused ("site/x.yaml:4: ...").
Status UseMessageFolders(const std::vector<std::string>& dirs);

}  // namespace gpuf

#endif  // GPUF_FORMATS_MESSAGE_CATALOGUE_H_
