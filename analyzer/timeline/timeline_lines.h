// How each journal entry and each device-plugin log line is placed on the
// timeline, as SQL: one SELECT per source whose columns are those of the
// events table (schema/events.sql) less event_id, with :bundle to bind.
//
// The lines are not copied into events: BuildTimeline stores the few that
// mark a milestone (milestone IS NOT NULL), and reading the whole timeline
// merges the rest from these same queries. Both need the bundle's boot
// events stored first: a line is placed and given its boot through them.
#ifndef GPUF_ANALYZER_TIMELINE_TIMELINE_LINES_H_
#define GPUF_ANALYZER_TIMELINE_TIMELINE_LINES_H_

#include <string>
#include <string_view>

namespace gpuf {

struct JournalEntry;
struct JournalEvent;

// The columns both queries return, in order.
extern const std::string_view kTimelineLineColumns;

// Journal entries, once each: PID 1's lines about a unit are in both the
// systemd slice and the unit's own slice. `entries`, a condition on the
// journal_entries row `j`, leaves out early the entries a caller's own
// filter would drop (it must hold for every line that filter keeps): each
// line is placed through lookups that cost more than the test.
std::string JournalTimelineLines(std::string_view entries = "1");

// The journal entries that may mark a milestone (JournalTimelineLines's
// milestone column): those classified as one of these events, and the
// kernel lines of the NVIDIA driver. The condition on `j` and the test of
// an entry as the loader parsed it say the same thing: a load for the
// milestones alone stores only these.
extern const std::string_view kMilestoneJournalEvents[6];
std::string MayMarkMilestoneSql();
bool MayMarkMilestone(const JournalEntry& entry, const JournalEvent& event);

// Lines of the device plugin's logs that have a time.
extern const std::string_view kPluginTimelineLines;

}  // namespace gpuf

#endif  // GPUF_ANALYZER_TIMELINE_TIMELINE_LINES_H_
