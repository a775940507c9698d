// The Helm values of NVIDIA's DRA driver for GPUs
// (kubernetes-sigs/dra-driver-nvidia-gpu, chart
// deployments/helm/dra-driver-nvidia-gpu, commit 95932046) for a scenario's
// `devices: dra` pools, written by `emit k8s` as `dra-driver-values.yaml`
// (docs/emit.md, "DRA pools").
//
// Contract: DraDriverValuesYaml() writes, for the pools with devices: dra
// and GPUs: `resources.gpus.enabled: true` with `gpuResourcesEnabledOverride:
// true` (templates/validation.yaml refuses the first without the second: the
// driver must not share a node with NVIDIA's device plugin, which
// node-setup.sh turns off on these nodes); `consumableShares`
// (DraConsumableSharesValue) when not disabled; `featureGates` with
// ConsumableShares: true when consumable shares are on and
// TimeSlicingSettings: true when a pool's claims set an interval other than
// Default, MPSSupport: true when a DRA pool shares by MPS, DynamicMIG: true
// when a DRA pool has dynamic MIG (all alpha, off by default:
// pkg/featuregates/featuregates.go; a comment says so). InputError for
// dynamic MIG beside DRA MPS (the driver refuses DynamicMIG with
// MPSSupport), beside a static-MIG DRA pool (with DynamicMIG the one release
// publishes partitionable devices on every MIG-capable GPU) or beside
// consumable shares (not modelled);
// `kubeletPlugin.affinity` with one required nodeSelectorTerm per pool —
// a written pool's selector labels (matchExpressions `In`), an imported
// pool's node names (matchFields metadata.name `In`; emit/pool_node_set.h) —
// replacing the chart's NFD terms, so the kubelet plugin runs on the DRA
// pools' nodes only; and `kubeletPlugin.tolerations`: the chart's default
// (nvidia.com/gpu Exists NoSchedule) and one Equal toleration per distinct
// taint of those pools. The kubelet plugin reads one consumable-shares mode
// per release and the chart installs the cluster-wide DeviceClass
// gpu.nvidia.com, so one release serves every DRA pool, with the mode of
// DraDriverSettings() (its InputErrors propagate). Returns "" when no pool has
// devices: dra. Deterministic; every name quoted for its place.

#ifndef GPUSHARE_EMIT_DRA_DRIVER_VALUES_H_
#define GPUSHARE_EMIT_DRA_DRIVER_VALUES_H_

#include <string>
#include <vector>

#include "gpushare/scenario/scenario.h"

namespace gpushare {

// The release and namespace the header's helm command uses (the driver's
// docs, site/content/docs/guides/gpu-allocation/mig.md).
inline constexpr const char* kDraDriverRelease = "dra-driver-nvidia-gpu";
inline constexpr const char* kDraDriverChart =
    "oci://registry.k8s.io/dra-driver-nvidia/charts/dra-driver-nvidia-gpu";
// The chart version `helm` pins for the driver (emit/helm_release.h).
// Placeholder until the released driver the values are written for is
// chosen (issue 53, point 7): the newest release tag, v25.12.0.
inline constexpr const char* kDraDriverChartVersion = "25.12.0";

std::string DraDriverValuesYaml(const Scenario& scenario);

// What the one release of the driver runs with for `pools`: the effective
// consumable-shares mode of the DRA pools that share GPUs (time-slicing;
// EffectiveDraPoolSettings), kDisabled when none does. The DRA pools that
// do not share (exclusive, MIG) live with it: their claims ask every share
// of a device under a count N (DraClaim::shares), and nothing under
// `memory` (a claim asking no memory gets the policy's default, the whole
// device). Throws InputError when sharing pools differ in mode, and under
// `unlimited` beside a pool that does not share (a claim asking no memory
// takes none, so no claim can hold a device alone).
DraPoolSettings DraDriverSettings(const std::vector<NodePoolSpec>& pools);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_DRA_DRIVER_VALUES_H_
