#include "gpushare/experiment/fgd_report.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "gpushare/report/text_table.h"

namespace gpushare {
namespace {

struct Spread {
  double mean = 0;
  double sd = 0;
  double min = 0;
  double max = 0;
};

Spread SpreadOf(const std::vector<double>& v) {
  Spread s;
  if (v.empty()) return s;
  double sum = 0;
  for (const double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  double sq = 0;
  for (const double x : v) sq += (x - s.mean) * (x - s.mean);
  s.sd = v.size() > 1 ? std::sqrt(sq / static_cast<double>(v.size() - 1)) : 0;
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  return s;
}

// Per measure, the values over the seeds of `policy` at `arrived_pct`.
struct PointValues {
  std::vector<double> unallocated, frag_amount, frag_ratio;
  std::vector<double> failed;
};

PointValues ValuesAt(FgdPolicy policy, int arrived_pct,
                     const std::vector<FgdRunResult>& runs) {
  PointValues v;
  for (const FgdRunResult& run : runs) {
    if (run.policy != policy) continue;
    v.failed.push_back(static_cast<double>(run.failed));
    const FgdBucket* b = run.At(arrived_pct);
    if (b == nullptr) continue;
    v.unallocated.push_back(100.0 - b->alloc_pct);
    v.frag_amount.push_back(b->frag_amount_pct);
    v.frag_ratio.push_back(b->frag_ratio_pct);
  }
  return v;
}

std::string MeanSd(const Spread& s) {
  return fmt::format("{:.2f} ± {:.2f}", s.mean, s.sd);
}

}  // namespace

std::string FgdRunFileName(const FgdRunResult& run) {
  return fmt::format("{}_seed{}.csv", FgdPolicyName(run.policy), run.seed);
}

std::string FgdRunCsv(const FgdRunResult& run) {
  std::string out =
      "arrived_pct,records,gpu_alloc_pct,gpu_unallocated_pct,frag_amount_pct,"
      "frag_ratio_pct\n";
  for (const FgdBucket& b : run.buckets) {
    out += fmt::format("{},{},{:.6f},{:.6f},{:.6f},{:.6f}\n", b.arrived_pct,
                       b.records, b.alloc_pct, 100.0 - b.alloc_pct,
                       b.frag_amount_pct, b.frag_ratio_pct);
  }
  return out;
}

std::string FgdSummaryCsv(const std::vector<FgdPolicy>& policies,
                          const std::vector<FgdRunResult>& runs) {
  std::string out =
      "policy,arrived_pct,seeds,"
      "unallocated_mean,unallocated_sd,unallocated_min,unallocated_max,"
      "frag_amount_mean,frag_amount_sd,frag_amount_min,frag_amount_max,"
      "frag_ratio_mean,frag_ratio_sd,frag_ratio_min,frag_ratio_max\n";
  for (const FgdPolicy policy : policies) {
    for (const int point : kFgdSummaryPoints) {
      const PointValues v = ValuesAt(policy, point, runs);
      out += fmt::format("{},{},{}", FgdPolicyName(policy), point,
                         v.unallocated.size());
      for (const auto* values : {&v.unallocated, &v.frag_amount, &v.frag_ratio}) {
        const Spread s = SpreadOf(*values);
        out += fmt::format(",{:.6f},{:.6f},{:.6f},{:.6f}", s.mean, s.sd, s.min,
                           s.max);
      }
      out += "\n";
    }
  }
  return out;
}

std::string FgdSummaryTable(const std::vector<FgdPolicy>& policies,
                            const std::vector<FgdRunResult>& runs) {
  TextTable table;
  table.AddColumn("POLICY");
  table.AddColumn("SEEDS", TextTable::Align::kRight);
  table.AddColumn("UNALLOC% @100", TextTable::Align::kRight);
  table.AddColumn("FRAG% @100", TextTable::Align::kRight);
  table.AddColumn("UNALLOC% @130", TextTable::Align::kRight);
  table.AddColumn("FRAG% @130", TextTable::Align::kRight);
  table.AddColumn("FAILED PODS", TextTable::Align::kRight);
  for (const FgdPolicy policy : policies) {
    const PointValues at100 = ValuesAt(policy, 100, runs);
    const PointValues at130 = ValuesAt(policy, 130, runs);
    table.AddRow({std::string(FgdPolicyPluginName(policy)),
                  std::to_string(at100.failed.size()),
                  MeanSd(SpreadOf(at100.unallocated)),
                  MeanSd(SpreadOf(at100.frag_amount)),
                  MeanSd(SpreadOf(at130.unallocated)),
                  MeanSd(SpreadOf(at130.frag_amount)),
                  fmt::format("{:.1f}", SpreadOf(at100.failed).mean)});
  }
  return table.Render();
}

}  // namespace gpushare
