// PodSummary: what the outputs keep of one pod once it has ended for good.
//
// Contract: the compact form of a final PodRecord (metrics/results.h), with
// the same numbers and its strings interned in a PodTexts table (tenant
// classes, pools, queues and messages repeat across pods). The pod's own
// name, namespace and tenant, and its devices, are kept only when the
// Collector keeps per-pod detail (the per-device outputs and the HTML GPU
// timeline ask for it) or when a report names the pod (a pod evicted more
// than model.eviction_warning_per_pod times, a pod Running in an imported
// dump); otherwise `name` is kNoText and `devices_count` 0 (has_devices
// still says whether it held any). Readers read summaries in pod index
// order (SimulationResult::pod_summaries is sorted by `index`), so sums
// over pods are taken in the same order as over the records they replace.

#ifndef GPUSHARE_METRICS_POD_SUMMARY_H_
#define GPUSHARE_METRICS_POD_SUMMARY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gpushare {

enum class PodOutcome;
struct PodRecord;

using TextId = int32_t;
inline constexpr TextId kNoText = -1;

// Interned strings: each distinct string once, its id its position.
class PodTexts {
 public:
  TextId Intern(std::string_view text);
  // kNoText reads as "".
  const std::string& operator[](TextId id) const;
  // The id of `text`, kNoText when it was never interned.
  TextId Find(std::string_view text) const;
  size_t size() const { return texts_.size(); }

 private:
  std::vector<std::string> texts_;
  std::unordered_map<std::string, TextId> ids_;
};

struct PodSummary {
  int64_t index = 0;  // the pod's PodIndex
  TextId name = kNoText;
  TextId namespace_name = kNoText;
  TextId tenant = kNoText;
  TextId workload_class = kNoText;
  TextId tenant_class = kNoText;
  TextId cluster_queue = kNoText;
  TextId target_pool = kNoText;
  TextId pool = kNoText;
  TextId message = kNoText;
  PodOutcome outcome{};
  bool has_devices = false;
  bool running_in_dump = false;
  int32_t latency_samples = 0;
  int32_t slo_met_samples = 0;
  int32_t neighbour_missed_samples = 0;
  int32_t oom_kills = 0;
  int32_t fault_kills = 0;
  int32_t preemptions = 0;
  // Into SimulationResult::pod_devices (per-pod detail only).
  int32_t devices_count = 0;
  int64_t devices_offset = 0;
  int64_t kv_cache_tokens = -1;
  int64_t max_concurrent_seqs = -1;
  double arrival_s = 0;
  double start_s = -1;
  double end_s = -1;
  double wait_s = -1;
  double admission_wait_s = -1;
  double work_s = 0;
  double gpus = 0;
  double lifetime_s = 0;
  double alone_s = 0;
  double slowdown = -1;
  double gpu_hours = 0;
  double cost = 0;
  double wasted_gpu_hours = 0;
  double p99_ms = -1;
  double slo_p99_ms = 0;
  double slo_ttft_p99_ms = 0;
  double slo_tpot_p99_ms = 0;
  double ttft_p50_ms = -1;
  double ttft_p99_ms = -1;
  double tpot_p50_ms = -1;
  double tpot_p99_ms = -1;
  double lost_work_s = 0;
  double lost_session_s = 0;
  double eviction_down_s = 0;
};

// The summary of pod `index`'s final `record`, its strings interned in
// `texts`; with `detail` (or when a report names the pod, see above) its
// name and devices too, the devices appended to `devices`.
PodSummary SummarizePod(int64_t index, const PodRecord& record, bool detail,
                        int eviction_warning_per_pod, PodTexts* texts,
                        std::vector<int>* devices);

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_POD_SUMMARY_H_
