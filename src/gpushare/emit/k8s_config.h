// Every configuration file a platform team applies to run a scenario's node
// pools on Kubernetes, written by `gpushare-sim emit k8s --scenario FILE
// --out DIR` (docs/emit.md).
//
// Contract: K8sConfigFiles() returns the files, each with its path relative
// to the output directory, in apply order, only those the scenario needs:
// `node-setup.sh` (emit/node_setup_script.h), `device-plugin-config.yaml`
// when a pool is served by NVIDIA's device plugin
// (emit/device_plugin_config.h), `mig-parted-config.yaml` when a pool uses
// MIG (emit/mig_parted_config.h), `hami-values.yaml` when a pool runs HAMi
// (emit/hami_values.h), `kube-scheduler-config.yaml` when the scheduler
// profile departs from the defaults (emit/kube_scheduler_config.h),
// `kueue-queues.yaml` when the scenario has Kueue queues
// (emit/kueue_manifests.h),
// `pod-patches.yaml` (emit/pod_template_patches.h), and a `README.md`
// listing them with the commands that apply them in order. Every emitter
// quotes the names it writes for their place (emit/quoting.h: shell words,
// YAML and JSON strings, one-line comments; docs/emit.md, "What is quoted
// and what is refused"). Throws InputError as the emitters do.
// Deterministic.

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
                                        const Catalog& catalog);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_K8S_CONFIG_H_
