// The seed document's toy GPU-sharing model, kept for compatibility.
//
// Contract: a faithful C++ port of the Python demo embedded in the project's
// seed document (reference copy: shared/seed/seed_demo.py). It exists only so
// that `gpushare-sim demo --seed-compat` prints exactly what that demo prints:
// the task generator draws from CPython's random stream (PythonRandom) and
// every function does its floating-point operations in the same order as the
// Python, so results match bit for bit and the formatted text byte for byte.
// The model itself is deliberately naive (fixed switch cost, one task per MIG
// slot size, flat vGPU overhead); the real simulator lives elsewhere and does
// not use this file.

#ifndef GPUSHARE_DEMO_SEED_DEMO_H_
#define GPUSHARE_DEMO_SEED_DEMO_H_

#include <cstdint>
#include <string>
#include <vector>

namespace gpushare {

// One generated job: memory in GB and run time in seconds, each rounded to
// one decimal as the Python does.
struct SeedTask {
  std::string name;
  double mem = 0.0;
  double time = 0.0;
};

// The Python's result dict: mode name, makespan rounded to 2 decimals and
// utilization (a fraction) rounded to 3 decimals.
struct SeedResult {
  std::string mode;
  double total_time = 0.0;
  double utilization = 0.0;
};

// Language of the demo's labels. kZh is the seed document's (Chinese) text.
enum class Lang { kZh, kEn };

// gen_tasks(n, seed): tasks "job-0" .. "job-<n-1>" with mem uniform in
// [2, 10] and time uniform in [1, 8]. seed is the magnitude of Python's int
// seed (Python seeds with abs(seed)). n >= 0.
std::vector<SeedTask> GenerateSeedTasks(int n, uint64_t seed);

// time_slice(): round-robin over the tasks that fit in total_mem, slice_s
// seconds per turn plus a 0.05 s switch cost per turn. At least one task must
// fit (the Python divides by zero otherwise).
SeedResult TimeSlice(const std::vector<SeedTask>& tasks,
                     double total_mem = 32.0, double slice_s = 0.5);

// mig_partition(): `parts` equal slices of total_mem; each task queues on the
// slice indexed by its memory (capped at the last); makespan is the busiest
// slice. parts >= 1 and tasks must have positive total time.
SeedResult MigPartition(const std::vector<SeedTask>& tasks,
                        double total_mem = 32.0, int parts = 4);

// vgpu_slice(): the tasks that fit run back to back, slowed by `overhead`
// (a fraction). At least one task must fit.
SeedResult VgpuSlice(const std::vector<SeedTask>& tasks,
                     double total_mem = 32.0, double overhead = 0.06);

// The demo's whole printed output for `tasks` (one header line, then one line
// per mode: time-slice, mig, vgpu), each line ending in "\n". With Lang::kZh
// this is byte for byte what the Python prints.
std::string FormatSeedDemo(const std::vector<SeedTask>& tasks, Lang lang);

}  // namespace gpushare

#endif  // GPUSHARE_DEMO_SEED_DEMO_H_
