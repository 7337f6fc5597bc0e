#include "importer/saved_outputs.h"

#include <doctest/doctest.h>

#include "formats/cri_log.h"
#include "formats/crictl_json.h"

namespace gpuf {

TEST_SUITE("saved_outputs") {

TEST_CASE("CrictlTableToJson: the table crictl prints, as crictl ps -o json") {
  Converted c = CrictlTableToJson(
      "CONTAINER       IMAGE           CREATED        STATE     NAME                       ATTEMPT   POD ID          POD\n"
      "f3d0365e077f8   11e544f0ce205   10 hours ago   Running   nvidia-device-plugin-ctr   1         585005aaa7b54   "
      "nvidia-device-plugin-node-1\n"
      "d6fe99e9684ff   11e544f0ce205   16 days ago    Exited    nvidia-device-plugin-ctr   0         b7a3ee7b50ce2   "
      "nvidia-device-plugin-node-1\n");
  CHECK(c.rows == 2);
  CriContainers parsed = ParseCrictlPs(c.text);
  CHECK(parsed.warnings.empty());
  REQUIRE(parsed.containers.size() == 2);
  CHECK(parsed.containers[0].id == "f3d0365e077f8");
  CHECK(parsed.containers[0].state == "CONTAINER_RUNNING");
  CHECK(parsed.containers[0].attempt == 1);
  CHECK(parsed.containers[0].pod_name == "nvidia-device-plugin-node-1");
  CHECK_FALSE(parsed.containers[0].created_at_ns.has_value());  // "10 hours ago" is not a time
  CHECK(parsed.containers[1].state == "CONTAINER_EXITED");
}

TEST_CASE("ConvertPluginLog: kubectl logs lines get their own Go-log time, others their neighbour's") {
  ConvertedLog log = ConvertPluginLog(
      "[pod/nvidia-device-plugin-x/nvidia-device-plugin-ctr] 2026/11/18 03:18:17 Loading NVML\n"
      "2026/11/18 03:18:17 Failed to initialize NVML: nvml: Unknown Error.\n"
      "  {\"version\": \"v1\"}\n",
      2026, 0);
  CHECK(log.form == PluginLogForm::kTimestamped);
  CHECK(log.lines_timed_by_neighbour == 1);
  CHECK(log.text ==
        "2026-11-18T03:18:17.000000000Z 2026/11/18 03:18:17 Loading NVML\n"
        "2026-11-18T03:18:17.000000000Z 2026/11/18 03:18:17 Failed to initialize NVML: nvml: Unknown Error.\n"
        "2026-11-18T03:18:17.000000000Z   {\"version\": \"v1\"}\n");
  ParsedCriLog parsed = ParseCrictlTimestampedLogs(log.text);
  CHECK(parsed.warnings.empty());
  CHECK(parsed.records.size() == 3);
}

TEST_CASE("ConvertPluginLog: a CRI log file is kept as it is") {
  std::string cri = "2026-11-18T11:18:17.378842643+08:00 stderr F 2026/11/18 03:18:17 Loading NVML\n";
  ConvertedLog log = ConvertPluginLog(cri, 2026, 0);
  CHECK(log.form == PluginLogForm::kCriFile);
  CHECK(log.text == cri);
}

TEST_CASE("SmiQueryToList: nvidia-smi -q blocks as nvidia-smi -L lines") {
  ConvertedSmiQuery q = SmiQueryToList(
      "==============NVSMI LOG==============\n\nAttached GPUs                         : 2\n"
      "GPU 00000000:0E:00.0\n    Product Name                      : NVIDIA H800\n"
      "    GPU UUID                          : GPU-8c141868-e051-2def-84a2-369843042084\n\n"
      "GPU 00000000:13:00.0\n    Product Name                      : NVIDIA H800\n"
      "    GPU UUID                          : GPU-f2758f58-8374-9889-a19b-0101c2188368\n");
  CHECK(q.gpus == 2);
  CHECK(q.list.rows == 2);
  CHECK(q.list.text ==
        "GPU 0: NVIDIA H800 (UUID: GPU-8c141868-e051-2def-84a2-369843042084)\n"
        "GPU 1: NVIDIA H800 (UUID: GPU-f2758f58-8374-9889-a19b-0101c2188368)\n");
}

}  // TEST_SUITE

}  // namespace gpuf
