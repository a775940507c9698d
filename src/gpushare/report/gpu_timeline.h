// The per-GPU timeline of a run: which pods ran where.
//
// Contract: GpuTimeline() draws one group of lanes per physical GPU (node
// and GPU index of SimulationResult::devices): a MIG GPU has a fixed lane
// per instance (labelled with its profile), a whole GPU shared by
// time-slicing, MPS or vGPU stacks its overlapping pods in shared lanes
// (report/svg_timeline.h PackIntoLanes, at most kMaxLanesPerDevice per
// GPU or instance; pods beyond are counted in the caption). A pod's bar
// spans its first start to its end (the run's end when still running) on
// the devices of its last start (kept when the Collector keeps per-pod
// detail, CollectorOptions::pod_detail), coloured by tenant class. With more than `max_gpus` GPUs only the `max_gpus` busiest (most
// pod-seconds; ties: device order) are drawn, in device order, and the
// caption says so. Returns the caption paragraph and the SVG.

#ifndef GPUSHARE_REPORT_GPU_TIMELINE_H_
#define GPUSHARE_REPORT_GPU_TIMELINE_H_

#include <string>

#include "gpushare/metrics/results.h"

namespace gpushare {

inline constexpr int kMaxLanesPerDevice = 8;
inline constexpr int kTimelineMaxGpus = 64;

std::string GpuTimeline(const SimulationResult& result, int max_gpus);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_GPU_TIMELINE_H_
