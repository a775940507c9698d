// A scenario with autoscaled pools for the autoscaler emitters' tests
// (header-only; *_test.cc only): the pools are read from YAML, their
// autoscaling set in code, so the tests do not depend on the scenario
// reader's `autoscaling:` key.

#ifndef GPUSHARE_EMIT_AUTOSCALER_TEST_SCENARIO_H_
#define GPUSHARE_EMIT_AUTOSCALER_TEST_SCENARIO_H_

#include <string>

#include "gpushare/emit/emit_test_scenarios.h"

namespace gpushare::emit_test {

// Pool `ts`: 2 x L4, time-slicing x4, label team=a, taint gpu=shared; CA
// 0..4, unneeded 5 min, GPU threshold 0.3, least-waste, daemonsets ignored.
// Pool `x`: 1 x L4, exclusive; CA 1..2, otherwise the defaults but
// least-waste and daemonsets ignored. Pool `cpu`: no GPUs.
inline Scenario CaScenario() {
  Scenario s = PoolsScenario(
      "c",
      "    - {name: ts, gpu: L4, nodes: 1, gpus_per_node: 2,\n"
      "       labels: {team: a},\n"
      "       taints: [{key: gpu, value: shared, effect: NoSchedule}],\n"
      "       sharing: {scheme: time-slicing, replicas: 4}}\n"
      "    - {name: x, gpu: L4, nodes: 1, gpus_per_node: 1}\n"
      "    - {name: cpu, nodes: 1, gpus_per_node: 0}\n");
  for (NodePoolSpec& p : s.pools) {
    if (p.gpus_per_node == 0) continue;
    p.autoscaling.provider = AutoscalerProvider::kClusterAutoscaler;
    p.autoscaling.cluster_autoscaler.expander = CaExpander::kLeastWaste;
    p.autoscaling.cluster_autoscaler.ignore_daemonsets_utilization = true;
  }
  s.pools[0].autoscaling.min_nodes = 0;
  s.pools[0].autoscaling.max_nodes = 4;
  s.pools[0].autoscaling.cluster_autoscaler.scale_down_unneeded_time_s = 300;
  s.pools[0]
      .autoscaling.cluster_autoscaler.scale_down_gpu_utilization_threshold =
      0.3;
  s.pools[1].autoscaling.min_nodes = 1;
  s.pools[1].autoscaling.max_nodes = 2;
  return s;
}

// Everything but the comment lines of `text` (lines whose first non-space
// character is '#').
inline std::string WithoutComments(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size() - 1;
    const std::string line = text.substr(start, end - start + 1);
    const size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos || line[first] != '#') out += line;
    start = end + 1;
  }
  return out;
}

// The comment lines of `text` joined into one line: each without its
// indentation and "# ", joined by spaces (so a phrase CommentLines broke
// across lines reads whole).
inline std::string CommentsJoined(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    const size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && line[first] == '#') {
      std::string body = line.substr(first + 1);
      if (!body.empty() && body[0] == ' ') body.erase(0, 1);
      out += (out.empty() ? "" : " ") + body;
    }
    start = end + 1;
  }
  return out;
}

}  // namespace gpushare::emit_test

#endif  // GPUSHARE_EMIT_AUTOSCALER_TEST_SCENARIO_H_
