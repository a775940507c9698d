#include "gpushare/sched/scheduler.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "gpushare/cluster/hami_device_plugin.h"
#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/io/check.h"
#include "gpushare/sched/fit_error.h"
#include "gpushare/sched/plugin_registry.h"
#include "gpushare/sched/plugins/gpu_device_fit.h"
#include "gpushare/sched/plugins/node_resources_fit.h"

namespace gpushare {
namespace {

void PutNumber(std::string& key, int64_t v) {
  char buffer[24];
  const std::to_chars_result r =
      std::to_chars(buffer, buffer + sizeof(buffer), v);
  key.append(buffer, r.ptr);
}

// Length-prefixed, so that no string can forge another key.
void Put(std::string& key, std::string_view s) {
  PutNumber(key, static_cast<int64_t>(s.size()));
  key += ':';
  key += s;
}

// The scheduling constraints a pod's static filters depend on, into `key`.
void ConstraintKey(const Pod& pod, std::string& key) {
  key = "s";
  for (const auto& [k, v] : pod.node_selector) {
    Put(key, k);
    Put(key, v);
  }
  key += "|a";
  for (const NodeSelectorTerm& term : pod.required_affinity) {
    key += '(';
    for (const auto& r : term.match_expressions) {
      Put(key, r.key);
      PutNumber(key, static_cast<int>(r.op));
      for (const std::string& v : r.values) Put(key, v);
      key += ';';
    }
    key += ')';
  }
  key += "|t";
  for (const Toleration& t : pod.tolerations) {
    Put(key, t.key);
    Put(key, t.value);
    PutNumber(key, static_cast<int>(t.op));
    if (t.any_effect) {
      key += '*';
    } else {
      PutNumber(key, static_cast<int>(t.effect));
    }
    key += ';';
  }
}

}  // namespace

Scheduler::Scheduler(Cluster& cluster, SchedulerProfile profile)
    : cluster_(cluster),
      profile_(std::move(profile)),
      rng_(profile_.seed),
      preemption_rng_(Rng(profile_.seed).Fork(0x9EE3197)) {
  profile_.Validate();
  preemption_ = !profile_.post_filters.empty();
  auto get = [&](const std::string& name) -> Plugin* {
    for (const auto& p : plugins_) {
      if (p->Name() == name) return p.get();
    }
    plugins_.push_back(MakePlugin(name, profile_, cluster_.resources()));
    return plugins_.back().get();
  };
  for (const std::string& name : profile_.filters) {
    auto* filter = dynamic_cast<FilterPlugin*>(get(name));
    GS_CHECK(filter != nullptr, "filter plugin without Filter");
    filters_in_order_.push_back(filter);
    (filter->Static() ? static_filters_ : dynamic_filters_).push_back(filter);
    if (name == GpuDeviceFit::kName) device_fit_filter_ = true;
    if (name == NodeResourcesFit::kName) resources_fit_filter_ = true;
  }
  while (static_prefix_ < filters_in_order_.size() &&
         filters_in_order_[static_prefix_]->Static()) {
    ++static_prefix_;
  }
  only_fit_filters_ = true;
  for (const FilterPlugin* f : dynamic_filters_) {
    only_fit_filters_ =
        only_fit_filters_ && (f->Name() == GpuDeviceFit::kName ||
                              f->Name() == NodeResourcesFit::kName);
  }
  for (const auto& [name, weight] : profile_.scores) {
    auto* score = dynamic_cast<ScorePlugin*>(get(name));
    GS_CHECK(score != nullptr, "score plugin without Score");
    scores_.push_back({score, weight});
  }
  score_memo_.resize(scores_.size());
}

Scheduler::~Scheduler() = default;

int Scheduler::InternShape(const Pod& pod, int* constraints) {
  // Keys are built in one buffer: a known key allocates nothing.
  std::string& key = key_scratch_;
  ConstraintKey(pod, key);
  auto cit = constraint_ids_.find(key);
  if (cit == constraint_ids_.end()) {
    cit = constraint_ids_.emplace(key, static_cast<int>(constraint_ids_.size()))
              .first;
    static_fits_.emplace_back();
    static_fit_bits_.emplace_back();
    static_diagnoses_.emplace_back();
  }
  *constraints = cit->second;
  key += "|r";
  for (const auto& [id, quantity] : pod.requests.items()) {
    PutNumber(key, id);
    key += '=';
    PutNumber(key, quantity);
    key += ';';
  }
  auto it = shape_ids_.find(key);
  if (it == shape_ids_.end()) {
    it = shape_ids_.emplace(key, static_cast<int>(shape_ids_.size())).first;
    groups_.emplace_back();
    WakeHint& hint = wake_hints_.emplace_back();
    hint.constraints = *constraints;
    hint.hami =
        device_fit_filter_ &&
        HamiFitNeed::Of(pod, cluster_.resources(), resources_fit_filter_,
                        only_fit_filters_, &hint.need);
    if (groups_.size() > sleeping_.size() * 64) {
      sleeping_.push_back(0);
      if (sleeping_.size() > sleeping_words_.size() * 64) {
        sleeping_words_.push_back(0);
      }
    }
  }
  return it->second;
}

const std::vector<uint8_t>& Scheduler::StaticFits(int constraints,
                                                  const Pod& pod) {
  std::vector<uint8_t>& fits = static_fits_[constraints];
  const auto& nodes = cluster_.nodes();
  if (fits.size() != nodes.size()) {
    fits.resize(nodes.size());
    std::vector<uint64_t>& bits = static_fit_bits_[constraints];
    bits.assign((nodes.size() + 63) / 64, 0);
    for (FilterPlugin* f : static_filters_) f->PreFilter(pod);
    for (size_t n = 0; n < nodes.size(); ++n) {
      bool ok = true;
      for (FilterPlugin* f : static_filters_) {
        if (!f->Filter(pod, nodes[n], nullptr)) {
          ok = false;
          break;
        }
      }
      fits[n] = ok ? 1 : 0;
      bits[n / 64] |= uint64_t{ok} << (n % 64);
    }
  }
  return fits;
}

bool Scheduler::FitsNode(const Pod& pod, int constraints, int node) {
  if (!StaticFits(constraints, pod)[node]) return false;
  for (FilterPlugin* f : dynamic_filters_) f->PreFilter(pod);
  for (FilterPlugin* f : dynamic_filters_) {
    if (!f->Filter(pod, cluster_.nodes()[node], nullptr)) return false;
  }
  return true;
}

void Scheduler::Enqueue(PodId id, const Pod& pod) {
  if (id >= static_cast<int>(pods_.size())) pods_.resize(id + 1);
  PodState& s = pods_[id];
  GS_CHECK(s.state == State::kUnknown || s.state == State::kDone,
           "pod enqueued twice");
  s = PodState();
  s.pod = &pod;
  s.seq = next_seq_++;
  s.shape = InternShape(pod, &s.constraints);
  Group& group = groups_[s.shape];
  if (!group.waiting.empty() && group.retrying < 0 && !Woken(group) &&
      !MayPreempt(pod)) {
    // Its twins failed and nothing that could help them happened since
    // (with back-off, events may have come while they wait: then it gets
    // its cycle): this pod cannot fit either (nor preempt: nothing has a
    // lower priority).
    ++cycles_;
    Park(id, group.message);
    return;
  }
  Activate(id);
}

void Scheduler::Activate(PodId id) {
  PodState& s = pods_[id];
  s.state = State::kActive;
  active_.push({s.pod->priority, s.seq, id});
  ++active_count_;
}

void Scheduler::BackOff(PodState& s) {
  if (profile_.pod_initial_backoff_s <= 0) return;
  // kube-scheduler's calculateBackoffDuration: the initial back-off,
  // doubled for each further attempt, at most the maximum.
  ++s.attempts;
  double backoff = profile_.pod_initial_backoff_s;
  for (int i = 1; i < s.attempts && backoff < profile_.pod_max_backoff_s; ++i) {
    backoff *= 2;
  }
  s.backoff_until = now_ + std::min(backoff, profile_.pod_max_backoff_s);
}

void Scheduler::Park(PodId id, const std::string& message) {
  PodState& s = pods_[id];
  s.state = State::kWaiting;
  BackOff(s);
  Group& group = groups_[s.shape];
  group.waiting.insert({s.pod->priority, s.seq, id});
  waiting_groups_.insert(s.shape);
  group.message = message;
  ++waiting_count_;
  Settle(s.shape);
}

bool Scheduler::MayFitNode(int shape, const Pod& pod, int node) {
  const WakeHint& hint = wake_hints_[shape];
  if (!StaticFits(hint.constraints, pod)[node]) return false;
  if (!hint.hami) return true;
  const HamiFitSummary* hami = HamiSummaries();
  return hami == nullptr || hami[node].Admits(hint.need);
}

const std::vector<int>& Scheduler::DirtyNodes(const Group& group) {
  const int num_nodes = static_cast<int>(cluster_.nodes().size());
  dirty_scratch_.clear();
  const uint64_t end = change_log_base_ + change_log_.size();
  if (group.clear_log < change_log_base_ ||
      end - group.clear_log >= static_cast<uint64_t>(num_nodes)) {
    // Trimmed since, or as long as the node list: every node.
    for (int n = 0; n < num_nodes; ++n) dirty_scratch_.push_back(n);
    return dirty_scratch_;
  }
  if (dirty_stamp_.size() < static_cast<size_t>(num_nodes)) {
    dirty_stamp_.resize(num_nodes, 0);
  }
  ++dirty_calls_;
  for (uint64_t i = group.clear_log - change_log_base_; i < change_log_.size();
       ++i) {
    const int n = change_log_[i];
    if (n < num_nodes && dirty_stamp_[n] != dirty_calls_) {
      dirty_stamp_[n] = dirty_calls_;
      dirty_scratch_.push_back(n);
    }
  }
  return dirty_scratch_;
}

void Scheduler::ClearGroup(Group& group) {
  group.clear_log = change_log_base_ + change_log_.size();
  group.clear_event = events_;
  group.nodes_at_clear = static_cast<int>(cluster_.nodes().size());
}

void Scheduler::SetSleeping(int shape, bool sleeping) {
  Group& group = groups_[shape];
  if (group.sleeping == sleeping) return;
  // Events passed a sleeping group by (or cleared it): it is clear now.
  if (!sleeping) ClearGroup(group);
  group.sleeping = sleeping;
  const int w = shape / 64;
  const uint64_t word_bit = uint64_t{1} << (w % 64);
  if (sleeping) {
    sleeping_[w] |= uint64_t{1} << (shape % 64);
    sleeping_words_[w / 64] |= word_bit;
  } else {
    sleeping_[w] &= ~(uint64_t{1} << (shape % 64));
    if (sleeping_[w] == 0) sleeping_words_[w / 64] &= ~word_bit;
  }
}

void Scheduler::ArmBackoffTimer(Group& group) {
  const double until = pods_[group.waiting.begin()->id].backoff_until;
  if (group.backoff_timer == until) return;
  group.backoff_timer = until;
  backoff_timers_.push({until, static_cast<int>(&group - groups_.data())});
}

void Scheduler::Settle(int shape) {
  Group& group = groups_[shape];
  if (group.waiting.empty() || group.retrying >= 0) {
    SetSleeping(shape, false);
    return;
  }
  const bool in_backoff = pods_[group.waiting.begin()->id].backoff_until > now_;
  const bool woken = Woken(group);
  SetSleeping(shape, !in_backoff && !woken);
  if (group.sleeping) return;
  if (in_backoff && woken) {
    ArmBackoffTimer(group);
  } else if (!group.unarmed) {
    // In back-off: the first node event arms its timer (kube: an event
    // moves it to the backoffQ). Out of back-off with dirty nodes (its
    // first pod changed): the next event retries it on them.
    group.unarmed = true;
    unarmed_.push_back(shape);
  }
}

bool Scheduler::HasActive() const { return active_count_ > 0; }

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
  for (size_t n = 0; n < nodes.size(); ++n) {
    reasons.clear();
    bool passed = true;
    for (size_t k = 0; k < static_prefix_ && passed; ++k) {
      passed = filters_in_order_[k]->Filter(pod, nodes[n], &reasons);
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
  FitError error(static_cast<int>(nodes.size()));
  // The nodes the static prefix rejects have the same reasons until a node
  // changes; the others go through the remaining filters, in order.
  const StaticDiagnosis& prefix = StaticDiagnosisFor(constraints, pod);
  for (const auto& [reason, count] : prefix.rejected.counts()) {
    error.AddReason(reason, count);
  }
  for (size_t k = static_prefix_; k < filters_in_order_.size(); ++k) {
    filters_in_order_[k]->PreFilter(pod);
  }
  std::vector<std::string_view> reasons;
  auto judge = [&](int n) {
    reasons.clear();
    for (size_t k = static_prefix_; k < filters_in_order_.size(); ++k) {
      if (!filters_in_order_[k]->Filter(pod, nodes[n], &reasons)) break;
    }
  };
  Group::DiagnosisMemo& memo = group.diagnosis;
  constexpr uint16_t kMaxSets = 0xFFFF;
  constexpr uint64_t kNoLogEnd = ~uint64_t{0};
  auto judge_all = [&] {
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
    memo.versions.assign(prefix.passed.size(), 0);
    memo.node_set.assign(prefix.passed.size(), 0);
    memo.reason_sets.clear();
    memo.set_nodes.clear();
  }
  const uint64_t* versions = NodeVersions();
  // Brings node `i` of `passed` up to date; false when there are too many
  // distinct reason lists to memoize.
  auto update = [&](size_t i) {
    const int n = prefix.passed[i];
    // Node versions start at 1: 0 is never a live version.
    const uint64_t version = versions[n];
    if (memo.versions[i] == version) return true;
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
    if (memo.versions[i] != 0) --memo.set_nodes[memo.node_set[i]];
    ++memo.set_nodes[set];
    memo.node_set[i] = static_cast<uint16_t>(set);
    memo.versions[i] = version;
    return true;
  };
  const uint64_t log_end = change_log_base_ + change_log_.size();
  bool ok = true;
  if (memo.log_end != kNoLogEnd && memo.log_end >= change_log_base_ &&
      log_end - memo.log_end <= prefix.passed.size()) {
    // Only the nodes logged since the last diagnosis can have changed.
    for (uint64_t k = memo.log_end; k < log_end && ok; ++k) {
      const int i = prefix.position[change_log_[k - change_log_base_]];
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
  for (size_t set = 0; set < memo.reason_sets.size(); ++set) {
    if (memo.set_nodes[set] == 0) continue;
    for (const std::string& r : memo.reason_sets[set]) {
      error.AddReason(r, memo.set_nodes[set]);
    }
  }
  return error.Message();
}

void Scheduler::UntrackGroup(int shape) {
  waiting_groups_.erase(shape);
  SetSleeping(shape, false);
  groups_[shape].backoff_timer = -1;
  Group::DiagnosisMemo& memo = groups_[shape].diagnosis;
  memo = Group::DiagnosisMemo();
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
      if (FitsNode(pod, s.constraints, node)) {
        hopeless = false;
        break;
      }
    }
    for (FilterPlugin* f : dynamic_filters_) f->PreFilter(pod);
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
  int chosen = -1;
  if (s.nominated_node >= 0 && s.nominated_node < num_nodes &&
      FitsNode(pod, s.constraints, s.nominated_node)) {
    // kube's evaluateNominatedNode: the node preemption made room on.
    chosen = s.nominated_node;
  } else {
    FindFeasibleNodes(entry.id);
    if (feasible_.empty()) {
      result.outcome = ScheduleResult::Outcome::kUnschedulable;
      result.message = Diagnose(pod, s.constraints, group);
      if (group.retrying == entry.id) group.retrying = -1;
      ClearGroup(group);  // this scan covered every node
      Preempt(entry.id, &result);
      Park(entry.id, result.message);
      return result;
    }
    chosen = SelectHost(pod);
  }

  // Reserve and Bind.
  Node& node = cluster_.nodes()[chosen];
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
      if (group.retrying == entry.id) EndRetry(s.shape);
      return result;
    }
    s.allocation = node.devices()->Allocate(pod.requests);
  }
  node.Reserve(pod.requests);
  UpdateFreeNodes(chosen, pod.requests);
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
  return result;
}

ScheduleResult Scheduler::Bind(PodId id, const Pod& pod, int node_index) {
  if (id >= static_cast<int>(pods_.size())) pods_.resize(id + 1);
  PodState& s = pods_[id];
  GS_CHECK(s.state == State::kUnknown || s.state == State::kDone,
           "pod bound twice");
  s = PodState();
  s.pod = &pod;
  s.seq = next_seq_++;
  ScheduleResult result;
  result.pod = id;
  result.node = node_index;
  Node& node = cluster_.nodes()[node_index];
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
      return result;
    }
  }
  if (node.pod_count() >= node.max_pods()) {
    result.outcome = ScheduleResult::Outcome::kAdmissionFailed;
    result.message = "OutOfpods: Node didn't have enough resource: pods";
    s.state = State::kDone;
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
      return result;
    }
    s.allocation = node.devices()->Allocate(pod.requests);
  }
  node.Reserve(pod.requests);
  UpdateFreeNodes(node_index, pod.requests);
  s.state = State::kBound;
  s.node = node_index;
  NoteBound(id, node_index);
  result.outcome = ScheduleResult::Outcome::kBound;
  if (profile_.check_invariants) CheckInvariants(node_index);
  return result;
}

void Scheduler::RetryNext(Group& group, bool backoff_ended) {
  const int shape = static_cast<int>(&group - groups_.data());
  if (group.waiting.empty() || group.retrying >= 0) {
    Settle(shape);
    return;
  }
  const WaitKey head = *group.waiting.begin();
  PodState& s = pods_[head.id];
  if (s.backoff_until > now_ || group.sleeping ||
      (backoff_ended && !Woken(group))) {
    // In back-off: retried when it ends, on the nodes dirty by then (a
    // timer once an event came). Or sleeping, or its back-off ended with no
    // event since its clear: no node can hold it until an event.
    Settle(shape);
    return;
  }
  bool fits = false;
  for (int node : DirtyNodes(group)) {
    if (MayFitNode(shape, *s.pod, node) &&
        FitsNode(*s.pod, s.constraints, node)) {
      fits = true;
      break;
    }
  }
  if (!fits) {
    ClearGroup(group);
    if (backoff_ended) {
      // kube-scheduler moved it to the active queue when its back-off
      // ended (an event came meanwhile); its cycle would fail: an attempt.
      ++cycles_;
      BackOff(s);
    }
    Settle(shape);
    return;
  }
  ActivateHead(group);
}

double Scheduler::NextBackoffExpiry() {
  while (!backoff_timers_.empty()) {
    const BackoffTimer& t = backoff_timers_.top();
    if (groups_[t.shape].backoff_timer == t.time) return t.time;
    backoff_timers_.pop();  // stale
  }
  return std::numeric_limits<double>::infinity();
}

void Scheduler::ExpireBackoffs() {
  while (!backoff_timers_.empty() && backoff_timers_.top().time <= now_) {
    const BackoffTimer t = backoff_timers_.top();
    backoff_timers_.pop();
    Group& group = groups_[t.shape];
    if (group.backoff_timer != t.time) continue;  // stale
    group.backoff_timer = -1;
    RetryNext(group, /*backoff_ended=*/true);
  }
}

void Scheduler::EndRetry(int shape) {
  Group& group = groups_[shape];
  group.retrying = -1;
  RetryNext(group);
  if (group.waiting.empty() && group.retrying < 0) UntrackGroup(shape);
}

void Scheduler::ActivateHead(Group& group) {
  const WaitKey head = *group.waiting.begin();
  group.waiting.erase(group.waiting.begin());
  --waiting_count_;
  // The group stays tracked while its retry is in flight: events until the
  // retried pod's cycle must reach its dirty nodes.
  group.retrying = head.id;
  Settle(static_cast<int>(&group - groups_.data()));
  Activate(head.id);
}

void Scheduler::WakeGroupsFor(int node) {
  // A back-off that ends at this instant ends before the event.
  ExpireBackoffs();
  ++events_;
  // Groups in back-off that waited for an event get their timer; those
  // whose back-off has ended meanwhile sleep, and are tested below.
  wake_scratch_.swap(unarmed_);
  unarmed_.clear();
  for (int shape : wake_scratch_) {
    Group& group = groups_[shape];
    group.unarmed = false;
    if (!group.waiting.empty() && group.retrying < 0 &&
        pods_[group.waiting.begin()->id].backoff_until <= now_) {
      RetryNext(group);  // on its dirty nodes, this one among them
    } else {
      Settle(shape);
    }
  }
  // The sleeping groups, in shape order; one that fits the node is retried.
  // (Retrying one changes no other group's state.)
  for (size_t top = 0; top < sleeping_words_.size(); ++top) {
    for (uint64_t words = sleeping_words_[top]; words != 0;
         words &= words - 1) {
      const size_t w = top * 64 + __builtin_ctzll(words);
      for (uint64_t word = sleeping_[w]; word != 0; word &= word - 1) {
        const int shape = static_cast<int>(w * 64) + __builtin_ctzll(word);
        Group& group = groups_[shape];
        const PodState& s = pods_[group.waiting.begin()->id];
        if (!MayFitNode(shape, *s.pod, node) ||
            !FitsNode(*s.pod, s.constraints, node)) {
          continue;  // it stays clear
        }
        ActivateHead(group);
        // Its dirty nodes: this one, and those changed during its retry.
        group.clear_log = change_log_base_ + change_log_.size() - 1;
        group.clear_event = events_ - 1;
      }
    }
  }
}

void Scheduler::Release(PodId id) {
  PodState& s = pods_[id];
  GS_CHECK(s.state == State::kBound, "release of a pod that is not bound");
  Node& node = cluster_.nodes()[s.node];
  if (node.devices() != nullptr && !s.allocation.grants.empty()) {
    node.devices()->Release(s.allocation);
  }
  node.Unreserve(s.pod->requests);
  UpdateFreeNodes(s.node, s.pod->requests);
  const bool nomination_ended = NoteUnbound(id);
  s.allocation.grants.clear();
  s.state = State::kDone;
  if (profile_.check_invariants) CheckInvariants(s.node);
  WakeGroupsFor(s.node);
  if (nomination_ended) WakePreemptorsFor(s.node);
}

void Scheduler::Forget(PodId id) {
  PodState& s = pods_[id];
  if (s.state == State::kWaiting) {
    Group& group = groups_[s.shape];
    group.waiting.erase({s.pod->priority, s.seq, id});
    if (group.waiting.empty() && group.retrying < 0) {
      UntrackGroup(s.shape);
    } else {
      Settle(s.shape);  // its first pod may have changed
    }
    --waiting_count_;
    s.state = State::kDone;
  } else if (s.state == State::kActive) {
    // Lazy removal: the queue entry is skipped when popped.
    s.state = State::kDone;
    --active_count_;
    Group& group = groups_[s.shape];
    if (group.retrying == id) {
      // Its twins wait for an event; this pod's retry was one, pass it on.
      EndRetry(s.shape);
    }
  }
}

void Scheduler::NodeChanged(int node) {
  for (auto& fits : static_fits_) fits.clear();  // recomputed lazily
  for (StaticDiagnosis& d : static_diagnoses_) d.nodes = -1;
  notified_nodes_ = -1;
  for (auto& bits : free_nodes_) bits.clear();
  hami_summaries_.clear();
  hami_checked_nodes_ = -1;
  node_versions_.clear();
  change_log_.push_back(node);  // its groups' dirty node
  WakeGroupsFor(node);
}

void Scheduler::DevicesChanged(int index, bool recovered) {
  Node& node = cluster_.nodes()[index];
  node.SyncDeviceAllocatable();
  UpdateFreeNodes(index, node.extended());
  if (profile_.check_invariants) CheckInvariants(index);
  if (recovered) WakeGroupsFor(index);
}

void Scheduler::NoteBound(PodId id, int node) {
  PodState& s = pods_[id];
  s.bind_seq = next_bind_seq_++;
  s.nominated_node = -1;
  if (!preemption_) return;
  if (static_cast<int>(node_pods_.size()) <= node) {
    node_pods_.resize(cluster_.nodes().size());
    terminating_on_node_.resize(cluster_.nodes().size(), 0);
  }
  s.node_slot = static_cast<int>(node_pods_[node].size());
  BoundPod& b = node_pods_[node].emplace_back();
  b.victim = {id, s.pod->priority, s.bind_seq, -1};
  const auto& items = s.pod->requests.items();
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
    if (s.preemptor >= 0 && s.preemptor < static_cast<int>(pods_.size())) {
      PodState& p = pods_[s.preemptor];
      if (p.seq == s.preemptor_seq && p.pending_victims > 0) {
        --p.pending_victims;
      }
    }
    s.preemptor = -1;
  }
  return ended;
}

void Scheduler::WakePreemptorsFor(int node) {
  wake_scratch_.assign(waiting_groups_.begin(), waiting_groups_.end());
  for (int shape : wake_scratch_) {
    Group& group = groups_[shape];
    if (group.waiting.empty() || group.retrying >= 0) continue;
    const PodId head = group.waiting.begin()->id;
    const PodState& s = pods_[head];
    if (MayPreempt(*s.pod) && s.pending_victims == 0 &&
        MayBeCandidate(head, node)) {
      ActivateHead(group);
    }
  }
}

bool Scheduler::MayBeCandidate(PodId id, int node) {
  const PodState& s = pods_[id];
  if (node >= static_cast<int>(node_pods_.size()) ||
      terminating_on_node_[node] > 0 ||
      !StaticFits(s.constraints, *s.pod)[node]) {
    return false;
  }
  for (const BoundPod& b : node_pods_[node]) {
    if (b.victim.priority < s.pod->priority) return true;
  }
  return false;
}

bool Scheduler::MayPreempt(const Pod& pod) const {
  return preemption_ &&
         pod.preemption_policy == PreemptionPolicy::kPreemptLowerPriority &&
         !bound_priorities_.empty() &&
         bound_priorities_.begin()->first < pod.priority;
}

// The dry run on one node's real state: a victim's requests and devices
// leave and come back exactly (DevicePlugin::Reacquire).
class Scheduler::VictimDryRun : public PreemptionDryRun {
 public:
  VictimDryRun(Scheduler& scheduler, PodId preemptor, int node)
      : scheduler_(scheduler), preemptor_(preemptor), node_(node) {}
  void Remove(const PreemptionVictim& victim) override {
    const PodState& v = scheduler_.pods_[victim.id];
    Node& node = scheduler_.cluster_.nodes()[node_];
    if (node.devices() != nullptr && !v.allocation.grants.empty()) {
      node.devices()->Release(v.allocation);
    }
    node.Unreserve(v.pod->requests);
  }
  void AddBack(const PreemptionVictim& victim) override {
    const PodState& v = scheduler_.pods_[victim.id];
    Node& node = scheduler_.cluster_.nodes()[node_];
    if (node.devices() != nullptr && !v.allocation.grants.empty()) {
      node.devices()->Reacquire(v.allocation);
    }
    node.Reserve(v.pod->requests);
  }
  bool PreemptorFits() override {
    // The static filters passed (a potential node) and Preempt() ran the
    // dynamic filters' PreFilter for the preemptor.
    const Pod& pod = *scheduler_.pods_[preemptor_].pod;
    const Node& node = scheduler_.cluster_.nodes()[node_];
    for (FilterPlugin* f : scheduler_.dynamic_filters_) {
      if (!f->Filter(pod, node, nullptr)) return false;
    }
    return true;
  }
  // NodeResourcesFit's arithmetic, when it is a filter: the preemptor's
  // requests within what is free once `removed` are gone and `added` back.
  bool MayFitWithout(const std::vector<PreemptionVictim>& victims) override {
    if (!scheduler_.resources_fit_filter_) return true;
    const Node& node = scheduler_.cluster_.nodes()[node_];
    const Pod& pod = *scheduler_.pods_[preemptor_].pod;
    const ResourceRegistry& registry = scheduler_.cluster_.resources();
    for (const auto& [id, quantity] : pod.requests.items()) {
      if (registry.IgnoredByScheduler(id)) continue;
      int64_t freed = 0;
      for (const PreemptionVictim& v : victims) {
        freed += scheduler_.pods_[v.id].pod->requests.Get(id);
      }
      if (quantity > node.Allocatable(id) - node.Requested(id) + freed) {
        return false;
      }
    }
    return true;
  }
  bool MayFitWith(const PreemptionVictim& victim) override {
    if (!scheduler_.resources_fit_filter_) return true;
    const Node& node = scheduler_.cluster_.nodes()[node_];
    const Pod& pod = *scheduler_.pods_[preemptor_].pod;
    const ResourceList& back = scheduler_.pods_[victim.id].pod->requests;
    if (node.pod_count() + 2 > node.max_pods()) return false;
    const ResourceRegistry& registry = scheduler_.cluster_.resources();
    for (const auto& [id, quantity] : pod.requests.items()) {
      if (registry.IgnoredByScheduler(id)) continue;
      if (quantity + back.Get(id) > node.Allocatable(id) - node.Requested(id)) {
        return false;
      }
    }
    return true;
  }

 private:
  Scheduler& scheduler_;
  PodId preemptor_;
  int node_;
};

// The dry run as arithmetic on the preemptor's resources, for nodes whose
// filters are only NodeResourcesFit and GpuDeviceFit over NVIDIA
// device-plugin devices: NodeResourcesFit compares each request with
// allocatable − requested and the pod count with maxPods, and the plugin's
// Fits() is a count of free healthy devices per resource
// (NvidiaDevicePlugin::FreeDevices), so removing a victim adds its requests,
// a pod slot and its grants on healthy devices. The same answers as the
// real dry run, without touching the node.
class Scheduler::CountingDryRun : public PreemptionDryRun {
 public:
  CountingDryRun(const Scheduler& scheduler, const Pod& preemptor)
      : scheduler_(scheduler),
        check_resources_(scheduler.resources_fit_filter_),
        check_devices_(scheduler.device_fit_filter_) {
    for (const auto& [id, quantity] : preemptor.requests.items()) {
      Need n;
      n.id = id;
      n.quantity = quantity;
      n.extended = id > ResourceRegistry::kMemoryId;
      any_extended_ = any_extended_ || n.extended;
      needs_.push_back(n);
    }
  }
  // Starts the dry run on `node` with its `evictable` pods.
  void Reset(const Node& node, const std::vector<const BoundPod*>& evictable) {
    const Scheduler& scheduler = scheduler_;
    const NvidiaDevicePlugin* devices =
        node.devices() != nullptr ? node.devices()->AsNvidia() : nullptr;
    for (Need& n : needs_) {
      n.node_free = node.Allocatable(n.id) - node.Requested(n.id);
      n.device_free =
          n.extended && devices != nullptr ? devices->FreeDevices(n.id) : 0;
    }
    pod_slots_ = node.max_pods() - node.pod_count();
    const size_t k = needs_.size();
    freed_.assign(evictable.size() * k * 2, 0);
    const bool all_healthy = devices != nullptr && devices->AllHealthy();
    for (size_t v = 0; v < evictable.size(); ++v) {
      const BoundPod& b = *evictable[v];
      for (size_t i = 0; i < k; ++i) {
        const int64_t request =
            b.request_count >= 0
                ? b.Request(needs_[i].id)
                : scheduler.pods_[b.victim.id].pod->requests.Get(needs_[i].id);
        freed_[(v * k + i) * 2] = request;
        if (needs_[i].extended && devices != nullptr) {
          freed_[(v * k + i) * 2 + 1] =
              all_healthy
                  ? request
                  : devices->HealthyGrants(
                        scheduler.pods_[b.victim.id].allocation, needs_[i].id);
        }
      }
    }
  }
  // Whether the arithmetic is exact for `preemptor` on `node`.
  static bool Applies(const Scheduler& scheduler, const Pod& preemptor,
                      const Node& node) {
    if (!scheduler.profile_.reuse_node_results ||
        !scheduler.only_fit_filters_) {
      return false;
    }
    const ResourceRegistry& registry = scheduler.cluster_.resources();
    bool extended = false;
    for (const auto& [id, quantity] : preemptor.requests.items()) {
      if (registry.IgnoredByScheduler(id)) return false;
      extended = extended || id > ResourceRegistry::kMemoryId;
    }
    if (!extended || !scheduler.device_fit_filter_) return true;
    return node.devices() != nullptr && node.devices()->AsNvidia() != nullptr;
  }
  void Remove(const PreemptionVictim& victim) override { Apply(victim, 1); }
  void AddBack(const PreemptionVictim& victim) override { Apply(victim, -1); }
  bool PreemptorFits() override {
    if (check_resources_) {
      if (pod_slots_ < 1) return false;
      for (const Need& n : needs_) {
        if (n.quantity > n.node_free) return false;
      }
    }
    if (check_devices_ && any_extended_) {
      for (const Need& n : needs_) {
        if (n.extended && n.quantity > n.device_free) return false;
      }
    }
    return true;
  }

 private:
  struct Need {
    ResourceId id = -1;
    int64_t quantity = 0;
    bool extended = false;
    int64_t node_free = 0;    // allocatable − requested
    int64_t device_free = 0;  // free healthy devices (-1: not served)
  };
  void Apply(const PreemptionVictim& victim, int64_t sign) {
    pod_slots_ += sign;
    const size_t k = needs_.size();
    for (size_t i = 0; i < k; ++i) {
      const size_t at = (static_cast<size_t>(victim.index) * k + i) * 2;
      needs_[i].node_free += sign * freed_[at];
      needs_[i].device_free += sign * freed_[at + 1];
    }
  }

  const Scheduler& scheduler_;
  bool check_resources_;
  bool check_devices_;
  bool any_extended_ = false;
  std::vector<Need> needs_;
  int64_t pod_slots_ = 0;
  // Per evictable pod and need: its request, its grants on healthy devices.
  std::vector<int64_t> freed_;
};

void Scheduler::Preempt(PodId id, ScheduleResult* result) {
  PodState& s = pods_[id];
  const Pod& pod = *s.pod;
  // kube's PodEligibleToPreemptOthers: not while its victims terminate.
  if (!MayPreempt(pod) || s.pending_victims > 0) return;
  const int num_nodes = static_cast<int>(cluster_.nodes().size());
  const std::vector<uint8_t>& static_fits = StaticFits(s.constraints, pod);
  // Potential nodes: those the static filters pass (the others fail as
  // UnschedulableAndUnresolvable, which no eviction can change).
  int potential = 0;
  for (int n = 0; n < num_nodes; ++n) potential += static_fits[n];
  if (potential == 0) return;
  const int wanted = NumPreemptionCandidates(
      potential, profile_.min_candidate_nodes_percentage,
      profile_.min_candidate_nodes_absolute);
  int skip = static_cast<int>(preemption_rng_.Below(potential));
  int start = 0;
  while (start < num_nodes && (!static_fits[start] || skip-- > 0)) ++start;
  // Candidates reuse their entries (and the victims' capacity).
  num_candidates_ = 0;
  std::vector<PreemptionVictim>& victims = victims_scratch_;
  for (FilterPlugin* f : dynamic_filters_) f->PreFilter(pod);
  CountingDryRun counting(*this, pod);
  for (int i = 0; i < num_nodes && static_cast<int>(num_candidates_) < wanted;
       ++i) {
    const int n = (start + i) % num_nodes;
    if (!static_fits[n] || n >= static_cast<int>(node_pods_.size()) ||
        terminating_on_node_[n] > 0) {
      continue;
    }
    evictable_scratch_.clear();
    evictable_pods_.clear();
    for (const BoundPod& b : node_pods_[n]) {
      const PreemptionVictim& v = b.victim;
      if (v.priority < pod.priority) {
        evictable_scratch_.push_back(
            {v.id, v.priority, v.start,
             static_cast<int>(evictable_scratch_.size())});
        evictable_pods_.push_back(&b);
      }
    }
    if (evictable_scratch_.empty()) continue;
    bool found = false;
    const Node& node = cluster_.nodes()[n];
    if (CountingDryRun::Applies(*this, pod, node)) {
      counting.Reset(node, evictable_pods_);
      found = SelectVictimsOnNode(pod.priority, evictable_scratch_, counting,
                                  &victims, &potential_scratch_);
    } else {
      VictimDryRun dry_run(*this, id, n);
      found = SelectVictimsOnNode(pod.priority, evictable_scratch_, dry_run,
                                  &victims, &potential_scratch_);
      // The node is as it was, but its version moved: refresh the copies.
      UpdateFreeNodes(n, ResourceList());
    }
    if (found) {
      if (num_candidates_ == candidates_scratch_.size()) {
        candidates_scratch_.emplace_back();
      }
      PreemptionCandidate& c = candidates_scratch_[num_candidates_++];
      c.node = n;
      c.victims.assign(victims.begin(), victims.end());
    }
  }
  if (num_candidates_ == 0) return;
  const PreemptionCandidate& chosen =
      candidates_scratch_[PickCandidate(std::span<const PreemptionCandidate>(
          candidates_scratch_.data(), num_candidates_))];
  s.nominated_node = chosen.node;
  s.pending_victims = static_cast<int>(chosen.victims.size());
  result->nominated_node = chosen.node;
  for (const PreemptionVictim& v : chosen.victims) {
    PodState& vs = pods_[v.id];
    vs.terminating = true;
    vs.preemptor = id;
    vs.preemptor_seq = s.seq;
    ++terminating_on_node_[chosen.node];
    result->victims.push_back(v.id);
  }
  preemptions_ += static_cast<int64_t>(chosen.victims.size());
}

ResourceId Scheduler::PivotResource(const Pod& pod) const {
  const ResourceRegistry& registry = cluster_.resources();
  for (const auto& [id, quantity] : pod.requests.items()) {
    if (id > ResourceRegistry::kMemoryId && quantity > 0 &&
        !registry.IgnoredByScheduler(id)) {
      return id;
    }
  }
  return -1;
}

const std::vector<uint64_t>& Scheduler::FreeNodes(ResourceId resource) {
  if (resource >= static_cast<int>(free_nodes_.size())) {
    free_nodes_.resize(resource + 1);
  }
  std::vector<uint64_t>& bits = free_nodes_[resource];
  const auto& nodes = cluster_.nodes();
  if (bits.size() * 64 < nodes.size()) {
    bits.assign((nodes.size() + 63) / 64, 0);
    for (size_t n = 0; n < nodes.size(); ++n) {
      if (nodes[n].Allocatable(resource) > nodes[n].Requested(resource)) {
        bits[n / 64] |= uint64_t{1} << (n % 64);
      }
    }
  }
  return bits;
}

HamiFitSummary Scheduler::HamiSummaryOf(int node) const {
  return HamiFitSummary::Of(cluster_.nodes()[node], gpu_resource_);
}

const HamiFitSummary* Scheduler::HamiSummaries() {
  const auto& nodes = cluster_.nodes();
  const int num_nodes = static_cast<int>(nodes.size());
  if (hami_checked_nodes_ != num_nodes) {
    hami_checked_nodes_ = num_nodes;
    hami_summaries_.clear();
    has_hami_nodes_ =
        std::any_of(nodes.begin(), nodes.end(), [](const Node& n) {
          return n.devices() != nullptr && n.devices()->AsHami() != nullptr;
        });
  }
  if (!has_hami_nodes_) return nullptr;
  if (static_cast<int>(hami_summaries_.size()) != num_nodes) {
    // Once registered, an id stays; before, no node has the resource.
    gpu_resource_ = cluster_.resources().Find(kNvidiaGpu);
    hami_summaries_.resize(num_nodes);
    for (int n = 0; n < num_nodes; ++n) hami_summaries_[n] = HamiSummaryOf(n);
  }
  return hami_summaries_.data();
}

const uint64_t* Scheduler::NodeVersions() {
  const auto& nodes = cluster_.nodes();
  if (node_versions_.size() != nodes.size()) {
    node_versions_.resize(nodes.size());
    for (size_t n = 0; n < nodes.size(); ++n) {
      node_versions_[n] = nodes[n].version();
    }
  }
  return node_versions_.data();
}

void Scheduler::UpdateFreeNodes(int node, const ResourceList& requests) {
  if (node < static_cast<int>(hami_summaries_.size())) {
    hami_summaries_[node] = HamiSummaryOf(node);
  }
  const Node& n = cluster_.nodes()[node];
  if (node < static_cast<int>(node_versions_.size())) {
    node_versions_[node] = n.version();
  }
  if (change_log_.size() >=
      std::max<size_t>(size_t{1} << 20, 8 * cluster_.nodes().size())) {
    change_log_base_ += change_log_.size();
    change_log_.clear();
  }
  change_log_.push_back(node);
  for (const auto& [id, quantity] : requests.items()) {
    if (id >= static_cast<int>(free_nodes_.size()) || free_nodes_[id].empty()) {
      continue;  // not built yet: built whole on first use
    }
    uint64_t& word = free_nodes_[id][node / 64];
    const uint64_t bit = uint64_t{1} << (node % 64);
    if (n.Allocatable(id) > n.Requested(id)) {
      word |= bit;
    } else {
      word &= ~bit;
    }
  }
}

void Scheduler::CheckInvariants(int index) const {
  const Node& node = cluster_.nodes()[index];
  const ResourceRegistry& registry = cluster_.resources();
  for (ResourceId id = 0; id < registry.size(); ++id) {
    if (registry.IgnoredByScheduler(id)) continue;
    // Against capacity: pods holding a device that went unhealthy stay.
    GS_CHECK(node.Requested(id) <= node.Capacity(id),
             "node resources over-allocated");
  }
  GS_CHECK(node.pod_count() <= node.max_pods(), "too many pods on a node");
  if (node.devices() != nullptr) node.devices()->CheckInvariants();
  if (index < static_cast<int>(hami_summaries_.size())) {
    GS_CHECK(hami_summaries_[index] == HamiSummaryOf(index),
             "scheduler's HAMi fit summary out of sync");
  }
  if (index < static_cast<int>(node_versions_.size())) {
    GS_CHECK(node_versions_[index] == node.version(),
             "scheduler's copy of a node version out of sync");
  }
}

}  // namespace gpushare
