#include "gpushare/workload/workload_stream.h"

#include <cmath>
#include <string>
#include <utility>

#include "gpushare/workload/generator_limits.h"

namespace gpushare {
namespace {

using namespace generator_limits;  // NOLINT(build/namespaces)

double RoundGpus(double v) {
  if (!(v > 0)) return 0;
  if (v < 1) return v;
  return std::round(v);
}

// A draw of `d`, clamped to its field's upper bound `max`.
double DrawAtMost(const Distribution& d, Rng& rng, double max) {
  return std::min(d.Sample(rng), max);
}

// Draws one pod's needs and tenant, in the documented fixed order.
void DrawPod(const WorkloadClassSpec& c, Rng& rng, Pod& pod) {
  PodNeeds& n = pod.needs;
  n.gpus = RoundGpus(DrawAtMost(c.gpus, rng, kMaxPodGpus));
  n.gpu_memory_mib = RoundCount(DrawAtMost(c.gpu_memory_mib, rng, kMaxMib));
  n.sm_demand = Clamp01(c.sm_demand.Sample(rng));
  n.duty = Clamp01(c.duty.Sample(rng));
  n.work_s = DrawAtMost(c.work_s, rng, kMaxClassSeconds);
  n.lifetime_s = DrawAtMost(c.lifetime_s, rng, kMaxClassSeconds);
  n.request_rate = DrawAtMost(c.request_rate, rng, kMaxRequestRate);
  n.gpu_ms_per_request = DrawAtMost(c.gpu_ms_per_request, rng, kMaxMs);
  n.slo_p99_ms = DrawAtMost(c.slo_p99_ms, rng, kMaxMs);
  n.slo_ttft_p99_ms = c.slo_ttft_p99_ms;
  n.slo_tpot_p99_ms = c.slo_tpot_p99_ms;
  pod.cpu_milli = RoundCount(DrawAtMost(c.cpu_milli, rng, kMaxMilli));
  pod.memory_mib = RoundCount(DrawAtMost(c.memory_mib, rng, kMaxMib));
  pod.tenant = c.tenants[rng.Below(c.tenants.size())];
  pod.namespace_name = pod.tenant;
}

// The window a class's arrivals fall in: [0, horizon_s), or with a count
// and a rate the shorter [0, count / rate) (WorkloadClassSpec::count).
double ArrivalWindow(const WorkloadClassSpec& c, double horizon_s) {
  if (c.count == 0) return horizon_s;
  double window = horizon_s;
  if (c.arrival_rate_per_s > 0) {
    window = static_cast<double>(c.count) / c.arrival_rate_per_s;
    if (horizon_s > 0) window = std::min(window, horizon_s);
  }
  return window;
}

}  // namespace

WorkloadStream::WorkloadStream(const WorkloadSpec& spec, uint64_t seed,
                               bool with_trace) {
  if (!spec.classes.empty()) spec.Validate();
  const Rng root(seed);
  cursors_.resize(spec.classes.size());
  Pod scratch;
  for (size_t k = 0; k < spec.classes.size(); ++k) {
    const WorkloadClassSpec& c = spec.classes[k];
    Cursor& cur = cursors_[k];
    cur.spec = &c;
    cur.rng = root.Fork(k);
    cur.template_request = ClassTemplateRequest(c);
    // A class that starts late draws over what is left of the horizon and
    // shifts its arrivals.
    cur.horizon_s = c.arrival_start_s > 0 ? spec.horizon_s - c.arrival_start_s
                                          : spec.horizon_s;
    // With a count, `t` sums unit-mean exponential gaps, scaled so that the
    // (count + 1)-th arrival lands at the window's end: a Poisson process
    // conditioned on exactly `count` arrivals there. Without, it is the
    // Poisson process itself.
    cur.gap_rate = c.count > 0 ? 1.0 : c.arrival_rate_per_s;
    // The counting pass: the draws the cursor will make again.
    Rng rng = cur.rng;
    double t = 0;
    int64_t n = 0;
    for (;; ++n) {
      if (c.count > 0 && n >= c.count) break;
      t += -std::log(1.0 - rng.Uniform01()) / cur.gap_rate;
      if (c.count == 0 && !(t < cur.horizon_s)) break;
      DrawPod(c, rng, scratch);
    }
    cur.arrivals = n;
    if (c.count > 0) {
      cur.end = t - std::log(1.0 - rng.Uniform01());
      cur.window = ArrivalWindow(c, cur.horizon_s);
    }
    total_ += n * std::max(1, c.gang_size);
    if (cur.arrivals > 0) Draw(cur);
  }
  if (with_trace && spec.trace.pods != nullptr) {
    trace_ = spec.trace.pods.get();
    keep_explicit_requests_ = spec.trace.keep_explicit_requests;
    total_ += static_cast<int64_t>(trace_->size());
  }
}

void WorkloadStream::Draw(Cursor& cur) {
  const WorkloadClassSpec& c = *cur.spec;
  const int64_t n = cur.n++;
  cur.t += -std::log(1.0 - cur.rng.Uniform01()) / cur.gap_rate;
  Pod& pod = cur.head;
  pod = Pod();
  pod.name = c.name + "-" + std::to_string(n);
  if (c.gang_size > 0) {
    pod.pod_group = pod.name;
    pod.gang_min_member =
        c.gang_min_member > 0 ? c.gang_min_member : c.gang_size;
    pod.gang_timeout_s = c.gang_timeout_s;
  }
  pod.workload_class = c.workload_class;
  pod.tenant_class = c.name;
  pod.priority = c.priority;
  pod.priority_class_name = c.priority_class_name;
  pod.preemption_policy = c.preemption_policy;
  pod.termination_grace_period_s = c.termination_grace_period_s;
  pod.checkpoint_interval_s = c.checkpoint_interval_s;
  pod.queue_name = c.queue_name;
  pod.arrival_s = cur.t;
  DrawPod(c, cur.rng, pod);
  pod.node_selector = c.node_selector;
  pod.tolerations = c.tolerations;
  pod.explicit_requests = c.requests;
  if (!c.request_per_pod) pod.template_request = cur.template_request;
  pod.llm_engine = c.llm_engine;
  pod.restart_policy = c.restart_policy;
  pod.multi_process = c.multi_process;
  if (c.pods_per_claim > 1) {
    pod.dra_claim = c.name + "-claim-" + std::to_string(n / c.pods_per_claim);
  }
  if (c.count > 0) {
    const double last = std::nextafter(cur.window, 0.0);
    pod.arrival_s =
        cur.end > 0 ? std::min(cur.window * (pod.arrival_s / cur.end), last)
                    : 0;
  }
  if (c.arrival_start_s > 0) pod.arrival_s += c.arrival_start_s;
  cur.members_left = std::max(1, c.gang_size);
  cur.member = 0;
}

int WorkloadStream::NextCursor() const {
  int best = -1;
  for (size_t k = 0; k < cursors_.size(); ++k) {
    const Cursor& c = cursors_[k];
    if (c.members_left == 0) continue;
    if (best < 0 ||
        c.head.arrival_s < cursors_[static_cast<size_t>(best)].head.arrival_s) {
      best = static_cast<int>(k);
    }
  }
  return best;
}

double WorkloadStream::next_arrival_s() const {
  const int k = NextCursor();
  const double generated =
      k >= 0 ? cursors_[static_cast<size_t>(k)].head.arrival_s : 0;
  if (trace_ != nullptr && trace_next_ < trace_->size()) {
    const double traced = (*trace_)[trace_next_].arrival_s;
    if (k < 0 || !(generated < traced)) return traced;
  }
  return generated;
}

void WorkloadStream::Next(Pod* out) {
  const int k = NextCursor();
  ++taken_;
  if (trace_ != nullptr && trace_next_ < trace_->size() &&
      (k < 0 || !(cursors_[static_cast<size_t>(k)].head.arrival_s <
                  (*trace_)[trace_next_].arrival_s))) {
    *out = (*trace_)[trace_next_++];
    if (!keep_explicit_requests_) out->explicit_requests.clear();
    return;
  }
  Cursor& cur = cursors_[static_cast<size_t>(k)];
  const WorkloadClassSpec& c = *cur.spec;
  if (c.gang_size > 0) {
    // The members of one PodGroup: the same needs, arriving together.
    *out = cur.head;
    out->name = cur.head.pod_group + "-" + std::to_string(cur.member);
    ++cur.member;
  } else {
    *out = std::move(cur.head);
  }
  if (--cur.members_left == 0 && cur.n < cur.arrivals) Draw(cur);
}

}  // namespace gpushare
