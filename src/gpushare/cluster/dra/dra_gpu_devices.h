// DraGpuDevices: the GPUs of one node of a DRA pool, handed out through the
// kube-scheduler's DynamicResources plugin instead of a device plugin.
//
// Contract. The node publishes the NVIDIA driver's ResourceSlice
// (nvidia_gpu_slice.h: whole GPUs, or the MIG devices of a static layout;
// with consumable shares every device allows multiple allocations) and no
// nvidia.com/gpu or nvidia.com/mig-* extended resource. The DeviceClasses
// are the driver chart's gpu.nvidia.com and, per MIG profile the node offers,
// the per-profile class (device_class.h). A pod of a DRA pool carries one
// ResourceClaim from a template per pod with one `exactly` request per class
// it needs; in the simulator's resource accounting that claim is written as
// the class's implicit extended resource name of KEP-5004,
// `deviceclass.resource.kubernetes.io/<class>` = count (DraClassResourceName),
// and, under consumable shares, `gpu.nvidia.com/memory` = count x the MiB
// each device of the claim asks of its `memory` capacity
// (kDraMemoryResource; always written in `memory` mode, in N and
// `unlimited` mode only by a claim that asks memory). These
// names are bookkeeping only: the node does not advertise them as a device
// plugin would. The node counts them (Capacity; Allocatable: the healthy
// devices) so that count arithmetic is a NECESSARY condition of a fit:
//   - no consumable shares: one per device (each claim takes a device);
//   - N shares: N per device (each pick of a device takes one share);
//   - memory: the device's MiB for both names (each pick takes at least
//     1 MiB, and exactly the MiB it asks);
//   - unlimited: kDraUnlimitedPicksPerDevice per device (picks take
//     nothing; the number only keeps the arithmetic finite);
//   - with any consumable shares, the device's MiB under
//     gpu.nvidia.com/memory (a pick takes exactly the MiB it asks).
// Fits() is the DynamicResources Filter for the pod's claim (DraClaimFor) on
// the node's slice with what other pods hold (unhealthy devices are not
// published): the allocator's first full solution in device-name order,
// decided without running it. Proof, for one `exactly` request of count k
// on devices that are all alike (no request selectors, no constraints):
// the search picks devices one at a time, each time scanning from the first
// device (allocator_experimental.go allocateDevice does not mark a device
// with allowMultipleAllocations as allocating, so one request may pick it
// again), and takes the first with room; so it succeeds iff the picks the
// devices still hold sum to at least k: without shares a free device holds
// one pick; with N shares a device holds its free shares; with memory a
// device holds floor(free MiB / m) picks of m MiB (m above the device's
// memory never fits: the policy's max); unlimited, a healthy device holds
// any number; and a claim asking m MiB of memory in N or unlimited mode
// takes them too (KEP-5075: every capacity a request names is consumed,
// the others take their policy's default, 0 there), so a device then
// holds at most floor(free MiB / m) picks as well (with N, the lesser of
// that and its free shares). Allocate() is Reserve: the allocator's first full solution
// (FirstFitGrants: by the same proof, each request's picks are the first
// devices of its class with room, in slice order, a device picked while it
// has room; the classes' devices are disjoint, so requests do not
// interact; a shortfall is a checked invariant), turned into grants of a
// GPU (instance -1) or a MIG instance (its index in the GPU's layout) —
// one grant per pick, so a claim that picked a GPU twice holds it twice, as
// two time-slicing replicas of one GPU do — exactly as NvidiaDevicePlugin
// grants them under the exclusive, time-slicing and MIG schemes, so the
// share models run such pods unchanged. AllocatorGrants() runs DraAllocator
// itself on slice() for the same claim; dra_first_fit_test.cc checks over
// random claims, releases and health changes that both give the same
// grants. A grant's memory_mib is the device's memory (the driver isolates
// nothing), claim_memory_mib what the pick took of the `memory` capacity
// (the MiB asked; when none is asked the policy's default: the whole
// device in memory mode, 0 in N and unlimited mode; 0 without consumable
// shares); on a "DRA MPS" pool (scheme mps) a grant
// carries the claim's MPS limits, as the device plugin's MPS grants do:
// cores_percent = defaultActiveThreadPercentage and memory_mib =
// defaultPinnedDeviceMemoryLimit (the device's when unset).
// Release()/Reacquire() free and retake those picks.
// Cost: a node keeps only its Slot per device and the class names; slice()
// and classes() (the NVIDIA ResourceSlice and the DeviceClasses with their
// compiled CEL, some 120 KiB a MIG node), which neither Filter nor Reserve
// needs, are built on first use and kept. Single-threaded (slice() and
// classes() build on a const object).
#ifndef GPUSHARE_CLUSTER_DRA_DRA_GPU_DEVICES_H_
#define GPUSHARE_CLUSTER_DRA_DRA_GPU_DEVICES_H_

#include <optional>
#include <string>
#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/catalog/mig_layout.h"
#include "gpushare/cluster/device_plugin.h"
#include "gpushare/cluster/dra/allocator.h"
#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/cluster/dra/dra_pool_settings.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"
#include "gpushare/cluster/dra/resource_claim.h"
#include "gpushare/cluster/dra/resource_slice.h"

namespace gpushare {

// KEP-5004's implicit extended resource name of a DeviceClass
// (kDraClassResourcePrefix + the class name).
std::string DraClassResourceName(const std::string& device_class);

// The bookkeeping name of the MiB a claim asks of the `memory` capacity
// under consumable shares in `memory` mode (the capacity's qualified name).
inline constexpr std::string_view kDraMemoryResource = "gpu.nvidia.com/memory";

// The bookkeeping count of picks a device holds under `unlimited` consumable
// shares (a choice of gpushare-sim: far above any node's max pods).
inline constexpr int64_t kDraUnlimitedPicksPerDevice = 1 << 20;

// How a device of the slice is used (tests and invariants).
struct DraDeviceUse {
  std::string device;
  int picks = 0;            // grants holding it
  int64_t shares = 0;       // of the `shares` capacity (N mode)
  int64_t memory_mib = 0;   // of the `memory` capacity (memory mode)
};

class DraGpuDevices : public DevicePlugin {
 public:
  // `layouts`: empty (whole GPUs) or one valid static layout per GPU.
  // Interns the class resource names in `registry`.
  // `consumable`: the driver's consumable shares
  // (EffectiveDraPoolSettings; kDisabled: off).
  DraGpuDevices(std::string node_name, const GpuModel& model, int gpus,
                std::vector<MigLayout> layouts, ResourceRegistry& registry,
                DraPoolSettings consumable = DraPoolSettings());

  const ResourceList& Capacity() const override { return capacity_; }
  const ResourceList& Allocatable() const override { return allocatable_; }
  void SetHealthy(int gpu, int instance, bool healthy) override;
  void AddNodeLabels(Labels* labels) const override;
  bool Fits(const ResourceList& requests,
            std::string_view* reason) const override;
  DeviceAllocation Allocate(const ResourceList& requests) override;
  // The recorded devices (slice device names; an imported claim's
  // allocation results) in their order, each taking the picks of its class's
  // request while it has room; falls back to Allocate() when a name is not a
  // device of the slice or the devices cannot hold every pick.
  DeviceAllocation AllocateRecorded(
      const ResourceList& requests,
      const std::vector<std::string>& devices) override;
  void Release(const DeviceAllocation& allocation) override;
  void Reacquire(const DeviceAllocation& allocation) override;
  void CheckInvariants() const override;

  // The node's published ResourceSlice and its DeviceClasses (built on
  // first use).
  const ResourceSlice& slice() const;
  const std::vector<DeviceClass>& classes() const;
  // The grants Allocate() takes for `requests` (which Fits()), computed by
  // the contract's first-fit rule without changing the node.
  DeviceAllocation FirstFitGrants(const ResourceList& requests) const;
  // The same grants found by running DraAllocator on slice() with what the
  // node's devices hold (tests: they must equal FirstFitGrants()).
  DeviceAllocation AllocatorGrants(const ResourceList& requests) const;
  // The claim of a pod with `requests` ("<pod>-gpu" from the template); false
  // when it asks for a resource that names no class of this node.
  bool DraClaimFor(const ResourceList& requests, ResourceClaim* claim) const;
  // The devices held, as slice device names in slice order (tests).
  std::vector<std::string> HeldDevices() const;
  // Every device's use, in slice order.
  std::vector<DraDeviceUse> DeviceUse() const;

 private:
  // One device of the slice, in slice order.
  struct Slot {
    int gpu = 0;
    int instance = -1;  // index in the GPU's layout; -1: the whole GPU
    int class_index = 0;
    ResourceId resource = -1;
    int64_t memory_mib = 0;
    bool held = false;  // at least one pick
    bool healthy = true;
    int picks = 0;
    int64_t shares_used = 0;
    int64_t memory_used_mib = 0;
  };
  bool Shared() const {
    return consumable_.consumable_shares != DraConsumableShares::kDisabled;
  }
  // Bookkeeping units one healthy device of the slot adds to its class.
  int64_t UnitsPerDevice(const Slot& slot) const;
  // The picks a slot still holds for picks asking `per_pick` MiB of the
  // `memory` capacity each (-1: none asked).
  int64_t PicksLeft(const Slot& slot, int64_t per_pick) const;
  AllocatedDevices InUse() const;
  // The MiB a pick of `slot` takes of the `memory` capacity when each pick
  // asks `per_pick` MiB (-1: none asked).
  int64_t ClaimMemoryMib(const Slot& slot, int64_t per_pick) const;
  // On a "DRA MPS" pool: the claim's MPS limits on `grant`.
  void ApplyMpsLimits(DeviceGrant* grant) const;
  // The grant of one pick of `slot` asking `per_pick` MiB (-1: none).
  DeviceGrant GrantOf(const Slot& slot, int64_t per_pick) const;
  int SlotOf(int gpu, int instance) const;
  int ClassOfResource(ResourceId id) const;
  void Recount();
  ResourceSlice BuildSlice(std::vector<NvidiaDevicePlace>* places) const;
  std::vector<DeviceClass> BuildClasses() const;

  std::string node_name_;
  const GpuModel& model_;
  int gpus_;
  std::vector<MigLayout> layouts_;
  DraPoolSettings consumable_;
  ResourceId memory_resource_ = -1;  // kDraMemoryResource in memory mode
  std::vector<int> profiles_;  // the MIG profiles offered, ascending
  mutable std::optional<ResourceSlice> slice_;
  mutable std::optional<std::vector<DeviceClass>> classes_;
  std::vector<std::string> class_names_;     // per class
  std::vector<ResourceId> class_resources_;  // per class
  std::vector<Slot> slots_;
  std::vector<int> gpu_first_slot_;  // per GPU: its first slot
  ResourceList capacity_;
  ResourceList allocatable_;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_DRA_GPU_DEVICES_H_
