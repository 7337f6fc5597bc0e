#include "formats/kubelet_log.h"

#include <doctest/doctest.h>
#include <re2/re2.h>

#include <vector>

#include "common/text_lines.h"
#include "tests/fixtures.h"

namespace gpuf {

namespace {

using K = KubeletEventKind;
using S = SystemdEventKind;

// Strips the journal's short or short-monotonic prefix ("Jun 01 11:41:24 host
// kubelet[11402]: ", "[ 1180.107768] H systemd[1]: ", rsyslog's "systemd: ")
// and a klog header; the loader does this with the journal and klog parsers.
std::string StripHeaders(std::string_view line) {
  static const RE2 headers(
      R"(\s*(?:(?:\[\s*[\d.]+\] \S+|\w{3} [ \d]\d \d\d:\d\d:\d\d \S+) [^:\s\[]+(?:\[\d+\])?: )?)"
      R"((?:[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [^\]\s]+\] ?)?(.*))");
  std::string message;
  RE2::FullMatch(re2::StringPiece(line.data(), line.size()), headers, &message);
  return message;
}

std::vector<std::string> FixtureMessages(const char* name) {
  std::vector<std::string> out;
  std::string text = test::Fixture(name);
  ForEachLine(text, [&](int, std::string_view line) { out.push_back(StripHeaders(line)); });
  return out;
}

}  // namespace

TEST_SUITE("kubelet_log") {

TEST_CASE("ClassifyKubeletMessage: unstructured registration among other kubelet lines") {
  auto m = FixtureMessages(
      "formats/kubelet-klog_device-plugin-registration-unstructured_k8s-device-plugin-178.txt");
  REQUIRE(m.size() == 9);
  for (size_t i = 0; i < m.size(); ++i) {
    CAPTURE(m[i]);
    KubeletEvent e = ClassifyKubeletMessage(m[i]);
    if (i == 6) {
      CHECK(e.kind == K::kRegistrationRequest);
      CHECK(e.resource == "nvidia.com/gpu");
    } else {
      CHECK(e.kind == K::kUnknown);
    }
  }
}

TEST_CASE("ClassifyKubeletMessage: unstructured registration and listAndWatch failure") {
  auto m = FixtureMessages("formats/kubelet-klog_device-plugin-registration-unstructured_nsm-101.txt");
  REQUIRE(m.size() == 2);
  KubeletEvent reg = ClassifyKubeletMessage(m[0]);
  CHECK(reg.kind == K::kRegistrationRequest);
  CHECK(reg.resource == "nsm.ligato.io/socket");
  KubeletEvent law = ClassifyKubeletMessage(m[1]);
  CHECK(law.kind == K::kListAndWatchEnded);
  CHECK(law.resource == "nsm.ligato.io/socket");
  CHECK(law.error == "EOF");
}

TEST_CASE("ClassifyKubeletMessage: structured registration and dial failure") {
  auto m = FixtureMessages(
      "formats/kubelet-klog_device-plugin-registration-structured_kubevirt-gpu-dp-55.txt");
  REQUIRE(m.size() == 2);
  KubeletEvent reg = ClassifyKubeletMessage(m[0]);
  CHECK(reg.kind == K::kRegistrationRequest);
  CHECK(reg.resource == "nvidia.com/***");
  KubeletEvent dial = ClassifyKubeletMessage(m[1]);
  CHECK(dial.kind == K::kPluginConnectFailed);
  CHECK(dial.error == "failed to dial device plugin: context deadline exceeded");
  CHECK(dial.path == "/var/lib/kubelet/device-plugins/kubevirt-***.sock");
}

TEST_CASE("ClassifyKubeletMessage: kubelet 1.31 registration, connection and capacity") {
  auto m = FixtureMessages(
      "formats/kubelet-klog_v1.31-registration-and-allocation_ihcsim-kubelet-plugin.txt");
  REQUIRE(m.size() == 16);
  KubeletEvent reg = ClassifyKubeletMessage(m[0]);
  CHECK(reg.kind == K::kRegistrationRequest);
  CHECK(reg.resource == "github.com.ihcsim/crand");
  KubeletEvent client = ClassifyKubeletMessage(m[1]);
  CHECK(client.kind == K::kRegisteredClient);
  CHECK(client.resource == "github.com.ihcsim/crand");
  KubeletEvent connected = ClassifyKubeletMessage(m[2]);
  CHECK(connected.kind == K::kPluginConnected);
  CHECK(connected.resource == "github.com.ihcsim/crand");
  CHECK(ClassifyKubeletMessage(m[3]).kind == K::kUnknown);  // "# ..." elision
  KubeletEvent capacity = ClassifyKubeletMessage(m[4]);
  CHECK(capacity.kind == K::kCapacityUpdated);
  CHECK(capacity.resource == "github.com.ihcsim/crand");
  CHECK(capacity.detail == "3");
  CHECK(ClassifyKubeletMessage(m[5]).resource == "github.com.ihcsim/kvm");
  for (size_t i = 8; i < m.size(); ++i) {
    CAPTURE(m[i]);
    CHECK(ClassifyKubeletMessage(m[i]).kind == K::kUnknown);  // allocation steps are not events here
  }
}

TEST_CASE("ClassifyKubeletMessage: the kubelet's first lines name its version, and a start") {
  KubeletEvent e = ClassifyKubeletMessage(R"("Kubelet version" kubeletVersion="v1.30.5+rke2r1")");
  CHECK(e.kind == K::kKubeletStarting);
  CHECK(e.detail == "v1.30.5+rke2r1");
  CHECK(std::string(KubeletEventKindName(e.kind)) == "kubelet_starting");
}

TEST_CASE("ClassifyKubeletMessage: lines about other things stay unknown") {
  for (const std::string& m :
       FixtureMessages("formats/kubelet-klog_structured-in-journal_ansible-role-kubernetes-125.txt")) {
    CAPTURE(m);
    CHECK(ClassifyKubeletMessage(m).kind == K::kUnknown);
  }
}

TEST_CASE("ClassifyKubeletMessage: structured ListAndWatch end and new-client failure") {
  // Real line: a kubelet journal quoted in a public issue (resource of an SR-IOV plugin).
  KubeletEvent e = ClassifyKubeletMessage(
      R"("ListAndWatch ended unexpectedly for device plugin" err="rpc error: code = Unavailable desc = error reading from server: EOF" resource="supcon.com/io_bandwidth_sriov_net_A")");
  CHECK(e.kind == K::kListAndWatchEnded);
  CHECK(e.resource == "supcon.com/io_bandwidth_sriov_net_A");
  CHECK(e.error == "rpc error: code = Unavailable desc = error reading from server: EOF");
  KubeletEvent fresh = ClassifyKubeletMessage(
      R"("Failed to connect to new client" err="failed to dial device plugin: context deadline exceeded" resource="nvidia.com/gpu")");
  CHECK(fresh.kind == K::kPluginConnectFailed);
  CHECK(fresh.resource == "nvidia.com/gpu");
  CHECK(fresh.path.empty());
}

TEST_CASE("ClassifyKubeletMessage: kubelet --logging-format=json lines") {
  KubeletEvent reg = ClassifyKubeletMessage(
      R"({"ts":1580306777.04728,"caller":"devicemanager/plugin/v1beta1/server.go:144","msg":"Got registration request from device plugin with resource","v":0,"resourceName":"nvidia.com/gpu"})");
  CHECK(reg.kind == K::kRegistrationRequest);
  CHECK(reg.resource == "nvidia.com/gpu");
  KubeletEvent ended = ClassifyKubeletMessage(
      R"({"ts":1580306777.1,"msg":"ListAndWatch ended unexpectedly for device plugin","v":0,"err":"rpc error: code = Unavailable desc = \"EOF\"","resource":"nvidia.com/gpu"})");
  CHECK(ended.kind == K::kListAndWatchEnded);
  CHECK(ended.resource == "nvidia.com/gpu");
  CHECK(ended.error == R"(rpc error: code = Unavailable desc = \"EOF\")");
  CHECK(StructuredFromJson(R"({"ts":1.5,"msg":"Zero out resource capacity in existing node","v":0,"resourceName":"nvidia.com/gpu","node":"gpu-1"})") ==
        R"("Zero out resource capacity in existing node" node="gpu-1" resourceName="nvidia.com/gpu")");
  CHECK(ClassifyKubeletMessage(R"({"ts":1.5,"msg":"Syncing iptables rules","v":2})").kind == K::kUnknown);
  CHECK_FALSE(StructuredFromJson(R"({"level":"info"})"));
  // Nested values are left out: printing one recurses a level at a time.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  CHECK(StructuredFromJson(R"({"msg":"Zero out resource capacity in existing node","a":)" + deep +
                           R"(,"resourceName":"nvidia.com/gpu"})") ==
        R"("Zero out resource capacity in existing node" resourceName="nvidia.com/gpu")");
  CHECK_FALSE(StructuredFromJson("{not json"));
}

TEST_CASE("ClassifyKubeletMessage: capacity zeroed when the checkpoint was missing") {
  KubeletEvent structured = ClassifyKubeletMessage(
      R"("Zero out resource capacity in existing node" resourceName="nvidia.com/gpu" node="gpu-node-1")");
  CHECK(structured.kind == K::kZeroOutCapacity);
  CHECK(structured.resource == "nvidia.com/gpu");
  CHECK(structured.node == "gpu-node-1");
  KubeletEvent printf_style =
      ClassifyKubeletMessage("Zero out resource nvidia.com/gpu capacity in existing node.");
  CHECK(printf_style.kind == K::kZeroOutCapacity);
  CHECK(printf_style.resource == "nvidia.com/gpu");
}

TEST_CASE("ClassifyKubeletMessage: checkpoint missing or corrupted, in each wording") {
  // Real lines: kubelet journals in public issues, both key orders.
  for (const char* line :
       {R"("Failed to read data from checkpoint" checkpoint="kubelet_internal_checkpoint" err="checkpoint is not found")",
        R"("Failed to read data from checkpoint" err="checkpoint is not found" checkpoint="kubelet_internal_checkpoint")",
        R"(Failed to retrieve checkpoint for "kubelet_internal_checkpoint": checkpoint is not found)"}) {
    CAPTURE(line);
    KubeletEvent e = ClassifyKubeletMessage(line);
    CHECK(e.kind == K::kCheckpointNotFound);
    CHECK(e.detail == "kubelet_internal_checkpoint");
    CHECK(e.error == "checkpoint is not found");
  }
  for (const char* line :
       {R"("Continue after failing to read checkpoint file. Device allocation info may NOT be up-to-date" err="checkpoint is corrupted")",
        "Continue after failing to read checkpoint file. Device allocation info may NOT be up-to-date. "
        "Err: checkpoint is corrupted"}) {
    CAPTURE(line);
    KubeletEvent e = ClassifyKubeletMessage(line);
    CHECK(e.kind == K::kCheckpointCorrupted);
    CHECK(e.error == "checkpoint is corrupted");
  }
  KubeletEvent other = ClassifyKubeletMessage(
      R"("Continue after failing to read checkpoint file. Device allocation info may NOT be up-to-date" err="open /var/lib/kubelet/device-plugins/kubelet_internal_checkpoint: permission denied")");
  CHECK(other.kind == K::kCheckpointReadFailed);
}

TEST_CASE("ClassifyKubeletMessage: UnexpectedAdmissionError with the device manager's reason") {
  KubeletEvent denied = ClassifyKubeletMessage(
      R"("Pod admission denied" podUID="8b5e7c6b-adf1-ce0c-1211-8bdb12ce9a8c" pod="default/cuda-job" reason="UnexpectedAdmissionError" message="Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected")");
  CHECK(denied.kind == K::kAdmissionError);
  CHECK(denied.pod == "default/cuda-job");
  CHECK(denied.resource == "nvidia.com/gpu");
  CHECK(denied.detail == "UnexpectedAdmissionError");
  CHECK(denied.error ==
        "requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0");
  KubeletEvent status = ClassifyKubeletMessage(
      "Pod was rejected: Allocate failed due to no healthy devices present; cannot allocate unhealthy "
      "devices nvidia.com/gpu, which is unexpected");
  CHECK(status.kind == K::kAdmissionError);
  CHECK(status.resource == "nvidia.com/gpu");
  CHECK(ClassifyKubeletMessage(
            R"("Pod admission denied" podUID="x" pod="kube-system/dns" reason="NodeShutdown" message="Pod was rejected as the node is shutting down.")")
            .kind == K::kUnknown);
}

TEST_CASE("ClassifyKubeletMessage: the admit handler's wording of the same refusal") {
  KubeletEvent e = ClassifyKubeletMessage(
      R"("Failed to admit pod" pod="ml/trainer-0" message="Update plugin resources failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected.")");
  CHECK(e.kind == K::kAdmissionError);
  CHECK(e.resource == "nvidia.com/gpu");
  CHECK(e.error == "requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0");
}

TEST_CASE("ClassifyKubeletMessage: the Rebooted event and the log line recording it") {
  // Real event text: `kubectl describe node` output in a public issue.
  KubeletEvent e = ClassifyKubeletMessage(
      "Node worker122 has been rebooted, boot id: d87bdb0a-d2bc-42f7-945f-7a099da7ee26");
  CHECK(e.kind == K::kNodeRebooted);
  CHECK(e.node == "worker122");
  CHECK(e.boot_id == "d87bdb0a-d2bc-42f7-945f-7a099da7ee26");
  KubeletEvent event_line = ClassifyKubeletMessage(
      R"("Event occurred" object="worker122" kind="Node" apiVersion="v1" type="Warning" reason="Rebooted" message="Node worker122 has been rebooted, boot id: d87bdb0a-d2bc-42f7-945f-7a099da7ee26")");
  CHECK(event_line.kind == K::kNodeRebooted);
  CHECK(event_line.boot_id == "d87bdb0a-d2bc-42f7-945f-7a099da7ee26");
  KubeletEvent logged =
      ClassifyKubeletMessage(R"("Recording event message for node" node="worker122" event="Rebooted")");
  CHECK(logged.kind == K::kNodeRebooted);
  CHECK(logged.node == "worker122");
  CHECK(ClassifyKubeletMessage(
            R"("Recording event message for node" node="worker122" event="NodeHasSufficientMemory")")
            .kind == K::kUnknown);
}

TEST_CASE("ClassifyKubeletMessage: error text with bytes that are not UTF-8") {
  KubeletEvent e = ClassifyKubeletMessage(
      "listAndWatch ended unexpectedly for device plugin nvidia.com/gpu with error \xff");
  CHECK(e.kind == K::kListAndWatchEnded);
  CHECK(e.error == "\xff");
}

TEST_CASE("KubeletEventKindName: stable names") {
  CHECK(std::string(KubeletEventKindName(K::kListAndWatchEnded)) == "list_and_watch_ended");
  CHECK(std::string(KubeletEventKindName(K::kZeroOutCapacity)) == "zero_out_capacity");
}

TEST_CASE("ClassifySystemdMessage: daemon-reload of systemd 253 with its caller") {
  auto m = FixtureMessages("formats/systemd-msgs_daemon-reload-v253-caller_systemd-27287.txt");
  REQUIRE(m.size() == 3);
  SystemdEvent requested = ClassifySystemdMessage(m[0]);
  CHECK(requested.kind == S::kDaemonReloadRequested);
  CHECK(requested.caller_pid == 1118);
  CHECK(requested.caller_comm.empty());
  CHECK(requested.caller_unit == "testsuite-04.service");
  CHECK(ClassifySystemdMessage(m[1]).kind == S::kDaemonReloading);
  CHECK(ClassifySystemdMessage(m[2]).kind == S::kUnknown);  // Serializing systemd-state to memfd.
}

TEST_CASE("ClassifySystemdMessage: every daemon-reload wording") {
  SystemdEvent full = ClassifySystemdMessage(
      "Reloading requested from client PID 1225 ('systemctl') (unit dracut-initqueue.service)...");
  CHECK(full.kind == S::kDaemonReloadRequested);
  CHECK(full.caller_pid == 1225);
  CHECK(full.caller_comm == "systemctl");
  CHECK(full.caller_unit == "dracut-initqueue.service");
  SystemdEvent comm_only = ClassifySystemdMessage("Reloading requested from client PID 871 ('systemd-fstab-g')...");
  CHECK(comm_only.caller_comm == "systemd-fstab-g");
  CHECK(comm_only.caller_unit.empty());
  SystemdEvent bare = ClassifySystemdMessage("Reloading requested from client PID 4242...");
  CHECK(bare.kind == S::kDaemonReloadRequested);
  CHECK(bare.caller_pid == 4242);
  SystemdEvent reexec = ClassifySystemdMessage(
      "Reexecuting requested from client PID 1 ('systemd') (unit init.scope)...");
  CHECK(reexec.kind == S::kDaemonReexecRequested);
  CHECK(ClassifySystemdMessage("Reloading.").kind == S::kDaemonReload);
  SystemdEvent finished = ClassifySystemdMessage("Reloading finished in 388 ms.");
  CHECK(finished.kind == S::kDaemonReloadFinished);
  CHECK(finished.duration_ms == 388);
  CHECK(ClassifySystemdMessage("Reloading request rejected due to rate limit.").kind ==
        S::kDaemonReloadRejected);
}

TEST_CASE("ClassifySystemdMessage: an old-style restart loop") {
  auto m = FixtureMessages("formats/systemd-msgs_kubelet-restart-loop_minikube-5690.txt");
  REQUIRE(m.size() == 12);
  CHECK(ClassifySystemdMessage(m[0]).kind == S::kUnknown);  // "-- Logs begin at ..."
  SystemdEvent holdoff = ClassifySystemdMessage(m[1]);
  CHECK(holdoff.kind == S::kRestartScheduled);
  CHECK(holdoff.unit == "kubelet.service");
  CHECK_FALSE(holdoff.restart_counter.has_value());
  SystemdEvent scheduled = ClassifySystemdMessage(m[2]);
  CHECK(scheduled.kind == S::kRestartScheduled);
  CHECK(scheduled.restart_counter == 557);
  SystemdEvent stopped = ClassifySystemdMessage(m[3]);
  CHECK(stopped.kind == S::kUnitStopped);
  CHECK(stopped.unit.empty());
  CHECK(stopped.description == "kubelet: The Kubernetes Node Agent");
  CHECK(ClassifySystemdMessage(m[4]).kind == S::kUnitStarted);
  SystemdEvent exited = ClassifySystemdMessage(m[5]);
  CHECK(exited.kind == S::kMainProcessExited);
  CHECK(exited.unit == "kubelet.service");
  CHECK(exited.exit_code == "exited");
  CHECK(exited.exit_status == "203/EXEC");
  SystemdEvent failed = ClassifySystemdMessage(m[6]);
  CHECK(failed.kind == S::kUnitFailed);
  CHECK(failed.unit == "kubelet.service");
  CHECK(failed.result == "exit-code");
}

TEST_CASE("ClassifySystemdMessage: a control process that fails fails its unit") {
  // tests/corpus/gpu-operator-610-fm-no-nvswitch-zh/journal.txt: a Type=forking unit's start.
  SystemdEvent failed = ClassifySystemdMessage(
      "nvidia-fabricmanager.service: Control process exited, code=exited, status=1/FAILURE");
  CHECK(failed.kind == S::kUnitFailed);
  CHECK(failed.unit == "nvidia-fabricmanager.service");
  CHECK(failed.result == "exit-code");
  CHECK(failed.exit_status == "1/FAILURE");
  CHECK(ClassifySystemdMessage("x.service: Control process exited, code=exited, status=0/SUCCESS").kind == S::kUnknown);
}

TEST_CASE("ClassifySystemdMessage: journalctl -x catalog lines are not events") {
  auto m = FixtureMessages("formats/systemd-msgs_kubelet-failed-with-x-catalog_kubernetes-112364.txt");
  std::vector<S> kinds;
  for (const std::string& line : m) kinds.push_back(ClassifySystemdMessage(line).kind);
  std::vector<S> expected = {S::kUnknown, S::kUnknown, S::kUnknown, S::kUnitFailed,
                             S::kUnknown, S::kUnknown, S::kUnknown, S::kUnknown, S::kUnknown,
                             S::kRestartScheduled,
                             S::kUnknown, S::kUnknown, S::kUnknown, S::kUnknown, S::kUnknown, S::kUnknown,
                             S::kUnitStopped,
                             S::kUnknown, S::kUnknown, S::kUnknown, S::kUnknown, S::kUnknown, S::kUnknown,
                             S::kUnknown};
  CHECK(kinds == expected);
  CHECK(ClassifySystemdMessage(m[9]).restart_counter == 131);
}

TEST_CASE("ClassifySystemdMessage: a unit file changed during a restart") {
  auto m = FixtureMessages("formats/systemd-msgs_kubelet-current-command-vanished_kubeadm-2499.txt");
  REQUIRE(m.size() == 4);
  CHECK(ClassifySystemdMessage(m[1]).kind == S::kUnitStarted);
  SystemdEvent vanished = ClassifySystemdMessage(m[2]);  // cut by the pager in the source
  CHECK(vanished.kind == S::kCommandVanished);
  CHECK(vanished.unit == "kubelet.service");
  SystemdEvent stopping = ClassifySystemdMessage(m[3]);
  CHECK(stopping.kind == S::kUnitStopping);
  CHECK(stopping.description == "kubelet: The Kubernetes Node Agent");
}

TEST_CASE("ClassifySystemdMessage: systemd 219 wording, with and without [pid]") {
  auto lower = FixtureMessages("formats/systemd-msgs_systemd219-lowercase_kubernetes-83308.txt");
  REQUIRE(lower.size() == 3);
  SystemdEvent exited = ClassifySystemdMessage(lower[0]);
  CHECK(exited.kind == S::kMainProcessExited);
  CHECK(exited.exit_status == "255/n/a");
  SystemdEvent entered = ClassifySystemdMessage(lower[1]);
  CHECK(entered.kind == S::kUnitFailed);
  CHECK(entered.unit == "kubelet.service");
  SystemdEvent failed = ClassifySystemdMessage(lower[2]);
  CHECK(failed.kind == S::kUnitFailed);
  CHECK(failed.unit == "kubelet.service");

  auto rsyslog = FixtureMessages("formats/systemd-msgs_systemd219-no-pid-restart_kubernetes-68782.txt");
  REQUIRE(rsyslog.size() == 16);
  SystemdEvent stopping = ClassifySystemdMessage(rsyslog[1]);
  CHECK(stopping.kind == S::kUnitStopping);
  CHECK(stopping.description == "Kubernetes Kubelet Server");
  CHECK(ClassifySystemdMessage(rsyslog[7]).exit_status == "1/FAILURE");
  CHECK(ClassifySystemdMessage(rsyslog[8]).kind == S::kUnitStopped);
  SystemdEvent session = ClassifySystemdMessage(rsyslog[14]);
  CHECK(session.kind == S::kUnitStarting);
  CHECK(session.description == "Session 1369 of user root");
  CHECK(ClassifySystemdMessage(rsyslog[15]).description == "Kubernetes API Service");
}

TEST_CASE("ClassifySystemdMessage: systemd 250+ names the unit before its description") {
  SystemdEvent started =
      ClassifySystemdMessage("Started kubelet.service - kubelet: The Kubernetes Node Agent.");
  CHECK(started.kind == S::kUnitStarted);
  CHECK(started.unit == "kubelet.service");
  CHECK(started.description == "kubelet: The Kubernetes Node Agent");
  SystemdEvent starting =
      ClassifySystemdMessage("Starting kubelet.service - kubelet: The Kubernetes Node Agent...");
  CHECK(starting.kind == S::kUnitStarting);
  CHECK(starting.unit == "kubelet.service");
  SystemdEvent failed =
      ClassifySystemdMessage("Failed to start kubelet.service - kubelet: The Kubernetes Node Agent.");
  CHECK(failed.kind == S::kUnitFailed);
  CHECK(failed.unit == "kubelet.service");
  SystemdEvent nameless = ClassifySystemdMessage("Started nvidia-persistenced.service.");
  CHECK(nameless.unit == "nvidia-persistenced.service");
  CHECK(nameless.description.empty());
  SystemdEvent done = ClassifySystemdMessage("kubelet.service: Deactivated successfully.");
  CHECK(done.kind == S::kUnitDeactivated);
  CHECK(done.unit == "kubelet.service");
  CHECK(ClassifySystemdMessage("Reloading containerd.service - containerd container runtime...").kind ==
        S::kUnitReloading);
  CHECK(ClassifySystemdMessage("kubelet.service: Consumed 1min 2.345s CPU time.").kind == S::kUnknown);
}

TEST_CASE("SystemdEventKindName: stable names") {
  CHECK(std::string(SystemdEventKindName(S::kDaemonReloadRequested)) == "daemon_reload_requested");
  CHECK(std::string(SystemdEventKindName(S::kRestartScheduled)) == "restart_scheduled");
}

}  // TEST_SUITE

}  // namespace gpuf
