#include "collector/redact/redact_class.h"

#include <cstdio>

namespace gpuf {

namespace {

constexpr RedactClassInfo kClasses[] = {
    {"secret", true,
     "private keys, Bearer and Basic credentials, API keys, JWTs (signed or not), cloud access keys, URL passwords, "
     "secret key=value pairs and --flag values, environment values outside the GPU stack's settings"},
    {"hostname", true, "host and node names (learned from the manifest, hostname, journal, klog node=, the Node)"},
    {"machine_id", true, "/etc/machine-id and the journal's _MACHINE_ID"},
    {"ipv4", true, "IPv4 addresses except loopback, 0.0.0.0, broadcast, link-local metadata and documentation ranges"},
    {"ipv6", true, "IPv6 addresses except ::, ::1 and 2001:db8::/32"},
    {"mac", true, "MAC addresses except all-zero and broadcast"},
    {"username", true, "user names (learned from /home/NAME, USER=, 'for user NAME', sudo lines)"},
    {"cloud_id", true, "cloud instance, account and subscription ids, the Node's providerID"},
    {"k8s_name", false, "Kubernetes namespaces and pod names (system namespaces and device-plugin pods are kept)"},
    {"gpu_id", false, "GPU and MIG UUIDs and GPU serial numbers (consistent, so Xids still match GPUs)"},
    {"keyword", true, "--redact-keyword words and --redact-pattern RE2 patterns"},
};

constexpr FamilyInfo kFamilies[] = {
    {Family::kHostname, "hostname", "hostname"},   {Family::kMachineId, "machine_id", "machine_id"},
    {Family::kIpv4, "ipv4", "ipv4"},               {Family::kIpv6, "ipv6", "ipv6"},
    {Family::kMac, "mac", "mac"},                  {Family::kUsername, "username", "username"},
    {Family::kCloudId, "cloud_id", "cloud_id"},    {Family::kNamespace, "namespace", "k8s_name"},
    {Family::kPod, "pod", "k8s_name"},             {Family::kGpuUuid, "gpu_uuid", "gpu_id"},
    {Family::kGpuSerial, "gpu_serial", "gpu_id"},  {Family::kKeyword, "keyword", "keyword"},
};

std::string Printf(const char* format, long a, long b = 0, long c = 0) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, a, b, c);
  return buf;
}

// 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 (RFC 5737), then the
// benchmarking range 198.18.0.0/15 (RFC 2544) when a case has more addresses.
std::string Ipv4Pseudonym(int index) {
  if (index <= 254) return Printf("192.0.2.%ld", index);
  if (index <= 508) return Printf("198.51.100.%ld", index - 254);
  if (index <= 762) return Printf("203.0.113.%ld", index - 508);
  long offset = index - 762;
  return Printf("198.%ld.%ld.%ld", 18 + offset / 65536 % 2, offset / 256 % 256, offset % 256);
}

std::string DigitsLike(int index, std::string_view original) {
  std::string digits = std::to_string(index);
  size_t width = std::max<size_t>(original.size(), digits.size() + 1);
  return "9" + std::string(width - digits.size() - 1, '0') + digits;
}

}  // namespace

std::span<const RedactClassInfo> RedactClasses() { return kClasses; }
std::span<const FamilyInfo> Families() { return kFamilies; }

const FamilyInfo& InfoOf(Family family) {
  for (const auto& f : kFamilies) {
    if (f.family == family) return f;
  }
  return kFamilies[0];
}

Result<Family> FamilyNamed(std::string_view name) {
  for (const auto& f : kFamilies) {
    if (f.name == name) return f.family;
  }
  return Status::NotFound("unknown pseudonym family '" + std::string(name) + "'");
}

std::string MakePseudonym(Family family, int index, std::string_view original) {
  switch (family) {
    case Family::kHostname: return Printf("node-%04ld", index);
    case Family::kMachineId: return Printf("00000000000040008000%012lx", index);
    case Family::kIpv4: return Ipv4Pseudonym(index);
    case Family::kIpv6: return Printf("2001:db8::%lx", index);
    case Family::kMac: return Printf("02:00:00:%02lx:%02lx:%02lx", index >> 16 & 0xff, index >> 8 & 0xff, index & 0xff);
    case Family::kUsername: return Printf("user-%04ld", index);
    case Family::kCloudId: return Printf("cloud-%04ld", index);
    case Family::kNamespace: return Printf("ns-%04ld", index);
    case Family::kPod: return Printf("pod-%04ld", index);
    case Family::kGpuUuid: {
      std::string prefix = original.substr(0, 4) == "MIG-" ? "MIG-" : "GPU-";
      return prefix + Printf("00000000-0000-4000-8000-%012lx", index);
    }
    case Family::kGpuSerial: return DigitsLike(index, original);
    case Family::kKeyword: return Printf("redacted-%04ld", index);
  }
  return "redacted";
}

Result<std::set<std::string>> ChooseClasses(std::string_view spec) {
  std::set<std::string> chosen;
  for (const auto& c : kClasses) {
    if (c.default_on) chosen.insert(std::string(c.name));
  }
  bool replaced = false;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t comma = spec.find(',', start);
    std::string_view item = spec.substr(start, comma == std::string_view::npos ? spec.npos : comma - start);
    start = comma == std::string_view::npos ? spec.size() + 1 : comma + 1;
    if (item.empty()) continue;
    char sign = item[0];
    std::string_view name = (sign == '+' || sign == '-') ? item.substr(1) : item;
    bool known = false;
    for (const auto& c : kClasses) known = known || c.name == name;
    if (!known) {
      std::string names;
      for (const auto& c : kClasses) names += (names.empty() ? "" : ", ") + std::string(c.name);
      return Status::InvalidArgument("--redact-classes: unknown class '" + std::string(name) + "'",
                                     "known: " + names);
    }
    if (sign == '-') {
      chosen.erase(std::string(name));
    } else {
      if (sign != '+' && !replaced) {
        chosen.clear();
        replaced = true;
      }
      chosen.insert(std::string(name));
    }
  }
  return chosen;
}

}  // namespace gpuf
