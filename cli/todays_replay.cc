#include "cli/todays_replay.h"

#include <map>
#include <string>

#include "gpushare/metrics/collector.h"
#include "gpushare/metrics/fidelity_warnings.h"
#include "gpushare/report/fidelity_summary.h"
#include "gpushare/report/metrics_fidelity_report.h"
#include "gpushare/sim/simulation.h"

namespace gpushare::cli {

std::vector<FidelityPod> ImportedPodNeeds(const TraceWorkload& trace) {
  std::vector<FidelityPod> out;
  if (trace.pods == nullptr) return out;
  std::map<std::string, const Pod*> by_name;
  for (const Pod& p : *trace.pods) {
    const std::string prefix = p.namespace_name + "/";
    by_name[p.name.rfind(prefix, 0) == 0 ? p.name : prefix + p.name] = &p;
  }
  for (const DcgmPodImport& imported : trace.metrics_pods) {
    const auto it = by_name.find(imported.pod);
    if (it == by_name.end()) continue;
    const PodNeeds& n = it->second->needs;
    out.push_back({imported.pod,
                   std::string(DcgmPodOutcomeName(imported.outcome)), n.duty,
                   n.sm_demand, n.gpu_memory_mib});
  }
  return out;
}

std::unique_ptr<MetricsFidelity> FidelityOf(const SimulationResult& result,
                                            const DcgmRecording& recording,
                                            const Scenario& scenario) {
  auto fidelity = std::make_unique<MetricsFidelity>(
      CompareWithRecording(result, recording));
  fidelity->pods = ImportedPodNeeds(scenario.workload.trace);
  FlagFidelity(scenario.workload.trace.spec.metrics_warn_points,
               fidelity.get());
  return fidelity;
}

TodaysReplay ReplayToday(const Scenario& scenario, const Catalog& catalog) {
  TodaysReplay today;
  const TraceWorkload& trace = scenario.workload.trace;
  const auto& recording = trace.metrics;
  bool running = false;
  if (trace.pods != nullptr) {
    for (const Pod& p : *trace.pods) running = running || p.running_in_dump;
  }
  if (!running && recording == nullptr) return today;
  Simulation simulation(scenario, catalog);
  CollectorOptions options;
  options.record_devices = recording != nullptr;
  Collector collector(simulation, scenario.name, scenario.seed, options);
  simulation.Run(&collector);
  today.ran = true;
  today.check = CheckReplayOfToday(collector.result());
  if (recording != nullptr) {
    today.fidelity = FidelityOf(collector.result(), *recording, scenario);
  }
  return today;
}

std::string TodaysHtml(const TodaysReplay& today) {
  if (!today.ran) return "";
  if (today.fidelity == nullptr) return ReplayCheckHtml(today.check);
  // The plain-words verdict first, then the details.
  return FidelitySummaryHtml(*today.fidelity) + ReplayCheckHtml(today.check) +
         MetricsFidelityHtml(*today.fidelity);
}

}  // namespace gpushare::cli
