// The needs of imported pods from their recorded dcgm-exporter series
// (`workload.trace.metrics`, docs/scenario.md; rules: docs/model.md §3.2).
//
// Contract: ApplyDcgmMetrics() matches each pod to the recording's series by
// namespace and name. From the samples where the pod was the only pod
// labelled on a device (DcgmDevice::AloneSamples) it derives, per device,
// mean activity, SM demand and footprint (dcgm_derivation.h), and sets the
// pod's `sm_demand` (the devices' mean), `gpu_memory_mib` (their largest)
// and `duty` (the inverse of the model's activity with the device's GPU
// model — `modelName`, matched to the catalog as kubectl product names are
// — and, for a MIG instance, the SMs of its `GPU_I_PROFILE`). A need with
// nothing to derive it from keeps its value. Pods whose devices always held
// other pods too (time-slicing, MPS, HAMi: the series are the device's
// sums, NVIDIA/dcgm-exporter #307), and pods that asked a shared resource
// (`*.shared` replicas, HAMi's `nvidia.com/gpumem*`/`gpucores`) — whose one
// pod label may stand for several pods — keep their needs. Each group is
// counted in one note; a modelName or profile the catalog lacks is an
// InputError at the device's first series, on any device of the recording
// (with or without pod labels), the first in the recording's order. A pod without series of its own whose
// generateName is set (a ReplicaSet's, a Job's pod) takes those of the
// recorded pods of its namespace named that prefix and a suffix without '-'
// — its controller's earlier pods, replaced while the series were recorded
// — merged as one pod's devices. Deterministic.

#ifndef GPUSHARE_SCENARIO_DCGM_METRICS_IMPORT_H_
#define GPUSHARE_SCENARIO_DCGM_METRICS_IMPORT_H_

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/workload/dcgm_recording.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

struct DcgmImportCounts {
  int derived = 0;         // pods given needs from their series
  int from_controller = 0; // pods given needs from their controller's pods
  int shared = 0;          // pods only ever on shared devices: kept
  int without_series = 0;  // GPU pods with no series: kept
  int unknown_pods = 0;    // pods in the series that are not in the list
  // Per pod of the list that the series name or that holds a GPU, in the
  // list's order.
  std::vector<DcgmPodImport> pods;
};

DcgmImportCounts ApplyDcgmMetrics(const DcgmRecording& recording,
                                  const Catalog& catalog,
                                  double busy_threshold,
                                  std::vector<Pod>* pods,
                                  std::vector<std::string>* notes);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_DCGM_METRICS_IMPORT_H_
