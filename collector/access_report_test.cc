#include "collector/access_report.h"

#include <doctest/doctest.h>

#include <map>

namespace gpuf {

namespace {

ProbeResult Probe(std::string name, std::string instance, std::string kind, std::string status,
                  std::string skip_reason = "", std::string error = "") {
  ProbeResult r;
  r.artifact.name = std::move(name);
  r.artifact.instance = std::move(instance);
  r.artifact.kind = std::move(kind);
  r.artifact.status = *Parse<ProbeStatus>(status);
  r.artifact.skip_reason = Parse<SkipReason>(skip_reason);
  r.artifact.error = std::move(error);
  return r;
}

}  // namespace

TEST_SUITE("access_report") {

TEST_CASE("RefusedProbes: files skipped as permission_denied and commands that say they were refused") {
  std::vector<ProbeResult> results = {
      Probe("kubelet.checkpoint", "", "file", "skipped", "permission_denied",
            "opening '/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint': Permission denied"),
      Probe("config.cdi", "", "file", "skipped", "not_found", "no file matches '/etc/cdi/*'"),
      Probe("journal.kubelet", "boot:0", "command", "ok"),
      Probe("journal.containerd", "boot:0", "command", "nonzero_exit"),
      Probe("runtime.crictl_ps", "", "command", "nonzero_exit"),
      Probe("host.uname", "", "command", "ok"),
  };
  // journalctl's words as a user outside the journal's groups; crictl's on a root-only socket.
  const std::string crictl_said =
      "time=\"2026-11-18T10:00:00Z\" level=fatal msg=\"validate service connection: validate CRI v1 runtime API for "
      "endpoint \\\"unix:///run/containerd/containerd.sock\\\": rpc error: code = Unavailable desc = connection error: "
      "desc = \\\"transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: permission "
      "denied\\\"\"";
  std::map<std::string, std::string> stderr_of = {
      {"journal.kubelet", "Hint: You are currently not seeing messages from other users and the system.\n"
                          "      Users in groups 'adm', 'systemd-journal' can see all messages.\n"
                          "      Pass -q to turn off this notice.\n"},
      {"journal.containerd", "No journal files were opened due to insufficient permissions.\n"},
      {"runtime.crictl_ps", crictl_said + "\r\n"},
  };
  auto read = [&](const ProbeResult& r, std::string_view stream) {
    return stream == "stderr" && stderr_of.count(r.artifact.name) ? stderr_of[r.artifact.name] : std::string();
  };
  auto lines = RefusedProbes(results, read);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] ==
        "kubelet.checkpoint: opening '/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint': Permission denied");
  CHECK(lines[1] == "journal.kubelet[boot:0]: Hint: You are currently not seeing messages from other users and the "
                    "system.");
  CHECK(lines[2] == "journal.containerd[boot:0]: No journal files were opened due to insufficient permissions.");
  CHECK(lines[3] == "runtime.crictl_ps: " + crictl_said);
}

}  // TEST_SUITE

}  // namespace gpuf
