#include "chain/cluster_steps.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

constexpr int64_t kS = 1'000'000'000;
constexpr int64_t kEnd = 1763435900 * kS;  // 2025-11-18T03:18:20Z

// A node whose Node says 0 of 8, with a store that answered.
ChainFacts Answered() {
  ChainFacts f;
  f.node = ChainFacts::Node{.gpu_capacity = "8", .gpu_allocatable = "0"};
  ChainFacts::Metrics m;
  m.selector = "node=\"gpu-7\"";
  m.end_ns = kEnd;
  m.window_s = 86400;
  m.allocatable_series = true;
  m.last_sample_ns = kEnd - 20 * kS;
  m.gpu_last = 0;
  m.gpu_max = 8;
  m.first_drop = ChainFacts::Metrics::Drop{"nvidia_com_gpu", kEnd - 3600 * kS, 8, 0, std::nullopt};
  f.metrics = m;
  return f;
}

}  // namespace

TEST_SUITE("cluster_steps") {
  TEST_CASE("cluster steps: unknown without the metrics capture, never failed") {
    ChainFacts f;
    for (const ChainStep& step : {KubeStateMetricsStep(f), MetricsStoreStep(f), AlertingStep(f)}) {
      CHECK(step.status == StepStatus::kUnknown);
      CHECK(step.missing.ends_with(": collect with kubectl gpuforensics collect --metrics URL (or --metrics-service)"));
      CHECK(OutsideTheNode(step.id));
    }
    CHECK(KubeStateMetricsStep(f).missing.starts_with("the metrics store's record: "));
    CHECK(AlertingStep(f).missing.starts_with("the alerts naming the node (ALERTS): "));
    f = Answered();
    f.metrics->allocatable_error = "HTTP 503: unavailable";
    f.metrics->alerts_error = "deadline passed";
    CHECK(KubeStateMetricsStep(f).missing ==
          "kube_node_status_allocatable: the store did not answer (HTTP 503: unavailable)");
    CHECK(MetricsStoreStep(f).status == StepStatus::kUnknown);
    CHECK(AlertingStep(f).missing == "ALERTS: the store did not answer (deadline passed)");
  }

  TEST_CASE("cluster steps: the drop, and the alert that followed it") {
    ChainFacts f = Answered();
    f.metrics->alert = ChainFacts::Metrics::Alert{"GPUUnschedulable", kEnd - 3300 * kS, std::nullopt};
    ChainStep ksm = KubeStateMetricsStep(f);
    CHECK(ksm.status == StepStatus::kOk);
    CHECK(ksm.detail == "exports nvidia_com_gpu allocatable 0, as the Node says");
    ChainStep store = MetricsStoreStep(f);
    CHECK(store.status == StepStatus::kOk);
    CHECK(store.detail ==
          "holds the node's GPU resources over the last 24 h: nvidia_com_gpu allocatable dropped 8 -> 0 at "
          "2025-11-18T02:18:20Z");
    ChainStep alerting = AlertingStep(f);
    CHECK(alerting.status == StepStatus::kOk);
    CHECK(alerting.detail ==
          "GPUUnschedulable fired at 2025-11-18T02:23:20Z, 5 min after the drop; firing at the capture");
    f.metrics->alert->resolved_ns = kEnd - 60 * kS;
    CHECK(AlertingStep(f).detail ==
          "GPUUnschedulable fired at 2025-11-18T02:23:20Z, 5 min after the drop; resolved at 2025-11-18T03:17:20Z");
  }

  TEST_CASE("cluster steps: a drop that lasted and no alert fails alerting, a short one leaves it unknown") {
    ChainFacts f = Answered();
    ChainStep alerting = AlertingStep(f);
    CHECK(alerting.status == StepStatus::kFailed);
    CHECK(alerting.detail ==
          "nvidia_com_gpu allocatable dropped 8 -> 0 at 2025-11-18T02:18:20Z, and in the 1 h it lasted no alert with "
          "node=\"gpu-7\" fired (ALERTS): no rule watches the count, or its alert drops the node label");
    f.metrics->first_drop->restored_ns = f.metrics->first_drop->at_ns + 120 * kS;
    alerting = AlertingStep(f);
    CHECK(alerting.status == StepStatus::kUnknown);
    CHECK(alerting.missing ==
          "an alert: the drop lasted 2 min, less than a usual `for:`, and no alert with node=\"gpu-7\" fired (ALERTS)");
  }

  TEST_CASE("cluster steps: kube-state-metrics behind the Node, a series that stopped, no series") {
    ChainFacts f = Answered();
    f.metrics->gpu_last = 8;
    ChainStep ksm = KubeStateMetricsStep(f);
    CHECK(ksm.status == StepStatus::kFailed);
    CHECK(ksm.detail == "exports nvidia_com_gpu allocatable 8, the Node says 0: kube-state-metrics is behind the Node");

    f.metrics->last_sample_ns = kEnd - 2 * 3600 * kS;
    CHECK(KubeStateMetricsStep(f).status == StepStatus::kUnknown);
    ChainStep store = MetricsStoreStep(f);
    CHECK(store.status == StepStatus::kFailed);
    CHECK(store.detail ==
          "the series stops at 2025-11-18T01:18:20Z, 2 h before the capture: scraping or "
          "kube-state-metrics stopped");

    f = Answered();
    f.metrics->allocatable_series = false;
    CHECK(KubeStateMetricsStep(f).missing ==
          "a kube_node_status_allocatable series with node=\"gpu-7\": the store holds none (kube-state-metrics not "
          "scraped, or the node is labelled otherwise: --metrics-node-label)");
    CHECK(MetricsStoreStep(f).status == StepStatus::kUnknown);
  }

  TEST_CASE("cluster steps: a steady count needs no alert") {
    ChainFacts f = Answered();
    f.node->gpu_allocatable = "8";
    f.metrics->gpu_last = 8;
    f.metrics->first_drop.reset();
    CHECK(MetricsStoreStep(f).detail ==
          "holds the node's GPU resources over the last 24 h: no drop, nvidia_com_gpu allocatable at 8");
    ChainStep alerting = AlertingStep(f);
    CHECK(alerting.status == StepStatus::kOk);
    CHECK(alerting.detail ==
          "nothing to alert on (no drop in the window), and no alert with node=\"gpu-7\" fired (ALERTS)");
    f.metrics->gpu_max = 0;
    f.metrics->gpu_last = 0;
    CHECK(AlertingStep(f).status == StepStatus::kUnknown);
  }

  TEST_CASE("SpanText") {
    CHECK(SpanText(42 * kS) == "42 s");
    CHECK(SpanText(300 * kS) == "5 min");
    CHECK(SpanText(303 * kS) == "5 min 3 s");
    CHECK(SpanText(7500 * kS) == "2 h 5 min");
    CHECK(SpanText(-42 * kS) == "42 s");
  }

}  // TEST_SUITE

}  // namespace gpuf
