// The classes of sensitive data a redacted bundle hides, as a table.
//
// A class is what an operator turns on or off (`--redact-classes`) and what
// the redaction report counts. A family is one kind of original inside a
// class with its own pseudonym shape: the k8s_name class holds namespaces
// (ns-0001) and pod names (pod-0001). Secrets are replaced by "<redacted>",
// never by a pseudonym: nothing needs to line up across artifacts there.
#ifndef GPUF_COLLECTOR_REDACT_REDACT_CLASS_H_
#define GPUF_COLLECTOR_REDACT_REDACT_CLASS_H_

#include <set>
#include <span>
#include <string>
#include <string_view>

#include "common/status.h"

namespace gpuf {

struct RedactClassInfo {
  std::string_view name;       // "hostname", as in --redact-classes and the manifest
  bool default_on;             // applied unless the operator turns it off
  std::string_view what;       // one line for --help and docs
};

std::span<const RedactClassInfo> RedactClasses();

enum class Family {
  kHostname, kMachineId, kIpv4, kIpv6, kMac, kUsername, kCloudId,
  kNamespace, kPod, kGpuUuid, kGpuSerial, kKeyword,
};

struct FamilyInfo {
  Family family;
  std::string_view name;       // key in the map file
  std::string_view class_name; // the class it belongs to
};

std::span<const FamilyInfo> Families();
const FamilyInfo& InfoOf(Family family);
// Fails with NotFound for a name that is not in the table.
Result<Family> FamilyNamed(std::string_view name);

// The pseudonym for the `index`-th (1-based) original of a family. `original`
// gives the shape where the family keeps it (MIG- vs GPU- uuids, serial length).
std::string MakePseudonym(Family family, int index, std::string_view original);

// The default classes plus "+name" additions and "-name" removals from a
// comma list ("+k8s_name,-username"); a bare list without signs replaces the
// defaults. Fails with InvalidArgument naming an unknown class.
Result<std::set<std::string>> ChooseClasses(std::string_view spec);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_REDACT_REDACT_CLASS_H_
