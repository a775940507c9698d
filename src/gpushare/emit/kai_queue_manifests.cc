#include "gpushare/emit/kai_queue_manifests.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "gpushare/emit/quoting.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

int Depth(const KaiConfig& c, const KaiQueueSpec& q) {
  int depth = 0;
  for (std::string p = q.parent; !p.empty() && depth <= 64; ++depth) {
    auto it = std::find_if(c.queues.begin(), c.queues.end(),
                           [&](const KaiQueueSpec& s) { return s.name == p; });
    if (it == c.queues.end()) break;
    p = it->parent;
  }
  return depth;
}

std::string Queue(const KaiQueueSpec& q) {
  std::string out = fmt::format(
      "apiVersion: scheduling.run.ai/v2\nkind: Queue\nmetadata:\n  name: "
      "{}\nspec:\n",
      YamlScalar(q.name));
  if (!q.parent.empty()) {
    out += fmt::format("  parentQueue: {}\n", YamlScalar(q.parent));
  }
  if (q.priority != 0) out += fmt::format("  priority: {}\n", q.priority);
  out += fmt::format(
      "  resources:\n"
      "    gpu:\n      quota: {:g}\n      overQuotaWeight: {:g}\n"
      "      limit: {:g}\n",
      q.gpu_quota, q.gpu_over_quota_weight, q.gpu_limit);
  for (const char* r : {"cpu", "memory"}) {
    out += fmt::format(
        "    {}:\n      quota: 0\n      overQuotaWeight: 1\n      limit: -1\n",
        r);
  }
  return out;
}

}  // namespace

std::string KaiQueueManifestsYaml(const Scenario& scenario) {
  const KaiConfig& c = scenario.kai_queues;
  if (!c.enabled()) {
    throw InputError("scenario '" + scenario.name +
                     "' has no kai_queues section: there are no KAI-Scheduler "
                     "queues to write");
  }
  std::string out = fmt::format(
      "# KAI-Scheduler queues of scenario '{}' (scheduling.run.ai/v2),\n"
      "# written by gpushare-sim. Install KAI-Scheduler first, then:\n"
      "#   kubectl apply -f kai-queues.yaml\n"
      "# Pods name their leaf queue with the label\n"
      "#   {}: <queue>\n"
      "# and set schedulerName: kai-scheduler (emit pod-patches sets both per "
      "tenant\n# class). GPU quotas and limits are in GPU units (a GPU 1, "
      "mig-<X>g X); cpu and\n# memory are neither guaranteed nor limited.\n",
      CommentText(scenario.name), kKaiQueueLabel);
  std::vector<const KaiQueueSpec*> order;
  for (const KaiQueueSpec& q : c.queues) order.push_back(&q);
  std::stable_sort(order.begin(), order.end(),
                   [&](const KaiQueueSpec* a, const KaiQueueSpec* b) {
                     return Depth(c, *a) < Depth(c, *b);
                   });
  for (const KaiQueueSpec* q : order) out += "---\n" + Queue(*q);
  return out;
}

}  // namespace gpushare
