// `systemctl status UNIT` as people paste it, to the `systemctl show`
// properties our systemd.units artifact holds (schema/bundle.md):
//   ● nvidia-persistenced.service - NVIDIA Persistence Daemon
//        Loaded: loaded (/usr/lib/systemd/system/nvidia-persistenced.service; enabled; preset: enabled)
//        Active: active (running) since Tue 2024-10-08 00:40:40 UTC; 1min 34s ago
// The bullet is ● or ×; keys are indented by 3 or 5 blanks (systemd
// versions); "since" carries a weekday in the host's locale. After the CGroup
// tree and a blank line comes the unit's journal tail, in short format.
//
// A failed `systemctl start` says the same in one line:
//   Job for nvidia-fabricmanager.service failed because the control process exited with error code.
#ifndef GPUF_IMPORTER_SYSTEMCTL_STATUS_H_
#define GPUF_IMPORTER_SYSTEMCTL_STATUS_H_

#include <string>
#include <string_view>

namespace gpuf {

struct ConvertedStatus {
  std::string show;          // Id=, Description=, LoadState=, UnitFileState=, ActiveState=, SubState=, Result=;
                             // a blank line between units
  std::string journal_tail;  // the lines after the status block, for the journal conversion
  std::string first_unit;    // the first unit's Id, "" when none
  int units = 0;
};

ConvertedStatus ConvertSystemctlStatus(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_SYSTEMCTL_STATUS_H_
