// HamiFitSummary: one cache line per node holding what the filters
// NodeResourcesFit and GpuDeviceFit read of the node for a HAMi pod, so that
// the scheduler's filter scan decides most HAMi pods without running them.
//
// Contract: HamiFitSummary::Of(node) copies the node's free cpu, memory and
// nvidia.com/gpu (allocatable less requested), its free pod count, its
// number of open GPUs (healthy, with a free slot) and, on a HAMi node of at
// most kMaxGpus GPUs, the free memory and free cores of each open GPU. A
// HamiFitNeed, made once per pod by HamiFitNeed::Of(), holds the pod's lower
// bounds on these. Admits(need) is a necessary condition of passing both
// filters (on any node, HAMi or not, whatever the webhook defaults): a node
// it rejects fails one of them. When need.exact and the summary's exact()
// hold, it is also sufficient: it equals NodeResourcesFit && GpuDeviceFit.
// need.exact holds for pods that ask for nothing but cpu, memory and HAMi's
// four resources, with nvidia.com/gpumem in MiB and nvidia.com/gpucores
// 1..99 given (then HAMi's per-GPU checks are free memory >= gpumem and free
// cores >= gpucores, the webhook's defaults and the exclusive- and
// exhausted-core rules do not apply), every quantity within int32. exact()
// holds on HAMi nodes of at most kMaxGpus GPUs. On a HAMi node of more GPUs
// the per-GPU slots hold the k-th most free memory and the k-th most free
// cores, each sorted on its own (necessary only); on a node without HAMi
// devices they hold the largest values (never rejecting on them). A summary
// is a copy: the scheduler rebuilds it whenever the node's requests,
// allocatable or device health change (Node::version()).

#ifndef GPUSHARE_SCHED_HAMI_FIT_SUMMARY_H_
#define GPUSHARE_SCHED_HAMI_FIT_SUMMARY_H_

#include <cstdint>
#include <cstring>

#include "gpushare/cluster/node.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

struct HamiFitNeed {
  // Lower bounds on the summary's free values; the type's minimum where a
  // filter does not check the value.
  int32_t cpu = INT32_MIN;
  int32_t memory = INT32_MIN;
  int32_t gpu = INT32_MIN;  // nvidia.com/gpu slots
  int8_t pods = INT8_MIN;
  // Per vGPU: how many GPUs, and the free memory and cores each needs (0
  // where the webhook's defaults apply).
  int32_t vgpus = 0;
  int32_t gpu_memory_mib = 0;
  int16_t gpu_cores = 0;
  // Whether Admits() is sufficient on an exact() summary.
  bool exact = false;

  // Whether `pod` asks HAMi for vGPUs (nvidia.com/gpu, gpumem,
  // gpumem-percentage or gpucores, and no other extended resource); if so
  // fills `*need`. `resources_fit`: NodeResourcesFit is one of the filters
  // (else its bounds stay unchecked). `only_these_filters`: every filter
  // that reads the node's state is NodeResourcesFit or GpuDeviceFit (else
  // need->exact is false).
  static bool Of(const Pod& pod, const ResourceRegistry& registry,
                 bool resources_fit, bool only_these_filters,
                 HamiFitNeed* need);
};

class alignas(64) HamiFitSummary {
 public:
  static constexpr int kMaxGpus = 8;

  // `gpu_resource`: the id of nvidia.com/gpu (or -1 when not registered).
  static HamiFitSummary Of(const Node& node, ResourceId gpu_resource);

  // See the contract above.
  // Branch-free: the scheduler tests many nodes in a row.
  bool Admits(const HamiFitNeed& need) const {
    const int want = need.vgpus < kMaxGpus ? need.vgpus : kMaxGpus;
    return (free_pods_ >= need.pods) & (free_cpu_ >= need.cpu) &
           (free_memory_ >= need.memory) & (free_gpu_ >= need.gpu) &
           (open_ >= need.vgpus) &
           (Passing(need.gpu_memory_mib, need.gpu_cores) >= want);
  }
  bool exact() const { return exact_ != 0; }

  bool operator==(const HamiFitSummary&) const = default;

 private:
  // How many per-GPU slots hold at least `memory` and `cores`; branch-free,
  // on vectors (GCC and Clang vector extensions, SSE2 on x86-64).
  int Passing(int32_t memory, int16_t cores) const {
    using Int32x4 = int32_t __attribute__((vector_size(16)));
    using Int16x8 = int16_t __attribute__((vector_size(16)));
    using Int8x8 = int8_t __attribute__((vector_size(8)));
    Int32x4 low, high;
    Int16x8 free_cores;
    std::memcpy(&low, gpu_memory_mib_, sizeof(low));
    std::memcpy(&high, gpu_memory_mib_ + 4, sizeof(high));
    std::memcpy(&free_cores, gpu_cores_, sizeof(free_cores));
    const Int16x8 memory_ok = __builtin_convertvector(
        __builtin_shufflevector(low >= memory, high >= memory, 0, 1, 2, 3, 4,
                                5, 6, 7),
        Int16x8);
    // Lanes are -1 (pass) or 0: one byte each, then a byte sum.
    const Int8x8 ok =
        __builtin_convertvector(memory_ok & (free_cores >= cores), Int8x8);
    uint64_t bytes;
    std::memcpy(&bytes, &ok, sizeof(bytes));
    bytes &= 0x0101010101010101u;
    return static_cast<int>((bytes * 0x0101010101010101u) >> 56);
  }

  int32_t free_cpu_ = 0;
  int32_t free_memory_ = 0;
  int32_t free_gpu_ = 0;
  int16_t open_ = 0;
  int8_t free_pods_ = 0;
  int8_t exact_ = 0;
  // Open GPUs first; -1 past them.
  int32_t gpu_memory_mib_[kMaxGpus] = {};
  int16_t gpu_cores_[kMaxGpus] = {};
};

static_assert(sizeof(HamiFitSummary) == 64, "one cache line per node");

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_HAMI_FIT_SUMMARY_H_
