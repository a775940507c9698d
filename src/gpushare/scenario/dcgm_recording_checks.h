// The checks of a dcgm-exporter recording (workload/dcgm_recording.h)
// against the catalog, the cluster and the pod list it is replayed with
// (docs/scenario.md "Measured needs", docs/model.md §3.2).
//
// Contract: DcgmDeviceModel() is the catalog model of a device's
// `modelName` (matched as kubectl product names are: spaces become '-', an
// `NVIDIA-` prefix may be dropped), and DcgmDeviceProfile() its MIG
// profile (nullptr for a whole GPU); either one the catalog lacks is an
// InputError at the device's first series. CheckDcgmRecording() goes
// through the devices in the recording's order and refuses, as an
// InputError at the series (FILE:LINE:COL):
//   - a modelName or GPU_I_PROFILE the catalog lacks;
//   - DCGM_FI_DEV_FB_USED above the device's memory — the catalog model's,
//     or the MIG profile's for an instance — at the series of its largest
//     value, saying "the values look like bytes" when that value is at
//     least 2^20 and, read as bytes, within the memory (dcgm-exporter
//     reports MiB);
//   - a modelName whose catalog model is not that of the node of the same
//     name in `pools` (an imported node: its nvidia.com/gpu.product),
//     naming both; nodes the cluster lacks or without GPUs are not checked.
// With `pods`, a recording that ends before the earliest time of the dump
// (a pod's status.startTime, else creationTimestamp; Pod::dump_time_unix_s)
// adds a warning to `warnings`: none of its series can be of the dump's
// pods by name, only of their controllers' earlier pods. Nothing when no
// pod has a time. Deterministic.

#ifndef GPUSHARE_SCENARIO_DCGM_RECORDING_CHECKS_H_
#define GPUSHARE_SCENARIO_DCGM_RECORDING_CHECKS_H_

#include <string>
#include <vector>

#include "gpushare/base/lifetimebound.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/workload/dcgm_recording.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

const GpuModel& DcgmDeviceModel(const DcgmDevice& d,
                                const Catalog& catalog GS_LIFETIMEBOUND);
const MigProfile* DcgmDeviceProfile(const DcgmDevice& d,
                                    const GpuModel& model GS_LIFETIMEBOUND);

void CheckDcgmRecording(const DcgmRecording& recording, const Catalog& catalog,
                        const std::vector<NodePoolSpec>& pools,
                        const std::vector<Pod>* pods,
                        std::vector<std::string>* warnings);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_DCGM_RECORDING_CHECKS_H_
