// MigInstanceLifecycle: when the MIG instances NVIDIA's DRA driver makes
// per claim (dynamic MIG) are ready on one node, and what making them costs.
//
// Contract. The gpu-kubelet-plugin creates a claim's GPU and compute
// instance in NodePrepareResources and destroys them in
// NodeUnprepareResources, enabling MIG mode on a GPU before its first
// instance and disabling it after its last (kubernetes-sigs/
// dra-driver-nvidia-gpu, commit 95932046, cmd/gpu-kubelet-plugin/
// device_state.go Prepare/Unprepare, nvlib.go createMigDevice,
// deleteMigDevice, maybeDisableMigMode). Both calls hold one node-global
// file lock ("calls to nodePrepareResource() / nodeUnprepareResource()
// never interleave, node-globally": driver.go pu.lock). So the model: one
// FIFO queue of MIG operations per node; an operation asked at `now` starts
// when the queue is free (max(now, end of the previous operation)) and
// holds it for its duration:
//   - Create on a GPU: create_s, plus mode_enable_s when MIG mode is off
//     there (it is then on);
//   - Destroy: destroy_s, plus mode_enable_s again (disabling: a judgement,
//     the same call with the other value) when it was the GPU's last
//     instance and the GPU toggles MIG mode (Hopper and newer); on Ampere
//     MIG mode is enabled beforehand (a GPU reset) and never toggled
//     (nvidia_partitionable_slice.h), so it costs nothing there;
//   - Whole GPU: no MIG operation; it waits only for the queue when MIG mode
//     is still being disabled on that GPU (WholeReady).
// A creation therefore waits for the destroys released before it — the
// instance of a finished pod is gone before its slices are made again.
// Create() returns the ready time; the pod starts then (its wait includes
// it). Counts: instances created and destroyed, mode changes, and
// creation_wait_s = the sum over creations of (ready − asked).
// The times are not published (no number in NVIDIA's MIG User Guide, the
// driver's repository or the literature): ModelParams'
// mig_instance_create_s, mig_instance_destroy_s, mig_mode_enable_s are
// judgements (docs/model.md §11.2).

#ifndef GPUSHARE_CLUSTER_DRA_MIG_INSTANCE_LIFECYCLE_H_
#define GPUSHARE_CLUSTER_DRA_MIG_INSTANCE_LIFECYCLE_H_

#include <cstdint>
#include <vector>

namespace gpushare {

struct MigLifecycleTimes {
  double create_s = 0;
  double destroy_s = 0;
  double mode_enable_s = 0;
};

struct MigLifecycleCounts {
  int64_t created = 0;
  int64_t destroyed = 0;
  int64_t mode_enables = 0;
  int64_t mode_disables = 0;
  double creation_wait_s = 0;
};

class MigInstanceLifecycle {
 public:
  // `toggles_mode`: NvidiaMigModeToggles(model); when false MIG mode is on
  // from the start on every GPU.
  MigInstanceLifecycle(int gpus, bool toggles_mode, MigLifecycleTimes times);

  // An instance on `gpu` is prepared at `now`: returns when it is ready.
  double Create(double now, int gpu);
  // An instance on `gpu` is unprepared at `now`: returns when it is gone.
  double Destroy(double now, int gpu);
  // When a whole-GPU claim on `gpu` prepared at `now` is ready.
  double WholeReady(double now, int gpu) const;

  int LiveInstances(int gpu) const { return live_[gpu]; }
  bool MigModeOn(int gpu) const { return mode_on_[gpu] != 0; }
  const MigLifecycleCounts& counts() const { return counts_; }

 private:
  bool toggles_mode_;
  MigLifecycleTimes times_;
  double queue_free_ = 0;
  std::vector<int> live_;
  std::vector<uint8_t> mode_on_;
  std::vector<double> mode_off_at_;  // when MIG mode was last disabled
  MigLifecycleCounts counts_;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_MIG_INSTANCE_LIFECYCLE_H_
