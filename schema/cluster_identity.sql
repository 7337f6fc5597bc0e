-- Which cluster the node belongs to (k8s.cluster: the kube-system
-- Namespace the kubectl plugin read): its UID stays for the cluster's
-- life, whatever the cluster is called in anyone's kubeconfig. Fleet
-- summaries group detection delays by it.
-- Example: SELECT kube_system_uid FROM cluster_identity;
CREATE TABLE cluster_identity (
  artifact_id      INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  kube_system_uid  TEXT NOT NULL,  -- metadata.uid of the kube-system Namespace
  created_ns       INTEGER         -- its creationTimestamp, Unix ns UTC (about when the cluster was made); NULL when absent
);
