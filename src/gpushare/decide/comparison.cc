#include "gpushare/decide/comparison.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

#include "gpushare/base/parallel.h"
#include "gpushare/decide/tenant_classes.h"
#include "gpushare/metrics/collector.h"
#include "gpushare/sim/observer_fanout.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/workload/llm_engine.h"

namespace gpushare {

SimulationResult SimulateScenario(const Scenario& scenario,
                                  const Catalog& catalog,
                                  const RunObserverFactory& observe) {
  Simulation simulation(scenario, catalog);
  // No per-pod record is kept: compare and plan read the pods' summaries.
  Collector collector(simulation, scenario.name, scenario.seed,
                      CollectorOptions{});
  if (!observe) {
    simulation.Run(&collector);
    return collector.TakeResult();
  }
  const std::unique_ptr<SimulationObserver> extra = observe();
  ObserverFanout observers({&collector, extra.get()});
  simulation.Run(&observers);
  return collector.TakeResult();
}

void SimulateScenarios(int n, int threads, const Catalog& catalog,
                       const ScenarioOf& scenario_of,
                       const std::function<void(int, const Scenario&,
                                                const SimulationResult&)>& use,
                       const RunObserverFactory& observe) {
  ParallelFor(n, threads, [&](int i) {
    Scenario scratch;
    const Scenario& scenario = scenario_of(i, &scratch);
    use(i, scenario, SimulateScenario(scenario, catalog, observe));
  });
}

namespace {

bool ComparesMig(const CompareSpec& spec) {
  return std::find(spec.schemes.begin(), spec.schemes.end(),
                   SharingScheme::kMig) != spec.schemes.end();
}

std::string DescribePool(const NodePoolSpec& pool) {
  if (pool.gpus_per_node == 0) return fmt::format("{} (no GPUs)", pool.name);
  return fmt::format("{} {} {}", pool.name, pool.gpu_model,
                     PoolSharingLabel(pool, nullptr));
}

}  // namespace

double ExpectedPods(const WorkloadSpec& workload) {
  double pods = 0;
  for (const WorkloadClassSpec& c : workload.classes) {
    pods += c.count > 0 ? static_cast<double>(c.count)
                        : c.arrival_rate_per_s *
                              (workload.horizon_s - c.arrival_start_s);
  }
  return pods;
}

Scenario PilotScenario(const Scenario& scenario, int64_t pods) {
  const double expected = ExpectedPods(scenario.workload);
  if (pods <= 0 || expected <= static_cast<double>(pods)) return scenario;
  const double f = static_cast<double>(pods) / expected;
  Scenario pilot = scenario;
  const double window = scenario.workload.horizon_s;
  pilot.workload.horizon_s = window * f;
  for (WorkloadClassSpec& c : pilot.workload.classes) {
    c.arrival_start_s *= f;  // the shifts keep their place in the day
    if (c.count > 0) {
      c.count =
          std::max<int64_t>(1, std::llround(static_cast<double>(c.count) * f));
    }
  }
  if (scenario.horizon_s > 0) {
    // Keep the time the scenario leaves after its last arrivals.
    pilot.horizon_s =
        std::max(pilot.workload.horizon_s,
                 scenario.horizon_s - window + pilot.workload.horizon_s);
  }
  return pilot;
}

namespace {

// A note per class whose engine's explicit gpu_memory_utilization left its
// pods no KV cache block in the grant this variant gave them (they failed
// at start; docs/scenario.md, `gpu_memory_utilization`).
void NoteEnginesWithoutKvCache(const SchemeVariant& variant,
                               const SimulationResult& result,
                               std::vector<std::string>* notes) {
  for (const WorkloadClassSpec& c : variant.scenario.workload.classes) {
    if (c.llm_engine == nullptr || c.llm_engine->memory_utilization_auto) {
      continue;
    }
    int64_t failed = 0;
    const TextId id = result.pod_texts.Find(c.name);
    result.pod_summaries.ForEach([&](const PodSummary& p) {
      failed += id != kNoText && p.tenant_class == id && p.kv_cache_tokens == 0;
    });
    if (failed == 0) continue;
    notes->push_back(fmt::format(
        "warning: class {}: gpu_memory_utilization {} leaves no KV cache "
        "block in the memory {} grants it: {} of its pods cannot start "
        "(`auto` pre-allocates what each scheme's pod patch sets)",
        c.name, c.llm_engine->gpu_memory_utilization, variant.name, failed));
  }
}

}  // namespace

VariantOutcome SummarizeVariant(
    const SchemeVariant& variant, const SimulationResult& result,
    const std::vector<std::string>& tenant_classes) {
  VariantOutcome v;
  v.name = variant.name;
  v.plan = variant.plan;
  v.pool_plan = variant.pool_plan;
  v.scheme = variant.scheme;
  v.notes = variant.notes;
  NoteEnginesWithoutKvCache(variant, result, &v.notes);
  for (const NodePoolSpec& pool : variant.scenario.pools) {
    v.pools.push_back(DescribePool(pool));
  }
  v.cluster = ComputeClassMetrics(result, "");
  for (const std::string& c : tenant_classes) {
    v.classes.push_back(ComputeClassMetrics(result, c));
  }
  {
    std::map<std::string, std::string> pool_scheme;
    for (const PoolSummary& p : result.pools) pool_scheme[p.name] = p.scheme;
    for (const std::string& c : tenant_classes) {
      std::map<std::string, int64_t> count;
      const TextId id = result.pod_texts.Find(c);
      result.pod_summaries.ForEach([&](const PodSummary& p) {
        if (id == kNoText || p.tenant_class != id) return;
        // Where it ran, else the pool it was routed to.
        const std::string& pool = result.text(p.pool).empty()
                                      ? result.text(p.target_pool)
                                      : result.text(p.pool);
        if (!pool.empty()) ++count[pool_scheme[pool]];
      });
      std::string best;
      int64_t most = 0;
      for (const auto& [scheme, n] : count) {
        if (n > most) {
          best = scheme;
          most = n;
        }
      }
      v.class_schemes.push_back(best);
    }
  }
  {
    std::map<std::string, size_t> pool_index;
    for (size_t i = 0; i < variant.scenario.pools.size(); ++i) {
      pool_index[variant.scenario.pools[i].name] = i;
    }
    std::map<std::string, size_t> class_index;
    for (size_t c = 0; c < tenant_classes.size(); ++c) {
      class_index[tenant_classes[c]] = c;
    }
    v.class_routed_pods.assign(
        tenant_classes.size(),
        std::vector<int64_t>(variant.scenario.pools.size(), 0));
    result.pod_summaries.ForEach([&](const PodSummary& p) {
      const auto c = class_index.find(result.text(p.tenant_class));
      const auto pool = pool_index.find(result.text(p.target_pool));
      if (c == class_index.end() || pool == pool_index.end()) return;
      ++v.class_routed_pods[c->second][pool->second];
    });
  }
  v.end_s = result.end_s;
  v.faults = result.faults;
  v.max_blast_radius = result.max_blast_radius;
  for (const PatrolAlert& a : result.alerts) ++v.alerts[a.name];
  v.cluster_cost = result.cost;
  v.goodput = result.goodput;
  v.pool_summaries = result.pools;
  double gpus = 0;
  for (const PoolSummary& p : result.pools) {
    gpus += p.gpus;
    v.mean_allocation += p.gpus * p.mean_allocation;
    v.mean_sm_active += p.gpus * p.mean_sm_active;
    v.mean_gpu_util += p.gpus * p.mean_gpu_util;
  }
  if (gpus > 0) {
    v.mean_allocation /= gpus;
    v.mean_sm_active /= gpus;
    v.mean_gpu_util /= gpus;
  }
  return v;
}

int ComparisonRunCount(const Scenario& scenario, const CompareSpec& spec) {
  return std::max(1, spec.seeds) *
         ((ComparesMig(spec) ? static_cast<int>(spec.mig_families.size())
                             : 0) +
          static_cast<int>(spec.schemes.size()) +
          (HasMixedPlan(scenario) ? 1 : 0) +
          (OffersDynamicMigVariant(scenario, spec) ? 1 : 0));
}

Scenario ScenarioWithSeed(const Scenario& scenario, uint64_t seed) {
  Scenario out = scenario;
  out.seed = seed;
  out.scheduler.seed = seed;
  return out;
}

VariantOutcome MergeSeedRuns(std::vector<VariantOutcome> runs) {
  std::vector<PoolSummary> summaries = std::move(runs.front().pool_summaries);
  VariantOutcome out = runs.front();
  out.pool_summaries = std::move(summaries);
  const size_t n = runs.size();
  const double dn = static_cast<double>(n);
  std::vector<ClassMetrics> clusters;
  for (VariantOutcome& r : runs) {
    clusters.push_back(r.cluster);
    out.classes_by_seed.push_back(r.classes);
  }
  out.cluster = MeanClassMetrics(clusters);
  for (size_t c = 0; c < out.class_routed_pods.size(); ++c) {
    for (size_t p = 0; p < out.class_routed_pods[c].size(); ++p) {
      double sum = 0;
      for (const VariantOutcome& r : runs) {
        sum += static_cast<double>(r.class_routed_pods[c][p]);
      }
      out.class_routed_pods[c][p] =
          std::llround(sum / static_cast<double>(runs.size()));
    }
  }
  for (size_t c = 0; c < out.classes.size(); ++c) {
    std::vector<ClassMetrics> seeds;
    for (const VariantOutcome& r : runs) seeds.push_back(r.classes[c]);
    out.classes[c] = MeanClassMetrics(seeds);
  }
  const auto mean = [&](double VariantOutcome::*field) {
    double sum = 0;
    for (const VariantOutcome& r : runs) sum += r.*field;
    return sum / dn;
  };
  out.end_s = mean(&VariantOutcome::end_s);
  out.max_blast_radius = mean(&VariantOutcome::max_blast_radius);
  out.mean_allocation = mean(&VariantOutcome::mean_allocation);
  out.mean_sm_active = mean(&VariantOutcome::mean_sm_active);
  out.mean_gpu_util = mean(&VariantOutcome::mean_gpu_util);
  out.cluster_cost = mean(&VariantOutcome::cluster_cost);
  double goodput_sum = 0;
  int goodput_runs = 0;
  for (const VariantOutcome& r : runs) {
    if (r.goodput < 0) continue;
    goodput_sum += r.goodput;
    ++goodput_runs;
  }
  out.goodput = goodput_runs > 0 ? goodput_sum / goodput_runs : -1;
  double faults = 0;
  std::map<std::string, double> alerts;
  for (const VariantOutcome& r : runs) {
    faults += static_cast<double>(r.faults);
    for (const auto& [name, count] : r.alerts) alerts[name] += count;
  }
  out.faults = std::llround(faults / dn);
  out.alerts.clear();
  for (const auto& [name, count] : alerts) {
    const int mean_count = static_cast<int>(std::llround(count / dn));
    if (mean_count > 0) out.alerts[name] = mean_count;
  }
  return out;
}

Comparison RunComparison(const Scenario& scenario, const CompareSpec& spec,
                         const Catalog& catalog, int threads,
                         const RunObserverFactory& observe) {
  Comparison out;
  out.scenario = scenario.name;
  out.eviction_warning_per_pod = scenario.model.eviction_warning_per_pod;
  out.seed = scenario.seed;
  const int seeds = std::max(1, spec.seeds);
  std::vector<Scenario> seeded;
  for (int k = 0; k < seeds; ++k) {
    out.seeds.push_back(scenario.seed + static_cast<uint64_t>(k));
    seeded.push_back(ScenarioWithSeed(scenario, out.seeds.back()));
  }
  for (const TenantClassInfo& c : ScenarioTenantClasses(scenario)) {
    out.tenant_classes.push_back(c.name);
    out.workload_classes.push_back(
        std::string(WorkloadClassName(c.workload_class)));
    out.class_no_scheme.push_back(c.no_scheme);
  }
  for (const NodePoolSpec& pool : scenario.pools) {
    out.pools.push_back(pool.name);
    out.pool_schemes.push_back(
        pool.gpus_per_node > 0 && !pool.gpu_model.empty()
            ? std::string(SharingSchemeName(pool.sharing.scheme()))
            : std::string());
  }
  const bool has_mig = ComparesMig(spec);

  // MIG: choose each pool's layout family on a pilot, over the seeds.
  std::vector<std::string> mig_families;
  if (has_mig) {
    const size_t families = spec.mig_families.size();
    // Run i is family i / seeds on seed i % seeds.
    std::vector<SchemeVariant> candidates;
    for (const std::string& family : spec.mig_families) {
      for (int k = 0; k < seeds; ++k) {
        const Scenario pilot = PilotScenario(seeded[k], spec.mig_pilot_pods);
        if (candidates.empty()) {
          out.mig_pilot =
              ExpectedPods(pilot.workload) < ExpectedPods(scenario.workload);
        }
        candidates.push_back(MakeSchemeVariant(
            pilot, SharingScheme::kMig, spec, catalog,
            std::vector<std::string>(pilot.pools.size(), family)));
      }
    }
    const size_t pools = scenario.pools.size();
    // [run][pool]
    std::vector<std::vector<ClassMetrics>> metrics(candidates.size());
    std::vector<int64_t> pilot_pods(candidates.size());
    SimulateScenarios(
        static_cast<int>(candidates.size()), threads, catalog,
        [&](int i, Scenario*) -> const Scenario& {
          return candidates[i].scenario;
        },
        [&](int i, const Scenario&, const SimulationResult& result) {
          pilot_pods[i] = result.pods;
          for (size_t p = 0; p < pools; ++p) {
            metrics[i].push_back(ComputePoolMetrics(
                result, candidates[i].scenario.pools[p].name));
          }
        },
        observe);
    out.mig_pilot_pods = pilot_pods.empty() ? 0 : pilot_pods[0];
    mig_families.assign(pools, "");
    for (size_t p = 0; p < pools; ++p) {
      MigPoolChoice choice;
      choice.pool = scenario.pools[p].name;
      choice.model = scenario.pools[p].gpu_model;
      int best = -1;
      for (size_t f = 0; f < families; ++f) {
        const size_t first = f * static_cast<size_t>(seeds);
        const NodePoolSpec& pool = candidates[first].scenario.pools[p];
        if (!pool.sharing.mig_enabled) continue;  // family not on this model
        MigCandidate c;
        c.family = spec.mig_families[f];
        c.config = pool.sharing.mig.config_name;
        std::vector<ClassMetrics> runs;
        for (int k = 0; k < seeds; ++k) runs.push_back(metrics[first + k][p]);
        const ClassMetrics mean = MeanClassMetrics(runs);
        c.performance = mean.performance;
        c.cost_per_served_pod = mean.cost_per_served_pod;
        choice.pods = metrics[first][p].pods;
        choice.candidates.push_back(c);
        const int k = static_cast<int>(choice.candidates.size()) - 1;
        if (best < 0) {
          best = k;
          continue;
        }
        const MigCandidate& b = choice.candidates[best];
        if (c.performance > b.performance + 1e-12 ||
            (std::abs(c.performance - b.performance) <= 1e-12 &&
             c.cost_per_served_pod < b.cost_per_served_pod - 1e-12)) {
          best = k;
        }
      }
      if (best < 0) continue;  // no MIG on this pool
      choice.family = choice.candidates[best].family;
      choice.config = choice.candidates[best].config;
      mig_families[p] = choice.family;
      out.mig_choices.push_back(choice);
    }
  }

  // Run i is variant i / seeds on seed i % seeds.
  std::vector<SchemeVariant> runs;
  for (SharingScheme scheme : spec.schemes) {
    for (int k = 0; k < seeds; ++k) {
      runs.push_back(
          MakeSchemeVariant(seeded[k], scheme, spec, catalog, mig_families));
    }
  }
  if (OffersDynamicMigVariant(scenario, spec)) {
    for (int k = 0; k < seeds; ++k) {
      runs.push_back(MakeDynamicMigVariant(seeded[k], spec, catalog));
    }
  }
  if (HasMixedPlan(scenario)) {
    for (int k = 0; k < seeds; ++k) {
      runs.push_back(MakePlanVariant(seeded[k]));
    }
  }
  std::vector<VariantOutcome> outcomes(runs.size());
  std::vector<int64_t> pods(runs.size());
  SimulateScenarios(
      static_cast<int>(runs.size()), threads, catalog,
      [&](int i, Scenario*) -> const Scenario& { return runs[i].scenario; },
      [&](int i, const Scenario&, const SimulationResult& result) {
        pods[i] = result.pods;
        outcomes[i] = SummarizeVariant(runs[i], result, out.tenant_classes);
      },
      observe);
  for (size_t first = 0; first < outcomes.size(); first += seeds) {
    std::vector<VariantOutcome> per_seed(
        std::make_move_iterator(outcomes.begin() + first),
        std::make_move_iterator(outcomes.begin() + first + seeds));
    out.variants.push_back(MergeSeedRuns(std::move(per_seed)));
  }
  out.pods = pods.empty() ? 0 : pods[0];
  return out;
}

}  // namespace gpushare
