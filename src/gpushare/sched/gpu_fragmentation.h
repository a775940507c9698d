// The FGD paper's GPU fragmentation measure F_n(M) of one node.
//
// Contract (hkust-adsl/kubernetes-scheduler-simulator pkg/utils/frag.go
// NodeGpuShareFragAmount L147-167, GetNodePodFrag L556-582,
// CanNodeHostPodOnGpuMemory L543-554, GetGpuFragMilliByNodeResAndPodRes
// L184-192, FragAmountSumExceptQ3 L507-514). For each typical pod m with
// popularity p_m, with idle = the node's total idle GPU share:
//   m asks for no GPU (XL / XR)                  -> p_m x idle
//   the node's model is not in m's list (NA)     -> p_m x idle
//   m does not fit: fewer than m.gpu_count GPUs with idle >= m.gpu_milli
//     (Q2), or CPU left < m.cpu (Q4), or both (Q1) -> p_m x idle
//   m fits (Q3) -> p_m x (sum of the idle shares of GPUs too small for m),
//                  booked as Q2; the rest is not fragment.
// F_n(M) = the sum of the buckets except Q3, in milli-GPU; the seven buckets
// are accumulated in M's order and added in the artifact's bucket order so
// that the doubles equal the artifact's. Memory is never considered.
//
// FragmentationMeasure memoises F_n(M) by node state: the value depends only
// on the card model, on which of M's CPU thresholds the CPU left reaches, and
// on the multiset of idle shares, so nodes in equal states share one entry.
// NodeMilli() equals NodeFragmentationMilli() exactly. Not thread-safe: one
// per simulation run.

#ifndef GPUSHARE_SCHED_GPU_FRAGMENTATION_H_
#define GPUSHARE_SCHED_GPU_FRAGMENTATION_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpushare/workload/typical_pods.h"

namespace gpushare {

// What the measure reads of a node.
struct GpuNodeView {
  int64_t cpu_left_milli = 0;
  std::span<const int64_t> milli_left;  // idle share per GPU, by index
  std::string_view card_model;          // empty for a CPU-only node
};

// utils.go IsNodeAccessibleToPodByType: an empty list allows every model; a
// CPU-only node (empty model) allows none of a non-empty list.
bool IsCardModelAllowed(std::string_view card_model, std::string_view gpu_spec);

// F_n(M), computed directly.
double NodeFragmentationMilli(const GpuNodeView& node,
                              const std::vector<TypicalPod>& typical);

class FragmentationMeasure {
 public:
  explicit FragmentationMeasure(std::vector<TypicalPod> typical);

  // F_n(M), memoised.
  double NodeMilli(const GpuNodeView& node);

  const std::vector<TypicalPod>& typical() const { return typical_; }
  size_t memo_size() const { return memo_.size(); }

 private:
  struct Key {
    uint64_t a = 0;
    uint64_t b = 0;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  int ModelIndex(std::string_view card_model);

  std::vector<TypicalPod> typical_;
  // M's distinct CPU requests, ascending.
  std::vector<int64_t> cpu_thresholds_;
  std::vector<std::string> models_;
  std::unordered_map<Key, double, KeyHash> memo_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_GPU_FRAGMENTATION_H_
