#include "gpushare/report/chart_note.h"

#include "gpushare/report/html_page.h"

namespace gpushare {

std::string NoChartNote(const std::string& id, const std::string& text) {
  return "<p class=\"no-chart\" data-no-chart=\"" + HtmlEscape(id) + "\">" +
         HtmlEscape(text) + "</p>\n";
}

}  // namespace gpushare
