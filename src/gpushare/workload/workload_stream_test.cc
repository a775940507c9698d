// The pod stream against the generator's batch algorithm (every class drawn
// whole, count classes scaled after their last draw, all pods sorted by
// arrival, class and draw order), written again here as the oracle.

#include "gpushare/workload/workload_stream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "gpushare/base/rng.h"

namespace gpushare {
namespace {

struct Drawn {
  double arrival_s;
  size_t class_index;
  size_t n;
  std::string name;
  double work_s;
  std::string tenant;
};

// The batch algorithm: arrivals and the draws that matter here (work_s, the
// tenant), in the generator's documented draw order.
std::vector<Drawn> Oracle(const WorkloadSpec& spec, uint64_t seed) {
  const Rng root(seed);
  std::vector<Drawn> all;
  for (size_t k = 0; k < spec.classes.size(); ++k) {
    const WorkloadClassSpec& c = spec.classes[k];
    Rng rng = root.Fork(k);
    const double horizon = spec.horizon_s - c.arrival_start_s;
    const double gap_rate = c.count > 0 ? 1.0 : c.arrival_rate_per_s;
    std::vector<Drawn> pods;
    double t = 0;
    for (int64_t n = 0;; ++n) {
      if (c.count > 0 && n >= c.count) break;
      t += -std::log(1.0 - rng.Uniform01()) / gap_rate;
      if (c.count == 0 && !(t < horizon)) break;
      c.gpus.Sample(rng);
      c.gpu_memory_mib.Sample(rng);
      c.sm_demand.Sample(rng);
      c.duty.Sample(rng);
      const double work = c.work_s.Sample(rng);
      c.lifetime_s.Sample(rng);
      c.request_rate.Sample(rng);
      c.gpu_ms_per_request.Sample(rng);
      c.slo_p99_ms.Sample(rng);
      c.cpu_milli.Sample(rng);
      c.memory_mib.Sample(rng);
      const std::string tenant = c.tenants[rng.Below(c.tenants.size())];
      const std::string name = c.name + "-" + std::to_string(n);
      for (int m = 0; m < std::max(1, c.gang_size); ++m) {
        pods.push_back({t, k, pods.size(),
                        c.gang_size > 0 ? name + "-" + std::to_string(m)
                                        : name,
                        work, tenant});
      }
    }
    if (c.count > 0) {
      const double end = t - std::log(1.0 - rng.Uniform01());
      double window = horizon;
      if (c.arrival_rate_per_s > 0) {
        window = std::min(static_cast<double>(c.count) / c.arrival_rate_per_s,
                          horizon);
      }
      for (Drawn& d : pods) {
        d.arrival_s = end > 0 ? std::min(window * (d.arrival_s / end),
                                         std::nextafter(window, 0.0))
                              : 0;
      }
    }
    for (Drawn& d : pods) d.arrival_s += c.arrival_start_s;
    all.insert(all.end(), pods.begin(), pods.end());
  }
  std::stable_sort(all.begin(), all.end(), [](const Drawn& a, const Drawn& b) {
    return std::tie(a.arrival_s, a.class_index, a.n) <
           std::tie(b.arrival_s, b.class_index, b.n);
  });
  return all;
}

WorkloadClassSpec Class(std::string name, double rate, int64_t count) {
  WorkloadClassSpec c;
  c.name = std::move(name);
  c.arrival_rate_per_s = rate;
  c.count = count;
  c.tenants = {"a", "b", "c"};
  c.work_s = Distribution::Exponential(600);
  c.gpu_memory_mib = Distribution::Uniform(1000, 9000);
  c.gpus = Distribution::Choice({{0.5, 3}, {1, 1}});
  return c;
}

WorkloadSpec Mixed() {
  WorkloadSpec spec;
  spec.horizon_s = 500;
  spec.classes.push_back(Class("poisson", 2, 0));
  spec.classes.push_back(Class("counted", 0, 300));
  spec.classes.push_back(Class("counted-rate", 5, 200));  // within 40 s
  WorkloadClassSpec gang = Class("gang", 0.1, 0);
  gang.gang_size = 3;
  spec.classes.push_back(gang);
  WorkloadClassSpec late = Class("late", 0, 50);
  late.arrival_start_s = 400;
  spec.classes.push_back(late);
  // Ties between classes: every pod of both at 0 (a zero-length window).
  WorkloadClassSpec burst = Class("burst", 1e12, 4);
  spec.classes.push_back(burst);
  spec.classes.push_back(Class("burst-2", 1e12, 4));
  return spec;
}

TEST(WorkloadStreamTest, YieldsTheBatchAlgorithmsPodsInItsOrder) {
  const WorkloadSpec spec = Mixed();
  for (uint64_t seed : {1u, 7u, 99u}) {
    const std::vector<Drawn> want = Oracle(spec, seed);
    WorkloadStream stream(spec, seed);
    ASSERT_EQ(stream.total(), static_cast<int64_t>(want.size()));
    Pod pod;
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_FALSE(stream.done());
      const double next = stream.next_arrival_s();
      stream.Next(&pod);
      ASSERT_EQ(pod.name, want[i].name) << "pod " << i << " seed " << seed;
      EXPECT_EQ(pod.arrival_s, want[i].arrival_s) << pod.name;
      EXPECT_EQ(next, pod.arrival_s) << pod.name;
      EXPECT_EQ(pod.needs.work_s, want[i].work_s) << pod.name;
      EXPECT_EQ(pod.tenant, want[i].tenant) << pod.name;
    }
    EXPECT_TRUE(stream.done());
    EXPECT_EQ(stream.taken(), stream.total());
  }
}

TEST(WorkloadStreamTest, MergesTheTraceBeforeGeneratedPodsOfItsTime) {
  WorkloadSpec spec;
  spec.horizon_s = 100;
  spec.classes.push_back(Class("g", 0, 3));
  const std::vector<Drawn> generated = Oracle(spec, 5);
  ASSERT_EQ(generated.size(), 3u);
  std::vector<Pod> trace(3);
  trace[0].name = "t0";
  trace[0].arrival_s = 0;
  trace[1].name = "t1";
  trace[1].arrival_s = generated[1].arrival_s;  // a tie: the trace pod first
  trace[1].explicit_requests = {{"nvidia.com/gpu", 1}};
  trace[2].name = "t2";
  trace[2].arrival_s = 1000;
  spec.trace.pods = std::make_shared<const std::vector<Pod>>(trace);
  spec.trace.keep_explicit_requests = false;
  WorkloadStream stream(spec, 5);
  std::vector<std::string> names;
  Pod pod;
  while (!stream.done()) {
    stream.Next(&pod);
    names.push_back(pod.name);
    EXPECT_TRUE(pod.explicit_requests.empty()) << pod.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"t0", "g-0", "t1", "g-1", "g-2",
                                             "t2"}));
  // Without the trace: the generated pods only.
  WorkloadStream generated_only(spec, 5, /*with_trace=*/false);
  EXPECT_EQ(generated_only.total(), 3);
}

TEST(WorkloadStreamTest, BuildWorkloadIsTheStreamDrained) {
  const WorkloadSpec spec = Mixed();
  const std::vector<Pod> pods = BuildWorkload(spec, 3);
  WorkloadStream stream(spec, 3);
  ASSERT_EQ(static_cast<int64_t>(pods.size()), stream.total());
  Pod pod;
  for (const Pod& p : pods) {
    stream.Next(&pod);
    EXPECT_EQ(pod.name, p.name);
    EXPECT_EQ(pod.arrival_s, p.arrival_s);
  }
}

}  // namespace
}  // namespace gpushare
