#include "gpushare/metrics/pod_output_spool.h"

#include "gpushare/metrics/csv_writer.h"
#include "gpushare/metrics/json_writer.h"

namespace gpushare {

PodOutputSpool::PodOutputSpool(Format format, const std::string& folder,
                               const std::string& label)
    : format_(format), spool_(folder, label) {}

void PodOutputSpool::Add(int64_t index, const PodRecord& record) {
  spool_.Add(index, format_ == Format::kCsv ? PodCsvRow(record)
                                            : PodRecordJsonText(record));
}

void PodOutputSpool::WriteRows(const OutputWriter& write,
                               std::string_view separator) const {
  bool first = true;
  spool_.ForEachInOrder([&](std::string_view row) {
    if (!first && !separator.empty()) write(separator);
    first = false;
    write(row);
  });
}

}  // namespace gpushare
