
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/node_name_option.h"
#include "cli/options.h"
#include "collector/watch.h"
#include "common/bundle_layout.h"
#include "common/exit_codes.h"

#ifndef GPUF_VERSION
#define GPUF_VERSION "0.0.0"
#endif

namespace gpuf {

namespace {

std::string Describe(const ChainCheck& c) {
  std::string text = std::to_string(c.pci_gpus) + " GPUs on PCI, " + std::to_string(c.driver_gpus) + " in the driver";
  if (c.registered) text += *c.registered ? ", plugin registered" : ", plugin not registered";
  if (c.allocatable) text += ", allocatable " + (c.allocatable->empty() ? std::string("absent") : *c.allocatable);
  return text;
}

}  // namespace

int RunWatch(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics watch --out-dir DIR [options]\n\n"
      "Checks the GPU chain cheaply (no NVML) and runs a full collect only when it is\n"
      "broken: one bundle per incident, at most one per --min-interval, the newest\n"
      "--keep bundles and at most --max-bytes kept in DIR. Meant for a systemd timer\n"
      "(deploy/systemd).\n\noptions");
  options.add_options()
      ("out-dir", po::value<std::string>()->value_name("DIR"), "where bundles and the watch state live")
      ("root", po::value<std::string>()->value_name("DIR")->default_value("/"), "where the host's files are")
      ("min-interval", po::value<int64_t>()->value_name("SECONDS")->default_value(900), "seconds between two bundles at the least")
      ("keep", po::value<int>()->value_name("N")->default_value(10), "bundles kept in --out-dir")
      ("max-bytes", po::value<int64_t>()->value_name("BYTES")->default_value(2LL << 30), "bytes of bundles kept in --out-dir")
      ("check-allocatable", "also ask the API for the Node's nvidia.com/gpu allocatable (kubectl)")
      ("kubeconfig", po::value<std::string>()->value_name("FILE"), "kubeconfig for kubectl (default $KUBECONFIG, the kubelet's --kubeconfig, the platform's, then in a pod its service account)")
      ("node", po::value<std::string>()->value_name("NODE"), "node name (default $NODE_NAME, the kubelet's --hostname-override or hostnameOverride, its mirror pods or journal, then the hostname)")
      ("plugin-pattern", po::value<std::string>()->value_name("RE2")->default_value(std::string(kDefaultPluginPattern)),
       "RE2 (case-insensitive) matching device-plugin container, pod and log names")
      ("exec", po::value<std::string>()->value_name("MODE")->default_value("path"), "how collect runs host commands: path, chroot, nsenter")
      ("timeout", po::value<double>()->value_name("SECONDS")->default_value(10), "seconds one collect probe may take")
      ("deadline", po::value<double>()->value_name("SECONDS")->default_value(120), "seconds the whole collect may take");
  auto parsed = ParseOptions("watch", args, options, po::positional_options_description());
  if (!parsed.ok()) return ReportFailure("watch", parsed.status());
  if (parsed->help) return PrintHelp("watch", options, po::positional_options_description());
  const auto& v = parsed->values;
  if (!v.count("out-dir")) return ReportFailure("watch", Status::InvalidArgument("--out-dir is required"));
  WatchOptions o;
  o.out_dir = v["out-dir"].as<std::string>();
  o.min_interval_s = v["min-interval"].as<int64_t>();
  o.keep = v["keep"].as<int>();
  o.max_bytes = v["max-bytes"].as<int64_t>();
  o.check_allocatable = v.count("check-allocatable") > 0;
  if (o.keep < 1 || o.max_bytes < 1 || o.min_interval_s < 0) {
    return ReportFailure("watch", Status::InvalidArgument("--keep and --max-bytes must be positive"));
  }
  CollectOptions& c = o.collect;
  c.root = v["root"].as<std::string>();
  if (v.count("kubeconfig")) c.kubeconfig = v["kubeconfig"].as<std::string>();
  if (v.count("node")) c.node = v["node"].as<std::string>();
  if (Status names = CheckNodeNames("watch", c.node); !names.ok()) return ReportFailure("watch", names);
  c.plugin_pattern = v["plugin-pattern"].as<std::string>();
  c.exec_mode = v["exec"].as<std::string>();
  c.probe_timeout_ms = static_cast<int64_t>(v["timeout"].as<double>() * 1000);
  c.deadline_ms = static_cast<int64_t>(v["deadline"].as<double>() * 1000);
  if (c.probe_timeout_ms <= 0 || c.deadline_ms <= 0) {
    return ReportFailure("watch", Status::InvalidArgument("--timeout and --deadline must be positive"));
  }
  const char* path = std::getenv("PATH");
  c.path_env = path ? path : "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  c.tool_version = GPUF_VERSION;

  auto outcome = Watch(o, InstallInterruptHandlers());
  if (!outcome.ok()) return ReportFailure("watch", outcome.status());
  const ChainCheck& check = outcome->check;
  std::string problems;
  for (const auto& p : check.problems) problems += (problems.empty() ? "" : ", ") + p;
  if (outcome->action == "healthy") {
    std::printf("watch: healthy (%s)\n", Describe(check).c_str());
    return kExitOk;
  }
  std::printf("watch: BROKEN (%s; %s): ", problems.c_str(), Describe(check).c_str());
  if (outcome->action == "collected") {
    std::printf("captured %s\n", outcome->bundle.c_str());
  } else if (outcome->action == "already_captured") {
    std::printf("this incident is already captured in %s\n", outcome->bundle.c_str());
  } else {
    std::printf("not captured: the last bundle is younger than --min-interval (%s)\n", outcome->bundle.c_str());
  }
  for (const auto& removed : outcome->removed) std::printf("watch: removed %s (retention)\n", removed.c_str());
  return kExitFindings;
}

}  // namespace gpuf
