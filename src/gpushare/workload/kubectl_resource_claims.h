// `kubectl get resourceclaims,resourceclaimtemplates,deviceclasses -A -o
// json`: what a live cluster's pods ask of NVIDIA's DRA driver, read into
// the GPU demand the simulator's pods carry (kubectl_pod_list.h).
//
// Contract: KubectlDraClaims indexes the claims and templates (by namespace
// and name) and the DeviceClasses of a List (kubectl_mixed_list.h). A
// DeviceClass of the List has its CEL selectors compiled with the subset of
// cluster/dra/cel_selector.h (an expression outside it is an InputError at
// the expression); a class the List lacks is one of the NVIDIA driver's
// Helm chart (gpu.nvidia.com, mig.nvidia.com, mig-<profile>.gpu.nvidia.com
// for a catalog profile; cluster/dra/device_class.h) or an InputError at the
// request naming it.
//
// A class (with a request's own selectors) is mapped by what it selects
// among probe devices: for each catalog model, the whole GPU and one MIG
// device per profile, as the driver publishes them (nvidia_gpu_slice.h);
// a selector's runtime error counts as no match. Only whole GPUs: whole
// GPUs. Only MIG devices of one profile name: that profile. MIG devices of
// several profiles (mig.nvidia.com): the one of least memory. Both: whole
// GPUs. None, but a device of another driver's ResourceSlice in the List
// (kubectl_other_devices.h): another driver's request — left out, noted.
// None at all: when a selector failed at run time on one of them, an
// InputError at that selector ("class NAME: selector #I: CEL runtime
// error: ...", or "claim NAME: ..." for a request's own, as upstream's
// allocator words the error it stops with); otherwise, when the List holds
// ResourceSlices, the claim cannot be allocated: the pod's demand is
// `unallocatable` (its pod is unschedulable, never run without its GPUs);
// a List without ResourceSlices cannot tell, and the request is left out
// as another driver's.
//
// PodDemand() reads a Pod's spec.resourceClaims: a resourceClaimName is a
// ResourceClaim of the pod's namespace, a resourceClaimTemplateName a
// template whose claim (status.resourceClaimStatuses names it) may be in the
// List; a claim or template the List lacks is an InputError at the pod's
// entry. Per request (`exactly`): count devices of its class (ExactCount,
// default 1); capacity.requests.memory (consumable capacity) is the
// footprint. Where a claim is allocated (status.allocation.devices.results)
// the results of driver gpu.nvidia.com give the count and, for MIG, the
// profile (from the device names), and their pool (the node) binds a pod
// that has no spec.nodeName. A ResourceClaim that several Pending or
// Running pods name (resourceClaimName; CountClaimReferences) is shared:
// each of them gets its demand and DraPodDemand::shared_claim, so the
// scheduler allocates it once and runs all its pods on its devices
// (sched/scheduler.h, "Shared ResourceClaims"); counted in Notes().
// Approximated, each counted in Notes():
// firstAvailable (the allocated subrequest, else the first), allocationMode
// All (the allocated devices, else 1), constraints (matchAttribute; not
// modelled), adminAccess requests (left out: they take no device), requests
// of classes that select no GPU (left out), a pod naming two ResourceClaims
// that other pods name too (the first is shared; of the second, the first
// pod in the list holds the devices, the others get none), a
// pod asking whole GPUs and MIG devices (the whole GPUs), or MIG devices of
// several profiles (the largest), classes that select only some GPU models
// (DraPodDemand::gpu_models: the pod is held to pools of those models) or
// some MIG profiles (the least), and an allocation on another
// node than the pod's spec.nodeName (spec.nodeName wins). Deterministic:
// notes in a fixed order.

#ifndef GPUSHARE_WORKLOAD_KUBECTL_RESOURCE_CLAIMS_H_
#define GPUSHARE_WORKLOAD_KUBECTL_RESOURCE_CLAIMS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/dra/cel_selector.h"
#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/cluster/dra/resource_slice.h"
#include "gpushare/io/json_value.h"
#include "gpushare/workload/kubectl_mixed_list.h"

namespace gpushare {

// What a pod's claims ask of NVIDIA GPUs.
struct DraPodDemand {
  int64_t whole_gpus = 0;   // devices of whole-GPU classes
  int64_t mig_devices = 0;  // MIG devices
  std::string mig_profile;  // their profile ("1g.10gb")
  int64_t memory_mib = 0;   // consumable capacity asked per device; 0: none
  std::string allocated_node;  // pool of the allocated devices ("" none)
  // The allocated devices of allocated_node, as the results name them
  // ("gpu-3", "gpu-0-mig-1g10gb-19-0"), in result order.
  std::vector<std::string> allocated_devices;
  // The ResourceClaim ("ns/name") it shares with other pods by
  // resourceClaimName ("" none): Pod::dra_claim.
  std::string shared_claim;
  // The catalog models whole-GPU requests select when they select only some
  // (a productName selector), sorted; empty: any model.
  std::vector<std::string> gpu_models;
  // A request no device can satisfy: the allocator's reason
  // (filter_messages.h kDraCannotAllocateAllClaims), "" when none.
  std::string unallocatable;
  bool any() const { return whole_gpus > 0 || mig_devices > 0; }
};

class KubectlDraClaims {
 public:
  KubectlDraClaims(const KubectlDraItems& items, const Catalog& catalog);
  ~KubectlDraClaims();
  KubectlDraClaims(const KubectlDraClaims&) = delete;
  KubectlDraClaims& operator=(const KubectlDraClaims&) = delete;

  // Counts the ResourceClaims the Pod item `pod` of namespace `ns` names by
  // resourceClaimName; called for every pod that holds devices (Pending or
  // Running) before PodDemand().
  void CountClaimReferences(const JsonValue& pod, const std::string& ns);

  // The demand of the Pod item `pod` of namespace `ns` (zero without
  // claims or GPU requests).
  DraPodDemand PodDemand(const JsonValue& pod, const std::string& ns);

  // One sentence per kind of approximation or skip, with its count.
  std::vector<std::string> Notes() const;

 private:
  struct Mapping;
  struct ClassEntry;
  const ClassEntry& Class(const JsonValue& name_at);
  Mapping Map(const JsonValue& class_name_at,
              const std::vector<CelSelector>& own,
              const std::vector<JsonValue>& own_at,
              const std::string& claim_name);
  void AddRequest(const JsonValue& request, const JsonValue* allocation,
                  const std::string& claim_name, DraPodDemand* demand);

  const Catalog& catalog_;
  std::map<std::string, JsonValue> claims_;     // "ns/name"
  std::map<std::string, JsonValue> templates_;  // "ns/name"
  std::map<std::string, std::unique_ptr<ClassEntry>> classes_;
  std::vector<ResourceSlice> probes_;  // one device each
  std::vector<ResourceSlice> other_devices_;  // other drivers' slices
  bool has_slices_ = false;  // the List holds ResourceSlices
  std::set<std::string> held_claims_;  // claims a pod already holds
  std::map<std::string, int> references_;  // "ns/name" -> pods naming it
  std::map<std::string, int> counts_;  // note text -> count
  std::set<std::string> unmapped_classes_;
};

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_KUBECTL_RESOURCE_CLAIMS_H_
