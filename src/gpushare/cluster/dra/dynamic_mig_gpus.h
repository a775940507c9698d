// DynamicMigGpus: the MIG instances alive on one node's GPUs under the
// NVIDIA DRA driver's dynamic MIG, kept as the KEP-4815 counters the
// scheduler's allocator checks.
//
// Contract. The node's partitions are those of
// NvidiaPartitionableResourceSlice() (nvidia_partitionable_slice.h), in the
// same order: per GPU the whole GPU (not on Ampere), then every placement of
// every profile, by device name. A partition is held or free; holding it consumes its
// counters from its GPU's CounterSet: the profile's SMs and memory (the set
// holds the full-GPU profile's) and one memory-slice counter per memory
// slice of [start, start + memory_slices); the whole GPU consumes all of
// them. CanTake(p) is the allocator's test for one exclusive device:
// p is free and every counter it consumes is left (allocator.h; kubernetes
// allocator_stable.go checkAvailableCounters). FirstFit(profile) is the
// allocator's choice for a request of one device of the profile's class
// (profile -1: gpu.nvidia.com, the whole GPU): the first partition of that
// profile in slice order that CanTake(). FirstFitCount(profile, k) is its
// choice for `count: k`: the allocator takes devices one by one from the
// first, and backtracking cannot do better, because the placements of one
// profile have one length on the memory axis and their starts are that
// length's multiples (or every slice, for one-slice profiles), so taking the
// lowest free start first leaves the most room (the earliest-end greedy of
// interval scheduling), and the SM and memory counters are the same for
// every placement of a profile; GPUs are independent. A pod claiming
// devices of SEVERAL profiles is not covered by this rule (the first pick of
// one may block a later one that a different pick would have left room
// for): run DraAllocator on the slice for those (dra_dynamic_mig_test.cc
// checks FirstFitCount against it over random holds).
// Held instances never overlap on the memory axis and no counter goes
// negative (CheckInvariants).
// Stranded(gpu, profile): the GPU has the profile's SMs, memory and at least
// as many free memory slices as the profile covers left, yet no placement of
// it fits — the fragmentation of placements (NVIDIA dra-driver-nvidia-gpu
// issue #933: instances removed out of placement order).

#ifndef GPUSHARE_CLUSTER_DRA_DYNAMIC_MIG_GPUS_H_
#define GPUSHARE_CLUSTER_DRA_DYNAMIC_MIG_GPUS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/cluster/dra/nvidia_partitionable_slice.h"

namespace gpushare {

class DynamicMigGpus {
 public:
  // `model` must be MIG-capable and outlive this object.
  DynamicMigGpus(const GpuModel& model, int gpus);

  int gpus() const { return gpus_; }
  // Every partition, in slice order.
  const std::vector<NvidiaPartition>& partitions() const { return parts_; }
  // The partition's device name ("gpu-0-mig-3g40gb-9-4").
  std::string DeviceName(int partition) const;

  bool Held(int partition) const { return held_[partition] != 0; }
  bool CanTake(int partition) const;
  // The first partition of `profile` (-1: whole GPU) that CanTake(); -1.
  int FirstFit(int profile) const;
  // The first `count` partitions the allocator takes for `count` devices of
  // `profile`; empty when it cannot take them all.
  std::vector<int> FirstFitCount(int profile, int count) const;
  void Take(int partition);  // must CanTake()
  void Free(int partition);  // must be held

  // Counters left on GPU `gpu`.
  int64_t SmsLeft(int gpu) const { return gpu_[gpu].sms_left; }
  int64_t MemoryMibLeft(int gpu) const { return gpu_[gpu].memory_mib_left; }
  int FreeMemorySlices(int gpu) const;
  // Live instances (held MIG partitions) on `gpu`, and whether the whole
  // GPU is held.
  int LiveInstances(int gpu) const { return gpu_[gpu].instances; }
  bool WholeHeld(int gpu) const { return gpu_[gpu].whole; }
  // The contract's fragmentation test.
  bool Stranded(int gpu, int profile) const;

  void CheckInvariants() const;

 private:
  struct GpuCounters {
    int64_t sms_left = 0;
    int64_t memory_mib_left = 0;
    uint32_t slices_used = 0;  // bit s: memory-slice-s consumed
    int instances = 0;
    bool whole = false;
  };
  int64_t Sms(const NvidiaPartition& p) const;
  int64_t MemoryMib(const NvidiaPartition& p) const;
  uint32_t SliceMask(const NvidiaPartition& p) const;

  const GpuModel& model_;
  int gpus_;
  int64_t max_sms_ = 0;
  int64_t max_memory_mib_ = 0;
  std::vector<NvidiaPartition> parts_;
  std::vector<uint8_t> held_;
  std::vector<GpuCounters> gpu_;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_DYNAMIC_MIG_GPUS_H_
