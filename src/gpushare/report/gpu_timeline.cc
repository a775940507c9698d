#include "gpushare/report/gpu_timeline.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <span>

#include <fmt/format.h>

#include "gpushare/report/html_page.h"
#include "gpushare/report/svg_line_chart.h"
#include "gpushare/report/svg_timeline.h"

namespace gpushare {
namespace {

// A physical GPU: its devices (one, or its MIG instances) in device order.
struct PhysicalGpu {
  std::vector<int> devices;
  bool mig = false;
  double busy_s = 0;  // pod-seconds on it
};

double PodEndTime(const PodSummary& p, double run_end) {
  return p.end_s >= 0 ? p.end_s : run_end;
}

// The devices of `p` (kept with per-pod detail).
std::span<const int> PodDevices(const SimulationResult& r,
                                const PodSummary& p) {
  return std::span<const int>(r.pod_devices)
      .subspan(static_cast<size_t>(p.devices_offset),
               static_cast<size_t>(p.devices_count));
}

}  // namespace

std::string GpuTimeline(const SimulationResult& result, int max_gpus) {
  // Devices → physical GPUs, in device order.
  std::vector<PhysicalGpu> gpus;
  std::vector<int> device_gpu(result.devices.size(), -1);
  std::map<std::pair<std::string, int>, int> index;
  for (size_t d = 0; d < result.devices.size(); ++d) {
    const DeviceInfo& info = result.devices[d];
    auto [it, added] = index.try_emplace({info.node, info.gpu},
                                         static_cast<int>(gpus.size()));
    if (added) gpus.emplace_back();
    gpus[it->second].devices.push_back(static_cast<int>(d));
    gpus[it->second].mig |= info.mig_instance >= 0;
    device_gpu[d] = it->second;
  }
  // Pod-seconds per GPU (a pod on several devices of one GPU counts once
  // per device), then the busiest max_gpus.
  result.pod_summaries.ForEach([&](const PodSummary& p) {
    if (p.start_s < 0) return;
    for (int d : PodDevices(result, p)) {
      if (d < 0 || d >= static_cast<int>(device_gpu.size())) continue;
      gpus[device_gpu[d]].busy_s += PodEndTime(p, result.end_s) - p.start_s;
    }
  });
  std::vector<int> shown(gpus.size());
  std::iota(shown.begin(), shown.end(), 0);
  const bool limited = static_cast<int>(gpus.size()) > max_gpus;
  if (limited) {
    std::stable_sort(shown.begin(), shown.end(), [&gpus](int a, int b) {
      return gpus[a].busy_s > gpus[b].busy_s;
    });
    shown.resize(max_gpus);
    std::sort(shown.begin(), shown.end());
  }
  std::vector<int> shown_slot(gpus.size(), -1);
  for (size_t i = 0; i < shown.size(); ++i) shown_slot[shown[i]] = int(i);

  // Tenant classes in order of first appearance: colours and legend.
  std::map<std::string, int> class_color;
  std::vector<LegendItem> legend;
  result.pod_summaries.ForEach([&](const PodSummary& p) {
    const std::string& tenant_class = result.text(p.tenant_class);
    if (class_color.count(tenant_class) > 0) return;
    const int color = static_cast<int>(class_color.size());
    class_color[tenant_class] = color;
    legend.push_back({tenant_class.empty() ? "(none)" : tenant_class, color});
  });
  legend.push_back({"pods shorter than a pixel, merged", -1});

  // Bars per device of the shown GPUs.
  std::map<int, std::vector<TimelineBar>> device_bars;
  result.pod_summaries.ForEach([&](const PodSummary& p) {
    if (p.start_s < 0) return;
    for (int d : PodDevices(result, p)) {
      if (d < 0 || d >= static_cast<int>(device_gpu.size()) ||
          shown_slot[device_gpu[d]] < 0) {
        continue;
      }
      TimelineBar bar;
      bar.start = p.start_s;
      bar.end = PodEndTime(p, result.end_s);
      bar.color = class_color[result.text(p.tenant_class)];
      bar.label = fmt::format("{} ({}) {} to {}, {}", result.text(p.name),
                              result.text(p.tenant_class),
                              FormatTimeTick(bar.start),
                              FormatTimeTick(bar.end),
                              PodOutcomeName(p.outcome));
      device_bars[d].push_back(std::move(bar));
    }
  });

  std::vector<TimelineGroup> groups;
  int dropped_total = 0;
  for (int g : shown) {
    const PhysicalGpu& gpu = gpus[g];
    const DeviceInfo& first = result.devices[gpu.devices.front()];
    TimelineGroup group;
    group.label = fmt::format("{} GPU {}{}", first.node, first.gpu,
                              gpu.mig ? " MIG" : "");
    for (int d : gpu.devices) {
      int dropped = 0;
      auto lanes = PackIntoLanes(std::move(device_bars[d]), kMaxLanesPerDevice,
                                 &dropped);
      dropped_total += dropped;
      if (lanes.empty()) lanes.emplace_back();
      const DeviceInfo& info = result.devices[d];
      for (size_t l = 0; l < lanes.size(); ++l) {
        TimelineLane lane;
        if (l == 0) {
          lane.label = gpu.mig ? fmt::format("{} #{}", info.profile,
                                             info.mig_instance)
                               : (lanes.size() > 1 ? "shared" : "");
        }
        lane.bars = std::move(lanes[l]);
        group.lanes.push_back(std::move(lane));
      }
    }
    groups.push_back(std::move(group));
  }

  std::string caption =
      limited ? fmt::format(
                    "The {} busiest of {} GPUs (most pod-seconds), in "
                    "device order.",
                    shown.size(), gpus.size())
              : fmt::format("All {} GPUs.", gpus.size());
  caption +=
      " MIG GPUs: one lane per instance (fixed partitions); shared GPUs "
      "(time-slicing, MPS, vGPU): overlapping pods stacked in shared lanes. "
      "A bar runs from the pod's first start to its end, on the devices of "
      "its last start; hover for the pod.";
  if (dropped_total > 0) {
    caption += fmt::format(
        " {} pod bars left out (more than {} overlapping on one device).",
        dropped_total, kMaxLanesPerDevice);
  }
  TimelineSpec spec;
  spec.id = "timeline";
  spec.title = "Pods per GPU over time";
  spec.x_min = 0;
  spec.x_max = std::max(result.end_s, 1e-9);
  spec.legend = std::move(legend);
  return "<p class=\"note\">" + HtmlEscape(caption) + "</p>\n" +
         RenderTimeline(spec, groups);
}

}  // namespace gpushare
