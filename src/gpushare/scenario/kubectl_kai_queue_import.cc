#include "gpushare/scenario/kubectl_kai_queue_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "gpushare/io/suggest.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/kubernetes_names.h"
#include "gpushare/workload/kubectl_object.h"

namespace gpushare {
namespace {

// quota or limit: -1 or ≥ 0 GPU units (KAI writes them as numbers).
double Units(const JsonValue& v, double if_missing) {
  if (v.Missing()) return if_missing;
  const double units = v.Double(-1, 1e6);
  if (units < 0 && units != kKaiUnlimited) {
    v.Fail(
        fmt::format("{:g} is neither -1 (unlimited) nor a number of GPU "
                    "units >= 0",
                    units));
  }
  return units;
}

const KaiQueueSpec* Find(const KaiConfig& c, const std::string& name) {
  auto it = std::find_if(c.queues.begin(), c.queues.end(),
                         [&](const KaiQueueSpec& q) { return q.name == name; });
  return it == c.queues.end() ? nullptr : &*it;
}

}  // namespace

void ImportKubectlKaiQueues(const std::string& file, KaiConfig* config) {
  if (file.empty()) return;
  std::vector<JsonValue> parents;  // per imported queue: spec.parentQueue
  const size_t first = config->queues.size();
  for (const JsonValue& item :
       KubectlItems(file, ReadInputFile(file), "Queue")) {
    KaiQueueSpec q;
    const JsonValue name = item.Get("metadata").Get("name");
    q.name = name.String();
    if (!IsDnsSubdomain(q.name)) {
      name.Fail(fmt::format("queue name '{}' must be a DNS subdomain", q.name));
    }
    if (Find(*config, q.name) != nullptr) {
      name.Fail("'" + q.name + "' is defined twice");
    }
    const JsonValue spec = item.Get("spec");
    q.parent = spec.Get("parentQueue").String("");
    if (!spec.Get("priority").Missing()) {
      q.priority =
          static_cast<int>(spec.Get("priority").Int(-1000000, 1000000));
    }
    const JsonValue gpu = spec.Get("resources").Get("gpu");
    q.gpu_quota = Units(gpu.Get("quota"), 0);
    if (!gpu.Get("overQuotaWeight").Missing()) {
      q.gpu_over_quota_weight = gpu.Get("overQuotaWeight").Double(0, 1e6);
    }
    q.gpu_limit = Units(gpu.Get("limit"), kKaiUnlimited);
    if (q.gpu_limit >= 0 &&
        (q.gpu_quota == kKaiUnlimited || q.gpu_limit < q.gpu_quota)) {
      gpu.Get("limit").Fail(fmt::format(
          "{:g} is below the queue's quota ({:g})", q.gpu_limit, q.gpu_quota));
    }
    parents.push_back(spec.Get("parentQueue"));
    config->queues.push_back(std::move(q));
  }
  std::vector<std::string> names;
  for (const KaiQueueSpec& q : config->queues) names.push_back(q.name);
  for (size_t i = first; i < config->queues.size(); ++i) {
    const KaiQueueSpec& q = config->queues[i];
    if (q.parent.empty()) continue;
    const JsonValue& at = parents[i - first];
    if (Find(*config, q.parent) == nullptr) {
      at.Fail(fmt::format("parent '{}' is not defined{}", q.parent,
                          DidYouMean(q.parent, names, 1)));
    }
    std::string up = q.parent;
    for (size_t steps = 0; !up.empty(); ++steps) {
      const KaiQueueSpec* p = Find(*config, up);
      if (up == q.name || steps > config->queues.size() || p == nullptr) {
        if (p == nullptr) break;  // the scenario's own reader reports it
        at.Fail("queue " + q.name + ": its parents form a cycle");
      }
      up = p->parent;
    }
  }
}

}  // namespace gpushare
