#include "gpushare/workload/job_list.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_set>

#include <fmt/format.h>

#include "gpushare/io/csv_table.h"

namespace gpushare {

const char kJobListHeader[] =
    "name,tenant_class,workload_class,arrival_s,gpus,gpu_memory_mib,"
    "sm_demand,duty,work_s,lifetime_s,cpu_milli,memory_mib,priority,"
    "node_selector";

namespace {

constexpr double kMaxJobListSeconds = 1e9;
constexpr int kMaxJobGpus = 16;

enum {
  kJobName,
  kTenantClass,
  kWorkloadClass,
  kArrival,
  kGpus,
  kGpuMemory,
  kSmDemand,
  kDuty,
  kWork,
  kLifetime,
  kCpuMilli,
  kMemoryMib,
  kPriority,
  kNodeSelector
};

Labels ReadSelector(const CsvTable& table) {
  Labels selector;
  const std::string_view text = table.Field(kNodeSelector);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(';', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view pair = text.substr(start, end - start);
    start = end + 1;
    const size_t eq = pair.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      table.Fail(kNodeSelector,
                 "expected key=value pairs separated by ';', "
                 "got '" +
                     std::string(pair) + "'");
    }
    const std::string key(pair.substr(0, eq));
    if (!selector.emplace(key, std::string(pair.substr(eq + 1))).second) {
      table.Fail(kNodeSelector, "label key '" + key + "' is given twice");
    }
  }
  return selector;
}

std::vector<Pod> ParseJobRows(CsvTable table) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 4;
  std::vector<Pod> pods;
  std::unordered_set<std::string> names;
  while (table.Next()) {
    Pod p;
    p.name = std::string(table.NonEmpty(kJobName));
    if (!names.insert(p.name).second) {
      table.Fail(kJobName, "duplicate job name '" + p.name + "'");
    }
    p.tenant_class = std::string(table.NonEmpty(kTenantClass));
    if (p.tenant_class.find(' ') != std::string::npos) {
      table.Fail(kTenantClass, "must not contain spaces");
    }
    p.tenant = p.tenant_class;
    const std::string_view kind = table.Field(kWorkloadClass);
    if (!ParseWorkloadClass(kind, &p.workload_class)) {
      table.Fail(kWorkloadClass,
                 "expected training, inference, batch or dev, "
                 "got '" +
                     std::string(kind) + "'");
    }
    p.arrival_s = table.Number(kArrival, 0, kMaxJobListSeconds);
    PodNeeds& n = p.needs;
    n.gpus = table.Number(kGpus, 0, kMaxJobGpus);
    if (n.gpus >= 1 && n.gpus != std::floor(n.gpus)) {
      table.Fail(kGpus, "expected 0, a fraction < 1 or a whole number");
    }
    n.gpu_memory_mib = table.Int(kGpuMemory, 0, kMax);
    n.sm_demand = table.Number(kSmDemand, 0, 1);
    n.duty = table.Number(kDuty, 0, 1);
    n.work_s = table.Number(kWork, 0, kMaxJobListSeconds);
    n.lifetime_s = table.Number(kLifetime, 0, kMaxJobListSeconds);
    if (n.work_s == 0 && n.lifetime_s == 0) {
      table.Fail(kLifetime,
                 "a job needs work_s > 0 or, for a service, "
                 "lifetime_s > 0");
    }
    p.cpu_milli = table.Int(kCpuMilli, 0, kMax);
    p.memory_mib = table.Int(kMemoryMib, 0, kMax);
    p.priority = static_cast<int32_t>(
        table.Int(kPriority, std::numeric_limits<int32_t>::min(),
                  std::numeric_limits<int32_t>::max()));
    p.node_selector = ReadSelector(table);
    pods.push_back(std::move(p));
  }
  std::stable_sort(pods.begin(), pods.end(), [](const Pod& a, const Pod& b) {
    return a.arrival_s < b.arrival_s;
  });
  return pods;
}

}  // namespace

std::vector<Pod> ParseJobList(const std::string& file, std::string text) {
  return ParseJobRows(CsvTable(file, std::move(text), {kJobListHeader}));
}

std::vector<Pod> ReadJobList(const std::string& path) {
  return ParseJobRows(CsvTable::FromFile(path, {kJobListHeader}));
}

}  // namespace gpushare
