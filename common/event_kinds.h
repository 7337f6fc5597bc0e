// What a line of any input can say happened, as a kind with fields: the
// words the message catalogue (messages/, formats/message_catalogue.h)
// turns lines into and rules ask for with `message: KIND`. A kind is
// defined here, once; an entry or a rule naming another is refused by
// `rules lint`.
#ifndef GPUF_COMMON_EVENT_KINDS_H_
#define GPUF_COMMON_EVENT_KINDS_H_

#include <span>
#include <string_view>

namespace gpuf {

// What shows that an event of a kind no longer held at capture.
enum class UndoneBy {
  kNothing,
  kGpuListed,          // the host's NVML lists the event's GPU at capture: it is back and initialised
  kLaterRegistration,  // the device plugin registered after it: a later start got past it
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
};

// In name order.
std::span<const EventKindRow> EventKinds();

// The row named `name`; nullptr when no kind has that name.
const EventKindRow* FindEventKind(std::string_view name);

// `field` is one of the row's fields.
bool KindHasField(const EventKindRow& kind, std::string_view field);

}  // namespace gpuf

#endif  // GPUF_COMMON_EVENT_KINDS_H_
