#include "gpushare/report/html_page.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

TEST(HtmlEscapeTest, EscapesMarkupAndQuotes) {
  EXPECT_EQ(HtmlEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(HtmlEscape("plain-name_1"), "plain-name_1");
}

TEST(HtmlTableTest, EscapesCellsAndAlignsNumbers) {
  const std::string t =
      HtmlTable({"pod", "wait"}, {{"<script>", "1.5s"}, {"short"}});
  EXPECT_NE(t.find("<td>&lt;script&gt;</td><td class=\"n\">1.5s</td>"),
            std::string::npos);
  EXPECT_NE(t.find("<td>short</td><td></td>"), std::string::npos);
  EXPECT_EQ(t.find("<script>"), std::string::npos);
}

TEST(HtmlPageTest, SelfContainedAndDeterministic) {
  HtmlPage page("run <x>");
  page.AddHeading("A & B", "a");
  page.AddParagraph("it's");
  const std::string html = page.Render();
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<title>run &lt;x&gt;</title>"), std::string::npos);
  EXPECT_NE(html.find("<h2 id=\"a\">A &amp; B</h2>"), std::string::npos);
  EXPECT_NE(html.find("<p>it&#39;s</p>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("://"), std::string::npos);  // nothing external
  EXPECT_EQ(html, page.Render());
}

}  // namespace
}  // namespace gpushare
