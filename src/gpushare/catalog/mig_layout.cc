#include "gpushare/catalog/mig_layout.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

namespace gpushare {
namespace {

// Memory positions [start, start + size) as a bit mask (memory_slices <= 16).
uint32_t RangeMask(int start, int size) {
  return ((uint32_t{1} << size) - 1) << start;
}

std::string JoinInts(const std::vector<int>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(values[i]);
  }
  return out;
}

// Running totals of a layout under construction, for limit checks.
struct Usage {
  std::vector<int> counts;  // per profile
  int instances = 0;
  int media_extension = 0;
  int compute_slices = 0;
  uint32_t memory = 0;      // occupied positions

  explicit Usage(const MigGeometry& g) : counts(g.profiles.size(), 0) {}

  void Add(const MigProfile& p, int index, int start) {
    ++counts[index];
    ++instances;
    media_extension += p.media_extension() ? 1 : 0;
    compute_slices += p.compute_slices;
    memory |= RangeMask(start, p.memory_slices);
  }
  void Remove(const MigProfile& p, int index, int start) {
    --counts[index];
    --instances;
    media_extension -= p.media_extension() ? 1 : 0;
    compute_slices -= p.compute_slices;
    memory &= ~RangeMask(start, p.memory_slices);
  }
  // Whether one more instance of `p` at `start` respects every limit.
  bool Fits(const MigGeometry& g, const MigProfile& p, int index,
            int start) const {
    return p.AllowsStart(start) && counts[index] < p.max_count &&
           instances < g.max_instances &&
           (!p.media_extension() || media_extension == 0) &&
           compute_slices + p.compute_slices <= g.compute_slices &&
           (memory & RangeMask(start, p.memory_slices)) == 0;
  }
};

// Starts of `p` in HAMi's preference order (orderedMigPlacements).
std::vector<int> PreferredStarts(const MigProfile& p) {
  std::vector<int> starts = p.starts;
  if (p.name.rfind("1g.", 0) == 0 || p.name.rfind("3g.", 0) == 0) {
    std::reverse(starts.begin(), starts.end());
  }
  return starts;
}

bool PlaceRest(const MigGeometry& g, const std::vector<int>& order,
               const std::vector<std::vector<int>>& starts, size_t next,
               int min_option, Usage& usage, MigLayout& layout) {
  if (next == order.size()) return true;
  const int index = order[next];
  const MigProfile& p = g.profiles[index];
  const std::vector<int>& options = starts[next];
  for (int o = min_option; o < static_cast<int>(options.size()); ++o) {
    const int start = options[o];
    if (!usage.Fits(g, p, index, start)) continue;
    usage.Add(p, index, start);
    layout.push_back({index, start});
    // Identical profiles are interchangeable: place them in option order.
    const bool same_next =
        next + 1 < order.size() && order[next + 1] == index;
    if (PlaceRest(g, order, starts, next + 1, same_next ? o + 1 : 0, usage,
                  layout)) {
      return true;
    }
    layout.pop_back();
    usage.Remove(p, index, start);
  }
  return false;
}

void Enumerate(const MigGeometry& g, int position, Usage& usage,
               MigLayout& current, std::vector<MigLayout>& out) {
  if (position == g.memory_slices) {
    for (size_t i = 0; i < g.profiles.size(); ++i) {
      for (int start : g.profiles[i].starts) {
        if (usage.Fits(g, g.profiles[i], static_cast<int>(i), start)) return;
      }
    }
    out.push_back(current);
    return;
  }
  if (usage.memory & (uint32_t{1} << position)) {
    Enumerate(g, position + 1, usage, current, out);
    return;
  }
  // Position left empty, or an instance of some profile starting here.
  Enumerate(g, position + 1, usage, current, out);
  for (size_t i = 0; i < g.profiles.size(); ++i) {
    const MigProfile& p = g.profiles[i];
    const int index = static_cast<int>(i);
    if (!usage.Fits(g, p, index, position)) continue;
    usage.Add(p, index, position);
    current.push_back({index, position});
    Enumerate(g, position + 1, usage, current, out);
    current.pop_back();
    usage.Remove(p, index, position);
  }
}

}  // namespace

void SortMigLayout(MigLayout& layout) {
  std::sort(layout.begin(), layout.end(),
            [](const MigInstance& a, const MigInstance& b) {
              return a.start != b.start ? a.start < b.start
                                        : a.profile < b.profile;
            });
}

std::string FindMigLayoutProblem(const GpuModel& model,
                                 const MigLayout& layout) {
  if (!model.mig) return model.name + " does not support MIG";
  const MigGeometry& g = *model.mig;
  for (const MigInstance& in : layout) {
    const MigProfile& p = g.profiles[in.profile];
    if (!p.AllowsStart(in.start)) {
      return fmt::format("{} cannot start at {} on {} (allowed starts: {})",
                         p.name, in.start, model.name, JoinInts(p.starts));
    }
  }
  const std::vector<int> counts = MigProfileCounts(model, layout);
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] > g.profiles[i].max_count) {
      return fmt::format("max {} x {} on {} (layout has {})",
                         g.profiles[i].max_count, g.profiles[i].name,
                         model.name, counts[i]);
    }
  }
  int media = 0;
  int compute = 0;
  for (const MigInstance& in : layout) {
    media += g.profiles[in.profile].media_extension() ? 1 : 0;
    compute += g.profiles[in.profile].compute_slices;
  }
  if (media > 1) {
    return fmt::format(
        "at most one media-extension (+me) instance per GPU on {} (layout "
        "has {})",
        model.name, media);
  }
  if (static_cast<int>(layout.size()) > g.max_instances) {
    return fmt::format("{} holds at most {} GPU instances (layout has {})",
                       model.name, g.max_instances, layout.size());
  }
  if (compute > g.compute_slices) {
    return fmt::format("compute slices add up to {}, more than the {} of {}",
                       compute, g.compute_slices, model.name);
  }
  // Pairs in the order the user gave them, so the message reads as written.
  const MigLayout& sorted = layout;
  for (size_t a = 0; a < sorted.size(); ++a) {
    const MigProfile& pa = g.profiles[sorted[a].profile];
    for (size_t b = a + 1; b < sorted.size(); ++b) {
      const MigProfile& pb = g.profiles[sorted[b].profile];
      const int first = std::max(sorted[a].start, sorted[b].start);
      const int last = std::min(sorted[a].start + pa.memory_slices,
                                sorted[b].start + pb.memory_slices) - 1;
      if (first <= last) {
        const std::string positions =
            first == last ? fmt::format("memory position {}", first)
                          : fmt::format("memory positions {}-{}", first, last);
        return fmt::format("{}@{} and {}@{} overlap {}", pa.name,
                           sorted[a].start, pb.name, sorted[b].start,
                           positions);
      }
    }
  }
  return "";
}

bool CanAddMigInstance(const GpuModel& model, const MigLayout& layout,
                       int profile, int start) {
  if (!model.mig) return false;
  const MigGeometry& g = *model.mig;
  Usage usage(g);
  for (const MigInstance& in : layout) {
    usage.Add(g.profiles[in.profile], in.profile, in.start);
  }
  return usage.Fits(g, g.profiles[profile], profile, start);
}

std::optional<MigLayout> PlaceMigProfiles(const GpuModel& model,
                                          const MigLayout& fixed,
                                          const std::vector<int>& free_profiles,
                                          std::string* why_not) {
  auto fail = [&](const std::string& reason) -> std::optional<MigLayout> {
    if (why_not) *why_not = reason;
    return std::nullopt;
  };
  if (!model.mig) return fail(model.name + " does not support MIG");
  const MigGeometry& g = *model.mig;
  if (std::string problem = FindMigLayoutProblem(model, fixed);
      !problem.empty()) {
    return fail(problem);
  }
  // Limits that hold whatever the positions: say them plainly.
  MigLayout all = fixed;
  for (int p : free_profiles) all.push_back({p, g.profiles[p].starts[0]});
  const std::vector<int> counts = MigProfileCounts(model, all);
  int media = 0;
  int compute = 0;
  int memory = 0;
  for (const MigInstance& in : all) {
    media += g.profiles[in.profile].media_extension() ? 1 : 0;
    compute += g.profiles[in.profile].compute_slices;
    memory += g.profiles[in.profile].memory_slices;
  }
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] > g.profiles[i].max_count) {
      return fail(fmt::format("max {} x {} on {} (layout has {})",
                              g.profiles[i].max_count, g.profiles[i].name,
                              model.name, counts[i]));
    }
  }
  if (media > 1) {
    return fail(fmt::format(
        "at most one media-extension (+me) instance per GPU on {} (layout "
        "has {})",
        model.name, media));
  }
  if (static_cast<int>(all.size()) > g.max_instances) {
    return fail(fmt::format("{} holds at most {} GPU instances (layout has {})",
                            model.name, g.max_instances, all.size()));
  }
  if (compute > g.compute_slices) {
    return fail(fmt::format("compute slices add up to {}, more than the {} of {}",
                            compute, g.compute_slices, model.name));
  }
  if (memory > g.memory_slices) {
    return fail(fmt::format("memory slices add up to {}, more than the {} of {}",
                            memory, g.memory_slices, model.name));
  }
  // Backtracking: biggest instances first, fewest start options first.
  std::vector<int> order = free_profiles;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const MigProfile& pa = g.profiles[a];
    const MigProfile& pb = g.profiles[b];
    if (pa.memory_slices != pb.memory_slices) {
      return pa.memory_slices > pb.memory_slices;
    }
    if (pa.starts.size() != pb.starts.size()) {
      return pa.starts.size() < pb.starts.size();
    }
    return a < b;
  });
  std::vector<std::vector<int>> starts;
  for (int p : order) starts.push_back(PreferredStarts(g.profiles[p]));
  Usage usage(g);
  for (const MigInstance& in : fixed) {
    usage.Add(g.profiles[in.profile], in.profile, in.start);
  }
  MigLayout layout = fixed;
  if (!PlaceRest(g, order, starts, 0, 0, usage, layout)) {
    return fail(fmt::format(
        "{} cannot be placed on {}{}: every choice of allowed starts overlaps "
        "in memory (see 'gpushare-sim catalog --gpu {}' for the starts)",
        FormatMigCounts(model, counts), model.name,
        fixed.empty() ? "" : " around " + FormatMigLayout(model, fixed),
        model.name));
  }
  SortMigLayout(layout);
  return layout;
}

std::vector<MigLayout> EnumerateMaximalMigLayouts(const GpuModel& model) {
  std::vector<MigLayout> out;
  if (!model.mig) return out;
  Usage usage(*model.mig);
  MigLayout current;
  Enumerate(*model.mig, 0, usage, current, out);
  return out;
}

std::vector<int> MigProfileCounts(const GpuModel& model,
                                  const MigLayout& layout) {
  std::vector<int> counts(model.mig ? model.mig->profiles.size() : 0, 0);
  for (const MigInstance& in : layout) ++counts[in.profile];
  return counts;
}

std::string FormatMigLayout(const GpuModel& model, const MigLayout& layout) {
  std::string out;
  for (const MigInstance& in : layout) {
    if (!out.empty()) out += " ";
    out += fmt::format("{}@{}", model.mig->profiles[in.profile].name, in.start);
  }
  return out;
}

std::string FormatMigCounts(const GpuModel& model,
                            const std::vector<int>& counts) {
  std::vector<int> order(counts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const MigProfile& pa = model.mig->profiles[a];
    const MigProfile& pb = model.mig->profiles[b];
    if (pa.compute_slices != pb.compute_slices) {
      return pa.compute_slices > pb.compute_slices;
    }
    return pa.memory_slices > pb.memory_slices;
  });
  std::string out;
  for (int i : order) {
    if (counts[i] == 0) continue;
    if (!out.empty()) out += " + ";
    if (counts[i] > 1) out += fmt::format("{} x ", counts[i]);
    out += model.mig->profiles[i].name;
  }
  return out.empty() ? "(none)" : out;
}

}  // namespace gpushare
