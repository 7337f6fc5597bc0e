#include "tests/fake_node.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>

namespace gpuf::test {

namespace {

constexpr char kNvidiaSmiList[] =
    "GPU 0: NVIDIA H800 (UUID: GPU-5b3c8a8e-0d1f-4a43-9a8e-2b1d3c4e5f60)\n"
    "GPU 1: NVIDIA H800 (UUID: GPU-7d2e9f10-3a4b-4c5d-8e9f-0a1b2c3d4e5f)\n";

std::string CrictlPs() {
  return std::string(R"({
  "containers": [
    {
      "id": ")") + kPluginId + R"(",
      "podSandboxId": "9e8d7c6b5a4938271605f4e3d2c1b0a99e8d7c6b5a4938271605f4e3d2c1b0a9",
      "metadata": {
        "name": "nvidia-device-plugin-ctr",
        "attempt": 0
      },
      "image": {
        "image": "sha256:4b1c9e3f0a2d",
        "annotations": {
        },
        "userSpecifiedImage": ""
      },
      "imageRef": "sha256:4b1c9e3f0a2d",
      "state": "CONTAINER_RUNNING",
      "createdAt": "1763435897412345678",
      "labels": {
        "io.kubernetes.container.name": "nvidia-device-plugin-ctr",
        "io.kubernetes.pod.name": "nvidia-device-plugin-gpu-node-7",
        "io.kubernetes.pod.namespace": "kube-system",
        "io.kubernetes.pod.uid": "0c6d4f1e-2b3a-4c5d-9e8f-7a6b5c4d3e2f"
      },
      "annotations": {
        "io.kubernetes.container.restartCount": "0"
      }
    }
  ]
}
)";
}

std::string CrictlInspect() {
  return std::string(R"({
  "status": {
    "id": ")") + kPluginId + R"(",
    "state": "CONTAINER_RUNNING",
    "createdAt": "2025-11-18T11:18:17.412345678+08:00",
    "startedAt": "2025-11-18T11:18:17.501234567+08:00",
    "finishedAt": "0001-01-01T00:00:00Z",
    "exitCode": 0,
    "logPath": "/var/log/pods/kube-system_nvidia-device-plugin-gpu-node-7_0c6d4f1e-2b3a-4c5d-9e8f-7a6b5c4d3e2f/nvidia-device-plugin-ctr/0.log"
  },
  "info": {
    "pid": 4242,
    "runtimeType": "io.containerd.runc.v2",
    "config": {
      "envs": [
        {"key": "FAIL_ON_INIT_ERROR", "value": "false"},
        {"key": "REGISTRY_PASSWORD", "value": "gpuf-canary-env-object"}
      ]
    },
    "runtimeSpec": {
      "process": {
        "args": ["nvidia-device-plugin", "--fail-on-init-error=false", "--api-token=gpuf-canary-arg"],
        "env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                "NVIDIA_VISIBLE_DEVICES=all", "DATABASE_URL=postgres://app:gpuf-canary-env@db/app"]
      },
      "hooks": {"prestart": [{"path": "/usr/bin/nvidia-container-runtime-hook", "args": ["nvidia-container-runtime-hook", "prestart"]}]},
      "linux": {
        "cgroupsPath": "kubepods-besteffort-pod0c6d4f1e_2b3a_4c5d_9e8f_7a6b5c4d3e2f.slice:cri-containerd:)" +
         kPluginId + R"("
      }
    }
  }
}
)";
}

// A stub that answers by argv, like the real tool would.
std::string CrictlBody(const std::string& bin) {
  return "case \"$*\" in\n"
         "  'ps -a -o json') cat '" + bin + "/crictl-ps.json' ;;\n"
         "  'pods -o json') echo '{\"items\": []}' ;;\n"
         "  'info -o json') echo '{\"config\": {\"containerd\": {\"defaultRuntimeName\": \"nvidia\"}}}' ;;\n"
         "  'inspect -o json " + kPluginId + "') cat '" + bin + "/crictl-inspect.json' ;;\n"
         "  'exec " + kPluginId + " nvidia-smi -L') echo 'Failed to initialize NVML: Unknown Error'; exit 255 ;;\n"
         "  '--version') echo 'crictl version v1.31.1' ;;\n"
         "  *) echo \"crictl: unknown command $1\" >&2; exit 1 ;;\n"
         "esac";
}

void MakeCharDevice(const std::string& path, int major, int minor) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  if (geteuid() == 0) {
    mknod(path.c_str(), S_IFCHR | 0666, makedev(major, minor));
    chmod(path.c_str(), 0666);  // mknod applies the umask
  } else {
    WriteFile(path, "");  // tests that need real device nodes check for root
  }
}

}  // namespace

void BuildFakeNode(FakeHost& host) {
  const std::string r = host.root();
  host.AddFile("/proc/stat", "cpu  1 2 3 4\nbtime 1763435860\nprocesses 4000\n");
  host.AddFile("/proc/uptime", "36740.12 72000.50\n");
  host.AddFile("/proc/sys/kernel/random/boot_id", "9c1d4e2a-5b6f-4a3b-8c7d-0e1f2a3b4c5d\n");
  host.AddFile("/proc/version", "Linux version 5.10.134-16.3.al8.x86_64 (mockbuild@x) (gcc 10.2.1) #1 SMP\n");
  host.AddFile("/proc/devices", "Character devices:\n  1 mem\n195 nvidia-frontend\n508 nvidia-uvm\n511 nvidia-caps\n"
                                "\nBlock devices:\n  8 sd\n");
  host.AddFile("/proc/driver/nvidia/version",
               "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.161.07  Sat Feb 17 22:55:48 UTC 2024\n"
               "GCC version:  gcc version 10.2.1 20200825 (Alibaba 10.2.1-3.8 2.32) (GCC) \n");
  host.AddFile("/proc/driver/nvidia/gpus/0000:18:00.0/information", "Model: \t\t NVIDIA H800\nDevice Minor: \t 0\n");
  host.AddFile("/proc/driver/nvidia/gpus/0000:2a:00.0/information", "Model: \t\t NVIDIA H800\nDevice Minor: \t 1\n");
  host.AddFile("/proc/1/mountinfo", "25 1 0:22 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755\n"
                                    "33 25 0:29 / /sys/fs/cgroup/devices rw - cgroup cgroup rw,devices\n");
  host.AddFile("/proc/4242/cgroup",
               std::string("12:devices:/kubepods.slice/kubepods-besteffort.slice/"
                           "kubepods-besteffort-pod0c6d4f1e_2b3a_4c5d_9e8f_7a6b5c4d3e2f.slice/cri-containerd-") +
                   kPluginId + ".scope\n");
  for (const char* pci : {"0000:18:00.0", "0000:2a:00.0"}) {
    host.AddFile(std::string("/sys/bus/pci/devices/") + pci + "/vendor", "0x10de\n");
    host.AddFile(std::string("/sys/bus/pci/devices/") + pci + "/device", "0x2324\n");
    host.AddFile(std::string("/sys/bus/pci/devices/") + pci + "/class", "0x030200\n");
  }
  host.AddFile("/sys/bus/pci/devices/0000:00:00.0/vendor", "0x8086\n");
  host.AddFile("/sys/bus/pci/devices/0000:00:00.0/class", "0x060000\n");
  host.AddFile(std::string("/sys/fs/cgroup/devices/kubepods.slice/kubepods-besteffort.slice/"
                           "kubepods-besteffort-pod0c6d4f1e_2b3a_4c5d_9e8f_7a6b5c4d3e2f.slice/cri-containerd-") +
                   kPluginId + ".scope/devices.list",
               "c 1:3 rwm\nc 1:5 rwm\nc 136:* rwm\nc 195:* m\nb *:* m\n");
  MakeCharDevice(r + "/dev/nvidia0", 195, 0);
  MakeCharDevice(r + "/dev/nvidia1", 195, 1);
  MakeCharDevice(r + "/dev/nvidiactl", 195, 255);
  MakeCharDevice(r + "/dev/nvidia-uvm", 508, 0);
  std::filesystem::create_directories(r + "/dev/char");
  host.AddFile("/etc/hostname", "gpu-node-7\n");
  host.AddFile("/etc/machine-id", "4f1c2b3a4d5e6f708192a3b4c5d6e7f8\n");
  host.AddSymlink("/etc/localtime", "/usr/share/zoneinfo/Asia/Shanghai");
  host.AddFile("/etc/timezone", "Asia/Shanghai\n");
  host.AddFile("/etc/containerd/config.toml",
               "version = 2\n[plugins.\"io.containerd.grpc.v1.cri\".containerd]\n  default_runtime_name = \"nvidia\"\n"
               "[plugins.\"io.containerd.grpc.v1.cri\".registry.configs.\"registry.example.com\".auth]\n"
               "  username = \"robot\"\n  password = \"gpuf-canary-toml\"\n");
  host.AddFile("/etc/kubernetes/manifests/nvidia-device-plugin.yml",
               "apiVersion: v1\nkind: Pod\nmetadata:\n  name: nvidia-device-plugin\n  namespace: kube-system\n"
               "spec:\n  containers:\n  - name: nvidia-device-plugin-ctr\n    env:\n    - name: FAIL_ON_INIT_ERROR\n"
               "      value: \"false\"\n");
  host.AddFile("/etc/kubernetes/manifests/etcd.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: etcd\n");
  host.AddFile("/etc/kubernetes/kubelet.conf", "apiVersion: v1\nusers:\n- user:\n    token: gpuf-canary-kubeconfig\n");
  host.AddFile("/var/lib/kubelet/pki/kubelet-client-current.pem",
               "-----BEGIN EC PRIVATE KEY-----\ngpuf-canary-pki\n-----END EC PRIVATE KEY-----\n");
  host.AddFile("/var/run/secrets/kubernetes.io/serviceaccount/token", "gpuf-canary-sa-token\n");
  host.AddFile("/var/lib/kubelet/config.yaml", "kind: KubeletConfiguration\ncgroupDriver: systemd\n");
  host.AddFile("/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint",
               "{\"Data\":{\"PodDeviceEntries\":null,\"RegisteredDevices\":{}},\"Checksum\":1}\n");
  host.AddFile("/var/log/pods/kube-system_nvidia-device-plugin-gpu-node-7_0c6d4f1e-2b3a-4c5d-9e8f-7a6b5c4d3e2f/"
               "nvidia-device-plugin-ctr/0.log",
               "2025-11-18T11:18:17.601234567+08:00 stderr F 2025/11/18 03:18:17 Loading NVML\n"
               "2025-11-18T11:18:17.612345678+08:00 stderr F 2025/11/18 03:18:17 Failed to initialize NVML: "
               "could not load NVML library.\n"
               "2025-11-18T11:18:17.612345679+08:00 stderr F 2025/11/18 03:18:17 Authorization: Bearer "
               "gpuf-canary-bearer-token\n");

  WriteFile(host.bin() + "/crictl-ps.json", CrictlPs());
  WriteFile(host.bin() + "/crictl-inspect.json", CrictlInspect());
  host.AddStub("crictl", CrictlBody(host.bin()));
  host.AddStub("nvidia-smi",
               "case \"$*\" in\n"
               "  '-L') printf '%s' '" + std::string(kNvidiaSmiList) + "' ;;\n"
               "  '-q -x') printf '<?xml version=\"1.0\" ?>\\n<nvidia_smi_log>\\n</nvidia_smi_log>\\n' ;;\n"
               "  *) echo 'Invalid combination of input arguments.'; exit 2 ;;\n"
               "esac");
  host.AddStubPrinting("kubectl",
                       "{\"kind\":\"Node\",\"metadata\":{\"name\":\"gpu-node-7\"},\"status\":{\"capacity\":"
                       "{\"cpu\":\"96\",\"nvidia.com/gpu\":\"0\"},\"allocatable\":{\"cpu\":\"95\",\"nvidia.com/gpu\":\"0\"}}}\n");
  host.AddStubPrinting("containerd", "containerd github.com/containerd/containerd v1.6.34 2d8a2a1a\n");
  host.AddStubPrinting("runc", "runc version 1.1.13\ncommit: v1.1.13-0-g58aa9203\nspec: 1.0.2-dev\n");
  host.AddStub("systemctl",
               "case \"$1\" in\n"
               "  --version) echo 'systemd 239 (239-78.0.4.al8)' ;;\n"
               "  show) echo 'DevicePolicy=closed'; echo 'DeviceAllow=char-pts rwm' ;;\n"
               "  *) exit 1 ;;\n"
               "esac");
}

void UseCtrInsteadOfCrictl(FakeHost& host) {
  std::filesystem::remove(host.bin() + "/crictl");
  WriteFile(host.bin() + "/ctr-info.json",
            std::string("{\"ID\": \"") + kPluginId +
                "\", \"Labels\": {\"io.kubernetes.container.name\": \"nvidia-device-plugin-ctr\", "
                "\"io.kubernetes.pod.name\": \"nvidia-device-plugin-gpu-node-7\"}, \"Spec\": {\"process\": "
                "{\"env\": [\"NVIDIA_VISIBLE_DEVICES=all\", \"API_KEY=gpuf-canary-ctr\"]}, \"linux\": "
                "{\"cgroupsPath\": \"/kubepods/besteffort/pod0c6d/" + kPluginId + "\"}}}\n");
  host.AddStub("ctr",
               "case \"$*\" in\n"
               "  '--connect-timeout 2s -n k8s.io containers ls -q') echo " + std::string(kPluginId) + "; echo 0123abcd ;;\n"
               "  '--connect-timeout 2s -n k8s.io tasks ls') printf 'TASK    PID     STATUS\\n" + kPluginId + "    4242    RUNNING\\n' ;;\n"
               "  '--connect-timeout 2s -n k8s.io containers info " + kPluginId + "') cat '" + host.bin() + "/ctr-info.json' ;;\n"
               "  '--connect-timeout 2s -n k8s.io containers info 0123abcd') echo '{\"ID\": \"0123abcd\", \"Labels\": {}}' ;;\n"
               "  '--connect-timeout 2s -n k8s.io tasks exec --exec-id gpuforensics-nvidia-smi " + kPluginId + " nvidia-smi -L') "
               "echo 'Failed to initialize NVML: Unknown Error'; exit 255 ;;\n"
               "  *) echo \"ctr: unknown $*\" >&2; exit 1 ;;\n"
               "esac");
}

}  // namespace gpuf::test
