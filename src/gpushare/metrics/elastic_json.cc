// The JSON form of an autoscaled pool's results (elastic_json.h).

#include "gpushare/metrics/elastic_json.h"

namespace gpushare {

nlohmann::json ElasticPoolJson(const ElasticPoolStats& s) {
  using nlohmann::json;
  json series = json::array();
  for (const ElasticPoolStats::Sample& x : s.samples) {
    series.push_back(
        {{"time_s", x.time_s}, {"nodes", x.nodes}, {"ready", x.ready}});
  }
  json notes = json::array();
  for (const ElasticPoolStats::NoScaleUp& n : s.no_scale_up) {
    notes.push_back(
        {{"reason", n.reason}, {"upstream", n.upstream}, {"pods", n.pods}});
  }
  return {{"provider", s.provider},
          {"min", s.min_nodes},
          {"max", s.max_nodes},
          {"start_nodes", s.start_nodes},
          {"peak_nodes", s.peak_nodes},
          {"node_hours", s.node_hours},
          {"gpu_hours", s.gpu_hours},
          {"cost", s.cost},
          {"nodes_launched", s.nodes_launched},
          {"nodes_removed", s.nodes_removed},
          {"nodes_given_up", s.nodes_given_up},
          {"spot_interruptions", s.spot_interruptions},
          {"pods_evicted", s.pods_evicted},
          {"scale_up_waits",
           {{"pods", s.pods_waited},
            {"mean_s", s.wait_mean_s},
            {"p99_s", s.wait_p99_s}}},
          {"no_scale_up", notes},
          {"samples", series}};
}

}  // namespace gpushare
