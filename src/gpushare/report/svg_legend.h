// The legend of an SVG chart: a colour swatch and a name per entry, laid
// out left to right and wrapped into rows.
//
// Contract: LayOutLegend() places the items in rows no wider than `width`
// pixels (text measured at about 6.5 px a character) and says how tall the
// legend is; RenderLegend() draws it at (x, y) (y: the first row's
// baseline), names escaped. Dashed items get a dashed swatch.

#ifndef GPUSHARE_REPORT_SVG_LEGEND_H_
#define GPUSHARE_REPORT_SVG_LEGEND_H_

#include <string>
#include <vector>

namespace gpushare {

struct LegendItem {
  std::string name;
  int color = 0;
  bool dashed = false;
};

struct LegendLayout {
  std::vector<double> x;  // per item, from the legend's left
  std::vector<int> row;
  double height = 0;      // rows x row height
};

LegendLayout LayOutLegend(const std::vector<LegendItem>& items, double width);
std::string RenderLegend(const std::vector<LegendItem>& items,
                         const LegendLayout& layout, double x, double y);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_SVG_LEGEND_H_
