// The skeleton of a self-contained HTML report, and HTML escaping.
//
// Contract: HtmlEscape() replaces & < > " ' by entities, so any text (pod,
// pool, class names) can go into element content or a quoted attribute.
// HtmlTable() is a <table> of escaped cells (numeric-looking cells right
// aligned). HtmlPage collects a title and body fragments (trusted HTML the
// report built, every user string already escaped) and Render() gives one
// file: doctype, charset, the title, one inline <style>, the body; no
// scripts, no external resource (hover text comes from SVG <title>
// elements). Rendering is deterministic: equal inputs, equal bytes.

#ifndef GPUSHARE_REPORT_HTML_PAGE_H_
#define GPUSHARE_REPORT_HTML_PAGE_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpushare {

std::string HtmlEscape(std::string_view text);

// `header` and each row are plain text (escaped here); rows shorter than
// the header are padded with empty cells.
std::string HtmlTable(const std::vector<std::string>& header,
                      const std::vector<std::vector<std::string>>& rows);

class HtmlPage {
 public:
  explicit HtmlPage(std::string title);

  // A section heading (<h2>, with an id for links) of plain text.
  void AddHeading(std::string_view text, std::string_view id);
  // A paragraph of plain text.
  void AddParagraph(std::string_view text);
  // A fragment of trusted HTML (tables, SVG charts).
  void AddHtml(std::string html);

  std::string Render() const;

 private:
  std::string title_;
  std::string body_;
};

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_HTML_PAGE_H_
