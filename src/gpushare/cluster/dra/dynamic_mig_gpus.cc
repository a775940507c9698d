#include "gpushare/cluster/dra/dynamic_mig_gpus.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <utility>

#include "gpushare/cluster/dra/nvidia_device_name.h"
#include "gpushare/io/check.h"

namespace gpushare {

DynamicMigGpus::DynamicMigGpus(const GpuModel& model, int gpus)
    : model_(model), gpus_(gpus) {
  const MigGeometry& mig = model.RequireMig();
  GS_CHECK(mig.memory_slices > 0 && mig.memory_slices <= 32,
           "MIG memory slices out of range");
  for (const MigProfile& p : mig.profiles) {
    max_sms_ = std::max<int64_t>(max_sms_, p.sms);
    max_memory_mib_ = std::max(max_memory_mib_, p.memory_mib);
  }
  // One GPU's partitions in name order (the order is the same on every GPU:
  // the names share the "gpu-<i>" prefix).
  std::vector<std::pair<std::string, NvidiaPartition>> one;
  if (NvidiaMigModeToggles(model)) {
    one.emplace_back("gpu-0", NvidiaPartition{0, -1, 0});
  }
  for (size_t p = 0; p < mig.profiles.size(); ++p) {
    const int id = NvidiaMigProfileId(model, static_cast<int>(p));
    for (const int start : mig.profiles[p].starts) {
      one.emplace_back(
          fmt::format("gpu-0-mig-{}-{}-{}",
                      NvidiaMigDeviceNamePart(mig.profiles[p].name), id,
                      start),
          NvidiaPartition{0, static_cast<int>(p), start});
    }
  }
  std::sort(one.begin(), one.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (int g = 0; g < gpus; ++g) {
    for (const auto& [name, part] : one) {
      NvidiaPartition q = part;
      q.gpu = g;
      parts_.push_back(q);
    }
    gpu_.push_back({max_sms_, max_memory_mib_, 0, 0, false});
  }
  held_.assign(parts_.size(), 0);
}

std::string DynamicMigGpus::DeviceName(int partition) const {
  const NvidiaPartition& p = parts_[partition];
  if (p.profile < 0) return fmt::format("gpu-{}", p.gpu);
  const MigProfile& profile = model_.mig->profiles[p.profile];
  return fmt::format("gpu-{}-mig-{}-{}-{}", p.gpu,
                     NvidiaMigDeviceNamePart(profile.name),
                     NvidiaMigProfileId(model_, p.profile), p.start);
}

int64_t DynamicMigGpus::Sms(const NvidiaPartition& p) const {
  return p.profile < 0 ? max_sms_ : model_.mig->profiles[p.profile].sms;
}

int64_t DynamicMigGpus::MemoryMib(const NvidiaPartition& p) const {
  return p.profile < 0 ? max_memory_mib_
                       : model_.mig->profiles[p.profile].memory_mib;
}

uint32_t DynamicMigGpus::SliceMask(const NvidiaPartition& p) const {
  const int n = model_.mig->memory_slices;
  const int size = p.profile < 0 ? n : model_.mig->profiles[p.profile].memory_slices;
  const int start = p.profile < 0 ? 0 : p.start;
  const uint64_t ones = (uint64_t{1} << size) - 1;
  return static_cast<uint32_t>(ones << start);
}

bool DynamicMigGpus::CanTake(int partition) const {
  if (held_[partition] != 0) return false;
  const NvidiaPartition& p = parts_[partition];
  const GpuCounters& g = gpu_[p.gpu];
  return g.sms_left >= Sms(p) && g.memory_mib_left >= MemoryMib(p) &&
         (g.slices_used & SliceMask(p)) == 0;
}

int DynamicMigGpus::FirstFit(int profile) const {
  for (size_t k = 0; k < parts_.size(); ++k) {
    if (parts_[k].profile == profile && CanTake(static_cast<int>(k))) {
      return static_cast<int>(k);
    }
  }
  return -1;
}

std::vector<int> DynamicMigGpus::FirstFitCount(int profile, int count) const {
  DynamicMigGpus trial = *this;
  std::vector<int> out;
  for (int i = 0; i < count; ++i) {
    const int k = trial.FirstFit(profile);
    if (k < 0) return {};
    trial.Take(k);
    out.push_back(k);
  }
  return out;
}

void DynamicMigGpus::Take(int partition) {
  GS_CHECK(CanTake(partition), "taking a dynamic MIG partition that does not fit");
  const NvidiaPartition& p = parts_[partition];
  GpuCounters& g = gpu_[p.gpu];
  g.sms_left -= Sms(p);
  g.memory_mib_left -= MemoryMib(p);
  g.slices_used |= SliceMask(p);
  if (p.profile < 0) {
    g.whole = true;
  } else {
    ++g.instances;
  }
  held_[partition] = 1;
}

void DynamicMigGpus::Free(int partition) {
  GS_CHECK(held_[partition] != 0, "freeing a dynamic MIG partition not held");
  const NvidiaPartition& p = parts_[partition];
  GpuCounters& g = gpu_[p.gpu];
  g.sms_left += Sms(p);
  g.memory_mib_left += MemoryMib(p);
  g.slices_used &= ~SliceMask(p);
  if (p.profile < 0) {
    g.whole = false;
  } else {
    --g.instances;
  }
  held_[partition] = 0;
}

int DynamicMigGpus::FreeMemorySlices(int gpu) const {
  return model_.mig->memory_slices - std::popcount(gpu_[gpu].slices_used);
}

bool DynamicMigGpus::Stranded(int gpu, int profile) const {
  const MigProfile& prof = model_.mig->profiles[profile];
  const GpuCounters& g = gpu_[gpu];
  if (g.sms_left < prof.sms || g.memory_mib_left < prof.memory_mib ||
      FreeMemorySlices(gpu) < prof.memory_slices) {
    return false;
  }
  for (size_t k = 0; k < parts_.size(); ++k) {
    if (parts_[k].gpu == gpu && parts_[k].profile == profile &&
        CanTake(static_cast<int>(k))) {
      return false;
    }
  }
  return true;
}

void DynamicMigGpus::CheckInvariants() const {
  std::vector<GpuCounters> again(gpu_.size(),
                                 {max_sms_, max_memory_mib_, 0, 0, false});
  for (size_t k = 0; k < parts_.size(); ++k) {
    if (held_[k] == 0) continue;
    const NvidiaPartition& p = parts_[k];
    GpuCounters& g = again[p.gpu];
    GS_CHECK((g.slices_used & SliceMask(p)) == 0,
             "two live MIG instances overlap on the memory axis");
    g.slices_used |= SliceMask(p);
    g.sms_left -= Sms(p);
    g.memory_mib_left -= MemoryMib(p);
    if (p.profile < 0) {
      g.whole = true;
    } else {
      ++g.instances;
    }
  }
  for (size_t i = 0; i < gpu_.size(); ++i) {
    const GpuCounters& a = again[i];
    const GpuCounters& b = gpu_[i];
    GS_CHECK(a.sms_left >= 0 && a.memory_mib_left >= 0,
             "a dynamic MIG counter went negative");
    GS_CHECK(a.sms_left == b.sms_left && a.memory_mib_left == b.memory_mib_left &&
                 a.slices_used == b.slices_used && a.instances == b.instances &&
                 a.whole == b.whole,
             "dynamic MIG counters disagree with the held partitions");
    GS_CHECK(!b.whole || b.instances == 0,
             "a whole GPU held beside MIG instances");
  }
}

}  // namespace gpushare
