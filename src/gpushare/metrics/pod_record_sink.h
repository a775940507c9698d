// PodRecordSink: receives each pod's final record once, when the pod has
// ended for good (or at the end of the run).

#ifndef GPUSHARE_METRICS_POD_RECORD_SINK_H_
#define GPUSHARE_METRICS_POD_RECORD_SINK_H_

#include <cstdint>

#include "gpushare/metrics/results.h"

namespace gpushare {

class PodRecordSink {
 public:
  virtual ~PodRecordSink() = default;
  // `index`: the pod's PodIndex.
  virtual void Add(int64_t index, const PodRecord& record) = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_POD_RECORD_SINK_H_
