// What a line of any input can say happened, as a kind with fields: the
// words the message catalogue (messages/, formats/message_catalogue.h)
// turns lines into and rules ask for with `message: KIND`. A kind is
// defined here, once; an entry or a rule naming another is refused by
// `rules lint`.
#ifndef GPUF_COMMON_EVENT_KINDS_H_
#define GPUF_COMMON_EVENT_KINDS_H_

#include <span>
#include <string_view>
#include <vector>

namespace gpuf {

// What shows that an event of a kind no longer held at capture.
enum class UndoneBy {
  kNothing,
  kGpuListed,          // the host's NVML lists the event's GPU at capture: it is back and initialised
  kLaterRegistration,  // the device plugin registered after it: a later start got past it
  kUnitStartedAgain,   // systemd started the event's unit again later in the same boot
};

struct EventKindRow {
  std::string_view name{};         // snake_case, what rules write after `message:`
  std::string_view fields{};       // the fields an entry may capture or set, space separated
  std::string_view description{};  // one line, for people
  UndoneBy undone_by = UndoneBy::kNothing;
  // Only events whose field has this value are undone (an Xid 79, not
  // every Xid); "" for every event of the kind.
  std::string_view undone_only_if_field{};
  std::string_view undone_only_if_value{};
  // For kUnitStartedAgain: the unit of an event that names none (the fabric
  // manager's refusal to start is nvidia-fabricmanager.service's).
  std::string_view unit{};
  // The journal's own classification of an entry (journal_entries.event,
  // formats/journal_event.h) that is an event of this kind, space separated;
  // the entry's subject (the unit, the resource) is the kind's first field.
  // systemd's start lines name the unit only in a field of the entry, so
  // these kinds are read from the classified journal, not from wordings.
  std::string_view journal_events{};
};

// In name order.
std::span<const EventKindRow> EventKinds();

// The row named `name`; nullptr when no kind has that name.
const EventKindRow* FindEventKind(std::string_view name);

// The words of one of the row's space-separated lists (fields, journal_events).
std::vector<std::string_view> ListWords(std::string_view list);

// `field` is one of the row's fields.
bool KindHasField(const EventKindRow& kind, std::string_view field);

// The first of the row's fields ("" when it has none): what a journal
// entry's subject is, for the kinds read from the journal.
std::string_view FirstField(const EventKindRow& kind);

}  // namespace gpuf

#endif  // GPUF_COMMON_EVENT_KINDS_H_
