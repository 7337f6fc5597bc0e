// Which Kubernetes Node this host is, and which kubeconfig reaches the API.
//
// The Node is often not named after the host: ACK's kubelet runs with
// --hostname-override=cn-hangzhou.10.42.7.19 on host iZbp1...Z, EKS passes the
// EC2 private DNS name, OpenShift KUBELET_NODE_NAME. The name is resolved in
// this order; the first step that yields one wins, and every step tried is
// kept with what it saw (the manifest's host.node_name_steps):
//
//   option           --node
//   node_object      metadata.name of the Node given with --node-object
//   env              $NODE_NAME (the downward API in a DaemonSet or Job)
//   kubelet_flag     --hostname-override of the running kubelet (/proc/PID/cmdline),
//                    of its unit and drop-ins (Environment= and EnvironmentFile=
//                    expanded), of /etc/default/kubelet, /etc/sysconfig/kubelet,
//                    kubeadm-flags.env and the platform's flag files; k3s and
//                    RKE2's --node-name and node-name: in their config.yaml
//   kubelet_config   hostnameOverride in the KubeletConfiguration (YAML or JSON)
//   mirror_pod       /var/log/pods/<ns>_<static pod>-<node>_<uid> for the static
//                    pods the host's manifests declare
//   kubelet_journal  the kubelet's "Successfully registered node" line, or the
//                    --hostname-override in k3s' and RKE2's "Running kubelet" line
//   hostname         /etc/hostname, else the hostname of this machine
//
// The kubeconfig: --kubeconfig, $KUBECONFIG, the kubelet's own --kubeconfig,
// the platform's kubelet kubeconfig, any other platform's, then the pod's
// in-cluster service account (kubectl reads its token itself). Kubeconfigs
// hold credentials: only their existence is checked, and at most their
// leading apiVersion and kind lines are looked at, so that a
// KubeletConfiguration (OpenShift's /etc/kubernetes/kubelet.conf) is never
// taken for one.
#ifndef GPUF_COLLECTOR_NODE_IDENTITY_H_
#define GPUF_COLLECTOR_NODE_IDENTITY_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/host_files.h"
#include "common/manifest.h"
#include "common/platforms.h"

namespace gpuf {

struct NodeIdentityInputs {
  const HostFiles* host = nullptr;
  // The first bytes of a kubeconfig candidate, which the HostFiles of a
  // collection refuse to Read (it may hold credentials): only its leading
  // apiVersion and kind are looked at. Unset: host->Read.
  std::function<std::optional<std::string>(const std::string&)> read_head;
  PlatformMatch platform;
  std::string option_node;              // --node
  std::string node_object_name;         // metadata.name of --node-object
  std::string env_node_name;            // $NODE_NAME
  std::string hostname;                 // /etc/hostname or this machine's
  std::string option_kubeconfig;        // --kubeconfig
  std::string env_kubeconfig;           // $KUBECONFIG
  bool in_cluster = false;              // $KUBERNETES_SERVICE_HOST and a service-account token
  // The kubelet's journal lines as text (`journalctl -o cat`), asked for only
  // when no earlier step named the Node; "" when it cannot be read.
  std::function<std::string()> kubelet_journal;
};

struct NodeIdentity {
  std::string node_name;         // "" when no step gave one
  std::string node_name_source;  // the step that gave it ("kubelet_flag"), "" when none
  std::vector<ManifestNameStep> steps;
  std::string hostname;
  std::string kubeconfig;        // host path to pass to kubectl, "" when none or in-cluster
  std::string kubeconfig_source; // "option", "env", "kubelet_flag", "platform", "in_cluster", "" when none
  // With --node-object: the name this node's kubelet uses (its flags, config
  // or mirror pods), value "" when the node shows none.
  ManifestNameStep kubelet_name;
};

NodeIdentity ResolveNodeIdentity(const NodeIdentityInputs& in);

// Why `name` cannot be a Node's name (a DNS subdomain: at most 253
// characters of a-z, 0-9, '-' and '.', starting and ending with a letter or
// digit), or nullopt when it can.
std::optional<std::string> NodeNameProblem(std::string_view name);

// From the leading lines of a YAML or JSON document: its kind
// ("KubeletConfiguration", "Config"), or, without one, "KubeletConfiguration"
// when its apiVersion is kubelet.config.k8s.io/..., else "". Looks at
// nothing past the first key that is neither apiVersion nor kind.
std::string LeadingDocumentKind(std::string_view head);

// "Successfully registered node" (structured or not) or k3s/RKE2's
// "Running kubelet ... --hostname-override=NAME": the last name in `text`.
std::string NodeNameFromKubeletLog(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_NODE_IDENTITY_H_
