// What a kubectl dump shows of the cluster's software, for the emitters
// (docs/emit.md, "DRA pools"): the nodes' kubelet versions, NVIDIA's DRA
// driver as installed, whether the GPU Operator runs the GPU driver, and
// the DeviceClasses.
//
// Contract: ReadKubectlPlatform() reads `kubectl get ... -o json` output (a
// List, a <kind>List or one object) and keeps, from the items it knows and
// ignoring everything else (the node and pod readers report a malformed
// dump; this one is never the first to read it, so a text that is not JSON
// gives no facts):
//   Node         status.nodeInfo.kubeletVersion ("v1.34.2", "v1.35.1-eks-x"):
//                the lowest MAJOR.MINOR and a node that has it;
//   Pod          NVIDIA's DRA driver: a pod of its kubelet plugin or
//                controller — owned by the DaemonSet NAME-kubelet-plugin or a
//                ReplicaSet NAME-controller-HASH, NAME the chart's name
//                (nvidia-dra-driver-gpu before 0.4.0, dra-driver-nvidia-gpu
//                after: the chart templates name them so), or labelled
//                app.kubernetes.io/name NAME with NAME-component
//                kubelet-plugin or controller (its selector label): its
//                namespace, NAME, the release (label app.kubernetes.io/
//                instance, else NAME, the release the driver's install and
//                upgrade guides use) and the version of its image's tag
//                ("v25.8.0" → 25.8.0; "" for a digest); the kubelet plugin's
//                pods first, then the first in the dump;
//                the GPU Operator: a pod owned by a DaemonSet whose name
//                starts with nvidia-driver-daemonset, or labelled
//                app.kubernetes.io/component nvidia-driver (NVIDIA/
//                gpu-operator assets/state-driver/0500_daemonset.yaml), is
//                its driver; one owned by another of its DaemonSets
//                (nvidia-container-toolkit-daemonset, nvidia-device-plugin-
//                daemonset, gpu-feature-discovery, nvidia-operator-validator,
//                nvidia-dcgm-exporter) says the operator runs;
//   DeviceClass  its name, CEL expressions, extendedResourceName and whether
//                it has config.

#ifndef GPUSHARE_WORKLOAD_KUBECTL_PLATFORM_H_
#define GPUSHARE_WORKLOAD_KUBECTL_PLATFORM_H_

#include <optional>
#include <string>
#include <vector>

namespace gpushare {

struct KubectlPlatform {
  int kubelet_major = 0;  // 0: no node says
  int kubelet_minor = 0;
  std::string kubelet_node;  // a node with that version

  bool dra_driver = false;  // found
  std::string dra_driver_release;
  std::string dra_driver_namespace;
  std::string dra_driver_name;
  std::string dra_driver_version;  // "" unknown
  bool dra_driver_from_kubelet_plugin = false;

  bool gpu_operator = false;         // one of its pods is there
  bool gpu_operator_driver = false;  // its driver DaemonSet's pods are

  struct DeviceClassFacts {
    std::string name;
    std::vector<std::string> cel;
    std::string extended_resource_name;
    bool has_config = false;
  };
  std::vector<DeviceClassFacts> device_classes;
};

KubectlPlatform ParseKubectlPlatform(const std::string& text);
KubectlPlatform ReadKubectlPlatform(const std::string& path);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_KUBECTL_PLATFORM_H_
