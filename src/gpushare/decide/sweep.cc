#include "gpushare/decide/sweep.h"

#include <set>

#include "gpushare/base/parallel.h"
#include "gpushare/decide/pool_scheme_resolution.h"
#include "gpushare/decide/scheme_variant.h"
#include "gpushare/decide/selection.h"
#include "gpushare/decide/sweep_point.h"
#include "gpushare/decide/tenant_classes.h"

namespace gpushare {
namespace {

// The scheme of the scenario's GPU pools: one scheme's name, or "mixed".
std::string ScenarioScheme(const Scenario& scenario) {
  std::set<std::string> schemes;
  for (const NodePoolSpec& pool : scenario.pools) {
    if (pool.gpus_per_node > 0) {
      schemes.insert(std::string(SharingSchemeName(pool.sharing.scheme())));
    }
  }
  if (schemes.size() == 1) return *schemes.begin();
  return schemes.empty() ? "none" : "mixed";
}

std::vector<std::string> TenantClassNames(const Scenario& scenario) {
  std::vector<std::string> names;
  for (const TenantClassInfo& c : ScenarioTenantClasses(scenario)) {
    names.push_back(c.name);
  }
  return names;
}

}  // namespace

Sweep::Sweep(const SweepGrid& grid, const std::string& scenario_text,
             const std::string& scenario_file, std::vector<int64_t> points,
             const Catalog& catalog)
    : grid_(grid),
      scenario_text_(scenario_text),
      scenario_file_(scenario_file),
      points_(std::move(points)),
      catalog_(catalog) {
  const bool keep = static_cast<int64_t>(points_.size()) <= kKeptPoints;
  for (const int64_t p : points_) {
    SweepPoint point =
        ReadSweepPoint(grid_, scenario_text_, scenario_file_, p, catalog_);
    runs_ += grid_.command == SweepCommand::kCompare
                 ? ComparisonRunCount(point.scenario, point.spec.compare)
                 : 1;
    // A trace's pods are loaded with each point: never kept.
    if (keep && point.scenario.workload.trace.pods == nullptr) {
      kept_.emplace(p, std::move(point));
    }
  }
}

SweepPoint Sweep::Read(int64_t point, std::mutex& read_lock) const {
  if (const auto it = kept_.find(point); it != kept_.end()) return it->second;
  std::lock_guard<std::mutex> lock(read_lock);
  return ReadSweepPoint(grid_, scenario_text_, scenario_file_, point, catalog_);
}

SweepPointResult Sweep::Start(int64_t point, const Scenario& scenario) const {
  SweepPointResult r;
  r.point = point;
  r.values = grid_.ValueTexts(point);
  r.tenant_classes = TenantClassNames(scenario);
  r.scheme = ScenarioScheme(scenario);
  return r;
}

void Sweep::Run(int threads,
                const std::function<void(const SweepPointResult&)>& done,
                const RunObserverFactory& observe) const {
  std::mutex read_lock;
  std::mutex done_lock;
  const auto finish = [&](SweepPointResult& r) {
    for (VariantOutcome& v : r.variants) v.pool_summaries.clear();
    std::lock_guard<std::mutex> lock(done_lock);
    done(r);
  };
  const int n = static_cast<int>(points_.size());
  if (grid_.command == SweepCommand::kRun) {
    SimulateScenarios(
        n, threads, catalog_,
        [&](int i, Scenario* s) -> const Scenario& {
          *s = Read(points_[i], read_lock).scenario;
          return *s;
        },
        [&](int i, const Scenario& scenario, const SimulationResult& result) {
          SweepPointResult r = Start(points_[i], scenario);
          SchemeVariant variant = MakePlanVariant(scenario);
          variant.name = "scenario";
          r.variants.push_back(
              SummarizeVariant(variant, result, r.tenant_classes));
          finish(r);
        },
        observe);
    return;
  }
  // A comparison per point, each on one thread (points run side by side).
  ParallelFor(n, threads, [&](int i) {
    const SweepPoint point = Read(points_[i], read_lock);
    SweepPointResult r = Start(points_[i], point.scenario);
    Comparison comparison = RunComparison(point.scenario, point.spec.compare,
                                          catalog_, /*threads=*/1, observe);
    Selection selection = Select(comparison, point.spec.selection);
    AddPoolSchemePlan(point.scenario, point.spec, catalog_, /*threads=*/1,
                      observe, &comparison, &selection);
    r.pool_plan = selection.pool_plan;
    r.tenant_classes = comparison.tenant_classes;
    r.variants = std::move(comparison.variants);
    for (const ClassChoice& c : selection.classes) {
      r.winners.push_back(c.has_winner() ? c.ranking.front().variant : "");
    }
    finish(r);
  });
}

}  // namespace gpushare
