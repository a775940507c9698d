#include "gpushare/demo/seed_demo.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpushare/io/check.h"
#include "gpushare/demo/python_float.h"
#include "gpushare/demo/python_random.h"

namespace gpushare {
namespace {

// Python's f"{s:>{width}s}" for ASCII s.
std::string PadLeft(const std::string& s, size_t width) {
  if (s.size() >= width) return s;
  return std::string(width - s.size(), ' ') + s;
}

// Python's f"{x:{width}.{precision}f}".
std::string FormatFixedWidth(double x, size_t width, int precision) {
  return PadLeft(PythonFormatFixed(x, precision), width);
}

struct DemoLabels {
  const char* task_count;
  const char* total_time;
  const char* utilization;
};

DemoLabels LabelsFor(Lang lang) {
  switch (lang) {
    case Lang::kZh:
      return {"模拟任务数: ", "完成时间: ", "利用率: "};
    case Lang::kEn:
      return {"Simulated tasks: ", "total time: ", "utilization: "};
  }
  GS_CHECK(false, "unknown Lang");
  return {};
}

}  // namespace

std::vector<SeedTask> GenerateSeedTasks(int n, uint64_t seed) {
  GS_CHECK(n >= 0, "negative task count");
  PythonRandom random(seed);
  std::vector<SeedTask> tasks;
  tasks.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    SeedTask task;
    task.name = "job-" + std::to_string(i);
    // Keyword arguments are evaluated in order: mem first, then time.
    task.mem = PythonRound(random.Uniform(2.0, 10.0), 1);
    task.time = PythonRound(random.Uniform(1.0, 8.0), 1);
    tasks.push_back(std::move(task));
  }
  return tasks;
}

SeedResult TimeSlice(const std::vector<SeedTask>& tasks, double total_mem,
                     double slice_s) {
  std::vector<const SeedTask*> queue;
  for (const SeedTask& t : tasks) {
    if (t.mem <= total_mem) queue.push_back(&t);
  }
  // remain[i] belongs to queue[i] (the Python keys a dict by the unique name).
  std::vector<double> remain;
  remain.reserve(queue.size());
  for (const SeedTask* t : queue) remain.push_back(t->time);
  double clock = 0.0;
  double total_work = 0.0;  // sum(remain.values()), left to right.
  for (double r : remain) total_work += r;
  const double switch_cost = 0.05;
  const auto any_nonzero = [&remain] {
    return std::any_of(remain.begin(), remain.end(),
                       [](double r) { return r != 0.0; });
  };
  while (any_nonzero()) {
    for (double& r : remain) {
      if (r <= 0) continue;
      const double run = std::min(slice_s, r);
      r -= run;
      clock += run + switch_cost;
    }
  }
  GS_CHECK(clock != 0.0, "time_slice needs a task that fits");
  return {"time-slice", PythonRound(clock, 2),
          PythonRound(total_work / clock, 3)};
}

SeedResult MigPartition(const std::vector<SeedTask>& tasks, double total_mem,
                        int parts) {
  GS_CHECK(parts >= 1, "mig_partition needs at least one part");
  const double part_mem = total_mem / parts;
  std::vector<std::vector<const SeedTask*>> slots(static_cast<size_t>(parts));
  for (const SeedTask& t : tasks) {
    // int(t.mem // part_mem) truncates toward zero.
    const double index_value = PythonFloorDiv(t.mem, part_mem);
    GS_CHECK(index_value > -2147483648.0 && index_value < 2147483648.0,
             "slot index out of range");
    const int idx = std::min(static_cast<int>(index_value), parts - 1);
    // A negative index counts from the end in Python.
    const int slot = idx < 0 ? idx + parts : idx;
    GS_CHECK(slot >= 0 && slot < parts, "slot index out of range");
    slots[static_cast<size_t>(slot)].push_back(&t);
  }
  double total_work = 0.0;
  double max_clock = 0.0;
  for (const std::vector<const SeedTask*>& slot : slots) {
    double slot_work = 0.0;
    for (const SeedTask* t : slot) slot_work += t->time;
    total_work += slot_work;
    max_clock = std::max(max_clock, slot_work);
  }
  GS_CHECK(max_clock != 0.0, "mig_partition needs work to do");
  return {"mig", PythonRound(max_clock, 2),
          PythonRound(total_work / (max_clock * parts), 3)};
}

SeedResult VgpuSlice(const std::vector<SeedTask>& tasks, double total_mem,
                     double overhead) {
  double total_work = 0.0;
  for (const SeedTask& t : tasks) {
    if (t.mem <= total_mem) total_work += t.time;
  }
  const double clock = total_work / (1 - overhead);
  GS_CHECK(clock != 0.0, "vgpu_slice needs a task that fits");
  return {"vgpu", PythonRound(clock, 2), PythonRound(total_work / clock, 3)};
}

std::string FormatSeedDemo(const std::vector<SeedTask>& tasks, Lang lang) {
  const DemoLabels labels = LabelsFor(lang);
  std::string out = labels.task_count + std::to_string(tasks.size()) + "\n";
  const SeedResult results[] = {TimeSlice(tasks), MigPartition(tasks),
                                VgpuSlice(tasks)};
  for (const SeedResult& result : results) {
    out += PadLeft(result.mode, 11) + " | " + labels.total_time +
           FormatFixedWidth(result.total_time, 6, 2) + "s | " +
           labels.utilization + PythonFormatPercent(result.utilization, 1) +
           "\n";
  }
  return out;
}

}  // namespace gpushare
