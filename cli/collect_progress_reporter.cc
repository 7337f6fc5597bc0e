#include "cli/collect_progress_reporter.h"

#include <algorithm>

namespace gpuf {

namespace {

using Clock = std::chrono::steady_clock;

std::string Seconds(int64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(ns) / 1e9);
  return text;
}

int64_t NsSince(Clock::time_point then, Clock::time_point now) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(now - then).count();
}

}  // namespace

CollectProgressReporter::CollectProgressReporter(bool enabled, FILE* out, std::chrono::milliseconds redraw_every)
    : line_(enabled, out, redraw_every, [this](int64_t elapsed_s) { return Text(elapsed_s); }) {}

void CollectProgressReporter::GroupStarted(std::string_view group, size_t probes) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Group g;
    g.total = probes;
    g.started = Clock::now();
    groups_.emplace_back(std::string(group), std::move(g));
  }
  line_.Redraw();
}

void CollectProgressReporter::ProbeStarted(std::string_view group, const std::string& probe) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [name, g] : groups_) {
    if (name == group) g.running[probe] = Clock::now();
  }
}

void CollectProgressReporter::ProbeFinished(std::string_view group, const std::string& probe, int64_t duration_ns) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [name, g] : groups_) {
    if (name != group) continue;
    g.running.erase(probe);
    g.done += 1;
    if (duration_ns >= kSlowNs) g.slow.emplace_back(probe, duration_ns);
  }
}

void CollectProgressReporter::GroupFinished(std::string_view group) {
  std::string finished;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = std::find_if(groups_.begin(), groups_.end(), [&](const auto& g) { return g.first == group; });
    if (it == groups_.end()) return;
    finished = FinishedText(it->first, it->second, NsSince(it->second.started, Clock::now()));
    groups_.erase(it);
  }
  line_.Print(finished);
}

std::string CollectProgressReporter::Text(int64_t elapsed_s) {
  std::lock_guard<std::mutex> lock(mutex_);
  return LiveText(groups_, Clock::now(), elapsed_s);
}

std::string CollectProgressReporter::LiveText(const std::vector<std::pair<std::string, Group>>& groups,
                                              Clock::time_point now, int64_t elapsed_s) {
  if (groups.empty()) return "";
  std::string line = "collecting " + std::to_string(elapsed_s) + " s: ";
  std::vector<std::pair<int64_t, std::string>> waiting;
  for (size_t i = 0; i < groups.size(); ++i) {
    const Group& g = groups[i].second;
    line += (i ? ", " : "") + groups[i].first + " " + std::to_string(g.done) + "/" + std::to_string(g.total);
    for (const auto& [probe, started] : g.running) {
      int64_t ns = NsSince(started, now);
      if (ns >= kSlowNs) waiting.emplace_back(ns, probe);
    }
  }
  std::sort(waiting.begin(), waiting.end(), std::greater<>());
  for (size_t i = 0; i < waiting.size() && i < 3; ++i) {
    line += (i ? ", " : "; waiting on ") + waiting[i].second + " (" + std::to_string(waiting[i].first / 1000000000) +
            " s)";
  }
  return line;
}

std::string CollectProgressReporter::FinishedText(const std::string& name, const Group& group, int64_t duration_ns) {
  std::string line = "gpuforensics collect: " + name + ": " + std::to_string(group.done) +
                     (group.done == 1 ? " probe in " : " probes in ") + Seconds(duration_ns);
  std::vector<std::pair<std::string, int64_t>> slow = group.slow;
  std::sort(slow.begin(), slow.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  for (size_t i = 0; i < slow.size() && i < 3; ++i) {
    line += (i ? ", " : " (slow: ") + slow[i].first + " " + Seconds(slow[i].second);
  }
  if (!slow.empty()) line += ")";
  return line;
}

}  // namespace gpuf
