#include "gpushare/emit/prometheus_rules.h"

#include <fmt/format.h>

#include <cmath>
#include <string>

namespace gpushare {
namespace {

// A Prometheus duration: "5m", "90s" or "1500ms".
std::string PrometheusDuration(double seconds) {
  const double ms = std::round(seconds * 1000);
  const auto whole = static_cast<int64_t>(ms);
  if (whole % 60000 == 0 && whole > 0) return fmt::format("{}m", whole / 60000);
  if (whole % 1000 == 0) return fmt::format("{}s", whole / 1000);
  return fmt::format("{}ms", whole);
}

// Replaces every "{name}" of `text` with `value`.
std::string Fill(std::string text, const std::string& name,
                 const std::string& value) {
  const std::string key = "{" + name + "}";
  for (size_t at = text.find(key); at != std::string::npos;
       at = text.find(key, at + value.size())) {
    text.replace(at, key.size(), value);
  }
  return text;
}

}  // namespace

std::string PrometheusRulesYaml(const PatrolRules& rules) {
  std::string text =
      R"yaml(# Prometheus alerting rules of gpushare-sim's patrol alerts.
# Series: docs/output.md (gpushare-sim run --openmetrics); load this file
# with rule_files in prometheus.yml; check it with promtool check rules.
groups:
  - name: gpushare-patrol
    rules:
      # Under time-slicing or vGPU one pod holds most of a GPU's (or MIG
      # instance's) time while a pod sharing it misses its latency SLO.
      - alert: GpuNoisyNeighbour
        expr: |
          (
            max by (Hostname, gpu, UUID, GPU_I_ID) (gpushare_pod_gpu_time_ratio) > {share}
          )
          and on (UUID, GPU_I_ID)
          (
            count by (UUID, GPU_I_ID) (
              gpushare_pod_gpu_time_ratio <= {share}
              and on (namespace, pod) (gpushare_pod_slo_met == 0)
            ) > 0
          )
        for: {for}
        labels:
          severity: warning
        annotations:
          summary: "Noisy neighbour on {{ $labels.Hostname }} GPU {{ $labels.gpu }}"
          description: "One pod holds {{ $value | humanizePercentage }} of GPU {{ $labels.gpu }} ({{ $labels.UUID }}) on {{ $labels.Hostname }} while a pod sharing it misses its p99 latency SLO."
      # A GPU's MIG layout differs from its node's nvidia.com/mig.config,
      # after a reconfiguration or a fault.
      - alert: MigConfigDrift
        expr: gpushare_mig_config_drift == 1
        for: {for}
        labels:
          severity: warning
        annotations:
          summary: "MIG layout drift on {{ $labels.Hostname }} GPU {{ $labels.gpu }}"
          description: "The MIG layout of GPU {{ $labels.gpu }} ({{ $labels.UUID }}) on {{ $labels.Hostname }} differs from the node's nvidia.com/mig.config."
      # A node advertises no GPU resources while all its GPUs are healthy,
      # no MIG layout on it drifted (a lost layout advertises nothing
      # either: MigConfigDrift says why) and pods wait in the scheduling
      # queue.
      - alert: DevicePluginStalled
        expr: |
          (
            sum by (node) (kube_node_status_allocatable{resource=~"nvidia_com_(gpu|gpu_shared|mig_.*)"}) == 0
          )
          and on (node)
          label_replace(min by (Hostname) (gpushare_device_healthy) == 1, "node", "$1", "Hostname", "(.*)")
          unless on (node)
          label_replace(max by (Hostname) (gpushare_mig_config_drift) == 1, "node", "$1", "Hostname", "(.*)")
          and on ()
          (gpushare_pending_pods > 0)
        for: {for}
        labels:
          severity: critical
        annotations:
          summary: "Device plugin stalled on {{ $labels.node }}"
          description: "Node {{ $labels.node }} advertises no GPUs although its GPUs are healthy, and pods are pending."
)yaml";
  text = Fill(text, "share", fmt::format("{}", rules.noisy_neighbour_share));
  return Fill(text, "for", PrometheusDuration(rules.for_s));
}

}  // namespace gpushare
