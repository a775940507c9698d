// What a run keeps of its pods (sim/simulation.h, "Pods and their
// memory"): only the pods alive, each readable until its final OnEnd.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpushare/sim/simulation.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace simulation_memory_test {
namespace {

using testing_scenarios::Jobs;
using testing_scenarios::OnePool;

// Reads each pod in its hooks, as the contract allows, and counts what the
// simulation holds.
class Reader : public SimulationObserver {
 public:
  explicit Reader(const Simulation& sim) : sim_(sim) {}
  void OnRunStart(const Cluster& /*cluster*/, int64_t pod_count,
                  const std::vector<DomainInfo>& /*domains*/) override {
    pod_count_ = pod_count;
  }
  void OnArrival(double t, PodIndex pod) override {
    EXPECT_EQ(pod, arrived_) << "pods arrive in PodIndex order";
    ++arrived_;
    EXPECT_EQ(sim_.pod(pod).arrival_s, t);
    max_alive_ = std::max(max_alive_, sim_.pods_alive());
  }
  void OnEnd(double /*t*/, PodIndex pod, PodEnd /*how*/,
             const std::string& /*message*/) override {
    ended_names_.push_back(sim_.pod(pod).name);
  }
  void OnNotArrived(PodIndex pod) override {
    EXPECT_EQ(pod, arrived_ + not_arrived_);
    ++not_arrived_;
    not_arrived_after_ = std::min(not_arrived_after_, sim_.pod(pod).arrival_s);
  }

  const Simulation& sim_;
  int64_t pod_count_ = -1;
  int64_t arrived_ = 0;
  int64_t not_arrived_ = 0;
  double not_arrived_after_ = 1e300;
  int64_t max_alive_ = 0;
  std::vector<std::string> ended_names_;
};

// 2,000 jobs of 0.5 s on one GPU, one a second for 2,000 s.
Scenario ShortJobs() {
  Scenario s = OnePool("A100-40GB", 1, ExclusiveSharing());
  s.workload.horizon_s = 2000;
  WorkloadClassSpec c = Jobs("j", 2000, 1, 1000, 0.5);
  c.arrival_rate_per_s = 1;
  s.workload.classes.push_back(c);
  return s;
}

TEST(SimulationMemoryTest, HoldsOnlyThePodsAlive) {
  static const Catalog catalog = Catalog::Builtin();
  const Scenario s = ShortJobs();
  Simulation sim(s, catalog);
  EXPECT_EQ(sim.pod_count(), 2000);
  Reader reader(sim);
  sim.Run(&reader);
  EXPECT_EQ(reader.pod_count_, 2000);
  EXPECT_EQ(reader.arrived_, 2000);
  EXPECT_EQ(reader.not_arrived_, 0);
  ASSERT_EQ(reader.ended_names_.size(), 2000u);
  EXPECT_EQ(reader.ended_names_.front(), "j-0");
  // Gaps between arrivals are exponential (mean 1 s), jobs take 0.5 s: a
  // handful at once, never the 2,000 a run that kept every pod would hold.
  EXPECT_LE(reader.max_alive_, 20);
  EXPECT_EQ(sim.pods_arrived(), 2000);
  // The last pod ended at the run's last event and is kept through
  // OnFinish; the others were released.
  EXPECT_LE(sim.pods_alive(), 1);
  EXPECT_FALSE(sim.pod_alive(0));
  EXPECT_DEATH(sim.pod(0), "used after it ended");
}

TEST(SimulationMemoryTest, PodsAfterTheEndAreToldTheyNeverArrived) {
  static const Catalog catalog = Catalog::Builtin();
  Scenario s = ShortJobs();
  s.horizon_s = 500;  // the run ends before most arrivals
  Simulation sim(s, catalog);
  Reader reader(sim);
  sim.Run(&reader);
  EXPECT_GT(reader.arrived_, 300);
  EXPECT_LT(reader.arrived_, 700);
  EXPECT_EQ(reader.arrived_ + reader.not_arrived_, 2000);
  EXPECT_GT(reader.not_arrived_after_, 500);
  EXPECT_EQ(sim.pods_arrived(), 2000);

  // The collector's records say so (PodOutcome::kNotArrived).
  const SimulationResult r = testing_scenarios::RunAndCollect(s);
  ASSERT_EQ(r.pod_records.size(), 2000u);
  int64_t not_arrived = 0;
  for (const PodRecord& p : r.pod_records) {
    if (p.outcome == PodOutcome::kNotArrived) {
      ++not_arrived;
      EXPECT_GT(p.arrival_s, 500) << p.name;
      EXPECT_EQ(p.name.rfind("j-", 0), 0u);
    }
  }
  EXPECT_EQ(not_arrived, reader.not_arrived_);
}

}  // namespace
}  // namespace simulation_memory_test
}  // namespace gpushare
