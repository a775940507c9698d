// The scheduling cycle of Scheduler (scheduler.h), as kube-scheduler's
// schedule_one.go: Filter over the nodes from a rotating start index until
// numFeasibleNodesToFind feasible ones are found (FindFeasibleNodes), Score
// and host selection (SelectHost), Reserve and Bind (ScheduleOne, Bind),
// and the FitError message of a pod that fits no node (Diagnose).
//
// Contract: ScheduleOne() takes the active queue's first pod through one
// cycle and returns it bound, unschedulable (parked in the queue, with
// DefaultPreemption's victims when it found some) or rejected by kubelet's
// admission; Bind() admits a pod that names its node. NoteBound() and
// NoteUnbound() keep the per-node records that preemption reads.

#include <algorithm>
#include <limits>

#include "gpushare/cluster/dra/filter_messages.h"
#include "gpushare/cluster/hami_device_plugin.h"
#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/io/check.h"
#include "gpushare/sched/fit_error.h"
#include "gpushare/sched/node_reservation.h"
#include "gpushare/sched/scheduler.h"

namespace gpushare {

int NumFeasibleNodesToFind(int num_nodes, int percentage) {
  // kubernetes/kubernetes pkg/scheduler/schedule_one.go
  // numFeasibleNodesToFind.
  constexpr int kMinFeasibleNodesToFind = 100;
  constexpr int kMinFeasibleNodesPercentageToFind = 5;
  if (num_nodes < kMinFeasibleNodesToFind) return num_nodes;
  if (percentage == 0) {
    percentage = 50 - num_nodes / 125;
    if (percentage < kMinFeasibleNodesPercentageToFind) {
      percentage = kMinFeasibleNodesPercentageToFind;
    }
  }
  if (percentage >= 100) return num_nodes;
  const int found = static_cast<int>(int64_t{num_nodes} * percentage / 100);
  return found < kMinFeasibleNodesToFind ? kMinFeasibleNodesToFind : found;
}

const Scheduler::StaticDiagnosis& Scheduler::StaticDiagnosisFor(
    int constraints, const Pod& pod) {
  StaticDiagnosis& d = static_diagnoses_[constraints];
  const auto& nodes = cluster_.nodes();
  if (d.nodes == static_cast<int>(nodes.size())) return d;
  d.nodes = static_cast<int>(nodes.size());
  d.epoch = ++static_epoch_;
  d.rejected = FitError(0);
  d.passed.clear();
  d.position.assign(nodes.size(), -1);
  std::vector<std::string_view> reasons;
  for (size_t k = 0; k < static_prefix_; ++k) {
    filters_in_order_[k]->PreFilter(pod);
  }
  d.existing = 0;
  for (size_t n = 0; n < nodes.size(); ++n) {
    // A slot of an autoscaled pool without a node is no node at all.
    if (!nodes[n].exists()) continue;
    ++d.existing;
    reasons.clear();
    bool passed = true;
    for (size_t k = 0; k < static_prefix_ && passed; ++k) {
      passed = filters_in_order_[k]->Filter(pod, nodes[n], &reasons);
    }
    if (passed && !pod.dra_claim_node.empty() &&
        nodes[n].name() != pod.dra_claim_node) {
      passed = false;
      reasons.push_back(kDraClaimNotAvailableOnNode);
    }
    if (passed) {
      d.position[n] = static_cast<int>(d.passed.size());
      d.passed.push_back(static_cast<int>(n));
    } else {
      for (std::string_view r : reasons) d.rejected.AddReason(r);
    }
  }
  return d;
}

std::string Scheduler::Diagnose(const Pod& pod, int constraints, Group& group) {
  const auto& nodes = cluster_.nodes();
  // The nodes the static prefix rejects have the same reasons until a node
  // changes; the others go through the remaining filters, in order.
  const StaticDiagnosis& prefix = StaticDiagnosisFor(constraints, pod);
  auto prefix_error = [&] {
    FitError error(prefix.existing);
    for (const auto& [reason, count] : prefix.rejected.counts()) {
      error.AddReason(reason, count);
    }
    return error;
  };
  // The remaining filters' PreFilter runs before the first node is judged
  // (a memo up to date judges none).
  bool prepared = false;
  std::vector<std::string_view> reasons;
  auto judge = [&](int n) {
    if (!prepared) {
      for (size_t k = static_prefix_; k < filters_in_order_.size(); ++k) {
        filters_in_order_[k]->PreFilter(pod);
      }
      prepared = true;
    }
    reasons.clear();
    for (size_t k = static_prefix_; k < filters_in_order_.size(); ++k) {
      if (!filters_in_order_[k]->Filter(pod, nodes[n], &reasons)) break;
    }
    // The second run, with the node's nominated pods of equal or higher
    // priority added (RunFilterPluginsWithNominatedPods).
    if (reasons.empty() && NomineesApply(pod, n)) {
      FitsWithNominees(pod, n, &reasons);
    }
  };
  Group::DiagnosisMemo& memo = group.diagnosis;
  constexpr uint16_t kMaxSets = 0xFFFF;
  constexpr uint64_t kNoLogEnd = ~uint64_t{0};
  // Entries keep a version in 48 bits: a node whose version reaches
  // kNominated (never, in practice) is not memoized.
  constexpr int kSetBits = 16;
  // The memo's version of a node with nominated pods: never a live version,
  // so it is judged again at every diagnosis while they are there (its
  // reasons depend on the pod's priority) and once after (it is logged).
  constexpr uint64_t kNominated = (uint64_t{1} << (64 - kSetBits)) - 1;
  auto judge_all = [&] {
    FitError error = prefix_error();
    for (int n : prefix.passed) {
      judge(n);
      for (std::string_view r : reasons) error.AddReason(r);
    }
    return error.Message();
  };
  if (!profile_.reuse_node_results) return judge_all();
  if (memo.epoch != prefix.epoch) {
    memo.epoch = prefix.epoch;
    memo.log_end = kNoLogEnd;  // every node is judged
    memo.entries.assign(prefix.passed.size(), 0);
    memo.reason_sets.clear();
    memo.set_nodes.clear();
    memo.rendered_nodes = -1;
  }
  const uint64_t* versions = NodeVersions();
  // Brings node `i` of `passed` up to date; false when there are too many
  // distinct reason lists to memoize.
  auto update = [&](size_t i) {
    const int n = prefix.passed[i];
    // Node versions start at 1: 0 is never a live version.
    if (versions[n] >= kNominated) return false;
    const uint64_t version = HasNominees(n) ? kNominated : versions[n];
    const uint64_t entry = memo.entries[i];
    if ((entry >> kSetBits) == version && version != kNominated) return true;
    judge(n);
    size_t set = 0;
    while (set < memo.reason_sets.size() &&
           !std::equal(reasons.begin(), reasons.end(),
                       memo.reason_sets[set].begin(),
                       memo.reason_sets[set].end())) {
      ++set;
    }
    if (set == memo.reason_sets.size()) {
      if (set == kMaxSets) return false;
      memo.reason_sets.emplace_back(reasons.begin(), reasons.end());
      memo.set_nodes.push_back(0);
    }
    if ((entry >> kSetBits) != 0) {
      --memo.set_nodes[entry & ((uint64_t{1} << kSetBits) - 1)];
    }
    ++memo.set_nodes[set];
    memo.entries[i] = version << kSetBits | set;
    return true;
  };
  const uint64_t log_end = change_log_base_ + change_log_.size();
  bool ok = true;
  if (memo.log_end != kNoLogEnd && memo.log_end >= change_log_base_ &&
      log_end - memo.log_end <= prefix.passed.size()) {
    // Only the nodes logged since the last diagnosis can have changed.
    // Their memo entries are far apart and mostly cold (a memo per waiting
    // shape): fetch them all before the updates read them one by one.
    for (uint64_t k = memo.log_end; k < log_end; ++k) {
      const int i = prefix.position[change_log_[k - change_log_base_]];
      if (i >= 0) __builtin_prefetch(&memo.entries[static_cast<size_t>(i)]);
    }
    for (uint64_t k = memo.log_end; k < log_end && ok; ++k) {
      const int i = prefix.position[change_log_[k - change_log_base_]];
      if (i >= 0) ok = update(static_cast<size_t>(i));
    }
    for (auto it = nominated_nodes_.begin(); it != nominated_nodes_.end() && ok;
         ++it) {
      const int i = *it < static_cast<int>(prefix.position.size())
                        ? prefix.position[*it]
                        : -1;
      if (i >= 0) ok = update(static_cast<size_t>(i));
    }
  } else {
    for (size_t i = 0; i < prefix.passed.size() && ok; ++i) ok = update(i);
  }
  memo.log_end = log_end;
  if (!ok) {
    // Too many distinct reason lists to memoize: judge every node.
    memo.epoch = 0;
    return judge_all();
  }
  if (memo.rendered_nodes == static_cast<int>(nodes.size()) &&
      memo.rendered_set_nodes == memo.set_nodes) {
    return memo.rendered;  // the same counts as last time
  }
  FitError error = prefix_error();
  for (size_t set = 0; set < memo.reason_sets.size(); ++set) {
    if (memo.set_nodes[set] == 0) continue;
    for (const std::string& r : memo.reason_sets[set]) {
      error.AddReason(r, memo.set_nodes[set]);
    }
  }
  memo.rendered = error.Message();
  memo.rendered_set_nodes = memo.set_nodes;
  memo.rendered_nodes = static_cast<int>(nodes.size());
  return memo.rendered;
}

void Scheduler::FindFeasibleNodes(PodId id) {
  const PodState& s = pods_[id];
  const Pod& pod = *s.pod;
  const Group& group = groups_[s.shape];
  const auto& nodes = cluster_.nodes();
  const int num_nodes = static_cast<int>(nodes.size());
  const int to_find =
      NumFeasibleNodesToFind(num_nodes, profile_.percentage_of_nodes_to_score);
  const std::vector<uint8_t>& static_fits = StaticFits(s.constraints, pod);
  for (FilterPlugin* f : dynamic_filters_) f->PreFilter(pod);
  if (static_cast<int>(filter_memo_.size()) != num_nodes) {
    filter_memo_.resize(num_nodes);
  }
  feasible_.clear();
  const uint64_t* versions = NodeVersions();
  int processed = num_nodes;
  const int shape = s.shape;
  const bool reuse = profile_.reuse_node_results;
  auto check = [&](int i) {  // i: offset from the start index
    int n = next_start_node_ + i;
    if (n >= num_nodes) n -= num_nodes;
    if (!static_fits[n]) return false;
    FilterMemo& memo = filter_memo_[n];
    const uint64_t version = versions[n];
    if (!reuse || memo.version != version || memo.shape != shape) {
      memo.version = version;
      memo.shape = shape;
      memo.fits = true;
      for (FilterPlugin* f : dynamic_filters_) {
        if (!f->Filter(pod, nodes[n], nullptr)) {
          memo.fits = false;
          break;
        }
      }
    }
    if (!memo.fits) return false;
    if (nominee_count_ > 0 && NomineesApply(pod, n) &&
        !FitsWithNominees(pod, n, nullptr)) {
      return false;
    }
    feasible_.push_back(n);
    if (static_cast<int>(feasible_.size()) >= to_find) {
      processed = i + 1;
      return true;
    }
    return false;
  };
  // A group's retried member can only fit on a node that had an event since
  // the group's last failure (binds only take resources away): when none of
  // those passes, the full scan would find nothing — skip it (the start index
  // stays, as after a scan of every node).
  bool hopeless = false;
  if (reuse && group.retrying == id && group.nodes_at_clear == num_nodes) {
    hopeless = true;
    for (int node : DirtyNodes(group)) {
      if (FitsNodePrepared(pod, s.constraints, node)) {
        hopeless = false;
        break;
      }
    }
    // Nominated room depends on the pod's priority, not only on the node.
    for (auto it = nominated_nodes_.begin();
         hopeless && it != nominated_nodes_.end(); ++it) {
      if (*it < num_nodes && FitsNodePrepared(pod, s.constraints, *it)) {
        hopeless = false;
      }
    }
    // The scan's filters judge this pod (FitsWithNominees may have
    // prepared them for another); a hopeless cycle scans nothing, and
    // Diagnose and PostFilter prepare their own.
    if (!hopeless) {
      for (FilterPlugin* f : dynamic_filters_) f->PreFilter(pod);
    }
  }
  const ResourceId pivot =
      profile_.prune_by_free_resources ? PivotResource(pod) : -1;
  if (hopeless) {
    // feasible_ stays empty.
  } else if (pivot < 0) {
    for (int i = 0; i < num_nodes; ++i) {
      if (check(i)) break;
    }
  } else {
    // Only nodes with some of the pivot resource free can pass; visit them
    // in the same circular order as the full scan.
    const std::vector<uint64_t>& bits = FreeNodes(pivot);
    // StaticFits() above built them: nodes the static filters reject are
    // skipped a word at a time.
    const std::vector<uint64_t>& static_bits = static_fit_bits_[s.constraints];
    // A HAMi pod also skips the nodes whose HamiFitSummary rejects it, and
    // takes those whose exact summary admits it without running the filters.
    HamiFitNeed need;
    const HamiFitSummary* hami = device_fit_filter_ ? HamiSummaries() : nullptr;
    if (hami != nullptr &&
        !HamiFitNeed::Of(pod, cluster_.resources(), resources_fit_filter_,
                         only_fit_filters_, &need)) {
      hami = nullptr;
    }
    bool done = false;
    for (int pass = 0; pass < 2 && !done; ++pass) {
      const int begin = pass == 0 ? next_start_node_ : 0;
      const int end = pass == 0 ? num_nodes : next_start_node_;
      for (int w = begin / 64; w * 64 < end && !done; ++w) {
        uint64_t word = bits[w] & static_bits[w];
        if (w == begin / 64) word &= ~uint64_t{0} << (begin % 64);
        if ((w + 1) * 64 > end) word &= (uint64_t{1} << (end % 64)) - 1;
        if (hami != nullptr) {
          // The word's nodes the summaries admit, without a branch per node.
          uint64_t admitted = 0;
          for (uint64_t rest = word; rest != 0; rest &= rest - 1) {
            const int bit = __builtin_ctzll(rest);
            admitted |= uint64_t{hami[w * 64 + bit].Admits(need)} << bit;
          }
          word = admitted;
        }
        while (word != 0) {
          const int n = w * 64 + __builtin_ctzll(word);
          word &= word - 1;
          const int offset = n >= next_start_node_
                                 ? n - next_start_node_
                                 : n + num_nodes - next_start_node_;
          if (hami != nullptr) {
            if (need.exact && hami[n].exact()) {
              // The summary decided NodeResourcesFit and GpuDeviceFit.
              if (!static_fits[n]) continue;
              if (nominee_count_ > 0 && NomineesApply(pod, n) &&
                  !FitsWithNominees(pod, n, nullptr)) {
                continue;
              }
              feasible_.push_back(n);
              if (static_cast<int>(feasible_.size()) >= to_find) {
                processed = offset + 1;
                done = true;
                break;
              }
              continue;
            }
          }
          if (check(offset)) {
            done = true;
            break;
          }
        }
      }
    }
  }
  if (num_nodes > 0)
    next_start_node_ = (next_start_node_ + processed) % num_nodes;
}

int Scheduler::SelectHost(const Pod& pod) {
  const auto& nodes = cluster_.nodes();
  const int num_nodes = static_cast<int>(nodes.size());
  const bool reuse = profile_.reuse_node_results;
  const uint64_t* versions = NodeVersions();
  if (feasible_.size() == 1) return feasible_[0];
  int chosen = feasible_[0];
  const size_t count = feasible_.size();
  totals_.assign(count, 0);
  if (notified_nodes_ != num_nodes) {
    for (const auto& score : scores_) score.first->NodesChanged(nodes);
    notified_nodes_ = num_nodes;
  }
  // A plugin's score of node n: reused while the node and the key stay.
  auto score_of = [&](const LazyScore& l, int n) {
    ScorePlugin* plugin = scores_[l.plugin].first;
    if (!l.keyed) return plugin->Score(pod, nodes[n]);
    ScoreMemo& memo = score_memo_[l.plugin][n];
    const uint64_t version = versions[n];
    if (memo.version != version || memo.key != l.key) {
      memo.version = version;
      memo.key = l.key;
      memo.score = plugin->Score(pod, nodes[n]);
    }
    return memo.score;
  };
  // The raw scores of every feasible node into scratch_scores_.
  auto score_all = [&](const LazyScore& l) {
    scratch_scores_.resize(count);
    if (!l.keyed) {
      ScorePlugin* plugin = scores_[l.plugin].first;
      for (size_t k = 0; k < count; ++k) {
        scratch_scores_[k] = plugin->Score(pod, nodes[feasible_[k]]);
      }
      return;
    }
    for (size_t k = 0; k < count; ++k) {
      scratch_scores_[k] = score_of(l, feasible_[k]);
    }
  };
  // Plugins whose scores need no normalization are scored last and, when
  // other plugins scored, only on the nodes whose total could still reach
  // the best one.
  lazy_scores_.clear();
  int64_t lazy_max = 0;
  bool scored = false;
  for (size_t j = 0; j < scores_.size(); ++j) {
    ScorePlugin* plugin = scores_[j].first;
    const int64_t weight = scores_[j].second;
    if (!plugin->PreScore(pod)) continue;
    LazyScore l{j, weight, 0, false};
    l.keyed = reuse && plugin->ScoreKey(pod, &l.key);
    if (l.keyed) {
      std::vector<ScoreMemo>& memos = score_memo_[j];
      if (static_cast<int>(memos.size()) != num_nodes) memos.resize(num_nodes);
    }
    if (plugin->ScoresNormalized()) {
      lazy_scores_.push_back(l);
      lazy_max += weight * kMaxNodeScore;
      continue;
    }
    score_all(l);
    plugin->Normalize(scratch_scores_);
    for (size_t k = 0; k < count; ++k) {
      totals_[k] += weight * scratch_scores_[k];
    }
    scored = true;
  }
  if (!scored) {
    // Every total starts at 0: no node could be left out.
    for (const LazyScore& l : lazy_scores_) {
      score_all(l);
      for (size_t k = 0; k < count; ++k) {
        GS_CHECK(scratch_scores_[k] >= 0 && scratch_scores_[k] <= kMaxNodeScore,
                 "normalized score plugin out of 0..100");
        totals_[k] += l.weight * scratch_scores_[k];
      }
    }
    lazy_scores_.clear();
    lazy_max = 0;
  }
  int64_t best = 0;
  uint64_t ties = 0;
  for (size_t k = 0; k < count; ++k) {
    const int n = feasible_[k];
    int64_t total = totals_[k];
    // A node whose total stays below the best cannot be chosen nor tie
    // (and draws no random number): its lazy scores are not needed.
    const bool below = ties > 0 && total + lazy_max < best;
    if (!below || profile_.check_invariants) {
      for (const LazyScore& l : lazy_scores_) {
        const int64_t score = score_of(l, n);
        GS_CHECK(score >= 0 && score <= kMaxNodeScore,
                 "normalized score plugin out of 0..100");
        total += l.weight * score;
      }
      GS_CHECK(!below || total < best, "lazy score bound broken");
    }
    if (below) continue;
    if (ties == 0 || total > best) {
      best = total;
      chosen = n;
      ties = 1;
    } else if (total == best) {
      ++ties;
      if (profile_.tie_break == TieBreak::kLowestName) {
        if (nodes[n].name() < nodes[chosen].name()) chosen = n;
      } else if (rng_.Below(ties) == 0) {
        chosen = n;  // reservoir sampling, as kube's selectHost
      }
    }
  }
  return chosen;
}

ScheduleResult Scheduler::ScheduleOne() {
  GS_CHECK(HasActive(), "ScheduleOne with an empty queue");
  if (next_deferred_wake_ < deferred_wakes_.size()) {
    ScheduleResult failed;
    if (TakeDeferredWake(&failed)) return failed;
  }
  QueueEntry entry = active_.top();
  active_.pop();
  while (pods_[entry.id].state != State::kActive ||
         pods_[entry.id].seq != entry.seq) {
    entry = active_.top();  // skip entries of forgotten pods
    active_.pop();
  }
  --active_count_;
  ++cycles_;
  PodState& s = pods_[entry.id];
  const Pod& pod = *s.pod;
  Group& group = groups_[s.shape];
  ScheduleResult result;
  result.pod = entry.id;

  const int num_nodes = static_cast<int>(cluster_.nodes().size());
  if (!pod.dra_claim.empty() && ClaimInUse(entry.id)) {
    // DynamicResources' PreFilter: no node is tried (FitError with the
    // PreFilter message only).
    result.outcome = ScheduleResult::Outcome::kUnschedulable;
    result.message = "0/" + std::to_string(ExistingNodes()) +
                     " nodes are available: " + kDraClaimInUse + ".";
    if (group.retrying == entry.id) group.retrying = -1;
    ClearGroup(group);
    Park(entry.id, result.message);
    FlushNominations();
    return result;
  }
  int chosen = -1;
  if (s.nominated_node >= 0 && s.nominated_node < num_nodes &&
      FitsNode(pod, s.constraints, s.nominated_node)) {
    // kube's evaluateNominatedNode: the node preemption made room on.
    chosen = s.nominated_node;
  } else {
    FindFeasibleNodes(entry.id);
    if (feasible_.empty()) {
      result.outcome = ScheduleResult::Outcome::kUnschedulable;
      // A retry that fits none of its dirty nodes (another pod took the
      // room its event freed) by a pod that cannot preempt keeps the
      // group's last FitError message, as a retry whose back-off ended
      // does (RetryNext): the attempt counts, its reasons are those of the
      // last full failure (kube-scheduler would recount them; docs/model.md
      // §4). Everything else is as after any failed cycle.
      // (With reuse_node_results the scan was skipped — FindFeasibleNodes
      // found none of the dirty nodes fits; without, the full scan found
      // nothing: the same retries, so both keep the same messages.)
      const bool keep_message = group.retrying == entry.id &&
                                group.nodes_at_clear == num_nodes &&
                                !group.message.empty() && !MayPreempt(pod);
      if (!keep_message) result.message = Diagnose(pod, s.constraints, group);
      if (group.retrying == entry.id) group.retrying = -1;
      ClearGroup(group);  // this scan covered every node
      Preempt(entry.id, &result);
      // (Kept, the group's message is its own: no copy.)
      Park(entry.id, keep_message ? group.message : result.message);
      NoteReported(group, s.seq, &result);
      if (keep_message) ReportKeptMessage(group, &result);
      FlushNominations();
      return result;
    }
    chosen = SelectHost(pod);
  }

  // Reserve and Bind.
  Node& node = cluster_.nodes()[chosen];
  // Invariant (check_invariants): the pods of equal or higher priority
  // nominated here that would fit once their victims are gone still do
  // after this bind: nobody takes a nominated pod's room but a pod of
  // higher priority.
  std::vector<PodId> held;
  if (profile_.check_invariants && HasNominees(chosen) &&
      chosen < static_cast<int>(node_pods_.size())) {
    for (PodId q : nominees_[chosen]) {
      if (q != entry.id && pods_[q].pod->priority >= pod.priority &&
          NomineeFitsOnceVictimsGone(q, chosen)) {
        held.push_back(q);
      }
    }
  }
  bool extended = false;
  for (const auto& item : pod.requests.items()) {
    extended = extended || item.first > ResourceRegistry::kMemoryId;
  }
  if (extended && node.devices() != nullptr) {
    const std::string admission = node.devices()->AdmissionError(pod.requests);
    if (!admission.empty()) {
      // kubelet rejects the pod after Bind: it fails and is not retried.
      result.outcome = ScheduleResult::Outcome::kAdmissionFailed;
      result.node = chosen;
      result.message = admission;
      s.state = State::kDone;
      ClearNomination(entry.id, /*freed=*/true);
      if (group.retrying == entry.id) EndRetry(s.shape);
      FlushNominations();
      return result;
    }
    s.allocation = node.devices()->Allocate(pod.requests);
  }
  ReservePod(node, pod);
  UpdateFreeNodes(chosen, pod.requests);
  for (PodId q : held) {
    GS_CHECK(NomineeFitsOnceVictimsGone(q, chosen),
             "a pod took the room of a pod of equal or higher priority "
             "nominated to its node");
  }
  s.state = State::kBound;
  s.node = chosen;
  NoteBound(entry.id, chosen);
  result.outcome = ScheduleResult::Outcome::kBound;
  result.node = chosen;
  if (profile_.check_invariants) CheckInvariants(chosen);
  // The group's next pod may fit as well: try it.
  if (group.retrying == entry.id) {
    EndRetry(s.shape);
  } else {
    RetryNext(group);
  }
  if (!pod.pod_group.empty() && pod.gang_min_member > 1 && preemption_) {
    // Coscheduling's Permit holds a member that binds before its PodGroup
    // is complete and moves its siblings back to the active queue
    // (ActivateSiblings): each gets a cycle, and may preempt for the gang.
    // Only siblings that may preempt are moved: the others failed their
    // last cycle and a bind frees nothing, so theirs would fail as well.
    auto it = gang_members_.find(pod.pod_group);
    if (it != gang_members_.end()) {
      std::vector<PodId> siblings;
      for (PodId m : it->second) {
        const PodState& ms = pods_[m];
        if (m != entry.id && ms.state == State::kWaiting &&
            ms.pod->pod_group == pod.pod_group && ms.pending_victims == 0 &&
            ms.nominated_node < 0 && MayPreempt(*ms.pod)) {
          siblings.push_back(m);
        }
      }
      for (PodId m : siblings) ActivateWaiting(m);
    }
  }
  if (!pod.dra_claim.empty()) ClaimBound(entry.id);
  FlushNominations();
  return result;
}

ScheduleResult Scheduler::Bind(PodId id, const Pod& original, int node_index) {
  MaterializeWakes();
  PodState& s = pods_[id];
  GS_CHECK(s.state == State::kUnknown || s.state == State::kDone,
           "pod bound twice");
  s = PodState();
  s.pod = &original;
  s.seq = next_seq_++;
  if (!original.pod_group.empty()) {
    gang_members_[original.pod_group].insert(id);
  }
  ScheduleResult result;
  result.pod = id;
  result.node = node_index;
  Node& node = cluster_.nodes()[node_index];
  if (!claim_pods_.empty()) claim_pods_.erase(id);
  if (!original.dra_claim.empty()) {
    // A shared claim (kubectl import: a Running pod of a claim several pods
    // name): once allocated, the pod needs no device of its own and takes
    // the claim's; kubelet runs it only where the claim's devices are.
    ClaimPod& cp = claim_pods_[id];
    cp.original = &original;
    cp.pinned.reset();
    s.pod = &ClaimView(id);
    auto hold = claim_holds_.find(original.dra_claim);
    if (hold != claim_holds_.end() && hold->second.node != node_index) {
      result.outcome = ScheduleResult::Outcome::kAdmissionFailed;
      result.message =
          "UnexpectedAdmissionError: " + std::string(kDraClaimNotAvailableOnNode);
      s.state = State::kDone;
      ForgetClaimPod(id);
      return result;
    }
  }
  const Pod& pod = *s.pod;
  const ResourceRegistry& registry = cluster_.resources();
  // kubelet's admission (lifecycle.PredicateAdmitHandler): resources first.
  for (const auto& [resource, quantity] : pod.requests.items()) {
    if (registry.IgnoredByScheduler(resource)) continue;
    const int64_t used = node.Requested(resource);
    const int64_t capacity = node.Allocatable(resource);
    if (used + quantity > capacity) {
      const std::string& name = registry.Name(resource);
      result.outcome = ScheduleResult::Outcome::kAdmissionFailed;
      result.message = "OutOf" + name +
                       ": Node didn't have enough resource: " + name +
                       ", requested: " + std::to_string(quantity) +
                       ", used: " + std::to_string(used) +
                       ", capacity: " + std::to_string(capacity);
      s.state = State::kDone;
      if (!original.dra_claim.empty()) ForgetClaimPod(id);
      return result;
    }
  }
  if (node.pod_count() >= node.max_pods()) {
    result.outcome = ScheduleResult::Outcome::kAdmissionFailed;
    result.message = "OutOfpods: Node didn't have enough resource: pods";
    s.state = State::kDone;
    if (!original.dra_claim.empty()) ForgetClaimPod(id);
    return result;
  }
  bool extended = false;
  for (const auto& item : pod.requests.items()) {
    extended = extended || item.first > ResourceRegistry::kMemoryId;
  }
  if (extended && node.devices() != nullptr) {
    std::string_view reason;
    std::string admission = node.devices()->AdmissionError(pod.requests);
    if (admission.empty() && !node.devices()->Fits(pod.requests, &reason)) {
      admission = "UnexpectedAdmissionError: " + std::string(reason);
    }
    if (!admission.empty()) {
      result.outcome = ScheduleResult::Outcome::kAdmissionFailed;
      result.message = admission;
      s.state = State::kDone;
      if (!original.dra_claim.empty()) ForgetClaimPod(id);
      return result;
    }
    // A pod already running keeps the devices the cluster recorded.
    s.allocation =
        pod.recorded_devices.empty()
            ? node.devices()->Allocate(pod.requests)
            : node.devices()->AllocateRecorded(pod.requests,
                                               pod.recorded_devices);
  }
  ReservePod(node, pod);
  UpdateFreeNodes(node_index, pod.requests);
  s.state = State::kBound;
  s.node = node_index;
  NoteBound(id, node_index);
  // The first pod of a shared claim allocates it; the others reserve it.
  if (!original.dra_claim.empty()) ClaimBound(id);
  result.outcome = ScheduleResult::Outcome::kBound;
  if (profile_.check_invariants) CheckInvariants(node_index);
  return result;
}

void Scheduler::NoteBound(PodId id, int node) {
  PodState& s = pods_[id];
  s.bind_seq = next_bind_seq_++;
  // Its nomination ends; bound elsewhere, the nominated room is given back.
  ClearNomination(id, /*freed=*/s.nominated_node != node);
  if (!preemption_) return;
  if (static_cast<int>(node_pods_.size()) <= node) {
    node_pods_.resize(cluster_.nodes().size());
    terminating_on_node_.resize(cluster_.nodes().size(), 0);
  }
  s.node_slot = static_cast<int>(node_pods_[node].size());
  BoundPod& b = node_pods_[node].emplace_back();
  b.victim = {id, s.pod->priority, s.bind_seq, -1};
  const auto& items = s.pod->requests.items();
  // A pod sharing a claim frees no device when evicted alone.
  b.never_victim = !s.pod->dra_claim.empty();
  if (!profile_.dra_preemption) {
    const ResourceRegistry& registry = cluster_.resources();
    for (const auto& item : items) {
      if (registry.KindOf(item.first) ==
          ResourceRegistry::Kind::kDraClassKind) {
        b.never_victim = true;
      }
    }
  }
  if (items.size() <= kInlineRequests) {
    b.request_count = static_cast<int>(items.size());
    for (size_t i = 0; i < items.size(); ++i) b.requests[i] = items[i];
  }
  ++bound_priorities_[s.pod->priority];
}

bool Scheduler::NoteUnbound(PodId id) {
  PodState& s = pods_[id];
  if (!preemption_) return false;
  std::vector<BoundPod>& on_node = node_pods_[s.node];
  const BoundPod last = on_node.back();
  on_node[s.node_slot] = last;
  pods_[last.victim.id].node_slot = s.node_slot;
  on_node.pop_back();
  s.node_slot = -1;
  auto it = bound_priorities_.find(s.pod->priority);
  if (--it->second == 0) bound_priorities_.erase(it);
  bool ended = false;
  if (s.terminating) {
    ended = --terminating_on_node_[s.node] == 0;
    s.terminating = false;
    if (s.preemptor >= 0 && pods_.contains(s.preemptor)) {
      PodState& p = pods_[s.preemptor];
      if (p.preemption == s.preemptor_preemption && p.pending_victims > 0 &&
          --p.pending_victims == 0) {
        // Its last victim is gone: it is retried (FlushNominations).
        ready_nominees_.push_back({s.preemptor, p.seq});
      }
    }
    s.preemptor = -1;
    s.preemptor_preemption = 0;
  }
  return ended;
}

}  // namespace gpushare
