#include "formats/crictl_json.h"

#include <doctest/doctest.h>

#include "tests/fixtures.h"

namespace gpuf {

TEST_SUITE("crictl_json") {

TEST_CASE("ParseCrictlPs: protojson rows with ns strings, labels and restart count") {
  auto ps = ParseCrictlPs(test::Fixture("formats/crictl-ps-o-json_containerd-kind_jsonparser-test.json"));
  CHECK(ps.warnings.empty());
  REQUIRE(ps.containers.size() == 1);
  const auto& c = ps.containers[0];
  CHECK(c.id == "b1f06ea545e81d89dc503414d20a33f1b3f3eca71e3a4344fd16ddc202cc8129");
  CHECK(c.pod_sandbox_id == "655b0ad6e26c0403c00ef9ab69c399e4e86f92d6bd3ad22a286849bf310b31f3");
  CHECK(c.name == "bpfman-operator");
  CHECK(c.attempt == 0);
  CHECK(c.image == "sha256:8bab0f36b56c1726bffd8ff7f346207c4e269349386c403e01520f5ae109a4e9");
  CHECK(c.image_ref == "sha256:8bab0f36b56c1726bffd8ff7f346207c4e269349386c403e01520f5ae109a4e9");
  CHECK(c.state == "CONTAINER_RUNNING");
  CHECK(c.created_at_ns == 1702671156599632356LL);
  CHECK(c.pod_name == "bpfman-operator-65747dc769-pjztg");
  CHECK(c.pod_namespace == "bpfman");
  CHECK(c.pod_uid == "4cad64d0-7a36-452a-8a08-bd3a694cdad5");
  CHECK(c.container_name == "bpfman-operator");
  CHECK(c.restart_count == 0);
}

TEST_CASE("ParseCrictlPs: two containers of one pod") {
  auto ps = ParseCrictlPs(test::Fixture("formats/crictl-ps-o-json_two-containers_jsonparser-test.json"));
  CHECK(ps.warnings.empty());
  REQUIRE(ps.containers.size() == 2);
  CHECK(ps.containers[0].name == "bpfman-agent");
  CHECK(ps.containers[1].name == "bpfman");
  CHECK(ps.containers[1].created_at_ns == 1704391799242101914LL);
  CHECK(ps.containers[0].pod_sandbox_id == ps.containers[1].pod_sandbox_id);
}

TEST_CASE("ParseCrictlPs: empty list, unset time, wrong types and missing ids") {
  CHECK(ParseCrictlPs("{\n  \"containers\": [\n  ]\n}\n").containers.empty());
  CHECK(ParseCrictlPs("{}").warnings.empty());
  auto ps = ParseCrictlPs(R"({"containers":[
      {"id":"aa","metadata":{"name":"x","attempt":3},"createdAt":"0",
       "annotations":{"io.kubernetes.container.restartCount":"many"}},
      {"metadata":{"name":"no-id"}},
      {"id":"bb","createdAt":true}]})");
  REQUIRE(ps.containers.size() == 2);
  CHECK(ps.containers[0].attempt == 3);
  CHECK_FALSE(ps.containers[0].created_at_ns.has_value());
  CHECK_FALSE(ps.containers[0].restart_count.has_value());
  CHECK_FALSE(ps.containers[1].created_at_ns.has_value());
  REQUIRE(ps.warnings.size() == 3);
  CHECK(ps.warnings[0].line == 0);
  CHECK(ps.warnings[0].message ==
        "containers[0].annotations.io.kubernetes.container.restartCount: not an integer: \"many\"");
  CHECK(ps.warnings[1].message == "containers[1].id: missing");
  CHECK(ps.warnings[2].message == "containers[2].createdAt: not an integer: true");
}

TEST_CASE("ParseCrictlPs: text that is not JSON gives one warning") {
  auto ps = ParseCrictlPs("{\"containers\": [\n  {\"id\": \"aa\"\n");
  CHECK(ps.containers.empty());
  REQUIRE(ps.warnings.size() == 1);
  CHECK(ps.warnings[0].line == 3);
  CHECK(ps.warnings[0].message ==
        "syntax error while parsing object - unexpected end of input; expected '}'");

  auto empty = ParseCrictlPs("");
  REQUIRE(empty.warnings.size() == 1);
  CHECK(empty.warnings[0].message ==
        "syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");

  auto wrong = ParseCrictlPs("[]");
  REQUIRE(wrong.warnings.size() == 1);
  CHECK(wrong.warnings[0].message == "no \"containers\" array");
}

TEST_CASE("ParseCrictlPods: sandboxes under items") {
  auto pods = ParseCrictlPods(test::Fixture("formats/crictl-pods-o-json_containerd-kind_jsonparser-test.json"));
  CHECK(pods.warnings.empty());
  REQUIRE(pods.sandboxes.size() == 1);
  const auto& s = pods.sandboxes[0];
  CHECK(s.id == "655b0ad6e26c0403c00ef9ab69c399e4e86f92d6bd3ad22a286849bf310b31f3");
  CHECK(s.name == "bpfman-operator-65747dc769-pjztg");
  CHECK(s.pod_namespace == "bpfman");
  CHECK(s.uid == "4cad64d0-7a36-452a-8a08-bd3a694cdad5");
  CHECK(s.attempt == 0);
  CHECK(s.state == "SANDBOX_READY");
  CHECK(s.created_at_ns == 1702671154122345580LL);
  CHECK(s.runtime_handler == "");

  auto wrong = ParseCrictlPods(R"({"items":{}})");
  REQUIRE(wrong.warnings.size() == 1);
  CHECK(wrong.warnings[0].message == "no \"items\" array");
}

TEST_CASE("ParseCrictlInspect: containerd, running, systemd cgroups") {
  auto parsed = ParseCrictlInspect(
      test::Fixture("formats/crictl-inspect-o-json_containerd-systemd-cgroup_jsonparser-test.json"));
  CHECK(parsed.warnings.empty());
  REQUIRE(parsed.containers.size() == 1);
  const auto& c = parsed.containers[0];
  CHECK(c.id == "b1f06ea545e81d89dc503414d20a33f1b3f3eca71e3a4344fd16ddc202cc8129");
  CHECK(c.name == "bpfman-operator");
  CHECK(c.state == "CONTAINER_RUNNING");
  CHECK(c.created.unix_ns == 1702671156599632356LL);
  CHECK(c.created.offset == "Z");
  CHECK(c.started.unix_ns == 1702671156781516170LL);
  CHECK_FALSE(c.finished.unix_ns.has_value());
  CHECK(c.finished.offset == "Z");
  CHECK(c.exit_code == 0);
  CHECK(c.reason == "");
  CHECK(c.log_path ==
        "/var/log/pods/bpfman_bpfman-operator-65747dc769-pjztg_4cad64d0-7a36-452a-8a08-bd3a694cdad5/"
        "bpfman-operator/0.log");
  CHECK(c.image == "quay.io/bpfman/bpfman-operator:latest");
  CHECK(c.pod_uid == "4cad64d0-7a36-452a-8a08-bd3a694cdad5");
  CHECK(c.sandbox_id == "655b0ad6e26c0403c00ef9ab69c399e4e86f92d6bd3ad22a286849bf310b31f3");
  CHECK(c.restart_count == 0);
  CHECK(c.pid == 2092);
  CHECK(c.runtime_type == "io.containerd.runc.v2");
  CHECK(c.privileged == false);
  CHECK(c.cgroups_path ==
        "kubelet-kubepods-burstable-pod4cad64d0_7a36_452a_8a08_bd3a694cdad5.slice:cri-containerd:"
        "b1f06ea545e81d89dc503414d20a33f1b3f3eca71e3a4344fd16ddc202cc8129");
  REQUIRE(c.env_names.size() == 20);
  CHECK(c.env_names[0] == "PATH");
  CHECK(c.env_names[3] == "GO_LOG");
  CHECK(c.args == std::vector<std::string>{"/bpfman-operator", "--health-probe-bind-address=:8081",
                                           "--metrics-bind-address=127.0.0.1:8080", "--leader-elect"});
  CHECK(c.prestart_hooks.empty());  // kind's hook is createContainer
  CHECK_FALSE(c.legacy_nvidia_hook);
  CHECK(c.device_paths.empty());
  REQUIRE(c.device_rules.size() == 1);
  CHECK_FALSE(c.device_rules[0].allow);
  CHECK(c.device_rules[0].type == 'a');
  CHECK_FALSE(c.device_rules[0].major.has_value());
  CHECK_FALSE(c.device_rules[0].minor.has_value());
  CHECK(c.device_rules[0].access == "rwm");
  CHECK(c.cdi_annotations.empty());
  REQUIRE(c.mounts.size() == 3);
  CHECK(c.mounts[1].container_path == "/etc/hosts");
  CHECK(c.mounts[1].host_path == "/var/lib/kubelet/pods/4cad64d0-7a36-452a-8a08-bd3a694cdad5/etc-hosts");
}

TEST_CASE("ParseCrictlInspect: exited container keeps exit code, reason and finish time") {
  // Shape of formats/crictl-inspect_exited-excerpt_containerd-cri-475.json.
  auto parsed = ParseCrictlInspect(R"({
  "status": {
    "id": "98ad5842a62844f62d4468c52dbfcc081a08ba25c95c842a967de7058f60dd24",
    "metadata": {"attempt": 0, "name": "nginx"},
    "state": "CONTAINER_EXITED",
    "createdAt": "2017-11-30T21:57:26.038813532Z",
    "startedAt": "2017-11-30T21:57:26.235406355Z",
    "finishedAt": "2017-12-01T20:08:56.523559866Z",
    "exitCode": 255,
    "image": {"image": "gcr.io/google-containers/nginx-slim-amd64:0.20"},
    "reason": "Unknown",
    "message": ""
  }
})");
  CHECK(parsed.warnings.empty());
  REQUIRE(parsed.containers.size() == 1);
  const auto& c = parsed.containers[0];
  CHECK(c.state == "CONTAINER_EXITED");
  CHECK(c.exit_code == 255);
  CHECK(c.reason == "Unknown");
  CHECK(c.created.unix_ns == 1512079046038813532LL);
  CHECK(c.finished.unix_ns == 1512158936523559866LL);
  CHECK_FALSE(c.pid.has_value());
  CHECK_FALSE(c.privileged.has_value());
}

TEST_CASE("ParseCrictlInspect: CRI-O, 1970 finish time, legacy NVIDIA hook, info.privileged") {
  auto parsed = ParseCrictlInspect(R"({
  "status": {
    "id": "af8cd7136fb5af10bd4cac9d0d425efc37d71fe08ac2ba8f69ae1343bb2cebf6",
    "metadata": {"attempt": 2, "name": "cuda"},
    "state": "CONTAINER_RUNNING",
    "createdAt": "2020-04-13T07:03:34.690247779Z",
    "startedAt": "2020-04-13T07:03:34.714259763Z",
    "finishedAt": "1970-01-01T00:00:00Z",
    "exitCode": 0,
    "labels": {"io.kubernetes.pod.name": "cuda-job", "io.kubernetes.pod.namespace": "default"},
    "mounts": []
  },
  "info": {
    "sandboxID": "5bd5b9bcbd3cd41ab9fed1d8b25d7a6abc2ba1e1aa4a4f1c1d33ef45e6de9e9e",
    "pid": 4242,
    "runtimeSpec": {
      "process": {"args": ["nvidia-smi", "-L"], "env": ["NVIDIA_VISIBLE_DEVICES=GPU-1", "TOKEN=<redacted>", "BARE"]},
      "hooks": {"prestart": [{"path": "/usr/bin/nvidia-container-runtime-hook",
                              "args": ["/usr/bin/nvidia-container-runtime-hook", "prestart"]}]},
      "mounts": [
        {"destination": "/proc", "type": "proc", "source": "proc"},
        {"destination": "/etc/hosts", "type": "bind", "source": "/var/run/containers/storage/hosts",
         "options": ["rw", "bind"]},
        {"destination": "/dev/shm", "source": "/var/run/shm", "options": ["rbind"]}],
      "linux": {"cgroupsPath": "kubepods-besteffort-pod1.slice:crio:af8cd713",
                "resources": {"devices": [{"allow": false, "access": "rwm"}]}}
    },
    "privileged": false
  }
})");
  CHECK(parsed.warnings.empty());
  REQUIRE(parsed.containers.size() == 1);
  const auto& c = parsed.containers[0];
  CHECK(c.attempt == 2);
  CHECK_FALSE(c.finished.unix_ns.has_value());
  CHECK(c.runtime_type == "");
  CHECK(c.privileged == false);
  CHECK(c.pid == 4242);
  CHECK(c.env_names == std::vector<std::string>{"NVIDIA_VISIBLE_DEVICES", "TOKEN", "BARE"});
  CHECK(c.args == std::vector<std::string>{"nvidia-smi", "-L"});
  CHECK(c.prestart_hooks == std::vector<std::string>{"/usr/bin/nvidia-container-runtime-hook"});
  CHECK(c.legacy_nvidia_hook);
  CHECK(c.device_paths.empty());
  CHECK(c.cgroups_path == "kubepods-besteffort-pod1.slice:crio:af8cd713");
  REQUIRE(c.mounts.size() == 2);  // no CRI mounts: the spec's bind mounts
  CHECK(c.mounts[0].container_path == "/etc/hosts");
  CHECK(c.mounts[0].host_path == "/var/run/containers/storage/hosts");
  CHECK(c.mounts[1].container_path == "/dev/shm");
}

TEST_CASE("ParseCrictlInspect: CDI injection shows devices, rules and annotations") {
  auto parsed = ParseCrictlInspect(R"({
  "status": {"id": "c0", "annotations": {"cdi.k8s.io/nvidia-device-plugin_GPU-1": "nvidia.com/gpu=GPU-1"}},
  "info": {
    "config": {"linux": {"security_context": {"privileged": true}},
               "CDI_devices": [{"name": "nvidia.com/gpu=GPU-1"}]},
    "runtimeSpec": {
      "hooks": {"prestart": [{"path": "/usr/bin/nvidia-ctk"}]},
      "annotations": {"cdi.k8s.io/vendor": "x", "io.kubernetes.cri.container-type": "container"},
      "linux": {
        "devices": [{"path": "/dev/nvidia0", "type": "c", "major": 195, "minor": 0, "fileMode": 8630},
                    {"path": "/dev/nvidiactl", "type": "c", "major": 195, "minor": 255}],
        "resources": {"devices": [
          {"allow": false, "access": "rwm"},
          {"allow": true, "type": "c", "major": 195, "minor": 0, "access": "rw"},
          {"allow": true, "type": "c", "major": 195, "access": "m"},
          {"allow": true, "type": "c", "major": -1, "minor": -1, "access": "m"},
          {"allow": true, "type": "x", "access": "rw"}]}}
    }
  }
})");
  REQUIRE(parsed.containers.size() == 1);
  const auto& c = parsed.containers[0];
  CHECK(c.privileged == true);
  CHECK_FALSE(c.legacy_nvidia_hook);
  CHECK(c.device_paths == std::vector<std::string>{"/dev/nvidia0", "/dev/nvidiactl"});
  REQUIRE(c.device_rules.size() == 4);
  CHECK(c.device_rules[1].allow);
  CHECK(c.device_rules[1].type == 'c');
  CHECK(c.device_rules[1].major == 195);
  CHECK(c.device_rules[1].minor == 0);
  CHECK(c.device_rules[1].access == "rw");
  CHECK(c.device_rules[2].major == 195);
  CHECK_FALSE(c.device_rules[2].minor.has_value());
  CHECK_FALSE(c.device_rules[3].major.has_value());
  CHECK(c.cdi_annotations ==
        std::vector<std::string>{"cdi.k8s.io/nvidia-device-plugin_GPU-1", "cdi.k8s.io/vendor"});
  CHECK(c.cdi_devices == std::vector<std::string>{"nvidia.com/gpu=GPU-1"});
  REQUIRE(parsed.warnings.size() == 1);
  CHECK(parsed.warnings[0].line == 1);
  CHECK(parsed.warnings[0].message ==
        "info.runtimeSpec.linux.resources.devices[4]: not a device rule: "
        "{\"access\":\"rw\",\"allow\":true,\"type\":\"x\"}");
}

TEST_CASE("ParseCrictlInspect: times in crictl's local zone, nanosecond strings of 2017") {
  auto parsed = ParseCrictlInspect(R"({"status": {"id": "8f9e",
    "createdAt": "2022-11-29T12:07:44.196650393-06:00",
    "startedAt": "1512524016760395386",
    "finishedAt": "1969-12-31T18:00:00-06:00"}})");
  CHECK(parsed.warnings.empty());
  REQUIRE(parsed.containers.size() == 1);
  const auto& c = parsed.containers[0];
  CHECK(c.created.unix_ns == 1669745264196650393LL);
  CHECK(c.created.offset == "-06:00");
  CHECK(c.started.unix_ns == 1512524016760395386LL);
  CHECK(c.started.offset == "");
  CHECK_FALSE(c.finished.unix_ns.has_value());
  CHECK(c.finished.offset == "-06:00");
}

TEST_CASE("ParseCrictlInspect: bad times are warnings") {
  auto parsed = ParseCrictlInspect(R"({"status": {"id": "x",
    "createdAt": "2022-11-29 12:07", "startedAt": "9999-01-01T00:00:00Z"}})");
  REQUIRE(parsed.containers.size() == 1);
  CHECK_FALSE(parsed.containers[0].created.unix_ns.has_value());
  REQUIRE(parsed.warnings.size() == 2);
  CHECK(parsed.warnings[0].message == "status.createdAt: not an RFC 3339 time: 2022-11-29 12:07");
  CHECK(parsed.warnings[1].message == "status.startedAt: out of range: 9999-01-01T00:00:00Z");

  auto year_zero = ParseCrictlInspect(R"({"status": {"id": "x", "finishedAt": "0000-01-01T00:00:00Z"}})");
  CHECK(year_zero.warnings.empty());
  CHECK_FALSE(year_zero.containers[0].finished.unix_ns.has_value());
}

TEST_CASE("ParseCrictlInspect: an array, a stream, and a stray line") {
  auto array = ParseCrictlInspect(R"([{"status": {"id": "a"}}, {"status": {"id": "b"}}, 7])");
  REQUIRE(array.containers.size() == 2);
  CHECK(array.containers[1].id == "b");
  REQUIRE(array.warnings.size() == 1);
  CHECK(array.warnings[0].message == "[2]: not an object");

  auto stream = ParseCrictlInspect(
      "{\"status\": {\"id\": \"a\", \"reason\": \"}{\\\"\"}}\n"
      "crictl inspect b\n"
      "{\n  \"status\": {\"id\": \"b\"}\n}\n"
      "{\"info\": {}}\n");
  REQUIRE(stream.containers.size() == 2);
  CHECK(stream.containers[0].reason == "}{\"");
  CHECK(stream.containers[1].id == "b");
  REQUIRE(stream.warnings.size() == 2);
  CHECK(stream.warnings[0].line == 2);
  CHECK(stream.warnings[0].message == "not JSON: crictl inspect b");
  CHECK(stream.warnings[1].line == 6);
  CHECK(stream.warnings[1].message == "status.id: missing");
}

TEST_CASE("ParseCrictlInspect: a truncated document warns on its own line") {
  auto parsed = ParseCrictlInspect("{\"status\": {\"id\": \"a\"}}\n{\"status\": {\n  \"id\": \"b\"\n");
  REQUIRE(parsed.containers.size() == 1);
  REQUIRE(parsed.warnings.size() == 1);
  CHECK(parsed.warnings[0].line == 4);
  CHECK(parsed.warnings[0].message ==
        "syntax error while parsing object - unexpected end of input; expected '}'");

  auto empty = ParseCrictlInspect("\n");
  REQUIRE(empty.warnings.size() == 1);
  CHECK(empty.warnings[0].message ==
        "syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");
}

TEST_CASE("ParseCtrContainerInfo: labels, runtime name and the decoded spec") {
  auto parsed = ParseCtrContainerInfo(R"({
    "ID": "1677108ffa3b07b4f42ebf8b37fd65f52a466c48c739e12e8fba0df8e8a11e3c",
    "Labels": {
        "io.cri-containerd.kind": "container",
        "io.kubernetes.container.name": "whoami",
        "io.kubernetes.pod.name": "whoami-bd6b677dc-6v6ml",
        "io.kubernetes.pod.namespace": "default",
        "io.kubernetes.pod.uid": "a0ace4fc-90b5-4bec-ace0-bc75a79b20b3"
    },
    "Image": "docker.io/containous/whoami@sha256:7d6a3c8f91470a23ef380320609ee6e69ac68d20bc804f3a1c6065fb56cfa34e",
    "Runtime": {
        "Name": "io.containerd.runc.v2",
        "Options": null
    },
    "SnapshotKey": "1677108ffa3b07b4f42ebf8b37fd65f52a466c48c739e12e8fba0df8e8a11e3c",
    "Snapshotter": "overlayfs",
    "CreatedAt": "2020-10-29T14:37:06.004362574Z",
    "UpdatedAt": "2020-10-29T14:37:06.004362574Z",
    "Extensions": null,
    "Spec": {
        "ociVersion": "1.0.2-dev",
        "process": {"args": ["/whoami"], "env": ["PATH=/usr/bin", "HOSTNAME=whoami-bd6b677dc-6v6ml"]},
        "hooks": {"prestart": [{"path": "/usr/bin/nvidia-container-toolkit",
                                "args": ["nvidia-container-toolkit", "prestart"]}]},
        "mounts": [{"destination": "/etc/hosts", "type": "bind",
                    "source": "/var/lib/kubelet/pods/a0ace4fc/etc-hosts", "options": ["rbind", "rw"]}],
        "linux": {"cgroupsPath": "/kubepods/besteffort/poda0ace4fc-90b5-4bec-ace0-bc75a79b20b3/1677108ffa3b"}
    }
})");
  CHECK(parsed.warnings.empty());
  REQUIRE(parsed.containers.size() == 1);
  const auto& c = parsed.containers[0];
  CHECK(c.id == "1677108ffa3b07b4f42ebf8b37fd65f52a466c48c739e12e8fba0df8e8a11e3c");
  CHECK(c.name == "whoami");
  CHECK(c.pod_name == "whoami-bd6b677dc-6v6ml");
  CHECK(c.pod_namespace == "default");
  CHECK(c.runtime_type == "io.containerd.runc.v2");
  CHECK(c.created.unix_ns == 1603982226004362574LL);
  CHECK(c.state == "");
  CHECK_FALSE(c.privileged.has_value());
  CHECK(c.env_names == std::vector<std::string>{"PATH", "HOSTNAME"});
  CHECK(c.legacy_nvidia_hook);
  CHECK(c.cgroups_path == "/kubepods/besteffort/poda0ace4fc-90b5-4bec-ace0-bc75a79b20b3/1677108ffa3b");
  REQUIRE(c.mounts.size() == 1);
  CHECK(c.mounts[0].host_path == "/var/lib/kubelet/pods/a0ace4fc/etc-hosts");
}

TEST_CASE("ParseCtrContainerInfo: the spec wrapped in type_url/value, missing ID") {
  auto wrapped = ParseCtrContainerInfo(R"({"ID": "busybox", "Labels": null,
    "Spec": {"type_url": "types.containerd.io/opencontainers/runtime-spec/1/Spec",
             "value": {"linux": {"cgroupsPath": "/default/busybox"}}}})");
  REQUIRE(wrapped.containers.size() == 1);
  CHECK(wrapped.containers[0].cgroups_path == "/default/busybox");
  CHECK(wrapped.containers[0].name == "");

  auto missing = ParseCtrContainerInfo(R"({"Labels": {}})");
  CHECK(missing.containers.empty());
  REQUIRE(missing.warnings.size() == 1);
  CHECK(missing.warnings[0].message == "ID: missing");
}

}  // TEST_SUITE

}  // namespace gpuf
