#include "importer/systemctl_status.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("systemctl_status") {

TEST_CASE("ConvertSystemctlStatus: systemd 252's layout, a running unit, its journal tail") {
  // tests/corpus/bottlerocket-core-kit-122-persistenced-running/systemctl-status.txt, shortened.
  ConvertedStatus s = ConvertSystemctlStatus(
      "● nvidia-persistenced.service - NVIDIA Persistence Daemon\n"
      "     Loaded: loaded (/x86_64-bottlerocket-linux-gnu/sys-root/usr/lib/systemd/system/nvidia-persistenced.service; "
      "enabled; preset: enabled)\n"
      "     Active: active (running) since Tue 2024-10-08 00:40:40 UTC; 1min 34s ago\n"
      "   Main PID: 1450 (nvidia-persiste)\n"
      "     CGroup: /system.slice/nvidia-persistenced.service\n"
      "             └─1450 /usr/libexec/nvidia/tesla/bin/nvidia-persistenced --user nvidia --verbose\n"
      "\n"
      "Oct 08 00:40:36 ip-10-194-20-228.us-west-2.compute.internal nvidia-persistenced[1450]: Started (1450)\n");
  CHECK(s.units == 1);
  CHECK(s.first_unit == "nvidia-persistenced.service");
  CHECK(s.show ==
        "Id=nvidia-persistenced.service\nDescription=NVIDIA Persistence Daemon\nLoadState=loaded\n"
        "UnitFileState=enabled\nActiveState=active\nSubState=running\nResult=success\n");
  CHECK(s.journal_tail ==
        "Oct 08 00:40:36 ip-10-194-20-228.us-west-2.compute.internal nvidia-persistenced[1450]: Started (1450)\n");
}

TEST_CASE("ConvertSystemctlStatus: a failed unit in another locale, systemd 219's indentation") {
  // tests/corpus/k8s-54542-kubelet-status-zh-locale/systemctl-status-kubelet.txt, shortened.
  ConvertedStatus s = ConvertSystemctlStatus(
      "● kubelet.service - Kubernetes Kubelet Server\n"
      "   Loaded: loaded (/usr/lib/systemd/system/kubelet.service; disabled; vendor preset: disabled)\n"
      "   Active: failed (Result: start-limit) since 三 2017-10-25 16:08:09 CST; 8s ago\n"
      " Main PID: 18607 (code=exited, status=2)\n"
      "\n"
      "10月 25 16:08:09 test-node1 systemd[1]: Unit kubelet.service entered failed state.\n");
  CHECK(s.show ==
        "Id=kubelet.service\nDescription=Kubernetes Kubelet Server\nLoadState=loaded\nUnitFileState=disabled\n"
        "ActiveState=failed\nResult=start-limit\n");
  CHECK(s.journal_tail == "10月 25 16:08:09 test-node1 systemd[1]: Unit kubelet.service entered failed state.\n");
}

TEST_CASE("ConvertSystemctlStatus: a failed systemctl start says the unit failed") {
  // tests/corpus/gpu-operator-610-fm-no-nvswitch-zh/systemctl-start.txt
  ConvertedStatus s = ConvertSystemctlStatus(
      "Job for nvidia-fabricmanager.service failed because the control process exited with error code.\n"
      "See \"systemctl status nvidia-fabricmanager.service\" and \"journalctl -xe\" for details.\n");
  CHECK(s.show == "Id=nvidia-fabricmanager.service\nActiveState=failed\nSubState=failed\nResult=exit-code\n");
  CHECK(s.units == 1);
}

}  // TEST_SUITE

}  // namespace gpuf
