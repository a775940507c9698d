// The shell script that labels and taints a scenario's nodes as the
// simulation has them, and selects each node's device-plugin, MIG and HAMi
// configuration (`emit k8s`).
//
// Contract: NodeSetupScript() is a POSIX shell script (`set -eu`) of
// idempotent kubectl commands (`--overwrite`), one block per pool with GPUs,
// in pool order, for every node by the name the simulator gives it
// (`<pool>-<i>`, or an imported node's own name): the pool label
// `gpushare.io/node-pool=<pool>` and the pool's own labels, its taints
// (`kubectl taint node N key=value:Effect --overwrite`), and the labels that
// select its configuration: `nvidia.com/device-plugin.config=<pool>` (pools
// served by NVIDIA's device plugin; emit/device_plugin_config.h),
// `nvidia.com/mig.config=<config>` (MIG pools; emit/mig_parted_config.h) and
// `gpu=on` (HAMi pools). Every node name, label and taint is one
// single-quoted shell word, and names in comments stay on their line
// (emit/quoting.h; docs/emit.md, "What is quoted and what is refused").
// Deterministic.

#ifndef GPUSHARE_EMIT_NODE_SETUP_SCRIPT_H_
#define GPUSHARE_EMIT_NODE_SETUP_SCRIPT_H_

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

std::string NodeSetupScript(const Scenario& scenario, const Catalog& catalog);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_NODE_SETUP_SCRIPT_H_
