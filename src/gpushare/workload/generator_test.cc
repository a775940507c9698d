// The workload generator: determinism, per-class streams, Poisson counts,
// ordering, names, rounding, tenants and spec validation.

#include "gpushare/workload/generator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace generator_test {
namespace {

WorkloadClassSpec Class(std::string name, double rate, int64_t count = 0) {
  WorkloadClassSpec c;
  c.name = std::move(name);
  c.arrival_rate_per_s = rate;
  c.count = count;
  return c;
}

// A class with every field random, so that determinism checks cover them.
WorkloadClassSpec RandomClass(std::string name, double rate) {
  WorkloadClassSpec c = Class(std::move(name), rate);
  c.workload_class = WorkloadClass::kInference;
  c.tenants = {"team-a", "team-b", "team-c"};
  c.priority = 7;
  c.gpus = Distribution::Choice({{0.25, 1}, {0.5, 1}, {1, 1}, {2, 1}});
  c.gpu_memory_mib = Distribution::Uniform(1000, 40000);
  c.sm_demand = Distribution::Uniform(0.1, 1);
  c.duty = Distribution::LogNormal(0.5, 0.3, 0.05, 1);
  c.work_s = Distribution::Exponential(600);
  c.lifetime_s = Distribution::Uniform(100, 200);
  c.request_rate = Distribution::Exponential(10);
  c.gpu_ms_per_request = Distribution::LogNormal(20, 0.5);
  c.slo_p99_ms = Distribution::Choice({{100, 1}, {250, 1}});
  c.cpu_milli = Distribution::Uniform(500, 8000);
  c.memory_mib = Distribution::Exponential(8192);
  c.node_selector = {{"gpu", "a100"}};
  Toleration t;
  t.key = "nvidia.com/gpu";
  t.op = Toleration::Operator::kExists;
  c.tolerations = {t};
  return c;
}

WorkloadSpec Spec(std::vector<WorkloadClassSpec> classes,
                  double horizon_s = 3600) {
  WorkloadSpec spec;
  spec.classes = std::move(classes);
  spec.horizon_s = horizon_s;
  return spec;
}

void ExpectSamePod(const Pod& a, const Pod& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.namespace_name, b.namespace_name);
  EXPECT_EQ(a.tenant, b.tenant);
  EXPECT_EQ(a.workload_class, b.workload_class);
  EXPECT_EQ(a.priority, b.priority);
  EXPECT_EQ(a.arrival_s, b.arrival_s);
  EXPECT_EQ(a.needs.gpus, b.needs.gpus);
  EXPECT_EQ(a.needs.gpu_memory_mib, b.needs.gpu_memory_mib);
  EXPECT_EQ(a.needs.sm_demand, b.needs.sm_demand);
  EXPECT_EQ(a.needs.duty, b.needs.duty);
  EXPECT_EQ(a.needs.work_s, b.needs.work_s);
  EXPECT_EQ(a.needs.lifetime_s, b.needs.lifetime_s);
  EXPECT_EQ(a.needs.request_rate, b.needs.request_rate);
  EXPECT_EQ(a.needs.gpu_ms_per_request, b.needs.gpu_ms_per_request);
  EXPECT_EQ(a.needs.slo_p99_ms, b.needs.slo_p99_ms);
  EXPECT_EQ(a.cpu_milli, b.cpu_milli);
  EXPECT_EQ(a.memory_mib, b.memory_mib);
  EXPECT_EQ(a.node_selector, b.node_selector);
  ASSERT_EQ(a.tolerations.size(), b.tolerations.size());
  for (size_t i = 0; i < a.tolerations.size(); ++i) {
    EXPECT_EQ(a.tolerations[i].key, b.tolerations[i].key);
    EXPECT_EQ(a.tolerations[i].op, b.tolerations[i].op);
    EXPECT_EQ(a.tolerations[i].value, b.tolerations[i].value);
    EXPECT_EQ(a.tolerations[i].any_effect, b.tolerations[i].any_effect);
    EXPECT_EQ(a.tolerations[i].effect, b.tolerations[i].effect);
  }
}

void ExpectSamePods(const std::vector<Pod>& a, const std::vector<Pod>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) ExpectSamePod(a[i], b[i]);
}

std::vector<Pod> PodsOfClass(const std::vector<Pod>& pods,
                             const std::string& name) {
  std::vector<Pod> out;
  for (const Pod& p : pods) {
    if (p.name.rfind(name + "-", 0) == 0) out.push_back(p);
  }
  return out;
}

// The InputError message of spec.Validate(), or "" when it is valid.
std::string ValidationError(const WorkloadSpec& spec) {
  try {
    spec.Validate();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Every pod of a class asks its class's request_percentile of footprint and
// SM demand, computed from the class's distributions: the same on every
// seed and for a shorter (pilot) workload.
TEST(GenerateWorkloadTest, EveryPodOfAClassAsksTheClassPercentile) {
  WorkloadSpec spec;
  spec.horizon_s = 3600;
  WorkloadClassSpec c;
  c.name = "svc";
  c.arrival_rate_per_s = 0.05;
  c.gpus = Distribution::Constant(0.25);
  c.gpu_memory_mib = Distribution::Uniform(6000, 16000);
  c.sm_demand = Distribution::Uniform(0.1, 0.3);
  spec.classes.push_back(c);
  c.name = "p50";
  c.request_percentile = 50;
  spec.classes.push_back(c);
  for (uint64_t seed : {1, 2}) {
    for (double horizon : {3600.0, 600.0}) {
      spec.horizon_s = horizon;
      const std::vector<Pod> pods = GenerateWorkload(spec, seed);
      ASSERT_FALSE(pods.empty());
      for (const Pod& pod : pods) {
        const bool p95 = pod.tenant_class == "svc";
        EXPECT_EQ(pod.template_request.gpu_memory_mib, p95 ? 15500 : 11000);
        EXPECT_NEAR(pod.template_request.sm_demand, p95 ? 0.29 : 0.2, 1e-12);
      }
    }
  }
  // 1..100, else the class is refused.
  spec.classes[1].request_percentile = 0.5;
  EXPECT_THROW(GenerateWorkload(spec, 1), InputError);
  spec.classes[1].request_percentile = 100;
  EXPECT_EQ(ClassTemplateRequest(spec.classes[1]).gpu_memory_mib, 16000);
}

// request_sizing: per_pod — no template request: each pod is translated
// from its own footprint, so the class's pods ask many sizes.
TEST(GenerateWorkloadTest, PerPodSizingLeavesNoTemplateRequest) {
  WorkloadSpec spec;
  spec.horizon_s = 3600;
  WorkloadClassSpec c;
  c.name = "many";
  c.arrival_rate_per_s = 0.05;
  c.gpus = Distribution::Constant(0.25);
  c.gpu_memory_mib = Distribution::Uniform(6000, 16000);
  c.request_per_pod = true;
  spec.classes.push_back(c);
  const std::vector<Pod> pods = GenerateWorkload(spec, 3);
  ASSERT_GT(pods.size(), 50u);
  std::set<int64_t> footprints;
  for (const Pod& pod : pods) {
    EXPECT_FALSE(pod.template_request.set());
    footprints.insert(pod.needs.gpu_memory_mib);
  }
  EXPECT_GT(footprints.size(), pods.size() / 2);
}

// A class starting at 1000 s in a 3600 s horizon draws as the same class
// over a 2600 s horizon from 0 (the same draws), shifted by 1000 s: its
// arrivals fall in [1000, 3600), and its pods' needs are the same.
TEST(GenerateWorkloadTest, ArrivalStartShiftsTheClassIntoTheRestOfTheHorizon) {
  for (const WorkloadClassSpec& base :
       {Class("late", 0, 10), Class("late", 0.01), Class("late", 0.01, 10)}) {
    WorkloadClassSpec late = base;
    late.arrival_start_s = 1000;
    const std::vector<Pod> shifted = BuildWorkload(Spec({late}, 3600), 7);
    const std::vector<Pod> plain = BuildWorkload(Spec({base}, 2600), 7);
    ASSERT_EQ(shifted.size(), plain.size());
    ASSERT_FALSE(shifted.empty());
    for (size_t i = 0; i < shifted.size(); ++i) {
      EXPECT_DOUBLE_EQ(shifted[i].arrival_s, plain[i].arrival_s + 1000);
      EXPECT_GE(shifted[i].arrival_s, 1000);
      EXPECT_LT(shifted[i].arrival_s, 3600);
      EXPECT_EQ(shifted[i].needs.work_s, plain[i].needs.work_s);
    }
  }
}

TEST(GenerateWorkloadTest, SameSeedGivesIdenticalPods) {
  const WorkloadSpec spec =
      Spec({RandomClass("inference", 0.5), RandomClass("batch", 0.2)});
  const std::vector<Pod> a = GenerateWorkload(spec, 1234);
  const std::vector<Pod> b = GenerateWorkload(spec, 1234);
  ASSERT_GT(a.size(), 100u);
  ExpectSamePods(a, b);
}

TEST(GenerateWorkloadTest, DifferentSeedsDiffer) {
  const WorkloadSpec spec = Spec({RandomClass("inference", 0.5)});
  const std::vector<Pod> a = GenerateWorkload(spec, 1);
  const std::vector<Pod> b = GenerateWorkload(spec, 2);
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  EXPECT_NE(a[0].arrival_s, b[0].arrival_s);
  EXPECT_NE(a[0].needs.work_s, b[0].needs.work_s);
}

TEST(GenerateWorkloadTest, AddingAClassKeepsTheFirstClassPods) {
  const std::vector<Pod> alone =
      GenerateWorkload(Spec({RandomClass("inference", 0.5)}), 77);
  const std::vector<Pod> with_other = GenerateWorkload(
      Spec({RandomClass("inference", 0.5), RandomClass("training", 0.3)}), 77);
  EXPECT_GT(with_other.size(), alone.size());
  ExpectSamePods(alone, PodsOfClass(with_other, "inference"));
}

TEST(GenerateWorkloadTest, CountArrivesWithinTheHorizon) {
  // At 0.001/s, 250 Poisson arrivals would take about 250,000 s; the count
  // is drawn within the 1 s horizon instead.
  const std::vector<Pod> pods =
      GenerateWorkload(Spec({Class("dev", 0.001, 250)}, /*horizon_s=*/1), 5);
  ASSERT_EQ(pods.size(), 250u);
  for (const Pod& p : pods) {
    ASSERT_GE(p.arrival_s, 0);
    ASSERT_LT(p.arrival_s, 1);
  }
  // A count alone spreads over the horizon too.
  for (uint64_t seed : {1, 2, 3, 4, 5, 6, 7, 8}) {
    const std::vector<Pod> ten =
        GenerateWorkload(Spec({Class("svc", 0, 10)}, 3600), seed);
    ASSERT_EQ(ten.size(), 10u);
    EXPECT_LT(ten.back().arrival_s, 3600);
  }
}

TEST(GenerateWorkloadTest, CountAtARateTakesCountOverRateSeconds) {
  // 100 at 1/s: the window is [0, 100), not the 3600 s horizon.
  const std::vector<Pod> pods =
      GenerateWorkload(Spec({Class("batch", 1, 100)}, 3600), 2);
  ASSERT_EQ(pods.size(), 100u);
  EXPECT_LT(pods.back().arrival_s, 100);
  EXPECT_GT(pods.back().arrival_s, 50);  // the largest of 100 uniforms
}

TEST(GenerateWorkloadTest, CountIsSortedUniformPointsOfTheWindow) {
  // Conditioned on N arrivals, a Poisson process's times are N sorted
  // uniform points: over many draws, the k-th of N has mean k/(N+1) of
  // the window (order statistics of the uniform).
  const int n = 4;
  std::vector<double> sum(n, 0);
  const int draws = 4000;
  for (int s = 0; s < draws; ++s) {
    const std::vector<Pod> pods =
        GenerateWorkload(Spec({Class("a", 0, n)}, 1000), 100 + s);
    ASSERT_EQ(pods.size(), static_cast<size_t>(n));
    for (int k = 0; k < n; ++k) sum[k] += pods[k].arrival_s;
  }
  for (int k = 0; k < n; ++k) {
    // Standard error of the mean below 5 s; allow 4 of them.
    EXPECT_NEAR(sum[k] / draws, 1000.0 * (k + 1) / (n + 1), 20) << k;
  }
}

TEST(GenerateWorkloadTest, CountKeepsThePodsNeeds) {
  // The arrival times are rescaled after the draws, so each pod's needs
  // are drawn from the same stream whatever the window.
  WorkloadClassSpec a = RandomClass("a", 0);
  a.count = 30;
  WorkloadClassSpec b = a;
  b.arrival_rate_per_s = 0.5;  // a window of 60 s instead of 3600
  const std::vector<Pod> wide = GenerateWorkload(Spec({a}), 4);
  const std::vector<Pod> narrow = GenerateWorkload(Spec({b}), 4);
  ASSERT_EQ(wide.size(), narrow.size());
  for (size_t i = 0; i < wide.size(); ++i) {
    EXPECT_EQ(wide[i].name, narrow[i].name);
    EXPECT_EQ(wide[i].needs.gpu_memory_mib, narrow[i].needs.gpu_memory_mib);
    EXPECT_EQ(wide[i].tenant, narrow[i].tenant);
    EXPECT_NEAR(narrow[i].arrival_s, wide[i].arrival_s * 60 / 3600, 1e-9);
  }
}

TEST(GenerateWorkloadTest, PoissonCountOverALongHorizon) {
  const double rate = 0.5;
  const double horizon = 100000;
  for (uint64_t seed : {1, 2, 3}) {
    const std::vector<Pod> pods =
        GenerateWorkload(Spec({Class("batch", rate)}, horizon), seed);
    const double expected = rate * horizon;
    EXPECT_NEAR(static_cast<double>(pods.size()), expected,
                4 * std::sqrt(expected));
    for (const Pod& p : pods) {
      ASSERT_GE(p.arrival_s, 0);
      ASSERT_LT(p.arrival_s, horizon);
    }
  }
}

TEST(GenerateWorkloadTest, SortedByArrivalThenClassThenDrawOrder) {
  const std::vector<Pod> pods = GenerateWorkload(
      Spec({Class("a", 2), Class("b", 3), Class("c", 1, 50)}, 100), 9);
  ASSERT_GT(pods.size(), 300u);
  for (size_t i = 1; i < pods.size(); ++i) {
    ASSERT_LE(pods[i - 1].arrival_s, pods[i].arrival_s);
  }
  // Within a class, n increases with arrival.
  std::map<std::string, int> next;
  for (const Pod& p : pods) {
    const std::string cls = p.name.substr(0, p.name.find('-'));
    EXPECT_EQ(p.name, cls + "-" + std::to_string(next[cls]++));
  }
}

TEST(GenerateWorkloadTest, NamesAndClassFields) {
  WorkloadClassSpec c = RandomClass("team-a-training", 1);
  c.count = 5;
  c.workload_class = WorkloadClass::kTraining;
  const std::vector<Pod> pods = GenerateWorkload(Spec({c}), 1);
  ASSERT_EQ(pods.size(), 5u);
  for (int n = 0; n < 5; ++n) {
    const Pod& p = pods[n];
    EXPECT_EQ(p.name, "team-a-training-" + std::to_string(n));
    EXPECT_EQ(p.workload_class, WorkloadClass::kTraining);
    EXPECT_EQ(p.priority, 7);
    EXPECT_EQ(p.namespace_name, p.tenant);
    EXPECT_EQ(p.node_selector, c.node_selector);
    ASSERT_EQ(p.tolerations.size(), 1u);
    EXPECT_EQ(p.tolerations[0].key, "nvidia.com/gpu");
    EXPECT_TRUE(p.requests.empty());
  }
}

TEST(GenerateWorkloadTest, ConstantNeedsAreCopied) {
  const std::vector<Pod> pods = GenerateWorkload(Spec({Class("d", 1, 3)}), 1);
  ASSERT_EQ(pods.size(), 3u);
  for (const Pod& p : pods) {
    EXPECT_EQ(p.tenant, "default");
    EXPECT_EQ(p.needs.gpus, 1);
    EXPECT_EQ(p.needs.gpu_memory_mib, 8192);
    EXPECT_EQ(p.needs.sm_demand, 0.5);
    EXPECT_EQ(p.needs.duty, 1.0);
    EXPECT_EQ(p.needs.work_s, 3600);
    EXPECT_EQ(p.needs.lifetime_s, 0);
    EXPECT_EQ(p.cpu_milli, 4000);
    EXPECT_EQ(p.memory_mib, 16384);
  }
}

TEST(GenerateWorkloadTest, GpusRounding) {
  WorkloadClassSpec c = Class("g", 1, 2000);
  c.gpus = Distribution::Uniform(0.5, 3);
  const std::vector<Pod> pods = GenerateWorkload(Spec({c}), 4);
  bool saw_fraction = false;
  for (const Pod& p : pods) {
    const double g = p.needs.gpus;
    if (g < 1) {
      EXPECT_GE(g, 0.5);
      saw_fraction = true;
    } else {
      EXPECT_EQ(g, std::round(g));
      EXPECT_LE(g, 3);
    }
  }
  EXPECT_TRUE(saw_fraction);
}

TEST(GenerateWorkloadTest, GpusRoundsWholeValuesAndKeepsFractions) {
  WorkloadClassSpec c = Class("g", 1, 4);
  // Lognormal clamps are not checked for whole numbers; 1.6 rounds to 2.
  c.gpus = Distribution::LogNormal(1.6, 0);
  std::vector<Pod> pods = GenerateWorkload(Spec({c}), 1);
  for (const Pod& p : pods) EXPECT_EQ(p.needs.gpus, 2);
  c.gpus = Distribution::Constant(0.5);
  pods = GenerateWorkload(Spec({c}), 1);
  for (const Pod& p : pods) EXPECT_EQ(p.needs.gpus, 0.5);
}

TEST(GenerateWorkloadTest, IntegerFieldsRoundedAndFractionsClamped) {
  WorkloadClassSpec c = Class("r", 1, 500);
  c.gpu_memory_mib = Distribution::Uniform(100.2, 100.4);
  c.cpu_milli = Distribution::Constant(1500.6);
  c.memory_mib = Distribution::Constant(2047.5);
  c.sm_demand = Distribution::LogNormal(0.9, 1);  // often > 1
  c.duty = Distribution::Exponential(2);          // often > 1
  const std::vector<Pod> pods = GenerateWorkload(Spec({c}), 8);
  bool clamped = false;
  for (const Pod& p : pods) {
    EXPECT_EQ(p.needs.gpu_memory_mib, 100);
    EXPECT_EQ(p.cpu_milli, 1501);
    EXPECT_EQ(p.memory_mib, 2048);
    EXPECT_GE(p.needs.sm_demand, 0);
    EXPECT_LE(p.needs.sm_demand, 1);
    EXPECT_GE(p.needs.duty, 0);
    EXPECT_LE(p.needs.duty, 1);
    if (p.needs.sm_demand == 1 && p.needs.duty == 1) clamped = true;
  }
  EXPECT_TRUE(clamped);
}

TEST(GenerateWorkloadTest, TenantsDrawnFromTheList) {
  WorkloadClassSpec c = Class("t", 1, 3000);
  c.tenants = {"alpha", "beta", "gamma"};
  const std::vector<Pod> pods = GenerateWorkload(Spec({c}), 6);
  std::map<std::string, int> counts;
  for (const Pod& p : pods) {
    ++counts[p.tenant];
    EXPECT_EQ(p.namespace_name, p.tenant);
  }
  ASSERT_EQ(counts.size(), 3u);
  for (const auto& [tenant, n] : counts) {
    EXPECT_TRUE(tenant == "alpha" || tenant == "beta" || tenant == "gamma");
    EXPECT_NEAR(n, 1000, 120) << tenant;
  }
}

TEST(GenerateWorkloadTest, EmptySpecGivesNoPods) {
  EXPECT_TRUE(GenerateWorkload(Spec({}), 1).empty());
}

TEST(GenerateWorkloadTest, InvalidSpecThrows) {
  EXPECT_THROW(GenerateWorkload(Spec({Class("a", -1)}), 1), InputError);
}

TEST(WorkloadSpecTest, ValidSpecs) {
  EXPECT_EQ(ValidationError(Spec({RandomClass("a", 1), Class("b", 2, 10)})),
            "");
  // Horizon ignored when every class has a count.
  EXPECT_EQ(ValidationError(Spec({Class("a", 1, 10)}, 0)), "");
  WorkloadClassSpec service = Class("svc", 1);
  service.work_s = Distribution::Constant(0);
  service.lifetime_s = Distribution::Exponential(600);
  EXPECT_EQ(ValidationError(Spec({service})), "");
}

TEST(WorkloadSpecTest, ClassErrors) {
  EXPECT_EQ(ValidationError(Spec({Class("", 1)})),
            "workload class #1 has an empty name");
  EXPECT_EQ(ValidationError(Spec({Class("a", 1), Class("a", 2)})),
            "duplicate workload class name 'a'");
  EXPECT_EQ(ValidationError(Spec({Class("a", -1)})),
            "class 'a': arrival_rate_per_s must be finite and >= 0, got -1");
  EXPECT_EQ(ValidationError(
                Spec({Class("a", std::numeric_limits<double>::infinity())})),
            "class 'a': arrival_rate_per_s must be finite and >= 0, got inf");
  EXPECT_EQ(ValidationError(Spec({Class("a", 1, -3)})),
            "class 'a': count must be >= 0, got -3");
  EXPECT_EQ(ValidationError(Spec({Class("a", 0)})),
            "class 'a': arrival_rate_per_s must be > 0 (or set count > 0)");
  // A count alone spreads over the horizon.
  EXPECT_EQ(ValidationError(Spec({Class("a", 0, 5)})), "");
  WorkloadClassSpec c = Class("a", 1);
  c.tenants = {};
  EXPECT_EQ(ValidationError(Spec({c})), "class 'a': tenants is empty");
  c.tenants = {"x", ""};
  EXPECT_EQ(ValidationError(Spec({c})), "class 'a': empty tenant name");
}

TEST(WorkloadSpecTest, HorizonErrors) {
  EXPECT_EQ(ValidationError(Spec({Class("a", 1)}, 0)),
            "horizon_s must be finite and > 0, got 0");
  EXPECT_EQ(ValidationError(Spec({Class("a", 1, 5), Class("b", 1)}, -2)),
            "horizon_s must be finite and > 0, got -2");
  // A count without a rate needs the horizon it spreads over.
  EXPECT_EQ(ValidationError(Spec({Class("a", 0, 5)}, 0)),
            "horizon_s must be finite and > 0, got 0");
}

TEST(WorkloadSpecTest, DistributionErrors) {
  WorkloadClassSpec c = Class("dev", 1);
  c.gpus = Distribution::Uniform(2, 1);
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'dev' gpus: uniform min 2 > max 1");
  c = Class("dev", 1);
  c.memory_mib = Distribution::Exponential(-5);
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'dev' memory_mib: exponential mean must be in (0, 1e12], "
            "got -5");
  c = Class("dev", 1);
  c.gpus = Distribution::Constant(1.5);
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'dev' gpus: value 1.5 is neither a fraction < 1 nor a "
            "whole number");
  c = Class("dev", 1);
  c.gpus = Distribution::Choice({{1, 1}, {-1, 1}});
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'dev' gpus: value -1 is negative");
  c = Class("dev", 1);
  c.duty = Distribution::Constant(1.2);
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'dev' duty: value 1.2 is outside [0, 1]");
  c = Class("dev", 1);
  c.sm_demand = Distribution::Uniform(0, 2);
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'dev' sm_demand: value 2 is outside [0, 1]");
  c = Class("dev", 1);
  c.work_s = Distribution::Uniform(-10, 10);
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'dev' work_s: value -10 is negative");
}

TEST(WorkloadSpecTest, AbsurdlyLargeNeedsAreErrors) {
  WorkloadClassSpec c = Class("dev", 1);
  c.gpu_memory_mib = Distribution::Constant(1e308);
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'dev' gpu_memory_mib: value 1e+308 is above the largest "
            "accepted, 100000000");
  c = Class("dev", 1);
  c.gpus = Distribution::Constant(17);
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'dev' gpus: value 17 is above the largest accepted, 16");
  c = Class("dev", 1);
  c.memory_mib = Distribution::Exponential(1e300);
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'dev' memory_mib: exponential mean must be in (0, 1e12], "
            "got 1e+300");
  c = Class("dev", 1);
  c.memory_mib = Distribution::Exponential(2e8);
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'dev' memory_mib: mean 200000000 is above the largest "
            "accepted, 100000000");
  c = Class("dev", 1);
  c.work_s = Distribution::LogNormal(2e9, 0.5);
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'dev' work_s: median 2000000000 is above the largest "
            "accepted, 1000000000");
  c = Class("dev", 1);
  c.duty = Distribution::Exponential(2);  // clamped to 1 by design
  EXPECT_EQ(ValidationError(Spec({c})), "");
}

TEST(WorkloadSpecTest, ServiceNeedsALifetime) {
  WorkloadClassSpec c = Class("svc", 1);
  c.work_s = Distribution::Constant(0);
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'svc': a service class (work_s 0) needs lifetime_s > 0");
  c.lifetime_s = Distribution::Choice({{0, 1}, {5, 0}});
  EXPECT_EQ(ValidationError(Spec({c})),
            "class 'svc': a service class (work_s 0) needs lifetime_s > 0");
  c.lifetime_s = Distribution::Constant(3600);
  EXPECT_EQ(ValidationError(Spec({c})), "");
}

TEST(WorkloadSpecTest, TooManyPods) {
  EXPECT_EQ(
      ValidationError(Spec({Class("a", 1000), Class("b", 1, 1000)}, 10001)),
      "workload expects 10002000 pods (arrival_rate_per_s x horizon_s "
      "+ count over all classes); the limit is 10000000");
  EXPECT_EQ(ValidationError(Spec({Class("a", 1000)}, 10000)), "");
}

}  // namespace
}  // namespace generator_test
}  // namespace gpushare
