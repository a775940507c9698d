// Every configuration file a platform team applies to run a scenario's node
// pools on Kubernetes, written by `gpushare-sim emit k8s --scenario FILE
// --out DIR` (docs/emit.md).
//
// Contract: K8sConfigFiles() returns the files, each with its path relative
// to the output directory, in apply order, only those the scenario needs:
// `device-plugin-config.yaml` when a pool is served by NVIDIA's device
// plugin (emit/device_plugin_config.h), `mig-parted-config.yaml` when a pool
// uses MIG (emit/mig_parted_config.h), `gpu-operator-values.yaml` when a
// pool has GPUs (emit/gpu_operator_values.h), `hami-values.yaml` when a pool
// runs HAMi (emit/hami_values.h), `node-setup.sh` (the change from `today`,
// emit/node_setup_script.h), `dra-driver-values.yaml` and `dra-objects.yaml`
// when a pool has devices: dra (emit/dra_driver_values.h,
// emit/dra_objects.h), `kube-scheduler-config.yaml` when the scheduler
// profile departs from the defaults (emit/kube_scheduler_config.h),
// the autoscaled pools' files when a pool autoscales (emit/autoscaler_files.h:
// cluster-autoscaler values, ASG tags and MachineDeployment annotations,
// which apply.sh does not run, and Karpenter NodePools, which it applies,
// and NodeOverlays, which it does not),
// `kueue-queues.yaml` when the scenario has Kueue queues
// (emit/kueue_manifests.h), `kai-queues.yaml` with KAI queues,
// `pod-patches.yaml` (emit/pod_template_patches.h); then `apply.sh` and
// `rollback.sh` (emit/apply_script.h: the whole change in that order —
// ConfigMaps and objects, the Helm releases pinned to the chart versions of
// scenario.platform (emit/helm_release.h), node-setup.sh, the device
// plugin's restart, HAMi's uninstall when no pool runs HAMi, the DRA
// driver's when today's DRA pools go — and back), `node-rollback.sh` when
// today's configuration of every GPU pool is known (RollbackScript; else
// rollback.sh restores the rest and exits 1 saying which pools), and a
// `README.md` first: apply.sh and rollback.sh, the pinned charts, each step
// with its command by hand, the nodes to provision or take out where a
// pool's node count changes from `today`'s (an imported pool's by name).
// The ConfigMaps go to the GPU Operator's namespace of the platform.
// `today` is the scenario of the cluster as it runs now (the scenario
// `plan` started from; null: unknown — imported pools still know their
// nodes' labels). Every emitter quotes the names it writes for their place
// (emit/quoting.h: shell words, YAML and JSON strings, one-line comments;
// docs/emit.md, "What is quoted and what is refused"). Throws InputError as
// the emitters do. Deterministic.

#ifndef GPUSHARE_EMIT_K8S_CONFIG_H_
#define GPUSHARE_EMIT_K8S_CONFIG_H_

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

struct EmittedFile {
  std::string path;  // relative to the output directory
  std::string text;
};

std::vector<EmittedFile> K8sConfigFiles(const Scenario& scenario,
                                        const Catalog& catalog,
                                        const Scenario* today = nullptr);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_K8S_CONFIG_H_
