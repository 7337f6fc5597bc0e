// analyze --explain through the real binary: why a rule of the pack fired
// on the seed incident, and a clear error for a rule that does not exist.
#include <doctest/doctest.h>

#include "tests/test_support.h"

namespace gpuf {

TEST_SUITE("explain") {
TEST_CASE("analyze --explain: the seed incident's root cause, selection by selection and outcome by outcome") {
  const std::string seed = test::SourcePath("samples/seed-incident.tar.zst");
  auto run = test::RunGpuforensics({"analyze", seed, "--explain", "dp-started-before-driver-ready"});
  CHECK(run.exit_code == 0);
  CHECK(run.err == "");
  CHECK(run.out.rfind("rule dp-started-before-driver-ready: fail (confirmed, current)\n", 0) == 0);
  // Which plugin log of the two: the artifact's instance names it.
  CHECK(run.out.find("  plugin_failure          event        true (1 row)  SQL\n"
                     "      plugin.log[/var/log/pods/kube-system_nvidia-device-plugin-cn-shanghai.10.20.31.47_"
                     "5264fc42d2e82b07d8579d58bb938fc1/nvidia-device-plugin-ctr/1.log]:2  Failed to initialize NVML: "
                     "nvml: Unknown Error.\n") != std::string::npos);
  const std::string early =
      "(plugin_failure after driver_ready within 10s or plugin_failure before driver_ready within 10m) and same boot";
  CHECK(run.out.find("  3  true        fail             when " + early + " and nvml_works_now   <- decided\n") !=
        std::string::npos);
  CHECK(run.out.find("  4  not reached fail             when " + early + "\n") != std::string::npos);
  CHECK(run.out.find("\nconfirming pieces, over the rows the decided outcome bound\n"
                     "  true        " +
                     early +
                     " or hook_before_driver\n"
                     "  true        nvml_works_now or later_registered\n"
                     "\nconfidence\n"
                     "  confirmed: all 2 confirming pieces observed\n") != std::string::npos);
}

TEST_CASE("analyze --explain: a rule that is not in the pack is a usage error naming the rules") {
  auto run = test::RunGpuforensics({"analyze", test::SourcePath("samples/healthy.tar.zst"), "--explain", "xid-97"});
  CHECK(run.exit_code == 64);  // the usage status, as for any bad argument
  CHECK(run.out == "");
  CHECK(run.err.rfind("gpuforensics analyze: no rule 'xid-97': the rules run were: ", 0) == 0);
  CHECK(run.err.find('\n') == run.err.size() - 1);
}

TEST_CASE("analyze --explain: a log line's escape sequences and bytes that are not UTF-8 reach the terminal neutralised") {
  test::TempDir dir;
  // An Xid line with a window-title escape and a Latin-1 byte: the row --explain shows.
  test::WriteFile(dir / "dmesg.txt", std::string("[  100.000001] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', "
                                                 "name=\x1b]0;owned\x07\xb5, GPU has fallen off the bus.\n"));
  auto run = test::RunGpuforensics({"analyze", dir.path(), "--explain", "xid-79-fallen-off-bus"});
  CHECK(run.exit_code == 0);
  CHECK(run.out.find('\x1b') == std::string::npos);
  CHECK(run.out.find('\x07') == std::string::npos);
  CHECK(run.out.find("name=\\x1B]0;owned\\x07\\xB5, GPU has fallen off the bus.") != std::string::npos);
}
}

}  // namespace gpuf
