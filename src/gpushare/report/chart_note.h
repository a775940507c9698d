// What a report writes in place of a chart that would have no data.
//
// Contract: NoChartNote() is one paragraph, <p class="no-chart"
// data-no-chart="ID">TEXT</p>, with ID and TEXT escaped: the one-line
// reason the chart ID is not drawn (a metric zero or absent in every run,
// a pool without samples), so that a page never shows an empty chart and
// tools and tests can tell which chart was left out. The no-chart class
// (report/html_page.cc) spans a whole row of a .charts container.
// Deterministic.

#ifndef GPUSHARE_REPORT_CHART_NOTE_H_
#define GPUSHARE_REPORT_CHART_NOTE_H_

#include <string>

namespace gpushare {

std::string NoChartNote(const std::string& id, const std::string& text);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_CHART_NOTE_H_
