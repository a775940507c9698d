// PodOutputSpool: the per-pod outputs (pods.csv's rows, the JSON result's
// pod records) written as pods end, so that their memory does not grow with
// the pods.
//
// Contract: a PodRecordSink (attach with Collector::AddPodSink) that formats
// each final record as pods.csv's row (PodCsvRow) or as an element of the
// JSON result's "pod_records" array (PodRecordJsonText) and spools it to an
// unnamed temporary file in `folder` (io/row_spool.h: 8 bytes a pod in
// memory). WriteRows() gives the rows in pod order — the order the outputs
// had when every record was kept — with `separator` between two rows;
// OutputBatch::AddProduced() writes them into the output file at Commit().

#ifndef GPUSHARE_METRICS_POD_OUTPUT_SPOOL_H_
#define GPUSHARE_METRICS_POD_OUTPUT_SPOOL_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "gpushare/io/output_file.h"
#include "gpushare/io/row_spool.h"
#include "gpushare/metrics/pod_record_sink.h"

namespace gpushare {

class PodOutputSpool : public PodRecordSink {
 public:
  enum class Format { kCsv, kJson };
  // `label` names the output in errors.
  PodOutputSpool(Format format, const std::string& folder,
                 const std::string& label);

  void Add(int64_t index, const PodRecord& record) override;
  int64_t rows() const { return spool_.rows(); }
  void WriteRows(const OutputWriter& write, std::string_view separator) const;

 private:
  Format format_;
  RowSpool spool_;
};

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_POD_OUTPUT_SPOOL_H_
