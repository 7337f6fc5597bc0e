#include "kube/collector_pod.h"

namespace gpuf {

namespace {

// Pod names are DNS subdomains: lowercase letters, digits, '-' and '.',
// starting and ending with a letter or digit. Node names already are; the
// part kept is short enough that the pod's hostname (its first 63
// characters) still names the node.
std::string NamePart(std::string_view node) {
  std::string out;
  for (char c : node) {
    if (out.size() >= 40) break;
    char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    bool ok = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') || lower == '-' || lower == '.';
    out += ok ? lower : '-';
  }
  while (!out.empty() && (out.back() == '-' || out.back() == '.')) out.pop_back();
  return out.empty() ? "node" : out;
}

}  // namespace

std::string CollectorPodName(std::string_view node, std::string_view run_id) {
  return "gpuforensics-" + NamePart(node) + "-" + std::string(run_id);
}

nlohmann::json CollectorPod(const CollectorPodSpec& spec) {
  using nlohmann::json;
  json labels = {{"app.kubernetes.io/name", "gpuforensics-collect"},
                 {std::string(kManagedByLabel), std::string(kManagedByValue)},
                 {std::string(kRunLabel), spec.run_id}};
  json container = {
      {"name", std::string(kCollectorContainer)},
      {"image", spec.image},
      {"imagePullPolicy", "IfNotPresent"},
      // The collection runs through exec; the pod only has to stay up until then.
      {"command", json::array({"sleep", std::to_string(spec.lifetime_s)})},
      {"env", {{{"name", "NODE_NAME"}, {"valueFrom", {{"fieldRef", {{"fieldPath", "spec.nodeName"}}}}}}}},
      {"securityContext", {{"privileged", true}}},
      {"resources", {{"requests", {{"cpu", "100m"}, {"memory", "64Mi"}}}, {"limits", {{"memory", "512Mi"}}}}},
      {"volumeMounts",
       {{{"name", "host"}, {"mountPath", "/host"}, {"readOnly", true}, {"mountPropagation", "HostToContainer"}}}},
  };
  json pod_spec = {
      {"nodeName", spec.node},
      {"restartPolicy", "Never"},
      {"activeDeadlineSeconds", spec.lifetime_s},
      // sleep as PID 1 ignores SIGTERM: without this a deleted pod lingers 30 s.
      {"terminationGracePeriodSeconds", 1},
      {"tolerations", {{{"operator", "Exists"}}}},
      {"hostPID", true},
      {"automountServiceAccountToken", false},
      {"enableServiceLinks", false},
      {"containers", {container}},
      {"volumes", {{{"name", "host"}, {"hostPath", {{"path", "/"}, {"type", "Directory"}}}}}},
  };
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", CollectorPodName(spec.node, spec.run_id)}, {"labels", labels}}},
          {"spec", pod_spec}};
}

std::vector<std::string> CollectCommand(int64_t deadline_s, bool no_driver, bool node_object_on_stdin) {
  std::vector<std::string> argv = {"gpuforensics-collect", "collect", "--root",   "/host", "--exec",
                                   "chroot",               "--output", "-", "--deadline", std::to_string(deadline_s)};
  if (no_driver) argv.push_back("--no-driver");
  if (node_object_on_stdin) argv.insert(argv.end(), {"--node-object", "-"});
  return argv;
}

}  // namespace gpuf
