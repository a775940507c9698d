#include "gpushare/calibrate/calibration_run.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "gpushare/io/csv_table.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace {

constexpr int kMaxCalibrationProcesses = 64;
constexpr int kMaxCalibrationBlocks = 1 << 20;
constexpr double kMaxCalibrationSeconds = 86400;

std::string JoinPath(const std::string& dir, const std::string& name) {
  if (dir.empty() || dir.back() == '/') return dir + name;
  return dir + "/" + name;
}

CalibrationDevice ReadDevice(const std::string& path) {
  const YAML::Node root = LoadYamlFile(path);
  if (!root) FailAt(path, root, "device: expected a mapping, got nothing");
  YamlMap m(path, root, "device");
  m.AllowOnly({"gpu", "driver", "cuda", "sms", "compute_capability",
               "kernel_us"});
  CalibrationDevice d;
  d.gpu = m.String("gpu");
  if (d.gpu.empty()) m.Fail(m.Get("gpu"), "gpu: expected the GPU's name");
  d.driver = m.String("driver");
  d.cuda = m.String("cuda");
  if (m.Has("compute_capability")) {
    d.compute_capability = m.String("compute_capability");
  }
  d.sms = static_cast<int>(m.Int("sms", 1, 1000));
  d.kernel_us = m.Double("kernel_us", 1e-3, 1e9);
  return d;
}

std::vector<ThroughputRow> ReadThroughput(const std::string& path) {
  CsvTable t = CsvTable::FromFile(path, {"blocks,processes,process,kernels,seconds"});
  std::vector<ThroughputRow> rows;
  // (blocks, processes) -> the processes seen, and the line of the first.
  std::map<std::pair<int, int>, std::set<int>> seen;
  while (t.Next()) {
    ThroughputRow r;
    r.blocks = static_cast<int>(t.Int(0, 1, kMaxCalibrationBlocks));
    r.processes = static_cast<int>(t.Int(1, 1, kMaxCalibrationProcesses));
    r.process = static_cast<int>(t.Int(2, 0, r.processes - 1));
    r.kernels = t.Int(3, 0, INT64_C(1) << 50);
    r.seconds = t.Number(4, 0, kMaxCalibrationSeconds);
    if (r.seconds <= 0) t.Fail(4, "expected seconds > 0, got 0");
    if (!seen[{r.blocks, r.processes}].insert(r.process).second) {
      t.Fail(2, fmt::format("process {} of {} with {} blocks given twice",
                            r.process, r.processes, r.blocks));
    }
    rows.push_back(r);
  }
  if (rows.empty()) {
    throw InputError(path, 0, 0, "no throughput rows");
  }
  std::set<int> block_sizes;
  for (const auto& [key, processes] : seen) {
    block_sizes.insert(key.first);
    if (static_cast<int>(processes.size()) != key.second) {
      throw InputError(
          path, 0, 0,
          fmt::format("{} blocks, {} processes: {} rows, expected one per "
                      "process (0..{})",
                      key.first, key.second, processes.size(), key.second - 1));
    }
  }
  for (int b : block_sizes) {
    if (!seen.count({b, 1})) {
      throw InputError(path, 0, 0,
                       fmt::format("{} blocks: no run with 1 process, the "
                                   "reference the others are measured "
                                   "against",
                                   b));
    }
    int64_t alone = 0;
    for (const ThroughputRow& r : rows) {
      if (r.blocks == b && r.processes == 1) alone = r.kernels;
    }
    if (alone == 0) {
      throw InputError(path, 0, 0,
                       fmt::format("{} blocks: the process alone completed no "
                                   "kernel",
                                   b));
    }
  }
  return rows;
}

std::vector<LatencyRow> ReadLatency(const std::string& path) {
  CsvTable t = CsvTable::FromFile(
      path, {"corunners,corunner_blocks,sample,latency_us"});
  std::vector<LatencyRow> rows;
  std::map<int, int> samples;
  while (t.Next()) {
    LatencyRow r;
    r.corunners = static_cast<int>(t.Int(0, 0, kMaxCalibrationProcesses));
    r.corunner_blocks = static_cast<int>(t.Int(1, 0, kMaxCalibrationBlocks));
    r.sample = static_cast<int>(t.Int(2, 0, 1 << 30));
    r.latency_us = t.Number(3, 0, 1e12);
    if (r.latency_us <= 0) t.Fail(3, "expected a latency > 0, got 0");
    ++samples[r.corunners];
    rows.push_back(r);
  }
  if (!samples.count(0)) {
    throw InputError(path, 0, 0,
                     "no samples with 0 co-runners, the probe alone");
  }
  if (samples.size() < 2) {
    throw InputError(path, 0, 0,
                     "no samples with co-runners (corunners >= 1)");
  }
  for (const auto& [k, n] : samples) {
    if (n < 2) {
      throw InputError(path, 0, 0,
                       fmt::format("{} co-runners: {} sample, expected at "
                                   "least 2",
                                   k, n));
    }
  }
  return rows;
}

}  // namespace

CalibrationRun ReadCalibrationRun(const std::string& dir) {
  CalibrationRun run;
  run.dir = dir;
  run.device = ReadDevice(JoinPath(dir, "device.yaml"));
  run.throughput = ReadThroughput(JoinPath(dir, "throughput.csv"));
  run.latency = ReadLatency(JoinPath(dir, "latency.csv"));
  return run;
}

}  // namespace gpushare
