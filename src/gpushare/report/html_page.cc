#include "gpushare/report/html_page.h"

#include <algorithm>
#include <cctype>

namespace gpushare {
namespace {

constexpr const char* kStyle = R"(
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;
color:#222;max-width:1200px}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}
h3{font-size:15px;margin-bottom:4px}
table{border-collapse:collapse;margin:8px 0}
th,td{padding:2px 8px;border-bottom:1px solid #e4e4e4;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
th{background:#f4f4f4}
.charts{display:flex;flex-wrap:wrap;gap:0 16px}
pre{background:#f8f8f8;padding:8px;overflow-x:auto}
.note{color:#555}
.no-chart{color:#555;flex-basis:100%;margin:4px 0}
svg{display:block;margin:8px 0;font-size:11px}
svg text{fill:#333}
svg .axis{stroke:#888;stroke-width:1}
svg .grid{stroke:#e8e8e8;stroke-width:1}
svg .title{font-size:13px;font-weight:600}
)";

bool LooksNumeric(const std::string& cell) {
  if (cell.empty()) return false;
  const char c = cell[0];
  return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+';
}

}  // namespace

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string HtmlTable(const std::vector<std::string>& header,
                      const std::vector<std::vector<std::string>>& rows) {
  std::string out = "<table><thead><tr>";
  for (const std::string& h : header) out += "<th>" + HtmlEscape(h) + "</th>";
  out += "</tr></thead><tbody>\n";
  for (const auto& row : rows) {
    out += "<tr>";
    for (size_t i = 0; i < std::max(header.size(), row.size()); ++i) {
      const std::string cell = i < row.size() ? row[i] : "";
      out += (i > 0 && LooksNumeric(cell)) ? "<td class=\"n\">" : "<td>";
      out += HtmlEscape(cell) + "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody></table>\n";
  return out;
}

HtmlPage::HtmlPage(std::string title) : title_(std::move(title)) {}

void HtmlPage::AddHeading(std::string_view text, std::string_view id) {
  body_ += "<h2 id=\"" + HtmlEscape(id) + "\">" + HtmlEscape(text) + "</h2>\n";
}

void HtmlPage::AddParagraph(std::string_view text) {
  body_ += "<p>" + HtmlEscape(text) + "</p>\n";
}

void HtmlPage::AddHtml(std::string html) { body_ += std::move(html); }

std::string HtmlPage::Render() const {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width\">\n<title>" +
         HtmlEscape(title_) + "</title>\n<style>" + kStyle +
         "</style>\n</head>\n<body>\n<h1>" + HtmlEscape(title_) + "</h1>\n" +
         body_ + "</body>\n</html>\n";
}

}  // namespace gpushare
