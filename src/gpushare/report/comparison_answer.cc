#include "gpushare/report/comparison_answer.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

#include "gpushare/decide/class_metrics.h"
#include "gpushare/decide/scheme_variant.h"
#include "gpushare/report/comparison_report.h"
#include "gpushare/report/eviction_warnings.h"
#include "gpushare/report/text_table.h"
#include "gpushare/report/units.h"

namespace gpushare {
namespace {

// "prod-inference -> MIG (9.8/10)", or why no scheme wins.
std::string AnswerLine(const ClassChoice& c) {
  if (!c.no_scheme.empty() || c.ranking.empty()) {
    return fmt::format("  {} -> {}", c.tenant_class, c.Recommendation());
  }
  if (!c.has_winner()) {
    // The explanation says why and which scheme came closest.
    std::string why = c.explanation;
    const std::string prefix = c.tenant_class + ": ";
    if (why.rfind(prefix, 0) == 0) why = why.substr(prefix.size());
    return fmt::format("  {} -> {}", c.tenant_class, why);
  }
  return fmt::format("  {} -> {} ({:.1f}/10)", c.tenant_class,
                     c.Recommendation(), c.ranking.front().total);
}

std::string Answers(const Selection& s) {
  std::string out =
      "Answer per tenant class (the best scheme that serves it well, 0-10):\n";
  for (const ClassChoice& c : s.classes) {
    out += WrapText(AnswerLine(c), kReportWidth, 4);
    for (const std::string& caveat : c.caveats) {
      out += WrapText("    caveat: " + caveat + ".", kReportWidth, 6);
    }
  }
  return out;
}

// A score cell: "9.8" served well, "(8.0)" served poorly (cannot win), "-"
// serves none of the class's pods; "*" marks the class's answer.
std::string ScoreCell(const SchemeScore& x, bool answer) {
  const std::string total = fmt::format("{:.1f}", x.total);
  if (!x.serves) return "-";
  return (x.served_well ? total : "(" + total + ")") + (answer ? "*" : "");
}

std::string ScoreTable(const Comparison& c, const Selection& s) {
  // The single-scheme variants in comparison order, then the pool plan.
  std::vector<std::string> variants;
  for (const VariantOutcome& v : c.variants) {
    if (!v.plan && !v.pool_plan) variants.push_back(v.name);
  }
  TextTable t;
  t.AddColumn("CLASS");
  t.AddColumn("PODS", TextTable::Align::kRight);
  for (const std::string& v : variants) {
    t.AddColumn(ShortSchemeName(v), TextTable::Align::kRight);
  }
  const bool pool_plan =
      std::any_of(s.classes.begin(), s.classes.end(),
                  [](const ClassChoice& k) { return k.has_pool_plan; });
  if (pool_plan) t.AddColumn("POOL PLAN", TextTable::Align::kRight);
  for (size_t k = 0; k < s.classes.size(); ++k) {
    const ClassChoice& choice = s.classes[k];
    std::map<std::string, const SchemeScore*> by_variant;
    for (const SchemeScore& x : choice.ranking) by_variant[x.variant] = &x;
    const int64_t pods = k < c.variants.front().classes.size()
                             ? c.variants.front().classes[k].pods
                             : 0;
    std::vector<std::string> row = {choice.tenant_class, std::to_string(pods)};
    for (const std::string& v : variants) {
      const auto it = by_variant.find(v);
      row.push_back(it == by_variant.end()
                        ? "-"
                        : ScoreCell(*it->second,
                                    choice.has_winner() &&
                                        choice.ranking.front().variant == v));
    }
    if (pool_plan) {
      row.push_back(choice.has_pool_plan ? ScoreCell(choice.pool_plan, false)
                                         : "");
    }
    t.AddRow(std::move(row));
  }
  return "Scores per tenant class and scheme (0-10, each scheme on the same "
         "nodes):\n" +
         t.Render() +
         WrapText(
             "(x.x) does not serve the class well, so it cannot win; - "
             "serves none of its pods; * the class's answer",
             kReportWidth, 0);
}

// The run whose per-class rows show the pool plan: the pool plan's own run,
// else the variant every pool got; nullptr when there is none.
const VariantOutcome* PoolPlanRun(const Comparison& c, const Selection& s) {
  if (!s.has_pool_plan) return nullptr;
  for (const VariantOutcome& v : c.variants) {
    if (s.pool_plan.same_as.empty() ? v.pool_plan
                                    : v.name == s.pool_plan.same_as) {
      return &v;
    }
  }
  return nullptr;
}

std::string UnderPoolPlan(const Comparison& c, const Selection& s) {
  const VariantOutcome* run = PoolPlanRun(c, s);
  if (run == nullptr) return "";
  TextTable t;
  t.AddColumn("CLASS");
  t.AddColumn("SCHEME");
  t.AddColumn("SERVED", TextTable::Align::kRight);
  t.AddColumn("WAIT", TextTable::Align::kRight);
  t.AddColumn("P99/SLO", TextTable::Align::kRight);
  t.AddColumn("OOM/EV", TextTable::Align::kRight);
  t.AddColumn("FAIL", TextTable::Align::kRight);
  t.AddColumn("$/POD", TextTable::Align::kRight);
  for (size_t k = 0; k < run->classes.size(); ++k) {
    const ClassMetrics& m = run->classes[k];
    // A class offered no scheme (no GPU) runs under none.
    const bool gpu = k >= s.classes.size() || s.classes[k].no_scheme.empty();
    const std::string scheme =
        !gpu ? "-"
        : k < run->class_schemes.size() && !run->class_schemes[k].empty()
            ? ShortSchemeName(run->class_schemes[k])
            : ShortSchemeName(run->name);
    t.AddRow({c.tenant_classes[k], scheme,
              fmt::format("{}/{}", m.served, m.pods),
              FormatSeconds(m.started > 0 ? m.mean_wait_s : -1),
              FormatP99VsSlo(m.mean_p99_ms, m.mean_slo_p99_ms, "/"),
              fmt::format("{}/{}", m.oom_kills, m.preemptions),
              std::to_string(m.failed + m.cannot_run),
              m.served > 0 ? FormatMoney(m.cost_per_served_pod) : "-"});
  }
  return "\nEach class under the pool plan (what to apply on today's "
         "nodes):\n" +
         t.Render() +
         WrapText(
             "WAIT mean queue wait; P99/SLO p99 and SLO (ms); OOM/EV OOM kills "
             "/ evictions; "
             "FAIL gave up or cannot run; $/POD per served pod",
             kReportWidth, 0);
}

}  // namespace

std::string DetailsPointer(const Comparison& c) {
  size_t warnings = 0;
  // The runs' own warnings (an engine that cannot start under a scheme's
  // grant, ...), printed among the runs' notes with --details.
  for (const VariantOutcome& v : c.variants) {
    for (const std::string& note : v.notes) {
      warnings += note.starts_with("warning:");
    }
  }
  for (size_t k = 0; k < c.tenant_classes.size(); ++k) {
    warnings += ClassEvictionWarnings(c, k).size();
    for (const VariantOutcome& v : c.variants) {
      if (k < v.classes.size() && IsQuotaBound(v.classes[k])) {
        ++warnings;
        break;
      }
    }
  }
  return WrapText(
      fmt::format("More (every run, per-scheme tables, why each scheme "
                  "won{}): add --details",
                  warnings == 0 ? std::string()
                                : fmt::format(", {} warning{}", warnings,
                                              warnings == 1 ? "" : "s")),
      kReportWidth, 2);
}

std::string ComparisonAnswer(const Comparison& comparison,
                             const Selection& selection, double wall_s) {
  return ComparisonHeading(comparison, wall_s) + Answers(selection) +
         PoolPlanText(comparison, selection) + "\n" +
         ScoreTable(comparison, selection) +
         UnderPoolPlan(comparison, selection);
}

}  // namespace gpushare
