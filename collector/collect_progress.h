// What a collection is doing, for a caller that shows it (collect on a
// terminal). The probes run in groups (probe_schedule.h), several groups
// and several probes of a group at once, so every call may come from any
// thread at any time; an implementation locks.
#ifndef GPUF_COLLECTOR_COLLECT_PROGRESS_H_
#define GPUF_COLLECTOR_COLLECT_PROGRESS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpuf {

class CollectProgress {
 public:
  virtual ~CollectProgress() = default;
  // A group of `probes` probes starts ("node files and logs").
  virtual void GroupStarted(std::string_view group, size_t probes) = 0;
  // One probe starts or ends; `probe` is its artifact name and instance ("journal.units[0]").
  virtual void ProbeStarted(std::string_view group, const std::string& probe) = 0;
  virtual void ProbeFinished(std::string_view group, const std::string& probe, int64_t duration_ns) = 0;
  // Every probe of the group has ended.
  virtual void GroupFinished(std::string_view group) = 0;
};

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_COLLECT_PROGRESS_H_
