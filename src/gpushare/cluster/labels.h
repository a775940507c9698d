// Node labels and taints, as Kubernetes has them.

#ifndef GPUSHARE_CLUSTER_LABELS_H_
#define GPUSHARE_CLUSTER_LABELS_H_

#include <map>
#include <string>
#include <string_view>

namespace gpushare {

// Label key → value; ordered so that output is deterministic.
using Labels = std::map<std::string, std::string, std::less<>>;

enum class TaintEffect { kNoSchedule, kPreferNoSchedule, kNoExecute };

// Parses "NoSchedule", "PreferNoSchedule" or "NoExecute"; false otherwise.
bool ParseTaintEffect(std::string_view text, TaintEffect* effect);
std::string_view TaintEffectName(TaintEffect effect);

struct Taint {
  std::string key;
  std::string value;
  TaintEffect effect = TaintEffect::kNoSchedule;
  bool operator==(const Taint&) const = default;
  // kube-scheduler's rendering in reasons: "{key: value}".
  std::string ToString() const { return "{" + key + ": " + value + "}"; }
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_LABELS_H_
