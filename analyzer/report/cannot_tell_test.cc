#include "analyzer/report/cannot_tell.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("cannot_tell") {

TEST_CASE("ComputeCannotTell: captures by the checks they decide, what would confirm a finding first") {
  std::vector<RuleRun> runs = {
      {"xid-79-fallen-off-bus", RuleOutcome::kSkipped,
       "missing: journal.kernel (not collected) or plugin.log (not collected) or plugin.crictl_logs (not collected)", 0},
      {"xid-48-dbe", RuleOutcome::kSkipped,
       "missing: journal.kernel (not collected) or plugin.log (not collected) or plugin.crictl_logs (not collected)", 0},
      {"pci-nvml-gpu-count-mismatch", RuleOutcome::kSkipped,
       "missing: pci.nvidia_functions (not collected); host.nvidia_smi_list (timed_out)", 0},
      {"runtimeclass-handler-missing", RuleOutcome::kFail, "Sandboxes fail", 0},
  };
  Finding f;
  f.rule_id = "runtimeclass-handler-missing";
  f.missing_evidence = {"not available: config.containerd (not collected) or runtime.crictl_info (not collected)",
                        "containerd's configuration (config.toml, crictl info) was not captured"};
  std::vector<CannotTell> c = ComputeCannotTell(runs, {f});
  REQUIRE(c.size() == 4);
  CHECK(c[0].captures == std::vector<std::string>{"config.containerd", "runtime.crictl_info"});
  CHECK(c[0].would_confirm == std::vector<std::string>{"runtimeclass-handler-missing"});
  CHECK(c[0].command == "containerd config dump");
  CHECK(c[1].captures == std::vector<std::string>{"journal.kernel", "plugin.log", "plugin.crictl_logs"});
  CHECK(c[1].rules == std::vector<std::string>{"xid-79-fallen-off-bus", "xid-48-dbe"});
  CHECK(c[1].command == "journalctl -k -b --no-pager (or dmesg -T)");
  // Two requirements of one rule are two captures.
  CHECK(c[2].captures == std::vector<std::string>{"host.nvidia_smi_list"});
  CHECK(c[3].captures == std::vector<std::string>{"pci.nvidia_functions"});
  CHECK(c[3].command == "lspci -nn -d 10de:");
}

TEST_CASE("ComputeCannotTell: a rule left undecided by a log cut short or never captured names what decides it") {
  std::vector<RuleRun> runs = {
      {"runtime-not-nvidia", RuleOutcome::kUnknown,
       "undecided: plugin.log whole (it ends inside the plugin's config dump, before NVML was loaded: cut short) or "
       "plugin.crictl_logs; journal.kubelet whole (journald: Suppressed 12 messages from kubelet.service) not "
       "captured, and it decides whether 'lib_missing and not default_nvidia' holds",
       0},
  };
  std::vector<CannotTell> c = ComputeCannotTell(runs, {});
  REQUIRE(c.size() == 2);
  CHECK(c[0].captures == std::vector<std::string>{"journal.kubelet"});
  CHECK(c[1].captures == std::vector<std::string>{"plugin.log", "plugin.crictl_logs"});
  CHECK(c[1].rules == std::vector<std::string>{"runtime-not-nvidia"});
}

}  // TEST_SUITE

}  // namespace gpuf
