#include "gpushare/decide/sweep.h"

#include <algorithm>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

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
      catalog_(catalog),
      reader_(grid_, scenario_text_, scenario_file_, catalog_) {
  if (points_.empty()) return;
  ++points_read_;
  first_ = reader_.Read(points_.front());
  const int64_t per_point =
      grid_.command == SweepCommand::kCompare
          ? ComparisonRunCount(first_->scenario, first_->spec.compare)
          : 1;
  runs_ = per_point * static_cast<int64_t>(points_.size());
}

SweepPointResult Sweep::Evaluate(int64_t point, const SweepPoint& read,
                                 const RunObserverFactory& observe) const {
  const Scenario& scenario = read.scenario;
  SweepPointResult r;
  r.point = point;
  r.values = grid_.ValueTexts(point);
  r.tenant_classes = TenantClassNames(scenario);
  r.scheme = ScenarioScheme(scenario);
  if (grid_.command == SweepCommand::kRun) {
    const SimulationResult result =
        SimulateScenario(scenario, catalog_, observe);
    SchemeVariant variant = MakePlanVariant(scenario);
    variant.name = "scenario";
    r.variants.push_back(SummarizeVariant(variant, result, r.tenant_classes));
  } else {
    // A comparison per point, on the point's thread (points run side by
    // side).
    Comparison comparison = RunComparison(scenario, read.spec.compare, catalog_,
                                          /*threads=*/1, observe);
    Selection selection = Select(comparison, read.spec.selection);
    AddPoolSchemePlan(scenario, read.spec, catalog_, /*threads=*/1, observe,
                      &comparison, &selection);
    r.pool_plan = selection.pool_plan;
    r.tenant_classes = comparison.tenant_classes;
    r.variants = std::move(comparison.variants);
    for (const ClassChoice& c : selection.classes) {
      r.winners.push_back(c.has_winner() ? c.ranking.front().variant : "");
    }
  }
  for (VariantOutcome& v : r.variants) v.pool_summaries.clear();
  return r;
}

void Sweep::Run(int threads,
                const std::function<void(const SweepPointResult&)>& done,
                const RunObserverFactory& observe) const {
  const int64_t n = static_cast<int64_t>(points_.size());
  std::mutex read_lock;  // guards next, stop, read_error and the reader
  int64_t next = 0;
  bool stop = false;
  std::exception_ptr read_error;
  std::mutex done_lock;  // guards done() and run_errors
  std::map<int64_t, std::exception_ptr> run_errors;
  const auto worker = [&] {
    for (;;) {
      int64_t i = 0;
      std::optional<SweepPoint> point;
      {
        std::lock_guard<std::mutex> lock(read_lock);
        if (stop || next >= n) return;
        i = next++;
        try {
          if (i > 0) ++points_read_;
          point = i == 0 && first_ ? *first_ : reader_.Read(points_[i]);
        } catch (...) {
          // Points after it are never read; those before it finish.
          stop = true;
          read_error = std::current_exception();
          return;
        }
      }
      try {
        const SweepPointResult r = Evaluate(points_[i], *point, observe);
        point.reset();
        std::lock_guard<std::mutex> lock(done_lock);
        done(r);
      } catch (...) {
        {
          std::lock_guard<std::mutex> lock(done_lock);
          run_errors.emplace(i, std::current_exception());
        }
        std::lock_guard<std::mutex> lock(read_lock);
        stop = true;
        return;
      }
    }
  };
  const int count = EffectiveThreads(
      static_cast<int>(std::min<int64_t>(n, 1 << 20)), threads);
  std::vector<std::thread> pool;
  for (int t = 1; t < count; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  // Every point before a failed one was read before it, and ran: the
  // lowest failure is the same on any thread count.
  if (!run_errors.empty()) std::rethrow_exception(run_errors.begin()->second);
  if (read_error) std::rethrow_exception(read_error);
}

void CheckSweepPoints(const SweepGrid& grid, const std::string& scenario_text,
                      const std::string& scenario_file,
                      const Catalog& catalog) {
  const SweepPointReader reader(grid, scenario_text, scenario_file, catalog);
  for (int64_t p = 0; p < grid.points; ++p) reader.Read(p);
}

}  // namespace gpushare
