#include "gpushare/sched/default_preemption.h"

#include <algorithm>
#include <limits>

namespace gpushare {

bool MoreImportant(const PreemptionVictim& a, const PreemptionVictim& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.start != b.start) return a.start < b.start;
  return a.id < b.id;
}

bool SelectVictimsOnNode(int32_t preemptor_priority,
                         const std::vector<PreemptionVictim>& pods,
                         PreemptionDryRun& dry_run,
                         std::vector<PreemptionVictim>* victims,
                         std::vector<PreemptionVictim>* scratch) {
  victims->clear();
  std::vector<PreemptionVictim>& potential = *scratch;
  potential.clear();
  for (const PreemptionVictim& p : pods) {
    if (p.priority < preemptor_priority) potential.push_back(p);
  }
  if (potential.empty() || !dry_run.MayFitWithout(potential)) return false;
  for (const PreemptionVictim& p : potential) dry_run.Remove(p);
  if (!dry_run.PreemptorFits()) {
    for (const PreemptionVictim& p : potential) dry_run.AddBack(p);
    return false;
  }
  std::sort(potential.begin(), potential.end(), MoreImportant);
  // Reprieve: the most important first; a pod stays when the preemptor
  // still fits with it back.
  for (const PreemptionVictim& p : potential) {
    if (!dry_run.MayFitWith(p)) {
      victims->push_back(p);  // it cannot come back
      continue;
    }
    dry_run.AddBack(p);
    if (!dry_run.PreemptorFits()) {
      dry_run.Remove(p);
      victims->push_back(p);
    }
  }
  for (const PreemptionVictim& p : *victims) dry_run.AddBack(p);
  return true;
}

namespace {

// The earliest start among the victims of the highest priority.
uint64_t EarliestStartOfMostImportant(const PreemptionCandidate& c) {
  uint64_t earliest = std::numeric_limits<uint64_t>::max();
  for (const PreemptionVictim& v : c.victims) {
    if (v.priority == c.victims[0].priority) {
      earliest = std::min(earliest, v.start);
    }
  }
  return earliest;
}

}  // namespace

int PickCandidate(std::span<const PreemptionCandidate> candidates) {
  std::vector<int> left;
  for (size_t i = 0; i < candidates.size(); ++i) {
    // A node where nothing needs to go wins at once.
    if (candidates[i].victims.empty()) return static_cast<int>(i);
    left.push_back(static_cast<int>(i));
  }
  // Keeps the candidates with the lowest `key`.
  auto keep_min = [&](auto key) {
    auto best = key(candidates[left[0]]);
    for (int i : left) best = std::min(best, key(candidates[i]));
    std::vector<int> kept;
    for (int i : left) {
      if (key(candidates[i]) == best) kept.push_back(i);
    }
    left.swap(kept);
  };
  keep_min([](const PreemptionCandidate& c) { return c.victims[0].priority; });
  if (left.size() > 1) {
    keep_min([](const PreemptionCandidate& c) {
      // Each priority shifted by MaxInt32 + 1, so negative ones add up.
      int64_t sum = 0;
      for (const PreemptionVictim& v : c.victims) {
        sum += int64_t{v.priority} + std::numeric_limits<int32_t>::max() + 1;
      }
      return sum;
    });
  }
  if (left.size() > 1) {
    keep_min([](const PreemptionCandidate& c) { return c.victims.size(); });
  }
  if (left.size() > 1) {
    // The latest start: the lowest of its negation.
    keep_min([](const PreemptionCandidate& c) {
      return std::numeric_limits<uint64_t>::max() -
             EarliestStartOfMostImportant(c);
    });
  }
  return left[0];
}

int NumPreemptionCandidates(int nodes, int percentage, int absolute) {
  int n = static_cast<int>(int64_t{nodes} * percentage / 100);
  if (n < absolute) n = absolute;
  if (n > nodes) n = nodes;
  return n;
}

}  // namespace gpushare
