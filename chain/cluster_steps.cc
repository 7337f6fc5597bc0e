#include "chain/cluster_steps.h"

#include <cmath>
#include <cstdio>

#include "common/artifacts.h"
#include "common/parse_int.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

constexpr int64_t kNsPerS = 1'000'000'000;

using Metrics = ChainFacts::Metrics;

// Said in full at step 10; steps 11 and 12 name what they would read.
std::string NotAsked(std::string_view what = "the metrics store's record") {
  return std::string(what) + ": collect with kubectl gpuforensics collect --metrics URL (or --metrics-service)";
}

std::string Value(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// Seconds are what a 30 s step can tell.
std::string At(int64_t ns) {
  std::string text = FormatRfc3339Utc(ns);
  const size_t fraction = text.find('.');
  return fraction == std::string::npos ? text : text.substr(0, fraction) + "Z";
}

bool Stale(const Metrics& m) { return m.last_sample_ns && *m.last_sample_ns < m.end_ns - kStaleSeriesNs; }

std::string DropText(const Metrics::Drop& d) {
  std::string text = d.resource + " allocatable dropped " + Value(d.from) + " -> " + Value(d.to) + " at " + At(d.at_ns);
  if (d.restored_ns) text += ", back to " + Value(d.from) + " at " + At(*d.restored_ns);
  return text;
}

// Why the node's allocatable series cannot be judged; "" when it can.
std::string AllocatableMissing(const Metrics& m) {
  if (!m.allocatable_error.empty()) {
    return "kube_node_status_allocatable: the store did not answer (" + m.allocatable_error + ")";
  }
  if (!m.allocatable_series) {
    return "a kube_node_status_allocatable series with " + m.selector +
           ": the store holds none (kube-state-metrics not scraped, or the node is labelled otherwise: "
           "--metrics-node-label)";
  }
  return "";
}

ChainStep Step(ChainStepId id, const char* name) {
  return ChainStep{id, name, StepStatus::kUnknown, "", std::string(artifact::kK8sMetrics), ""};
}

}  // namespace

std::string SpanText(int64_t ns) {
  const int64_t s = std::llabs(ns) / kNsPerS;
  if (s < 60) return std::to_string(s) + " s";
  if (s < 3600) return std::to_string(s / 60) + " min" + (s % 60 ? " " + std::to_string(s % 60) + " s" : "");
  return std::to_string(s / 3600) + " h" + (s % 3600 / 60 ? " " + std::to_string(s % 3600 / 60) + " min" : "");
}

ChainStep KubeStateMetricsStep(const ChainFacts& f) {
  ChainStep step = Step(ChainStepId::kKubeStateMetrics, "kube-state-metrics");
  step.evidence += ", " + std::string(artifact::kK8sNode);
  if (!f.metrics) {
    step.missing = NotAsked();
    return step;
  }
  const Metrics& m = *f.metrics;
  if (step.missing = AllocatableMissing(m); !step.missing.empty()) return step;
  if (Stale(m)) {
    step.missing = "a recent sample: the newest is " + SpanText(m.end_ns - *m.last_sample_ns) + " old (step 11)";
    return step;
  }
  if (!m.gpu_last || !f.node || !f.node->gpu_allocatable) {
    step.missing = !f.node ? "the Node object, to compare the exported value with"
                           : "nvidia.com/gpu on both sides, to compare (MIG or shared resources only)";
    return step;
  }
  const std::optional<int64_t> node = ParseInt64(*f.node->gpu_allocatable);
  const std::string exported = "exports nvidia_com_gpu allocatable " + Value(*m.gpu_last);
  if (node && *node == std::llround(*m.gpu_last)) {
    step.status = StepStatus::kOk;
    step.detail = exported + ", as the Node says";
  } else {
    step.status = StepStatus::kFailed;
    step.detail = exported + ", the Node says " + *f.node->gpu_allocatable + ": kube-state-metrics is behind the Node";
  }
  return step;
}

ChainStep MetricsStoreStep(const ChainFacts& f) {
  ChainStep step = Step(ChainStepId::kMetricsStore, "metrics store");
  if (!f.metrics) {
    step.missing = NotAsked("the node's series in the store");
    return step;
  }
  const Metrics& m = *f.metrics;
  if (step.missing = AllocatableMissing(m); !step.missing.empty()) return step;
  const std::string window = "the last " + SpanText(m.window_s * kNsPerS);
  if (Stale(m)) {
    step.status = StepStatus::kFailed;
    step.detail = "the series stops at " + At(*m.last_sample_ns) + ", " + SpanText(m.end_ns - *m.last_sample_ns) +
                  " before the capture: scraping or kube-state-metrics stopped";
    return step;
  }
  step.status = StepStatus::kOk;
  if (m.first_drop) {
    step.detail = "holds the node's GPU resources over " + window + ": " + DropText(*m.first_drop);
  } else if (m.gpu_max && *m.gpu_max == 0) {
    step.detail = "holds the node's GPU resources over " + window +
                  ": nvidia_com_gpu allocatable 0 throughout (a drop, if any, is older)";
  } else {
    step.detail = "holds the node's GPU resources over " + window + ": no drop" +
                  (m.gpu_last ? ", nvidia_com_gpu allocatable at " + Value(*m.gpu_last) : "");
  }
  return step;
}

ChainStep AlertingStep(const ChainFacts& f) {
  ChainStep step = Step(ChainStepId::kAlerting, "alerting");
  if (!f.metrics) {
    step.missing = NotAsked("the alerts naming the node (ALERTS)");
    return step;
  }
  const Metrics& m = *f.metrics;
  if (!m.alerts_error.empty()) {
    step.missing = "ALERTS: the store did not answer (" + m.alerts_error + ")";
    return step;
  }
  if (m.alert) {
    step.status = StepStatus::kOk;
    step.detail = m.alert->name + " fired at " + At(m.alert->fired_ns);
    if (m.first_drop && m.alert->fired_ns >= m.first_drop->at_ns) {
      step.detail += ", " + SpanText(m.alert->fired_ns - m.first_drop->at_ns) + " after the drop";
    }
    step.detail += m.alert->resolved_ns ? "; resolved at " + At(*m.alert->resolved_ns) : "; firing at the capture";
    return step;
  }
  const std::string none = "no alert with " + m.selector + " fired (ALERTS)";
  if (m.first_drop) {
    const int64_t lasted = m.first_drop->restored_ns.value_or(m.end_ns) - m.first_drop->at_ns;
    if (lasted >= kAlertExpectedWithinNs) {
      step.status = StepStatus::kFailed;
      step.detail = DropText(*m.first_drop) + ", and in the " + SpanText(lasted) + " it lasted " + none +
                    ": no rule watches the count, or its alert drops the node label";
    } else {
      step.missing = "an alert: the drop lasted " + SpanText(lasted) + ", less than a usual `for:`, and " + none;
    }
    return step;
  }
  if (m.gpu_max && *m.gpu_max == 0) {
    step.missing = "whether an alert without the node label fired: the count was 0 throughout and " + none;
    return step;
  }
  step.status = StepStatus::kOk;
  step.detail = "nothing to alert on (no drop in the window), and " + none;
  return step;
}

}  // namespace gpuf
