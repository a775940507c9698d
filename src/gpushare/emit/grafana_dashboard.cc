#include "gpushare/emit/grafana_dashboard.h"

#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

namespace gpushare {
namespace {

using nlohmann::json;

json DataSource() {
  return {{"type", "prometheus"}, {"uid", "${DS_PROMETHEUS}"}};
}

// Builds the panels top to bottom on Grafana's 24-column grid.
class Layout {
 public:
  // A full-width row; `repeat` names the variable it repeats for ("" none).
  void Row(const std::string& title, const std::string& repeat = "") {
    NewLine();
    json row = {{"type", "row"},
                {"id", ++id_},
                {"title", title},
                {"collapsed", false},
                {"panels", json::array()},
                {"gridPos", {{"x", 0}, {"y", y_}, {"w", 24}, {"h", 1}}}};
    if (!repeat.empty()) row["repeat"] = repeat;
    panels_.push_back(std::move(row));
    y_ += 1;
  }

  // A time series panel, half the width; `queries` are (PromQL, legend).
  void TimeSeries(
      const std::string& title, const std::string& unit,
      const std::vector<std::pair<std::string, std::string>>& queries,
      const std::string& repeat = "") {
    json targets = json::array();
    char ref = 'A';
    for (const auto& [expr, legend] : queries) {
      targets.push_back({{"datasource", DataSource()},
                         {"expr", expr},
                         {"legendFormat", legend},
                         {"refId", std::string(1, ref++)}});
    }
    json panel = {
        {"type", "timeseries"},
        {"id", ++id_},
        {"title", title},
        {"datasource", DataSource()},
        {"targets", targets},
        {"fieldConfig",
         {{"defaults", {{"unit", unit}, {"custom", {{"fillOpacity", 10}}}}},
          {"overrides", json::array()}}},
        {"options",
         {{"legend", {{"displayMode", "list"}, {"placement", "bottom"}}},
          {"tooltip", {{"mode", "multi"}}}}},
        {"gridPos", {{"x", x_}, {"y", y_}, {"w", 12}, {"h", 8}}}};
    if (!repeat.empty()) {
      panel["repeat"] = repeat;
      panel["repeatDirection"] = "h";
      panel["maxPerRow"] = 2;
    }
    panels_.push_back(std::move(panel));
    if (x_ == 0) {
      x_ = 12;
    } else {
      NewLine();
    }
  }

  json Take() { return std::move(panels_); }

 private:
  void NewLine() {
    if (x_ != 0) y_ += 8;
    x_ = 0;
  }

  json panels_ = json::array();
  int id_ = 0;
  int x_ = 0;
  int y_ = 0;
};

json Variable(const std::string& name, const std::string& label,
              const std::string& query) {
  return {{"name", name},
          {"label", label},
          {"type", "query"},
          {"datasource", DataSource()},
          {"definition", query},
          {"query", {{"query", query}, {"refId", "StandardVariableQuery"}}},
          {"refresh", 2},
          {"multi", true},
          {"includeAll", true},
          {"sort", 3},
          {"current", json::object()},
          {"options", json::array()}};
}

json Panels() {
  const std::string pool = "pool=~\"$pool\"";
  const std::string dev =
      "{pool=~\"$pool\",Hostname=~\"$Hostname\",gpu=~\"$gpu\"}";
  // dcgm-exporter repeats a shared GPU's sample once per pod: take the max
  // over the pods of each device.
  const std::string by_device = "max by (Hostname, gpu, GPU_I_ID) ";
  Layout l;
  l.Row("Cluster");
  l.TimeSeries("Pending pods (scheduling queue)", "short",
               {{"gpushare_pending_pods", "pending"}});
  l.TimeSeries(
      "SLO attainment of inference pods", "percentunit",
      {{"avg by (pool) (gpushare_pod_slo_met{" + pool + "})", "{{pool}}"}});
  l.TimeSeries(
      "Pod wait at start (p99 and max over pods)", "s",
      {{"quantile by (pool) (0.99, gpushare_pod_wait_seconds{" + pool + "})",
        "{{pool}} p99"},
       {"max by (pool) (gpushare_pod_wait_seconds{" + pool + "})",
        "{{pool}} max"}});
  l.TimeSeries("Pods succeeded per hour", "short",
               {{"sum by (pool) (increase(gpushare_pods_succeeded_total{" +
                     pool + "}[1h]))",
                 "{{pool}}"}});
  l.Row("Pool $pool", "pool");
  l.TimeSeries("SM active vs GPU util: $pool", "percentunit",
               {{"gpushare_pool_sm_active_ratio{pool=~\"$pool\"}", "SM active"},
                {"gpushare_pool_gpu_util_ratio{pool=~\"$pool\"}", "GPU util"}});
  l.TimeSeries(
      "Framebuffer used and allocation: $pool", "percentunit",
      {{"gpushare_pool_fb_used_ratio{pool=~\"$pool\"}", "framebuffer used"},
       {"gpushare_pool_allocation_ratio{pool=~\"$pool\"}", "allocated"}});
  l.Row("GPUs");
  l.TimeSeries("GPU $gpu: SM active vs GPU util", "percent",
               {{by_device + "(DCGM_FI_PROF_SM_ACTIVE" + dev + ") * 100",
                 "{{Hostname}} GPU {{gpu}} {{GPU_I_ID}} SM active"},
                {by_device + "(DCGM_FI_DEV_GPU_UTIL" + dev + ")",
                 "{{Hostname}} GPU {{gpu}} {{GPU_I_ID}} util"}},
               "gpu");
  l.TimeSeries("GPU $gpu: framebuffer used", "mbytes",
               {{by_device + "(DCGM_FI_DEV_FB_USED" + dev + ")",
                 "{{Hostname}} GPU {{gpu}} {{GPU_I_ID}}"}},
               "gpu");
  l.TimeSeries(
      "GPU $gpu: pods", "short",
      {{"gpushare_device_pods" + dev, "{{Hostname}} GPU {{gpu}} {{GPU_I_ID}}"}},
      "gpu");
  l.Row("Patrol");
  l.TimeSeries("GPUs advertised per node (device plugin)", "short",
               {{"sum by (node) (kube_node_status_allocatable{" + pool +
                     ",resource=~\"nvidia_com_(gpu|gpu_shared|mig_.*)\"})",
                 "{{node}}"}});
  l.TimeSeries("MIG config drift", "short",
               {{"gpushare_mig_config_drift{pool=~\"$pool\","
                 "Hostname=~\"$Hostname\"}",
                 "{{Hostname}} GPU {{gpu}}"}});
  l.TimeSeries("GPU time share per pod (time-slicing, vGPU: noisy neighbour)",
               "percentunit",
               {{"gpushare_pod_gpu_time_ratio{pool=~\"$pool\","
                 "Hostname=~\"$Hostname\"}",
                 "{{pod}} on {{Hostname}} GPU {{gpu}} {{GPU_I_ID}}"}});
  return l.Take();
}

}  // namespace

std::string GrafanaDashboardJson() {
  json dashboard = {
      {"__inputs",
       {{{"name", "DS_PROMETHEUS"},
         {"label", "Prometheus"},
         {"description",
          "Prometheus holding the series of gpushare-sim "
          "run --openmetrics"},
         {"type", "datasource"},
         {"pluginId", "prometheus"},
         {"pluginName", "Prometheus"}}}},
      {"__requires",
       {{{"type", "grafana"},
         {"id", "grafana"},
         {"name", "Grafana"},
         {"version", "10.0.0"}},
        {{"type", "datasource"},
         {"id", "prometheus"},
         {"name", "Prometheus"},
         {"version", "1.0.0"}},
        {{"type", "panel"},
         {"id", "timeseries"},
         {"name", "Time series"},
         {"version", ""}}}},
      {"id", nullptr},
      {"uid", "gpushare-sim"},
      {"title", "gpushare-sim: GPU sharing"},
      {"description",
       "Series of gpushare-sim run --openmetrics: DCGM per GPU, "
       "pools, queue, SLO, patrol alerts"},
      {"tags", {"gpushare-sim", "dcgm", "gpu"}},
      {"schemaVersion", 39},
      {"version", 1},
      {"editable", true},
      {"graphTooltip", 1},
      {"time", {{"from", "now-24h"}, {"to", "now"}}},
      {"timezone", "utc"},
      {"refresh", ""},
      {"annotations", {{"list", json::array()}}},
      {"links", json::array()},
      {"templating",
       {{"list",
         {Variable("pool", "pool",
                   "label_values(gpushare_pool_gpu_util_ratio, pool)"),
          Variable("Hostname", "node",
                   "label_values(DCGM_FI_DEV_GPU_UTIL{pool=~\"$pool\"}, "
                   "Hostname)"),
          Variable("gpu", "GPU",
                   "label_values(DCGM_FI_DEV_GPU_UTIL{pool=~\"$pool\","
                   "Hostname=~\"$Hostname\"}, gpu)")}}}},
      {"panels", Panels()}};
  return dashboard.dump(2) + "\n";
}

}  // namespace gpushare
