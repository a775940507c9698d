// The plain-words summary of a fidelity check (metrics/metrics_fidelity.h)
// that heads the "today's replay" section of the compare and plan HTML
// pages (docs/output.md "HTML reports"): how well the replay of today's
// cluster matched what dcgm-exporter recorded, for a reader who does not
// read the error table below it.
//
// Contract: FidelitySummaryHtml() is "" when no pool row has compared
// points. Otherwise one lead paragraph (data-fidelity-summary) with the
// verdict — every compared pool within the limits, or which are not and
// what that means for the answers — and the limits (FlagFidelity's
// warn_points; no verdict when the check was not judged, warn_points < 0),
// then a list with one item per compared pool row (data-fidelity-pool=NAME,
// data-verdict "close", "off" or "" when not judged): how busy its GPUs
// were in the replay against the recording (GPU util %, one decimal), how
// much of their compute was active (SM active as %, one decimal) and the
// memory used (MiB, whole), each only where points were compared.
// Deterministic; every name HTML-escaped.

#ifndef GPUSHARE_REPORT_FIDELITY_SUMMARY_H_
#define GPUSHARE_REPORT_FIDELITY_SUMMARY_H_

#include <string>

#include "gpushare/metrics/metrics_fidelity.h"

namespace gpushare {

std::string FidelitySummaryHtml(const MetricsFidelity& fidelity);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_FIDELITY_SUMMARY_H_
