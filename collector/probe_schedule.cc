#include "collector/probe_schedule.h"

#include "collector/probe_table.h"
#include "common/time_format.h"

#include <algorithm>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

namespace gpuf {

namespace {

std::string ProbeLabel(const ProbeTask& task) {
  return task.instance.empty() ? task.name : task.name + "[" + task.instance + "]";
}

// A journal read's slices follow it, each an artifact of its own.
std::vector<ProbeResult> Flatten(std::vector<ProbeResult> results) {
  std::vector<ProbeResult> flat;
  flat.reserve(results.size());
  for (auto& r : results) {
    std::vector<ProbeResult> more = std::move(r.more);
    r.more.clear();
    flat.push_back(std::move(r));
    for (auto& m : more) flat.push_back(std::move(m));
  }
  return flat;
}

// Runs tasks with at most `jobs` at a time; results keep the task order.
std::vector<ProbeResult> RunTasks(std::string_view group, const std::vector<ProbeTask>& tasks, int first_sequence,
                                  int jobs, const ProbeEnvironment& env) {
  std::vector<ProbeResult> results(tasks.size());
  if (tasks.empty()) return results;
  if (env.progress) env.progress->GroupStarted(group, tasks.size());
  std::mutex mutex;
  size_t next = 0;
  auto worker = [&] {
    while (true) {
      size_t index;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (next >= tasks.size()) return;
        index = next++;
      }
      const std::string label = env.progress ? ProbeLabel(tasks[index]) : "";
      if (env.progress) env.progress->ProbeStarted(group, label);
      const int64_t started = MonotonicNowNs();
      results[index] = RunProbe(tasks[index], first_sequence + static_cast<int>(index), env);
      if (env.progress) env.progress->ProbeFinished(group, label, MonotonicNowNs() - started);
    }
  };
  std::vector<std::thread> threads;
  int count = std::max(1, std::min<int>(jobs, static_cast<int>(tasks.size())));
  for (int i = 0; i < count; ++i) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (env.progress) env.progress->GroupFinished(group);
  return Flatten(std::move(results));
}

// Probes run on a thread of their own while the caller goes on. When no
// thread can be had they run in Wait, after whatever the caller ran.
class BackgroundProbes {
 public:
  BackgroundProbes(std::string_view group, std::vector<ProbeTask> tasks, int first_sequence, int jobs,
                   const ProbeEnvironment& env)
      : group_(group), tasks_(std::move(tasks)), first_sequence_(first_sequence), jobs_(jobs), env_(env) {
    if (tasks_.empty()) return;
    try {
      thread_ = std::thread([this] { results_ = RunTasks(group_, tasks_, first_sequence_, jobs_, env_); });
    } catch (const std::system_error&) {
      // Wait runs them.
    }
  }
  BackgroundProbes(const BackgroundProbes&) = delete;
  BackgroundProbes& operator=(const BackgroundProbes&) = delete;
  ~BackgroundProbes() {
    if (thread_.joinable()) thread_.join();
  }

  std::vector<ProbeResult> Wait() {
    if (thread_.joinable()) {
      thread_.join();
    } else {
      results_ = RunTasks(group_, tasks_, first_sequence_, jobs_, env_);
    }
    return std::move(results_);
  }

 private:
  std::string_view group_;
  std::vector<ProbeTask> tasks_;
  int first_sequence_;
  int jobs_;
  const ProbeEnvironment& env_;
  std::vector<ProbeResult> results_;
  std::thread thread_;
};

// Appends results in order and numbers the tasks that produce them.
class Collection {
 public:
  explicit Collection(const ProbeEnvironment& env) : env_(env) {}

  std::vector<ProbeResult> Run(std::string_view group, const std::vector<ProbeTask>& tasks, int jobs) {
    std::vector<ProbeResult> results = RunTasks(group, tasks, Reserve(tasks.size()), jobs, env_);
    Add(results);
    return results;
  }
  int Reserve(size_t count) {
    int first = next_sequence_;
    next_sequence_ += static_cast<int>(count);
    return first;
  }
  void Add(const std::vector<ProbeResult>& results) { all_.insert(all_.end(), results.begin(), results.end()); }
  std::vector<ProbeResult> Take() { return std::move(all_); }

 private:
  const ProbeEnvironment& env_;
  int next_sequence_ = 0;
  std::vector<ProbeResult> all_;
};

std::vector<ProbeResult> RunInPhases(const Plan& plan, int jobs, const ProbeEnvironment& env) {
  Collection c(env);
  std::vector<ProbeResult> phase_one = c.Run(kGroupNode, PlanPhaseOne(plan), jobs);
  std::vector<PluginContainer> containers;
  std::vector<ProbeResult> phase_two = c.Run(kGroupRuntime, PlanPhaseTwo(plan, phase_one, containers), jobs);
  std::vector<Discovered> discovered = DiscoverFromPhaseTwo(plan, phase_one, phase_two, containers);
  std::vector<ProbeResult> phase_three = c.Run(kGroupPluginContainers, PlanPhaseThree(plan, discovered), jobs);
  c.Run(kGroupPluginContainers, PlanDeviceProgramDumps(plan, phase_three), jobs);
  c.Run(kGroupHostDriver, PlanHostDriverProbes(plan), jobs);
  c.Run(kGroupContainerDriver, PlanContainerDriverProbes(plan, discovered), jobs);
  return c.Take();
}

}  // namespace

std::vector<ProbeResult> RunCollectionProbes(const Plan& plan, int jobs, const ProbeEnvironment& env) {
  if (jobs < 3) return RunInPhases(plan, jobs, env);
  Collection c(env);
  std::vector<ProbeTask> before_driver = PlanPhaseOne(plan);
  auto split = std::stable_partition(before_driver.begin(), before_driver.end(),
                                     [](const ProbeTask& t) { return DriverCanChange(t.name); });
  std::vector<ProbeTask> beside(std::make_move_iterator(split), std::make_move_iterator(before_driver.end()));
  before_driver.erase(split, before_driver.end());

  // A quarter of the jobs (at least one) for what may run beside the driver,
  // up to two for the host's nvidia-smi (its list and its XML query), the
  // rest for the node's own probes.
  const int beside_jobs = std::max(1, jobs / 4);
  const int beside_sequence = c.Reserve(beside.size());
  BackgroundProbes facts(kGroupFacts, std::move(beside), beside_sequence, beside_jobs, env);
  std::vector<ProbeResult> phase_one = c.Run(kGroupNode, before_driver, jobs - beside_jobs);

  std::vector<ProbeTask> host_driver_tasks = PlanHostDriverProbes(plan);
  const int driver_jobs = std::clamp(static_cast<int>(host_driver_tasks.size()), 1, (jobs - beside_jobs) / 2);
  const int node_jobs = jobs - beside_jobs - driver_jobs;
  const int driver_sequence = c.Reserve(host_driver_tasks.size());
  BackgroundProbes host_driver(kGroupHostDriver, std::move(host_driver_tasks), driver_sequence, driver_jobs, env);

  std::vector<PluginContainer> containers;
  std::vector<ProbeResult> phase_two = c.Run(kGroupRuntime, PlanPhaseTwo(plan, phase_one, containers), node_jobs);
  std::vector<Discovered> discovered = DiscoverFromPhaseTwo(plan, phase_one, phase_two, containers);
  std::vector<ProbeResult> phase_three = c.Run(kGroupPluginContainers, PlanPhaseThree(plan, discovered), node_jobs);
  c.Run(kGroupPluginContainers, PlanDeviceProgramDumps(plan, phase_three), node_jobs);
  std::vector<ProbeTask> inside_tasks = PlanContainerDriverProbes(plan, discovered);
  std::vector<ProbeResult> inside =
      RunTasks(kGroupContainerDriver, inside_tasks, c.Reserve(inside_tasks.size()), node_jobs, env);
  c.Add(host_driver.Wait());
  c.Add(inside);
  c.Add(facts.Wait());
  return c.Take();
}

}  // namespace gpuf
