#include "importer/saved_text.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("saved_text") {

TEST_CASE("PromptCommand: the prompts people paste, and lines that only look like one") {
  // Each prompt line is quoted from tests/corpus (see the case's source).
  CHECK(PromptCommand("root@node4:~# dmesg -T |grep NVRM") == "dmesg -T |grep NVRM");
  CHECK(PromptCommand("root@098b49afe624:/# nvidia-smi ") == "nvidia-smi");
  CHECK(PromptCommand("[root@test-node1 system]# systemctl status kubelet -l") == "systemctl status kubelet -l");
  CHECK(PromptCommand("bash-5.1# systemctl status nvidia-persistenced") == "systemctl status nvidia-persistenced");
  CHECK(PromptCommand("(host) # nvidia-smi -L") == "nvidia-smi -L");
  CHECK(PromptCommand("(container) $ nvidia-smi -L") == "nvidia-smi -L");
  CHECK(PromptCommand("(venv) root@node1:~/kubespray# nvidia-smi ") == "nvidia-smi");
  CHECK(PromptCommand("$ kubectl get pod -n gpu-operator -l app=gpu-operator") ==
        "kubectl get pod -n gpu-operator -l app=gpu-operator");
  CHECK(PromptCommand("bash$ kubectl get pods") == "kubectl get pods");
  CHECK(PromptCommand("k describe po hami-device-plugin-tp8b9") == "k describe po hami-device-plugin-tp8b9");
  CHECK(PromptCommand("cmd: systemctl --version | head -n1") == "systemctl --version | head -n1");
  CHECK(PromptCommand("cat /sys/fs/cgroup/devices/devices.list ") == "cat /sys/fs/cgroup/devices/devices.list");
  CHECK(PromptCommand("`[root@hgxlearn1000-mgmt ~]# kubectl logs nvidia-cuda-validator-nr8cq -n gpu-operator-resources") ==
        "kubectl logs nvidia-cuda-validator-nr8cq -n gpu-operator-resources");
  // Shells whose prompt ends in a symbol (fish, zsh themes, starship), a known tool after it.
  CHECK(PromptCommand(
            "~ ❯❯❯ docker run --rm --gpus all --runtime nvidia nvidia/cuda:11.0.3-base-ubuntu20.04 nvidia-smi") ==
        "docker run --rm --gpus all --runtime nvidia nvidia/cuda:11.0.3-base-ubuntu20.04 nvidia-smi");
  CHECK(PromptCommand("user@host ~> sudo docker run --rm --runtime=nvidia --gpus all ubuntu nvidia-smi") ==
        "sudo docker run --rm --runtime=nvidia --gpus all ubuntu nvidia-smi");
  CHECK(PromptCommand("➜  ~ kubectl logs -n kube-system nvidia-device-plugin-daemonset-x2x9d") ==
        "kubectl logs -n kube-system nvidia-device-plugin-daemonset-x2x9d");
  CHECK(PromptCommand("❯ nvidia-smi -L") == "nvidia-smi -L");
  CHECK(PromptCommand("➜ journalctl -u kubelet") == "journalctl -u kubelet");
  CHECK(PromptCommand("gpu-node-1% dmesg -T") == "dmesg -T");
  // Not prompts: a shell comment, output, an indented value that names a command.
  CHECK(PromptCommand("> 0000:3b:00.0 Xid 79") == "");
  CHECK(PromptCommand("GPU utilisation 85% while training") == "");
  CHECK(PromptCommand("Warning -> retrying in 5s") == "");
  CHECK(PromptCommand("# HELP the number of GPUs") == "");
  CHECK(PromptCommand("`# HELP the number of GPUs") == "");
  CHECK(PromptCommand("NVRM: Xid (PCI:0000:ca:00): 79, pid='<unknown>'") == "");
  CHECK(PromptCommand("  kubectl describe pod of the operator would show the memory limit") == "");
}

TEST_CASE("CleanSavedText: the output stays, what a person added is dropped and counted") {
  SavedText s = CleanSavedText(
      "----------------- content begin ----------------\n"
      "TASK [cuda : Enable NVIDIA Persistence Daemon] *****************\n"
      "Sep 18 03:19:01 ubuntu2404 systemd[1]: nvidia-fabricmanager.service: Failed with result 'exit-code'.\n"
      "....\n"
      "--\n");
  CHECK(s.text == "Sep 18 03:19:01 ubuntu2404 systemd[1]: nvidia-fabricmanager.service: Failed with result 'exit-code'.\n");
  CHECK(s.dropped.size() == 4);
  CHECK(s.first_line == "Sep 18 03:19:01 ubuntu2404 systemd[1]: nvidia-fabricmanager.service: Failed with result 'exit-code'.");
  CHECK(s.view.view == View::kUnknown);
}

TEST_CASE("CleanSavedText: markdown's bold around a whole line is taken off") {
  // tests/corpus/kubevirt-gpu-device-plugin-20-a100-name-not-in-pci-ids
  SavedText s = CleanSavedText("**[root@node003 ~]# kubectl get pods**\nAllocatable:\n  **nvidia.com/gpu:  0**\n  cpu:  8\n");
  CHECK(s.commands == std::vector<std::string>{"kubectl get pods"});
  CHECK(s.text == "Allocatable:\n  nvidia.com/gpu:  0\n  cpu:  8\n");
}

TEST_CASE("CleanSavedText: blanks every line shares are the page's, and middle dots are an elision") {
  // tests/corpus/jk97-my-note-kubeflow-master-1080ti-gpu-zero-zh
  SavedText s = CleanSavedText("$ kubectl describe nodes\n    \u00b7\u00b7\u00b7\n    Capacity:\n      cpu:  16\n");
  CHECK(s.text == "Capacity:\n  cpu:  16\n");
  CHECK(s.dropped.size() == 2);
}

TEST_CASE("CleanSavedText: the view the text itself gives") {
  SUBCASE("a prompt whose host is a container id") {
    SavedText s = CleanSavedText("root@098b49afe624:/# nvidia-smi \nFailed to initialize NVML: Unknown Error\n");
    CHECK(s.view.view == View::kContainer);
    CHECK(s.view.why == "prompt host 098b49afe624 is a container id");
    CHECK(s.text == "Failed to initialize NVML: Unknown Error\n");
  }
  SUBCASE("a labelled prompt") {
    CHECK(CleanSavedText("(host) # nvidia-smi -L\nGPU 0: NVIDIA A10 (UUID: GPU-f15a)\n").view.view == View::kHost);
    CHECK(CleanSavedText("(container) $ nvidia-smi -L\nFailed to initialize NVML: Unknown Error\n").view.view ==
          View::kContainer);
  }
  SUBCASE("a command run in a container") {
    SavedText s = CleanSavedText("$ kubectl exec -n gpu-operator nvidia-driver-daemonset-x -c nvidia-driver-ctr "
                                 "-- nvidia-smi -q\nFabric\n");
    CHECK(s.view.view == View::kContainer);
    CHECK(s.view.why == "run with `kubectl exec -n gpu-operator nvidia-driver-daemonset-x -c nvidia-driver-ctr`");
  }
  SUBCASE("a command run in a new container") {
    SavedText s = CleanSavedText(
        "~ ❯❯❯ docker run --rm --gpus all nvidia/cuda:11.0.3-base-ubuntu20.04 nvidia-smi\n"
        "Failed to initialize NVML: Insufficient Permissions\n");
    CHECK(s.view.view == View::kContainer);
    CHECK(s.view.why == "run with `docker run`");
    CHECK(CleanSavedText("$ sudo ctr run --rm -t --gpus 0 docker.io/nvidia/cuda:12.2.0-base-ubuntu22.04 t nvidia-smi\n"
                         "No devices were found\n")
              .view.view == View::kContainer);
    CHECK(CleanSavedText("$ docker run-report\nx\n").view.view == View::kUnknown);
  }
  SUBCASE("a host's name in the prompt says nothing") {
    CHECK(CleanSavedText("root@node4:~# nvidia-smi -L\nGPU 0: A\n").view.view == View::kUnknown);
  }
}

TEST_CASE("ViewFromFileName: words people use") {
  CHECK(ViewFromFileName("nvidia-smi-in-container.txt").view == View::kContainer);
  CHECK(ViewFromFileName("smi-plugin.txt").view == View::kContainer);
  CHECK(ViewFromFileName("host-nvidia-smi-L.txt").view == View::kHost);
  CHECK(ViewFromFileName("host-nvidia-smi-L.txt").why == "file name 'host-nvidia-smi-L.txt'");
  CHECK(ViewFromFileName("nvidia-smi.txt").view == View::kUnknown);
}

TEST_CASE("SplitTranscript: one piece per command that printed something") {
  // tests/corpus/nvidia-docker-1618-devices-list-lost/inside-container.txt, shortened.
  auto pieces = SplitTranscript(
      "cat /sys/fs/cgroup/devices/devices.list\n...\nc 195:* m\nc 507:* m\n"
      "root@node1:/workspace# ll /dev/ | grep nvidia\n"
      "crw-rw-rw- 1 root root 195, 254 Feb 23 06:28 nvidia-modeset\n");
  REQUIRE(pieces.size() == 2);
  CHECK(pieces[0].command == "cat /sys/fs/cgroup/devices/devices.list");
  CHECK(pieces[0].text == "cat /sys/fs/cgroup/devices/devices.list\n...\nc 195:* m\nc 507:* m\n");
  CHECK(pieces[1].command == "ll /dev/ | grep nvidia");
  CHECK(SplitTranscript("GPU 0: A\nGPU 1: B\n").size() == 1);
}

}  // TEST_SUITE

}  // namespace gpuf
