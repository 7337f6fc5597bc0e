#include "collector/redact/text_redactor.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

std::set<std::string> Defaults() { return *ChooseClasses(""); }

std::string Redact(TextRedactor& r, std::string line, RedactionCounts* counts = nullptr) {
  RedactionCounts local;
  r.RedactLine(line, counts ? *counts : local);
  return line;
}

}  // namespace

TEST_SUITE("text_redactor") {

TEST_CASE("TextRedactor: addresses become documentation-range pseudonyms, consistently") {
  PseudonymMap map;
  TextRedactor r(Defaults(), &map);
  r.Seal();
  RedactionCounts counts;
  CHECK(Redact(r, "nfs: server 10.77.8.9 not responding; 10.77.8.9 again, then 10.77.8.10", &counts) ==
        "nfs: server 192.0.2.1 not responding; 192.0.2.1 again, then 192.0.2.2");
  CHECK(Redact(r, "eth0: MAC 0c:42:a1:77:ca:fe, peer 0C-42-A1-77-CA-FE", &counts) ==
        "eth0: MAC 02:00:00:00:00:01, peer 02:00:00:00:00:01");
  CHECK(Redact(r, "duplicate address fd00:77:31::47 (FD00:77:31:0::47) [2a05:d014:77:ca::17]:443", &counts) ==
        "duplicate address 2001:db8::1 (2001:db8::1) [2001:db8::2]:443");
  CHECK(counts == RedactionCounts{{"ipv4", 3}, {"ipv6", 3}, {"mac", 2}});
}

TEST_CASE("TextRedactor: what the rules need stays") {
  PseudonymMap map;
  TextRedactor r(Defaults(), &map);
  r.Seal();
  const std::string kept[] = {
      "2026-11-18T11:18:17.378842643+08:00 stderr F 2026/11/18 03:18:17 Failed to initialize NVML: nvml: Unknown Error.",
      "NVRM: Xid (PCI:0000:9a:00): 79, pid=1234, GPU has fallen off the bus.",
      "/proc/driver/nvidia/gpus/0000:18:00.0/information",
      "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.161.07  Sat Feb 17 22:55:48 UTC 2024",
      "<vbios_version>96.00.74.00.01</vbios_version> <inforom>G520.0200.00.05</inforom>",
      "GPU 0: NVIDIA H800 (UUID: GPU-5b3c8a8e-0d1f-4a43-9a8e-2b1d3c4e5f60)",
      "container 5f1d2c3b4a5968778695a4b3c2d1e0f0a1b2c3d4e5f60718293a4b5c6d7e8f90 boot 9c1d4e2a-5b6f-4a3b-8c7d-0e1f2a3b4c5d",
      "listen 127.0.0.1:10248 and [::1]:10248, [::]:80, mask 255.255.255.0, metadata 169.254.169.254",
      "already 192.0.2.7 and 2001:db8::9; std::string at 11:18:16.5",
  };
  for (const auto& line : kept) CHECK(Redact(r, line) == line);
}

TEST_CASE("TextRedactor: JSON is redacted string by string, field names stay, keys that are data do not") {
  PseudonymMap map;
  TextRedactor r(Defaults(), &map);
  r.AddLiteral(Family::kHostname, "gpu-canary-17.corp.example");
  r.Seal();
  CHECK(Redact(r, R"({"_HOSTNAME":"gpu-canary-17","hostname":"gpu-canary-17","MESSAGE":"node=\"gpu-canary-17.corp.example\"\ngpu-canary-17 up"})") ==
        R"({"_HOSTNAME":"node-0001","hostname":"node-0001","MESSAGE":"node=\"node-0002\"\nnode-0001 up"})");
  CHECK(Redact(r, R"(    "address": "gpu-canary-17",)") == R"(    "address": "node-0001",)");
  CHECK(Redact(r, R"(      "mirrors": {"10.77.0.50:5000": {"endpoint": ["https://10.77.0.50:5000"]}},)") ==
        R"(      "mirrors": {"192.0.2.1:5000": {"endpoint": ["https://192.0.2.1:5000"]}},)");
}

TEST_CASE("TextRedactor: learned names are replaced as whole names only") {
  PseudonymMap map;
  TextRedactor r(Defaults(), &map);
  r.AddLiteral(Family::kUsername, "canaryalice");
  r.AddLiteral(Family::kUsername, "root");       // kept on purpose
  r.AddLiteral(Family::kHostname, "localhost");  // kept on purpose
  r.AddLiteral(Family::kHostname, "gpu-node-7");
  r.Seal();
  CHECK(Redact(r, "session of user canaryalice in /home/canaryalice/x by root on localhost") ==
        "session of user user-0001 in /home/user-0001/x by root on localhost");
  CHECK(Redact(r, "nvidia-device-plugin-gpu-node-7_uid gpu-node-70 xcanaryalice") ==
        "nvidia-device-plugin-node-0001_uid gpu-node-70 xcanaryalice");
}

TEST_CASE("TextRedactor: secrets and cloud ids") {
  PseudonymMap map;
  TextRedactor r(Defaults(), &map);
  r.Seal();
  RedactionCounts counts;
  CHECK(Redact(r, "pull https://alice:Sup3rS3cret@registry.example/v2/ with AKIACANARY7EXAMPLE12", &counts) ==
        "pull https://alice:<redacted>@registry.example/v2/ with <redacted>");
  CHECK(Redact(r, "role arn:aws:iam::123456789012:role/x on aws:///us-west-2b/i-0a1b2c3d4e5f67890", &counts) ==
        "role arn:aws:iam::cloud-0002:role/x on aws:///us-west-2b/cloud-0001");
  CHECK(counts == RedactionCounts{{"cloud_id", 2}, {"secret", 2}});
}

TEST_CASE("TextRedactor: GPU ids only with the gpu_id class, then consistently") {
  const std::string line = "Xid (PCI:0000:9a:00): 79 GPU-5b3c8a8e-0d1f-4a43-9a8e-2b1d3c4e5f60 serial 1652123456789";
  PseudonymMap map;
  TextRedactor off(Defaults(), &map);
  off.AddLiteral(Family::kGpuSerial, "1652123456789");
  off.Seal();
  CHECK(Redact(off, line) == line);
  TextRedactor on(*ChooseClasses("+gpu_id"), &map);
  on.AddLiteral(Family::kGpuSerial, "1652123456789");
  on.Seal();
  CHECK(Redact(on, line) == "Xid (PCI:0000:9a:00): 79 GPU-00000000-0000-4000-8000-000000000001 serial 9000000000001");
  CHECK(Redact(on, "MIG-GPU-5b3c8a8e-0d1f-4a43-9a8e-2b1d3c4e5f60/1/0") == "MIG-GPU-00000000-0000-4000-8000-000000000001/1/0");
}

TEST_CASE("TextRedactor: keywords and user patterns, a pattern's group being what goes") {
  PseudonymMap map;
  TextRedactor r(Defaults(), &map);
  r.AddKeyword("Bluebird");
  r.AddUserPattern(std::make_unique<RE2>("ticket (CASE-[0-9]{5})"));
  r.Seal();
  CHECK(Redact(r, "project bluebird-trainer, ticket CASE-77123, BLUEBIRD") ==
        "project redacted-0002-trainer, ticket redacted-0001, redacted-0002");
}

TEST_CASE("TextRedactor: pod names and namespaces only with k8s_name, the plugin and system namespaces kept") {
  PseudonymMap map;
  TextRedactor r(*ChooseClasses("+k8s_name"), &map);
  r.KeepPodsMatching("(nvidia|gpu).*device-plugin|device-plugin.*(nvidia|gpu)");
  r.AddLiteral(Family::kNamespace, "ml-team");
  r.AddLiteral(Family::kNamespace, "kube-system");
  r.AddLiteral(Family::kPod, "bluebird-trainer-7d9f");
  r.AddLiteral(Family::kPod, "nvidia-device-plugin-daemonset-x7k2p");
  r.Seal();
  CHECK(Redact(r, "/var/log/pods/ml-team_bluebird-trainer-7d9f_uid kube-system/nvidia-device-plugin-daemonset-x7k2p") ==
        "/var/log/pods/ns-0001_pod-0001_uid kube-system/nvidia-device-plugin-daemonset-x7k2p");
}

TEST_CASE("ChooseClasses: defaults, additions, removals, a replacing list, unknown names") {
  CHECK(ChooseClasses("")->count("gpu_id") == 0);
  CHECK(ChooseClasses("+gpu_id,-username")->count("gpu_id") == 1);
  CHECK(ChooseClasses("+gpu_id,-username")->count("username") == 0);
  CHECK(*ChooseClasses("ipv4,mac") == std::set<std::string>{"ipv4", "mac"});
  CHECK(ChooseClasses("+gpu").status().message() ==
        "--redact-classes: unknown class 'gpu': known: secret, hostname, machine_id, ipv4, ipv6, mac, username, "
        "cloud_id, k8s_name, gpu_id, keyword");
}

}  // TEST_SUITE

}  // namespace gpuf
