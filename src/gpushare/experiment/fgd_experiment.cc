#include "gpushare/experiment/fgd_experiment.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <numeric>
#include <tuple>

#include "gpushare/base/parallel.h"
#include "gpushare/cluster/node.h"
#include "gpushare/cluster/open_gpu_share_device_plugin.h"
#include "gpushare/experiment/workload_tuning.h"
#include "gpushare/io/check.h"
#include "gpushare/io/input_error.h"
#include "gpushare/sched/gpu_fragmentation.h"
#include "gpushare/sched/plugins/open_gpu_share_fit.h"

namespace gpushare {
namespace {

struct Accumulator {
  int64_t records = 0;
  double alloc = 0;
  double frag_amount = 0;
  double frag_ratio = 0;
};

std::vector<std::string> SplitSpec(const std::string& spec) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t bar = spec.find('|', start);
    out.push_back(spec.substr(start, bar - start));
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  return out;
}

// Go's rand.Perm: the inside-out shuffle of 0..n-1.
std::vector<int> Permutation(int n, Rng& rng) {
  std::vector<int> m(n);
  for (int i = 0; i < n; ++i) {
    const int j = static_cast<int>(rng.Below(static_cast<uint64_t>(i) + 1));
    m[i] = m[j];
    m[j] = i;
  }
  return m;
}

}  // namespace

const FgdBucket* FgdRunResult::At(int arrived_pct) const {
  const FgdBucket* found = nullptr;
  for (const FgdBucket& b : buckets) {
    if (b.arrived_pct <= arrived_pct) found = &b;
  }
  return found;
}

FgdExperiment::FgdExperiment(const Catalog& catalog, const GpuModelMap& models,
                             std::string node_file,
                             std::vector<OpenbNode> nodes,
                             std::vector<OpenbPod> pods, double inflate)
    : nodes_(std::move(nodes)), pods_(std::move(pods)), inflate_(inflate) {
  for (const OpenbNode& n : nodes_) {
    const GpuModel* model = nullptr;
    if (n.gpus > 0) {
      try {
        model = &models.Resolve(n.model, catalog);
      } catch (const InputError& e) {
        throw InputError(node_file, n.line, 0, "column 'model': " + e.message());
      }
    }
    node_models_.push_back(model);
    cluster_gpu_milli_ += n.gpus * kGpuMilli;
  }
  if (cluster_gpu_milli_ == 0) {
    throw InputError(node_file + ": the node list has no GPUs");
  }
  std::vector<PodShape> shapes;
  shapes.reserve(pods_.size());
  std::map<std::tuple<int64_t, int64_t, int64_t, std::string>, int> ids;
  for (const OpenbPod& p : pods_) {
    shapes.push_back({p.cpu_milli, p.gpu_milli, p.num_gpu, p.gpu_spec});
    const auto key =
        std::make_tuple(p.cpu_milli, p.memory_mib, p.TotalGpuMilli(), p.gpu_spec);
    const auto [it, added] =
        ids.emplace(key, static_cast<int>(ids.size()));
    pod_shape_.push_back(it->second);
  }
  shape_count_ = static_cast<int>(ids.size());
  typical_ = ComputeTypicalPods(shapes);
}

double FgdExperiment::EmptyClusterFragmentationPct() const {
  double total = 0;
  std::vector<int64_t> left;
  for (const OpenbNode& n : nodes_) {
    left.assign(n.gpus, kGpuMilli);
    total += NodeFragmentationMilli({n.cpu_milli, left, n.model},
                                    typical_.pods);
  }
  return 100.0 * total / static_cast<double>(cluster_gpu_milli_);
}

FgdRunResult FgdExperiment::Run(FgdPolicy policy_kind, uint64_t seed,
                                const FgdRunOptions& options) const {
  Rng rng(seed);
  const std::vector<int> arrivals =
      TunedArrivalOrder(pods_, inflate_, cluster_gpu_milli_, rng);

  // Nodes, named with a seed-random prefix; ties go to the smallest name.
  const int n = static_cast<int>(nodes_.size());
  const std::vector<int> perm = Permutation(n, rng);
  std::vector<std::string> names(n);
  char prefix[32];
  for (int i = 0; i < n; ++i) {
    std::snprintf(prefix, sizeof(prefix), "%04d-", perm[i]);
    names[i] = prefix + nodes_[i].name;
  }
  std::vector<int> by_name(n);
  std::iota(by_name.begin(), by_name.end(), 0);
  std::sort(by_name.begin(), by_name.end(),
            [&](int a, int b) { return names[a] < names[b]; });
  std::vector<int> rank(n);
  for (int r = 0; r < n; ++r) rank[by_name[r]] = r;

  ResourceRegistry registry;
  const ResourceId gpu_id = registry.Intern(kOpenGpuShareGpuMilli);
  std::vector<Node> nodes;
  nodes.reserve(n);
  std::vector<OpenGpuShareDevicePlugin*> devices(n);
  for (int i = 0; i < n; ++i) {
    const OpenbNode& spec = nodes_[i];
    auto plugin = std::make_unique<OpenGpuShareDevicePlugin>(
        spec.model, spec.gpus, registry);
    devices[i] = plugin.get();
    Labels labels = {{"kubernetes.io/hostname", names[i]}};
    plugin->AddNodeLabels(&labels);
    nodes.emplace_back(names[i], 0, std::move(labels), std::vector<Taint>{},
                       node_models_[i], spec.gpus, spec.cpu_milli,
                       spec.memory_mib, kOpenbMaxPods, std::move(plugin));
  }

  std::vector<Pod> pods(pods_.size());
  for (size_t i = 0; i < pods_.size(); ++i) {
    const OpenbPod& p = pods_[i];
    Pod& pod = pods[i];
    pod.name = p.name;
    pod.cpu_milli = p.cpu_milli;
    pod.memory_mib = p.memory_mib;
    pod.requests.Set(ResourceRegistry::kCpuId, p.cpu_milli);
    pod.requests.Set(ResourceRegistry::kMemoryId, p.memory_mib);
    pod.requests.Set(gpu_id, p.TotalGpuMilli());
    if (!p.gpu_spec.empty()) {
      NodeSelectorRequirement r;
      r.key = std::string(kOpenGpuShareCardModelLabel);
      r.op = NodeSelectorRequirement::Operator::kIn;
      r.values = SplitSpec(p.gpu_spec);
      pod.required_affinity.push_back({{std::move(r)}});
    }
  }

  FragmentationMeasure measure(typical_.pods);
  std::unique_ptr<OpenGpuSharePolicy> policy =
      MakeFgdPolicy(policy_kind, registry, &measure, rng);
  OpenGpuShareFit fit(registry);

  // Raw score memo: per (shape, node), valid while the node's generation
  // is the one it was computed at (0: never).
  std::vector<uint32_t> node_generation(n, 1);
  std::vector<uint32_t> cached_generation;
  std::vector<int64_t> cached_score;
  if (options.score_cache) {
    cached_generation.assign(static_cast<size_t>(shape_count_) * n, 0);
    cached_score.assign(static_cast<size_t>(shape_count_) * n, 0);
  }

  // Cluster state for the records.
  std::vector<double> frag(n);
  auto node_frag = [&](int i) {
    return measure.NodeMilli(
        {nodes[i].Allocatable(ResourceRegistry::kCpuId) -
             nodes[i].Requested(ResourceRegistry::kCpuId),
         devices[i]->milli_left(), devices[i]->card_model()});
  };
  for (int i = 0; i < n; ++i) frag[i] = node_frag(i);
  int64_t arrived_milli = 0;
  int64_t used_milli = 0;
  std::vector<Accumulator> buckets;
  const double total = static_cast<double>(cluster_gpu_milli_);
  auto record = [&] {
    double f = 0;
    for (const double v : frag) f += v;
    const int64_t idle = cluster_gpu_milli_ - used_milli;
    const int a = static_cast<int>(
        std::nearbyint(static_cast<double>(arrived_milli) / (total / 100)));
    if (a >= static_cast<int>(buckets.size())) buckets.resize(a + 1);
    Accumulator& acc = buckets[a];
    ++acc.records;
    acc.alloc += 100.0 * static_cast<double>(used_milli) / total;
    acc.frag_amount += 100.0 * f / total;
    acc.frag_ratio += idle > 0 ? 100.0 * f / static_cast<double>(idle) : 0;
  };
  record();

  FgdRunResult result;
  result.policy = policy_kind;
  result.seed = seed;
  result.arrivals = static_cast<int64_t>(arrivals.size());
  std::vector<int> feasible;
  std::vector<int64_t> scores;
  feasible.reserve(n);
  scores.reserve(n);
  for (const int index : arrivals) {
    const Pod& pod = pods[index];
    arrived_milli += pods_[index].TotalGpuMilli();
    fit.PreFilter(pod);
    feasible.clear();
    for (int i = 0; i < n; ++i) {
      if (fit.Filter(pod, nodes[i], nullptr)) feasible.push_back(i);
    }
    if (feasible.empty()) {
      ++result.failed;
      record();
      continue;
    }
    int chosen = feasible[0];
    if (feasible.size() > 1) {
      policy->PreScore(pod);
      scores.clear();
      const size_t row = static_cast<size_t>(pod_shape_[index]) * n;
      for (const int i : feasible) {
        if (!options.score_cache) {
          scores.push_back(policy->Score(pod, nodes[i]));
          continue;
        }
        if (cached_generation[row + i] != node_generation[i]) {
          cached_score[row + i] = policy->Score(pod, nodes[i]);
          cached_generation[row + i] = node_generation[i];
        } else if (options.verify_cache) {
          GS_CHECK(cached_score[row + i] == policy->Score(pod, nodes[i]),
                   "a memoised score differs from a fresh one");
        }
        scores.push_back(cached_score[row + i]);
      }
      policy->Normalize(scores);
      int64_t best = scores[0];
      for (size_t k = 1; k < feasible.size(); ++k) {
        const int i = feasible[k];
        if (scores[k] > best || (scores[k] == best && rank[i] < rank[chosen])) {
          best = scores[k];
          chosen = i;
        }
      }
    }
    Node& node = nodes[chosen];
    const std::vector<int> gpus = policy->SelectGpus(pod, node);
    devices[chosen]->AllocateGpus(
        OpenGpuShareRequestOf(pods_[index].TotalGpuMilli()), gpus);
    node.Reserve(pod.requests);
    ++node_generation[chosen];
    used_milli += pods_[index].TotalGpuMilli();
    frag[chosen] = node_frag(chosen);
    record();
  }

  for (size_t a = 0; a < buckets.size(); ++a) {
    const Accumulator& acc = buckets[a];
    if (acc.records == 0) continue;
    const double k = static_cast<double>(acc.records);
    result.buckets.push_back({static_cast<int>(a), acc.records, acc.alloc / k,
                              acc.frag_amount / k, acc.frag_ratio / k});
  }
  return result;
}

std::vector<FgdRunResult> FgdExperiment::RunAll(
    const std::vector<FgdPolicy>& policies, const std::vector<uint64_t>& seeds,
    int threads) const {
  const size_t jobs = policies.size() * seeds.size();
  std::vector<FgdRunResult> results(jobs);
  ParallelFor(static_cast<int>(jobs), std::max(1, threads), [&](int job) {
    results[job] =
        Run(policies[job / seeds.size()], seeds[job % seeds.size()]);
  });
  return results;
}

}  // namespace gpushare
