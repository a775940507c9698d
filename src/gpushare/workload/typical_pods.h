// Typical pods: the target workload M of the FGD fragmentation measure.
//
// Contract (the FGD artifact's frag.go GetTypicalPods L381-476,
// hkust-adsl/kubernetes-scheduler-simulator pkg/utils/): pods are grouped by
// their shape (CPU, per-GPU milli, GPU count, GPU-model list; CPU-only pods
// included); groups are sorted by count, descending (ties: the larger shape
// first, comparing CPU, then GPU milli, then GPU count, then the model list as
// text); the leading groups are kept until their cumulative count reaches
// `threshold_percent` of all pods; the kept popularities are renormalised to
// sum to 1. Arithmetic is in doubles in the artifact's order so that
// popularities match it bit for bit.

#ifndef GPUSHARE_WORKLOAD_TYPICAL_PODS_H_
#define GPUSHARE_WORKLOAD_TYPICAL_PODS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace gpushare {

// The protocol's popularity threshold (podPopularityThreshold).
inline constexpr double kTypicalPodThresholdPercent = 95.0;

// What the fragmentation measure and the FGD policies read of a pod.
struct PodShape {
  int64_t cpu_milli = 0;
  int64_t gpu_milli = 0;  // per GPU, 0..1000
  int gpu_count = 0;
  std::string gpu_spec;   // '|'-separated allowed models; empty: any

  bool operator==(const PodShape&) const = default;
  // The artifact's PodResource.Less.
  bool operator<(const PodShape& o) const;
};

struct TypicalPod {
  PodShape shape;
  double popularity = 0;  // 0..1; the kept pods sum to 1
  int64_t count = 0;      // pods of this shape in the workload
};

struct TypicalPods {
  std::vector<TypicalPod> pods;
  // Share of all pods the kept shapes cover, 0..1.
  double coverage = 0;
};

TypicalPods ComputeTypicalPods(const std::vector<PodShape>& workload,
                               double threshold_percent =
                                   kTypicalPodThresholdPercent);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_TYPICAL_PODS_H_
