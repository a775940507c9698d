#include "gpushare/scenario/kai_queue_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpushare/io/suggest.h"
#include "gpushare/scenario/kubectl_kai_queue_import.h"
#include "gpushare/scenario/kubernetes_names.h"

namespace gpushare {
namespace {

// KAI bounds no quantity; a cluster of more than a million GPU units is a
// typo.
constexpr double kMaxUnits = 1e6;

// quota or limit: -1 (unlimited) or a number of GPU units ≥ 0.
double ReadUnits(const YamlMap& m, std::string_view key) {
  const double v = m.Double(key, -1, kMaxUnits);
  if (v < 0 && v != kKaiUnlimited) {
    m.Fail(m.Get(key), fmt::format("{}: {} is neither -1 (unlimited) nor a "
                                   "number of GPU units >= 0",
                                   key, v));
  }
  return v;
}

KaiQueueSpec ReadQueue(const YamlMap& q) {
  q.AllowOnly({"name", "parent", "priority", "gpu"});
  KaiQueueSpec spec;
  spec.name = q.String("name");
  if (!IsDnsSubdomain(spec.name)) {
    q.Fail(q.Get("name"),
           fmt::format("queue name '{}' must be a DNS subdomain (lowercase "
                       "letters, digits, '-' and '.', at most 253)",
                       spec.name));
  }
  if (q.Has("parent")) spec.parent = q.String("parent");
  if (q.Has("priority")) {
    spec.priority = static_cast<int>(q.Int("priority", -1000000, 1000000));
  }
  if (q.Has("gpu")) {
    const YamlMap gpu = q.Map("gpu", "queue " + spec.name + " gpu");
    gpu.AllowOnly({"quota", "over_quota_weight", "limit"});
    if (gpu.Has("quota")) spec.gpu_quota = ReadUnits(gpu, "quota");
    if (gpu.Has("over_quota_weight")) {
      spec.gpu_over_quota_weight = gpu.Double("over_quota_weight", 0, 1e6);
    }
    if (gpu.Has("limit")) {
      spec.gpu_limit = ReadUnits(gpu, "limit");
      if (spec.gpu_limit >= 0 && (spec.gpu_quota == kKaiUnlimited ||
                                  spec.gpu_limit < spec.gpu_quota)) {
        gpu.Fail(gpu.Get("limit"),
                 fmt::format("limit: {} is below the queue's quota ({}); a "
                             "limit caps what the queue may use, quota "
                             "included",
                             spec.gpu_limit,
                             spec.gpu_quota == kKaiUnlimited
                                 ? std::string("unlimited")
                                 : fmt::format("{}", spec.gpu_quota)));
      }
    }
  }
  return spec;
}

}  // namespace

KaiConfig ReadKaiQueues(const YamlMap& top) {
  KaiConfig config;
  if (!top.Has("kai_queues")) return config;
  const YamlMap m = top.Map("kai_queues", "kai_queues");
  m.AllowOnly({"queues", "reclaimer_utilization_multiplier", "import"});
  if (m.Has("reclaimer_utilization_multiplier")) {
    config.reclaimer_utilization_multiplier =
        m.Double("reclaimer_utilization_multiplier", 1, 1e6);
  }
  std::string imported;  // `kubectl get queues.scheduling.run.ai -o json`
  if (m.Has("import")) imported = m.InputPath("import");
  const YAML::Node list = m.Has("queues") || imported.empty()
                              ? m.Get("queues")
                              : YAML::Node(YAML::NodeType::Sequence);
  if (!list.IsSequence() || (list.size() == 0 && imported.empty())) {
    m.Fail(list, "queues: expected a list of at least one queue, got " +
                     DescribeYamlNode(list));
  }
  std::vector<YAML::Node> parent_nodes;
  for (const YAML::Node& item : list) {
    const YamlMap q(m.file(), item, "KAI queue");
    KaiQueueSpec spec = ReadQueue(q);
    for (const KaiQueueSpec& other : config.queues) {
      if (other.name == spec.name) {
        q.Fail(q.Get("name"), "queue '" + spec.name + "' is defined twice");
      }
    }
    parent_nodes.push_back(q.Has("parent") ? q.Get("parent") : item);
    config.queues.push_back(std::move(spec));
  }
  const size_t written = config.queues.size();
  ImportKubectlKaiQueues(imported, &config);
  if (config.queues.empty()) {
    m.Fail(m.Get("import"), "import: " + imported + " holds no Queue");
  }
  std::vector<std::string> names;
  for (const KaiQueueSpec& q : config.queues) names.push_back(q.name);
  for (size_t i = 0; i < written; ++i) {
    const std::string& parent = config.queues[i].parent;
    if (parent.empty()) continue;
    if (std::find(names.begin(), names.end(), parent) == names.end()) {
      m.Fail(parent_nodes[i],
             fmt::format("queue {}: parent '{}' is not defined{} (queues: {})",
                         config.queues[i].name, parent,
                         DidYouMean(parent, names, 1), JoinNames(names)));
    }
  }
  for (size_t i = 0; i < written; ++i) {
    const std::string& parent = config.queues[i].parent;
    // Walk up: a cycle returns to this queue.
    std::string at = parent;
    for (size_t steps = 0; !at.empty(); ++steps) {
      if (at == config.queues[i].name || steps > config.queues.size()) {
        m.Fail(parent_nodes[i],
               fmt::format("queue {}: its parents form a cycle",
                           config.queues[i].name));
      }
      const auto it = std::find(names.begin(), names.end(), at);
      at = config.queues[it - names.begin()].parent;
    }
  }
  return config;
}

std::vector<std::string> KaiLeafQueues(const KaiConfig& config) {
  std::vector<std::string> leaves;
  for (const KaiQueueSpec& q : config.queues) {
    const bool parent =
        std::any_of(config.queues.begin(), config.queues.end(),
                    [&](const KaiQueueSpec& c) { return c.parent == q.name; });
    if (!parent) leaves.push_back(q.name);
  }
  return leaves;
}

}  // namespace gpushare
