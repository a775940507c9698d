// GpuModel and MigProfile: what the catalog knows about one kind of GPU.
//
// Contract: plain values, validated by the Catalog when loaded (every field in
// range, MIG placements inside the GPU, names unique). Units are in the names:
// `_mib` is MiB, `sms` counts streaming multiprocessors. MIG geometry follows
// NVIDIA's model (NVIDIA MIG User Guide, "Supported MIG Profiles" and the
// `nvidia-smi mig -lgipp` placements of "Getting Started with MIG"):
// instances are placed on the memory-slice axis (8 positions on
// A100/H100/H200/B200, 4 on A30); an instance of a profile occupies
// [start, start + memory_slices).

#ifndef GPUSHARE_CATALOG_GPU_MODEL_H_
#define GPUSHARE_CATALOG_GPU_MODEL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpushare {

// One GPU-instance profile, such as 3g.40gb or 1g.10gb+me.
struct MigProfile {
  std::string name;         // "3g.40gb"; never a numeric profile ID
  int compute_slices = 0;   // G of <G>g.<M>gb
  int memory_slices = 0;    // size on the placement (memory) axis
  int sms = 0;              // SMs of one instance
  int64_t memory_mib = 0;   // memory of one instance
  int max_count = 0;        // most instances of this profile on one GPU
  std::vector<int> starts;  // allowed start positions, ascending
  std::vector<std::string> unconfirmed;  // fields not confirmed by a source

  // True for media-extension profiles (+me, +me.all): at most one per GPU.
  bool media_extension() const;
  // The extended resource the device plugin's mixed strategy advertises:
  // "nvidia.com/mig-1g.5gb.me" for 1g.5gb+me ('+' becomes '.');
  // MigResourceName(name).
  std::string ResourceName() const;
  bool AllowsStart(int start) const;
};

// MigProfile::ResourceName() of the profile named `profile` (the DRA
// driver's per-profile DeviceClass maps the same name, KEP-5004).
std::string MigResourceName(std::string_view profile);

// The MIG geometry of a MIG-capable GPU model.
struct MigGeometry {
  int compute_slices = 0;  // 7 (A30: 4)
  int memory_slices = 0;   // 8 (A30: 4): positions 0..memory_slices-1
  int max_instances = 0;   // most GPU instances at once (7; A30: 4)
  int sms = 0;             // SMs usable in MIG mode (those of the full profile)
  std::vector<MigProfile> profiles;

  // Index of the profile named `name` (exact match), or -1.
  int FindProfile(const std::string& name) const;
  std::vector<std::string> ProfileNames() const;
};

// One GPU model of the catalog.
struct GpuModel {
  std::string name;                  // canonical: "H100-80GB"
  std::vector<std::string> aliases;  // nvidia.com/gpu.product values, etc.
  std::string family;                // nvidia.com/gpu.family: "hopper"
  std::string compute_capability;    // "9.0"
  int64_t memory_mib = 0;
  int sms = 0;
  double relative_speed = 0;         // dense FP16 tensor TFLOPS / A100's
  // Peak DRAM bandwidth, GB/s (10^9 bytes/s), from the datasheet; 0 when
  // unknown (a --catalog model that does not give it).
  double memory_bandwidth_gb_s = 0;
  // Dense (no sparsity) FP8 tensor TFLOPS from the datasheet; 0: the GPU
  // has no FP8 tensor cores (before Ada and Hopper) or it is unknown.
  double fp8_tflops = 0;
  // GPU-to-GPU link of the board: its name ("nvlink4", "pcie4", ...) and
  // its bandwidth per GPU per direction, GB/s (NVLink where the board has
  // it, else its PCIe slot's); 0 when unknown.
  std::string interconnect;
  double interconnect_gb_s = 0;
  double price_per_hour = 0;         // USD per GPU-hour
  std::vector<std::string> pci_device_ids;  // "0x233010DE"
  std::vector<std::string> unconfirmed;     // fields not confirmed
  std::optional<MigGeometry> mig;           // set iff MIG-capable

  bool mig_capable() const { return mig.has_value(); }
  // The MIG geometry; throws InputError if the model is not MIG-capable.
  const MigGeometry& RequireMig() const;
  // The memory bandwidth (GB/s) an instance of `profile` has: the GPU's
  // times its memory slices over the GPU's (NVIDIA MIG User Guide: each
  // memory slice carries its share of the memory controllers and DRAM
  // bandwidth). Throws InputError if the model is not MIG-capable.
  double InstanceBandwidthGbS(const MigProfile& profile) const;
  // Index of a profile by name; throws InputError naming the closest
  // profiles (or saying the model has no MIG) when there is none.
  int RequireProfile(const std::string& profile_name) const;
};

}  // namespace gpushare

#endif  // GPUSHARE_CATALOG_GPU_MODEL_H_
