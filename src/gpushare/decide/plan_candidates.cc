#include "gpushare/decide/plan_candidates.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "gpushare/catalog/mig_config.h"
#include "gpushare/catalog/mig_layout.h"
#include "gpushare/catalog/mig_mix.h"
#include "gpushare/decide/scheme_variant.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

bool Allows(const PlanPoolSpec& spec, SharingScheme scheme) {
  return std::find(spec.schemes.begin(), spec.schemes.end(), scheme) !=
         spec.schemes.end();
}

// `counts` with `extra` added, sorted, without repeats.
std::vector<int> WithCount(std::vector<int> counts, int extra) {
  counts.push_back(extra);
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

// mig.layouts items ("3g.40gb:1") of per-profile counts.
std::vector<std::string> LayoutItems(const GpuModel& model,
                                     const std::vector<int>& counts) {
  std::vector<std::string> items;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] > 0) {
      items.push_back(
          fmt::format("{}:{}", model.mig->profiles[i].name, counts[i]));
    }
  }
  return items;
}

bool HasMediaExtension(const GpuModel& model, const std::vector<int>& counts) {
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] > 0 && model.mig->profiles[i].media_extension()) return true;
  }
  return false;
}

class CandidateList {
 public:
  CandidateList(const NodePoolSpec& pool, const GpuModel& model,
                std::vector<std::string>* notes)
      : pool_(pool), model_(model), notes_(notes) {}

  void Add(const SharingConfig& sharing, double licence) {
    // Named as reports name the pool under it (a DRA pool's "DRA
    // time-slicing x4", "exclusive (DRA)"), as ApplyCandidate makes it.
    const NodePoolSpec as = ApplyCandidate(pool_, {"", sharing, licence},
                                           pool_.nodes);
    const std::string label = PoolSharingLabel(as, &model_);
    if (!labels_.insert(label).second) return;
    try {
      sharing.Validate(model_, pool_.gpus_per_node);
    } catch (const InputError& e) {
      if (notes_ != nullptr) {
        notes_->push_back(fmt::format("pool {}: {} skipped ({})", pool_.name,
                                      label, e.what()));
      }
      return;
    }
    out_.push_back({label, sharing, licence});
  }

  std::vector<PoolCandidate> Take() { return std::move(out_); }

 private:
  const NodePoolSpec& pool_;
  const GpuModel& model_;
  std::vector<std::string>* notes_;
  std::set<std::string> labels_;
  std::vector<PoolCandidate> out_;
};

}  // namespace

std::vector<PoolCandidate> PoolCandidates(const NodePoolSpec& pool,
                                          const GpuModel& model,
                                          const PlanPoolSpec& spec,
                                          const CompareSpec& compare,
                                          double vgpu_licence,
                                          std::vector<std::string>* notes) {
  CandidateList list(pool, model, notes);
  const SharingConfig& written = pool.sharing;
  const SharingScheme current = written.scheme();
  const bool hami_now = current == SharingScheme::kHami;
  if (Allows(spec, current)) {
    list.Add(written, hami_now ? pool.licence_per_gpu_hour : 0);
  }
  if (Allows(spec, SharingScheme::kExclusive)) list.Add(ExclusiveSharing(), 0);
  if (Allows(spec, SharingScheme::kTimeSlicing)) {
    for (int r :
         WithCount(spec.time_slicing_replicas, compare.time_slicing_replicas)) {
      SharingConfig s = current == SharingScheme::kTimeSlicing
                            ? written
                            : TimeSlicingSharing(r);
      // A new time-sliced setting fails requests of several replicas, as
      // NVIDIA recommends (docs/emit.md); today's keeps its own.
      if (current != SharingScheme::kTimeSlicing) {
        s.replicas.fail_requests_greater_than_one = true;
      }
      s.replicas.replicas = r;
      list.Add(s, 0);
    }
  }
  if (Allows(spec, SharingScheme::kMps)) {
    for (int r : WithCount(spec.mps_replicas, compare.mps_replicas)) {
      SharingConfig s =
          current == SharingScheme::kMps ? written : MpsSharing(r);
      s.replicas.replicas = r;
      list.Add(s, 0);
    }
  }
  if (Allows(spec, SharingScheme::kHami)) {
    for (int split :
         WithCount(spec.hami_split_counts, compare.hami_split_count)) {
      SharingConfig s = hami_now ? written : HamiSharing();
      s.hami.split_count = split;
      list.Add(s, hami_now ? pool.licence_per_gpu_hour : vgpu_licence);
    }
  }
  if (Allows(spec, SharingScheme::kMig) && model.mig_capable()) {
    std::vector<std::vector<int>> named_counts;
    for (const NamedMigConfig& c : NamedMigConfigs(model)) {
      if (!c.mig_enabled || c.name == "all-enabled") continue;
      named_counts.push_back(c.counts);
      list.Add(MigSharing(MigStrategy::kMixed, c.name), 0);
    }
    if (spec.mig_layouts == MigLayoutChoice::kAll) {
      std::set<std::vector<int>> seen(named_counts.begin(), named_counts.end());
      for (const MigLayout& layout : EnumerateMaximalMigLayouts(model)) {
        const std::vector<int> counts = MigProfileCounts(model, layout);
        if (HasMediaExtension(model, counts)) continue;
        if (!seen.insert(counts).second) continue;
        SharingConfig s = MigSharing(MigStrategy::kMixed, "");
        s.mig.layouts = {LayoutItems(model, counts)};
        list.Add(s, 0);
      }
    }
    if (spec.mig_mixes) {
      // Per-GPU mixes within a node (catalog/mig_mix.h): GPUs 0..k-1 one
      // whole-GPU instance, the others a named config.
      for (const MigMix& mix : MigMixes(model, pool.gpus_per_node)) {
        SharingConfig s = MigSharing(MigStrategy::kMixed, "");
        s.mig.layouts = mix.layouts;
        list.Add(s, 0);
      }
    }
    if (compare.mig_dynamic) {
      // Dynamic MIG (docs/model.md §11.2): instances made per claim.
      SharingConfig s = MigSharing(MigStrategy::kMixed, "");
      s.mig.dynamic = true;
      list.Add(s, 0);
    }
  } else if (Allows(spec, SharingScheme::kMig) && notes != nullptr &&
             spec.schemes.size() > 1) {
    notes->push_back(
        fmt::format("pool {}: {} has no MIG", pool.name, model.name));
  }
  return list.Take();
}

NodePoolSpec ApplyCandidate(const NodePoolSpec& pool,
                            const PoolCandidate& candidate, int nodes) {
  NodePoolSpec out = pool;
  out.sharing = candidate.sharing;
  if (out.sharing.mig_enabled && out.sharing.mig.dynamic) {
    // Dynamic MIG runs on NVIDIA's DRA driver, with no other setting.
    out.devices = PoolDevices::kDra;
    out.dra = DraPoolSettings();
  }
  UseDevicePluginWhereDraCannot(out);
  out.licence_per_gpu_hour = candidate.licence_per_gpu_hour;
  ResizePool(&out, nodes);
  return out;
}

double PoolCostPerHour(const NodePoolSpec& pool, const GpuModel& model,
                       double licence_per_gpu_hour, int nodes) {
  return static_cast<double>(nodes) * pool.gpus_per_node *
         (model.price_per_hour + licence_per_gpu_hour);
}

}  // namespace gpushare
