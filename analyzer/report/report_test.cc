#include "analyzer/report/report.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("report") {

TEST_CASE("NodeIdentityLine: the step that named the Node, the hostname beside it, the kubeconfig and the platform") {
  Manifest m;
  m.hostname = "izbp1d5x3k8f2q7hz2e7tkz";
  m.node_name = "cn-hangzhou.10.42.7.19";
  m.node_name_source = "kubelet_flag";
  m.node_name_steps = {{"option", "", ""},
                       {"env", "", ""},
                       {"kubelet_flag", "/etc/systemd/system/kubelet.service.d/10-kubeadm.conf", "cn-hangzhou.10.42.7.19"}};
  m.kubeconfig = "/etc/kubernetes/kubelet.conf";
  m.kubeconfig_source = "kubelet_flag";
  m.platform = "ack";
  CHECK(NodeIdentityLine(m) ==
        "name from kubelet_flag (/etc/systemd/system/kubelet.service.d/10-kubeadm.conf); hostname "
        "izbp1d5x3k8f2q7hz2e7tkz; kubeconfig /etc/kubernetes/kubelet.conf (kubelet_flag); platform ack");

  SUBCASE("the platform with the file that told it, or none told") {
    m.platform_evidence = "/etc/os-release: ID=alinux";
    CHECK(NodeIdentityLine(m).find("; platform ack (from /etc/os-release: ID=alinux)") != std::string::npos);
    m.platform = "kubeadm+gpu-operator";
    m.platform_evidence = "";
    CHECK(NodeIdentityLine(m).find("; platform unknown (no platform's files found; read as a kubeadm-style node); "
                                   "add-ons gpu-operator") != std::string::npos);
  }
  SUBCASE("a name the API did not know") {
    m.node_found = false;
    CHECK(NodeIdentityLine(m).find("; the API has no Node of that name (a wrong node name, not missing API access); ") !=
          std::string::npos);
  }
  SUBCASE("in-cluster, the name from the hostname itself") {
    m.hostname = m.node_name;
    m.node_name_source = "hostname";
    m.node_name_steps.push_back({"hostname", "hostname", m.node_name});
    m.kubeconfig.clear();
    m.kubeconfig_source = "in_cluster";
    m.platform.clear();
    CHECK(NodeIdentityLine(m) == "name from hostname (hostname); kubeconfig: the pod's service account");
  }
}

TEST_CASE("NodeIdentityLine: bundles that do not record it have none") {
  Manifest m;
  m.hostname = m.node_name = "gpu-node-7";
  CHECK(NodeIdentityLine(m) == "");
  m.hostname = m.node_name = "";
  m.node_name_steps = {{"option", "", ""}};
  CHECK(NodeIdentityLine(m) == "no step named the Node; kubeconfig none");
}

}  // TEST_SUITE

}  // namespace gpuf
