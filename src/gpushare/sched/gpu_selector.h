// GpuSelector: the Reserve-time choice of a node's GPUs for a pod.
//
// Contract: kube-scheduler's Reserve step, as Open-Gpu-Share runs it
// (open_gpu_share.go Reserve / allocateGpuId in
// hkust-adsl/kubernetes-scheduler-simulator pkg/simulator/plugin/): once the
// scheduler has picked `node`, SelectGpus() names the GPU indexes the pod
// gets, one per requested GPU (empty for a pod without GPUs). It is only
// called for a node that passed the filters, so the pod fits. Each policy of
// the FGD paper (Weng et al., USENIX ATC '23) makes its own choice (best fit,
// random, or FGD's own score).

#ifndef GPUSHARE_SCHED_GPU_SELECTOR_H_
#define GPUSHARE_SCHED_GPU_SELECTOR_H_

#include <vector>

#include "gpushare/cluster/node.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

class GpuSelector {
 public:
  virtual ~GpuSelector() = default;
  virtual std::vector<int> SelectGpus(const Pod& pod, const Node& node) = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_GPU_SELECTOR_H_
