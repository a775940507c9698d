// The names NVIDIA's DRA driver gives the devices of a node's ResourceSlice,
// read back: what `kubectl get resourceslices` shows, for the cluster import.
//
// Contract: ParseNvidiaDeviceName() inverts the names nvidia_gpu_slice.h
// writes (kubernetes-sigs/dra-driver-nvidia-gpu, commit 95932046,
// cmd/gpu-kubelet-plugin/deviceinfo.go CanonicalName, mig.go
// ToCanonicalName): "gpu-<index>" is a whole GPU; "gpu-<index>-mig-
// <profile>-<GI profile ID>-<start>" a MIG device, where <profile> is
// NvidiaMigDeviceNamePart() of the profile name (it may itself hold '-':
// "1g10gb-me"), so the two numbers are read from the end. Indexes, IDs and
// starts are decimal without sign, at most 6 digits. Anything else is
// nullopt. NvidiaMigDeviceNamePart() is the driver's profile part: the
// profile without '.', lower-cased, other characters outside [a-z0-9-]
// made '-', no '-' at either end ("1g.10gb+me" -> "1g10gb-me").

#ifndef GPUSHARE_CLUSTER_DRA_NVIDIA_DEVICE_NAME_H_
#define GPUSHARE_CLUSTER_DRA_NVIDIA_DEVICE_NAME_H_

#include <optional>
#include <string>
#include <string_view>

namespace gpushare {

struct NvidiaDeviceName {
  int gpu = 0;              // the GPU's index
  bool mig = false;         // a MIG device (else the whole GPU)
  std::string profile_part;  // MIG: "3g40gb"
  int gi_profile_id = -1;   // MIG: NVML's GPU-instance profile ID
  int start = -1;           // MIG: the placement's first memory slice
};

std::optional<NvidiaDeviceName> ParseNvidiaDeviceName(std::string_view name);

std::string NvidiaMigDeviceNamePart(std::string_view profile);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_NVIDIA_DEVICE_NAME_H_
