// The Helm values of NVIDIA's DRA driver for GPUs
// (kubernetes-sigs/dra-driver-nvidia-gpu, chart
// deployments/helm/dra-driver-nvidia-gpu) for a scenario's `devices: dra`
// pools, written by `emit k8s` as `dra-driver-values.yaml` for the chart
// version of DraDriverRelease() (emit/dra_driver_release.h; docs/emit.md,
// "DRA pools").
//
// Contract: DraDriverValuesYaml() first refuses (InputError) a scenario
// whose DRA pools need a driver feature that chart version lacks
// (CheckDraDriverFeatures) or Kubernetes features the known Kubernetes
// version lacks or has off (emit/dra_feature_gates.h CheckDraKubernetes);
// then writes, for the pools with devices: dra and GPUs, under a header that
// names the release, namespace, chart and pinned version (and where each
// came from), the one helm command, and the Kubernetes version and gates the
// driver needs: `nvidiaDriverRoot` (DraDriverRoot); `nameOverride` when the
// release installed today carries another chart name
// (DraDriverNameOverride: a 25.x release upgraded to the 0.4 chart keeps
// its objects' names); `resources.gpus.enabled: true` with
// `gpuResourcesEnabledOverride: true` (templates/validation.yaml refuses the
// first without the second: the driver must not share a node with NVIDIA's
// device plugin, which node-setup.sh turns off on these nodes);
// `consumableShares` (DraConsumableSharesValue) when not disabled;
// `featureGates` with ConsumableShares: true when consumable shares are on
// and TimeSlicingSettings: true when a pool's claims set an interval other
// than Default, MPSSupport: true when a DRA pool shares by MPS, DynamicMIG:
// true when a DRA pool has dynamic MIG (all alpha, off by default:
// pkg/featuregates/featuregates.go; a comment says so), only gates the
// chart version has. InputError for dynamic MIG beside DRA MPS (the driver
// refuses DynamicMIG with MPSSupport), beside a static-MIG DRA pool (with
// DynamicMIG the one release publishes partitionable devices on every
// MIG-capable GPU) or beside consumable shares (not modelled);
// `kubeletPlugin.affinity` with one required nodeSelectorTerm:
// gpushare.io/node-pool `In` the DRA pools' names — the label node-setup.sh
// sets on every node of every pool (emit/node_target.h PoolNodeTarget), so
// a node the plan adds to a pool gets the plugin once it is set up —
// replacing the chart's NFD terms, so the kubelet plugin runs on the DRA
// pools' nodes only; and `kubeletPlugin.tolerations`: the chart's default
// (nvidia.com/gpu Exists NoSchedule) and one Equal toleration per distinct
// taint of those pools. The kubelet plugin reads one consumable-shares mode
// per release and the chart installs the cluster-wide DeviceClass
// gpu.nvidia.com, so one release serves every DRA pool, with the mode of
// DraDriverSettings() (its InputErrors propagate). Returns "" when no pool has
// devices: dra. Deterministic; every name quoted for its place.
//
// DraDriverRoot() is the host path of the GPU driver (the chart's
// nvidiaDriverRoot) and, in `*why`, how it was decided:
// platform.dra_driver.driver_root when given; else /run/nvidia/driver when
// the GPU Operator runs the driver — its driver DaemonSet's pods are in the
// kubectl dump, or the dump does not say and the GPU Operator these files
// configure (gpu-operator-values.yaml) installs it, as its chart does by
// default (deployments/gpu-operator/values.yaml driver.enabled: true; the
// container's root: controllers/object_controls.go DefaultDriverInstallDir);
// else "/" (the dump shows GPU Operator pods without its driver: the driver
// is installed on the host, the chart's default).

#ifndef GPUSHARE_EMIT_DRA_DRIVER_VALUES_H_
#define GPUSHARE_EMIT_DRA_DRIVER_VALUES_H_

#include <string>
#include <vector>

#include "gpushare/emit/dra_driver_release.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

// The GPU Operator's driver container root (NVIDIA/gpu-operator
// controllers/object_controls.go DefaultDriverInstallDir).
inline constexpr const char* kGpuOperatorDriverRoot = "/run/nvidia/driver";

std::string DraDriverValuesYaml(const Scenario& scenario);

std::string DraDriverRoot(const Scenario& scenario, std::string* why);

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
