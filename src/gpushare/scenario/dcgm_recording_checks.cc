// Checks of a dcgm-exporter recording against the catalog, the cluster and
// the dump (dcgm_recording_checks.h).

#include "gpushare/scenario/dcgm_recording_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "gpushare/base/lifetimebound.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

constexpr double kDcgmBytesPerMib = 1024.0 * 1024.0;

// A node of the cluster with GPUs: its catalog model and the product label
// it was imported from ("" when it has none).
struct DcgmClusterNode {
  const GpuModel* model = nullptr;
  std::string product;
};

std::map<std::string, DcgmClusterNode> DcgmClusterNodes(
    const std::vector<NodePoolSpec>& pools, const Catalog& catalog) {
  std::map<std::string, DcgmClusterNode> out;
  for (const NodePoolSpec& pool : pools) {
    if (pool.gpu_model.empty() || pool.gpus_per_node <= 0) continue;
    const GpuModel* model = catalog.Find(pool.gpu_model);
    if (model == nullptr) continue;
    for (const NodeIdentity& member : pool.members) {
      DcgmClusterNode node{model, ""};
      auto it = member.labels.find("nvidia.com/gpu.product");
      if (it == member.labels.end()) {
        it = pool.labels.find("nvidia.com/gpu.product");
        if (it == pool.labels.end()) it = member.labels.end();
      }
      if (it != member.labels.end()) node.product = it->second;
      out.emplace(member.name, std::move(node));
    }
  }
  return out;
}

std::string DcgmDeviceName(const DcgmDevice& d) {
  return d.instance < 0
             ? fmt::format("{} gpu {}", d.node, d.gpu)
             : fmt::format("{} gpu {} instance {}", d.node, d.gpu, d.instance);
}

// FB_USED's largest value against the device's memory.
void DcgmCheckFramebuffer(const DcgmDevice& d, const GpuModel& model,
                          const MigProfile* profile) {
  const int64_t memory_mib =
      profile == nullptr ? model.memory_mib : profile->memory_mib;
  if (d.fb_max_mib <= static_cast<double>(memory_mib)) return;
  const std::string device =
      profile == nullptr ? model.name
                         : fmt::format("{} MIG {}", model.name, profile->name);
  const double as_mib = d.fb_max_mib / kDcgmBytesPerMib;
  const std::string bytes =
      d.fb_max_mib >= kDcgmBytesPerMib &&
              as_mib <= static_cast<double>(memory_mib)
          ? fmt::format(
                "; the values look like bytes ({} bytes = {:.0f} "
                "MiB): dcgm-exporter reports MiB, so convert the "
                "recording (divide by 1048576)",
                d.fb_max_mib, as_mib)
          : std::string();
  throw InputError(
      d.fb_max_file, d.fb_max_line, d.fb_max_column,
      fmt::format("DCGM_FI_DEV_FB_USED: {} MiB at time {} on {} is above the "
                  "device's memory, {} MiB ({}){}",
                  d.fb_max_mib, d.fb_max_time_s, DcgmDeviceName(d), memory_mib,
                  device, bytes));
}

void DcgmCheckNode(const DcgmDevice& d, const GpuModel& model,
                   const std::map<std::string, DcgmClusterNode>& nodes) {
  const auto it = nodes.find(d.node);
  if (it == nodes.end() || it->second.model == &model) return;
  const DcgmClusterNode& node = it->second;
  const std::string what =
      node.product.empty() ? fmt::format("has {}", node.model->name)
                           : fmt::format("has nvidia.com/gpu.product '{}' ({})",
                                         node.product, node.model->name);
  throw InputError(
      d.file, d.line, d.column,
      fmt::format("modelName '{}' ({}) contradicts the cluster: node {} {}; "
                  "the series are of another node or cluster",
                  d.model_name, model.name, d.node, what));
}

void DcgmCheckTimes(const DcgmRecording& recording,
                    const std::vector<Pod>& pods,
                    std::vector<std::string>* warnings) {
  const Pod* earliest = nullptr;
  for (const Pod& pod : pods) {
    if (pod.dump_time_unix_s < 0) continue;
    if (earliest == nullptr ||
        pod.dump_time_unix_s < earliest->dump_time_unix_s) {
      earliest = &pod;
    }
  }
  if (earliest == nullptr || recording.empty()) return;
  const double end = recording.EndUnixS();
  if (end >= earliest->dump_time_unix_s) return;
  warnings->push_back(fmt::format(
      "the recording ({} to {}, Unix seconds) ends {:.0f} s before the "
      "earliest pod of the dump started or was created ({} at {}): none of "
      "its series can be of the dump's pods by name, only of their "
      "controllers' earlier pods; check that the files are of the same "
      "cluster and time",
      recording.StartUnixS(), end, earliest->dump_time_unix_s - end,
      earliest->name, earliest->dump_time_unix_s));
}

}  // namespace

const GpuModel& DcgmDeviceModel(const DcgmDevice& d,
                                const Catalog& catalog GS_LIFETIMEBOUND) {
  std::string name = d.model_name;
  std::replace(name.begin(), name.end(), ' ', '-');
  if (const GpuModel* m = catalog.Find(name)) return *m;
  if (name.rfind("NVIDIA-", 0) == 0) {
    if (const GpuModel* m = catalog.Find(name.substr(7))) return *m;
  }
  throw InputError(d.file, d.line, d.column,
                   "modelName '" + d.model_name +
                       "': no such GPU model in the catalog; add it as an "
                       "alias in a catalog file (--catalog)");
}

const MigProfile* DcgmDeviceProfile(const DcgmDevice& d,
                                    const GpuModel& model GS_LIFETIMEBOUND) {
  if (d.profile.empty()) return nullptr;
  if (!model.mig_capable()) {
    throw InputError(d.file, d.line, d.column,
                     "GPU_I_PROFILE '" + d.profile + "' on " + model.name +
                         ", which has no MIG");
  }
  const int index = model.mig->FindProfile(d.profile);
  if (index < 0) {
    throw InputError(d.file, d.line, d.column,
                     "GPU_I_PROFILE '" + d.profile + "': " + model.name +
                         " has no such MIG profile");
  }
  return &model.mig->profiles[index];
}

void CheckDcgmRecording(const DcgmRecording& recording, const Catalog& catalog,
                        const std::vector<NodePoolSpec>& pools,
                        const std::vector<Pod>* pods,
                        std::vector<std::string>* warnings) {
  const std::map<std::string, DcgmClusterNode> nodes =
      DcgmClusterNodes(pools, catalog);
  for (const DcgmDevice& d : recording.devices) {
    const GpuModel& model = DcgmDeviceModel(d, catalog);
    const MigProfile* profile = DcgmDeviceProfile(d, model);
    DcgmCheckNode(d, model, nodes);
    DcgmCheckFramebuffer(d, model, profile);
  }
  if (pods != nullptr && warnings != nullptr) {
    DcgmCheckTimes(recording, *pods, warnings);
  }
}

}  // namespace gpushare
