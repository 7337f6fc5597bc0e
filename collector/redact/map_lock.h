// Redactions that share a map file (one support case, several bundles) must
// not run interleaved: each loads the map, adds pseudonyms and writes it back
// whole, so a second writer would drop the first one's new entries and leave
// a redacted bundle whose pseudonyms no map can trace back. A MapLock holds
// an exclusive flock on the map's directory, which exists before the map
// does and is not replaced by the map's rename; it is released on destruction.
#ifndef GPUF_COLLECTOR_REDACT_MAP_LOCK_H_
#define GPUF_COLLECTOR_REDACT_MAP_LOCK_H_

#include <string>

#include "common/status.h"

namespace gpuf {

class MapLock {
 public:
  // Waits while another redaction holds the lock. Fails with IoError when
  // the directory cannot be opened or locked.
  static Result<MapLock> Acquire(const std::string& map_path);

  MapLock(MapLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  MapLock& operator=(MapLock&& other) noexcept;
  MapLock(const MapLock&) = delete;
  MapLock& operator=(const MapLock&) = delete;
  ~MapLock();

 private:
  explicit MapLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_REDACT_MAP_LOCK_H_
