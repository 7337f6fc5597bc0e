#include "formats/metric_series.h"

#include <cmath>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "common/json_depth.h"

namespace gpuf {

namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr int64_t kNsPerS = 1'000'000'000;

using Json = nlohmann::json;

std::string StringAt(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

std::optional<int64_t> IntegerAt(const Json& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  return it->is_number_float() ? std::llround(it->get<double>()) : it->get<int64_t>();
}

// The node's clock minus the store's: (collect's reading - the plugin's
// handing over) - (the server's time() - the plugin's clock between the
// two stamps around it). The first difference also holds kubectl exec's
// start-up, well under the 30 s between two samples.
std::optional<int64_t> ClockOffsetNs(const Json& doc, int64_t read_at_ns) {
  const Json clock = doc.is_object() && doc.contains("clock") ? doc["clock"] : Json();
  const auto asked = IntegerAt(clock, "asked_unix_ms");
  const auto answered = IntegerAt(clock, "answered_unix_ms");
  const auto server = IntegerAt(clock, "server_unix_ms");
  const auto handed = IntegerAt(doc, "handed_unix_ms");
  if (!asked || !answered || !server || !handed || read_at_ns <= 0) return std::nullopt;
  const int64_t plugin_minus_server_ms = (*asked + *answered) / 2 - *server;
  return read_at_ns - *handed * kNsPerMs + plugin_minus_server_ms * kNsPerMs;
}

// A series' labels as JSON: Prometheus' are strings; anything else is left out.
std::string LabelsJson(const Json& metric) {
  Json labels = Json::object();
  for (const auto& [key, value] : metric.items()) {
    if (value.is_string()) labels[key] = value;
  }
  return labels.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// One [time, "value"] pair: seconds as a number, the value as a string
// ("NaN", "+Inf" are read as such).
std::optional<MetricSample> ReadSample(const Json& pair, int64_t offset_ns) {
  if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number() || !pair[1].is_string()) return std::nullopt;
  const std::string text = pair[1].get<std::string>();
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
  return MetricSample{std::llround(pair[0].get<double>() * kNsPerS) + offset_ns, value};
}

void ReadSeries(const std::string& query, const Json& result, int64_t offset_ns, MetricsCapture& out) {
  for (const Json& item : result) {
    const Json metric = item.is_object() && item.contains("metric") ? item["metric"] : Json::object();
    const Json values = item.is_object() && item.contains("values") ? item["values"] : Json();
    if (!metric.is_object() || !values.is_array()) {
      out.warnings.push_back({0, query + ": a series without metric and values is skipped"});
      continue;
    }
    MetricSeries series{.query = query,
                        .metric = StringAt(metric, "__name__"),
                        .resource = StringAt(metric, "resource"),
                        .alertname = StringAt(metric, "alertname"),
                        .alertstate = StringAt(metric, "alertstate"),
                        .pod = StringAt(metric, "pod"),
                        .labels = LabelsJson(metric),
                        .samples = {}};
    int64_t skipped = 0;
    for (const Json& pair : values) {
      auto sample = ReadSample(pair, offset_ns);
      if (sample) {
        series.samples.push_back(*sample);
      } else {
        ++skipped;
      }
    }
    if (skipped) {
      out.warnings.push_back({0, query + ": " + std::to_string(skipped) + " samples that are not [time, \"value\"]"});
    }
    out.series.push_back(std::move(series));
  }
}

}  // namespace

MetricsCapture ParseMetricsCapture(std::string_view text, int64_t read_at_ns) {
  MetricsCapture out;
  if (JsonNestingDepth(text) > kMaxJsonDepth) {
    out.warnings.push_back({0, "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels: not read"});
    return out;
  }
  const Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || StringAt(doc, "kind") != "MetricsCapture") {
    out.warnings.push_back({0, "not a MetricsCapture (kubectl gpuforensics collect --metrics writes one)"});
    return out;
  }
  out.source = StringAt(doc, "source");
  out.node = StringAt(doc, "node");
  out.node_label = StringAt(doc, "node_label");
  out.clock_offset_ns = ClockOffsetNs(doc, read_at_ns);
  if (!out.clock_offset_ns) {
    out.warnings.push_back(
        {0, "the store's clock was not measured against the node's: its times are taken as they are"});
  }
  const int64_t offset_ns = out.clock_offset_ns.value_or(0);
  const Json range = doc.contains("range") ? doc["range"] : Json();
  if (auto start = IntegerAt(range, "start")) out.start_ns = *start * kNsPerS + offset_ns;
  if (auto end = IntegerAt(range, "end")) out.end_ns = *end * kNsPerS + offset_ns;
  out.step_s = IntegerAt(range, "step").value_or(0);
  const Json queries = doc.contains("queries") ? doc["queries"] : Json();
  if (!queries.is_array()) return out;
  for (const Json& entry : queries) {
    MetricQuery query{.name = StringAt(entry, "name"),
                      .query = StringAt(entry, "query"),
                      .error = StringAt(entry, "error"),
                      .series = 0};
    if (query.name.empty()) {
      out.warnings.push_back({0, "a query without a name is skipped"});
      continue;
    }
    const Json::json_pointer at("/answer/data/result");
    const bool answered = entry.is_object() && entry.contains(at) && entry.at(at).is_array();
    if (answered) {
      const size_t before = out.series.size();
      ReadSeries(query.name, entry.at(at), offset_ns, out);
      query.series = static_cast<int64_t>(out.series.size() - before);
    } else if (query.error.empty()) {
      query.error = "no answer stored";
    }
    out.queries.push_back(std::move(query));
  }
  return out;
}

}  // namespace gpuf
