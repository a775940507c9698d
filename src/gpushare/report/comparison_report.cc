#include "gpushare/report/comparison_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "gpushare/decide/scheme_variant.h"
#include "gpushare/report/eviction_warnings.h"
#include "gpushare/report/pool_plan_text.h"
#include "gpushare/report/text_table.h"
#include "gpushare/report/units.h"

namespace gpushare {
namespace {

std::string VariantLabel(const VariantOutcome& v) {
  return VariantDisplayName(v.name);
}

std::string ShortScheme(const std::string& scheme) {
  return ShortSchemeName(scheme);
}

std::string P99VsSlo(const ClassMetrics& m) {
  return FormatP99VsSlo(m.mean_p99_ms, m.mean_slo_p99_ms, "/");
}

std::string Runs(const Comparison& c) {
  std::string out = "Runs (each on the same pods and nodes):\n";
  for (const VariantOutcome& v : c.variants) {
    std::string pools;
    for (const std::string& p : v.pools) {
      pools += (pools.empty() ? "" : "; ") + p;
    }
    out += WrapText(fmt::format("  {}: {}", VariantLabel(v), pools),
                    kReportWidth, 4);
    for (const std::string& note : v.notes) {
      out += WrapText("    note: " + note, kReportWidth, 6);
    }
  }
  if (!c.mig_choices.empty()) {
    out += WrapText(
        fmt::format("  MIG layouts: each pool's best family on {} ({} pods) "
                    "by mean performance of the pods sent to it:",
                    c.mig_pilot ? "a scaled-down pilot" : "the whole workload",
                    c.mig_pilot_pods),
        kReportWidth, 4);
    for (const MigPoolChoice& m : c.mig_choices) {
      std::string tried;
      for (const MigCandidate& k : m.candidates) {
        tried += fmt::format("{}{} {:.3f}", tried.empty() ? "" : ", ", k.family,
                             k.performance);
      }
      out += WrapText(fmt::format("    {}: {} ({})", m.pool, m.config, tried),
                      kReportWidth, 6);
    }
  }
  return out;
}

// What the cluster-wide columns are, COST $ above all: the bill of the
// cluster as written is the same under every scheme.
std::string ClusterTableLegend() {
  return "SERVED pods served / pods; WAIT mean queue wait; SLO MET share of "
         "latency samples within their SLO; ALLOC GPUs allocated, share of "
         "the cluster's; SM ACT DCGM_FI_PROF_SM_ACTIVE; UTIL "
         "DCGM_FI_DEV_GPU_UTIL; BLAST the most pods one GPU fault hit; COST $ "
         "the bill of today's cluster (every GPU at its price for the "
         "whole run), the same under every scheme that keeps the GPUs: a "
         "scheme saves only by serving the same pods on fewer GPUs, which "
         "`plan` answers (how many GPUs could I save)";
}

std::string ClusterTable(const Comparison& c) {
  TextTable t;
  t.AddColumn("SCHEME");
  t.AddColumn("SERVED", TextTable::Align::kRight);
  t.AddColumn("WAIT", TextTable::Align::kRight);
  t.AddColumn("SLO MET", TextTable::Align::kRight);
  t.AddColumn("ALLOC", TextTable::Align::kRight);
  t.AddColumn("SM ACT", TextTable::Align::kRight);
  t.AddColumn("UTIL", TextTable::Align::kRight);
  t.AddColumn("BLAST", TextTable::Align::kRight);
  t.AddColumn("COST $", TextTable::Align::kRight);
  for (const VariantOutcome& v : c.variants) {
    const ClassMetrics& m = v.cluster;
    t.AddRow({VariantLabel(v), fmt::format("{}/{}", m.served, m.pods),
              FormatSeconds(m.started > 0 ? m.mean_wait_s : -1),
              FormatPercent(m.slo_attainment), FormatPercent(v.mean_allocation),
              FormatPercent(v.mean_sm_active), FormatPercent(v.mean_gpu_util),
              v.faults > 0 ? FormatMeanCount(v.max_blast_radius) : "-",
              FormatMoney(v.cluster_cost)});
  }
  std::string alerts;
  for (const VariantOutcome& v : c.variants) {
    if (!v.alerts.empty()) {
      alerts += (alerts.empty() ? "" : "; ") + VariantLabel(v) + ": " +
                FormatAlertCounts(v.alerts);
    }
  }
  return "Cluster-wide (SM ACT against UTIL: a busy-looking GPU can be idle "
         "inside)\n" +
         t.Render() +
         (alerts.empty() ? ""
                         : WrapText("Patrol alerts fired: " + alerts + ".",
                                    kReportWidth, 2)) +
         WrapText(ClusterTableLegend(), kReportWidth, 0);
}

std::string ClassTable(const Comparison& c, size_t k) {
  // The admission part of the wait, when some run queued the class's pods.
  bool queued = false;
  for (const VariantOutcome& v : c.variants) {
    queued = queued || v.classes[k].queued > 0;
  }
  TextTable t;
  t.AddColumn("SCHEME");
  t.AddColumn("SERVED", TextTable::Align::kRight);
  t.AddColumn("WAIT", TextTable::Align::kRight);
  if (queued) t.AddColumn("ADMIT", TextTable::Align::kRight);
  t.AddColumn("SLOWDN", TextTable::Align::kRight);
  t.AddColumn("P99/SLO", TextTable::Align::kRight);
  t.AddColumn("SLO MET", TextTable::Align::kRight);
  t.AddColumn("OOM/EV", TextTable::Align::kRight);
  t.AddColumn("FAIL", TextTable::Align::kRight);
  t.AddColumn("$/POD", TextTable::Align::kRight);
  std::string bound;
  for (const VariantOutcome& v : c.variants) {
    const ClassMetrics& m = v.classes[k];
    std::string label = VariantLabel(v);
    // The pool plan's scheme per pool is in its own section.
    if (v.plan && !v.class_schemes[k].empty()) {
      label += " (" + ShortScheme(v.class_schemes[k]) + ")";
    }
    std::vector<std::string> row = {
        label, fmt::format("{}/{}", m.served, m.pods),
        FormatSeconds(m.started > 0 ? m.mean_wait_s : -1)};
    if (queued) {
      row.push_back(
          FormatSeconds(m.started > 0 ? m.mean_admission_wait_s : -1));
    }
    row.insert(row.end(),
               {FormatSlowdown(m.mean_slowdown), P99VsSlo(m),
                FormatPercent(m.slo_attainment),
                fmt::format("{}/{}", m.oom_kills, m.preemptions),
                std::to_string(m.failed + m.cannot_run),
                m.served > 0 ? FormatMoney(m.cost_per_served_pod) : "-"});
    t.AddRow(row);
    if (IsQuotaBound(m)) bound += (bound.empty() ? "" : ", ") + VariantLabel(v);
  }
  const ClassMetrics& first = c.variants.front().classes[k];
  std::string out =
      fmt::format("Tenant class {} ({}, {} pod{})\n", c.tenant_classes[k],
                  c.workload_classes[k], first.pods,
                  first.pods == 1 ? "" : "s") +
      t.Render();
  if (queued) {
    out += WrapText("  ADMIT: the part of WAIT spent waiting in its Kueue or "
                    "KAI queue (quota, fair share) before the scheduler",
                    kReportWidth, 4);
  }
  std::string engines;
  for (const VariantOutcome& v : c.variants) {
    const ClassMetrics& m = v.classes[k];
    if (m.mean_ttft_p99_ms < 0) continue;
    engines += fmt::format("{}{} {:.0f}/{:.1f}", engines.empty() ? "" : ", ",
                           VariantLabel(v), m.mean_ttft_p99_ms,
                           m.mean_tpot_p99_ms);
  }
  if (!engines.empty()) {
    out += WrapText("  LLM engine TTFT/TPOT p99 (ms, mean worst interval): " +
                        engines,
                    kReportWidth, 4);
  }
  if (!bound.empty()) {
    out += WrapText(
        fmt::format("  warning: quota-bound under {}: most of its wait is "
                    "admission wait while its queue sat at its quota with "
                    "room for its pods on its flavor's nodes (free "
                    "replicas, MIG instances, HAMi slots or GPUs); more "
                    "nodes would not shorten it, a larger quota would.",
                    bound),
        kReportWidth, 4);
  }
  return out;
}

std::string ClassTableLegend() {
  return std::string(
             "WAIT mean queue wait; SLOWDN run time / alone on a whole GPU; "
             "P99/SLO mean worst-interval p99 and SLO (ms); SLO MET ") +
         kSloMetMeaning +
         "; "
         "OOM/EV OOM kills / evictions by priority preemption; FAIL "
         "gave up or cannot run under the scheme; $/POD cost per served pod: "
         "the pools' bills, idle GPUs included, shared by the GPU-hours each "
         "pod held, lost work included (so alike for schemes that serve the "
         "same pods on today's cluster)";
}

}  // namespace

std::string PoolPlanText(const Comparison& c, const Selection& s) {
  const PoolPlanLines lines = DescribePoolPlan(c, s);
  if (lines.empty()) return "";
  std::string out = "\n" + WrapText(lines.heading, kReportWidth, 2);
  for (const std::string& p : lines.pools) {
    out += WrapText("  " + p, kReportWidth, 4);
  }
  return out + WrapText("  => " + lines.closing, kReportWidth, 5);
}

namespace {

std::string SelectionText(const Selection& s) {
  std::string out =
      "Selection: each scheme scored 0-10 per dimension, weighted per "
      "class\n(weights: isolation/performance/compatibility/cost)\n";
  std::string plan;
  for (const ClassChoice& c : s.classes) {
    if (!c.no_scheme.empty()) {
      // Nothing scored: the sentence says why.
      out += fmt::format("\n{}: no GPU scheme\n", c.tenant_class) +
             WrapText("  => " + c.explanation, kReportWidth, 5);
      plan += fmt::format("{}{} -> {}", plan.empty() ? "" : ", ",
                          c.tenant_class, c.Recommendation());
      continue;
    }
    const double sum = c.weights.Sum();
    out += fmt::format("\n{}: profile {} ({:.2f}/{:.2f}/{:.2f}/{:.2f})\n",
                       c.tenant_class, c.profile, c.weights.isolation / sum,
                       c.weights.overhead / sum, c.weights.compatibility / sum,
                       c.weights.cost / sum);
    TextTable t;
    t.AddColumn("  RANK");
    t.AddColumn("SCHEME");
    t.AddColumn("ISOLATION", TextTable::Align::kRight);
    t.AddColumn("PERF", TextTable::Align::kRight);
    t.AddColumn("COMPAT", TextTable::Align::kRight);
    t.AddColumn("COST", TextTable::Align::kRight);
    t.AddColumn("TOTAL", TextTable::Align::kRight);
    // The range of the totals over the seeds, when there are several.
    const bool range = c.seeds > 1;
    if (range) t.AddColumn("RANGE", TextTable::Align::kRight);
    // The SLO legend only for classes whose pods have latency SLOs.
    const bool slo =
        std::any_of(c.ranking.begin(), c.ranking.end(),
                    [](const SchemeScore& x) { return x.slo_attainment >= 0; });
    t.AddColumn("SERVED", TextTable::Align::kRight);
    int rank = 0;
    auto add = [&t, range](std::string label, const SchemeScore& x,
                           std::string name) {
      std::vector<std::string> row = {std::move(label),
                                      std::move(name),
                                      FormatScore(x.scores.isolation),
                                      FormatScore(x.scores.overhead),
                                      FormatScore(x.scores.compatibility),
                                      FormatScore(x.scores.cost),
                                      fmt::format("{:.1f}", x.total)};
      if (range) {
        row.push_back(fmt::format("{:.1f}-{:.1f}", x.total_min, x.total_max));
      }
      // Samples of pods that started and were then evicted meet nothing
      // that counts when no pod was served.
      row.push_back(!x.serves ? "none" : x.served_well ? "well" : "poorly");
      t.AddRow(std::move(row));
    };
    for (const SchemeScore& x : c.ranking) {
      add(fmt::format("  {}", ++rank), x, VariantDisplayName(x.variant));
    }
    if (c.has_plan)
      add("  -", c.plan, "plan (" + ShortScheme(c.plan.scheme) + ")");
    if (c.has_pool_plan) {
      add("  -", c.pool_plan,
          "pool plan (" + ShortScheme(c.pool_plan.scheme) + ")");
    }
    out += t.Render();
    out += WrapText(
        fmt::format("  SERVED: well when the class's contract is met ({}); "
                    "a scheme that does not serve it well cannot win",
                    DescribeLimits(c.served_well, /*with_slo=*/false)),
        kReportWidth, 7);
    if (slo) {
      out += WrapText(
          fmt::format("  SLO: part of the contract, met when the class's p99 "
                      "is within its SLO in >= {} of latency samples",
                      FormatPercent(c.min_slo_attainment)),
          kReportWidth, 7);
    }
    for (const std::string& n : c.not_ranked) {
      out += WrapText("  " + n, kReportWidth, 4);
    }
    out += WrapText("  => " + c.explanation, kReportWidth, 5);
    for (const std::string& caveat : c.caveats) {
      out += WrapText("  caveat: " + caveat + ".", kReportWidth, 4);
    }
    if (!c.ranking.empty()) {
      plan += fmt::format("{}{} -> {}", plan.empty() ? "" : ", ",
                          c.tenant_class, c.Recommendation());
    }
  }
  if (!plan.empty())
    out += "\n" + WrapText("Recommended: " + plan, kReportWidth, 2);
  return out;
}

}  // namespace

std::string ShortSchemeName(const std::string& scheme) {
  if (scheme == "time-slicing") return "ts";
  if (scheme == "exclusive") return "excl";
  if (scheme == "hami") return "HAMi";
  return VariantDisplayName(scheme);
}

std::string WrapText(const std::string& text, size_t width, size_t indent) {
  std::string out;
  std::string line;
  size_t pos = 0;
  // Leading spaces of the first line are kept as they are.
  while (pos < text.size() && text[pos] == ' ') line += text[pos++];
  bool has_word = false;
  while (pos < text.size()) {
    size_t end = text.find(' ', pos);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(pos, end - pos);
    pos = end + 1;
    if (word.empty()) continue;
    if (has_word && DisplayWidth(line) + 1 + DisplayWidth(word) > width) {
      out += line + "\n";
      line = std::string(indent, ' ') + word;
      continue;
    }
    line += (has_word ? " " : "") + word;
    has_word = true;
  }
  if (has_word) out += line + "\n";
  return out;
}

std::string ComparisonHeading(const Comparison& comparison, double wall_s) {
  const size_t seeds = std::max<size_t>(1, comparison.seeds.size());
  return seeds == 1
             ? fmt::format(
                   "compare {} (seed {}): {} pods under {} runs{}\n\n",
                   comparison.scenario, comparison.seed, comparison.pods,
                   comparison.variants.size(),
                   wall_s > 0 ? fmt::format(" ({:.2f}s wall)", wall_s) : "")
             : fmt::format(
                   "compare {} (seeds {}-{}): {} pods under {} runs x {} "
                   "seeds{}\n(tables: means over the seeds; scores: mean and "
                   "range)\n\n",
                   comparison.scenario, comparison.seeds.front(),
                   comparison.seeds.back(), comparison.pods,
                   comparison.variants.size(), seeds,
                   wall_s > 0 ? fmt::format(" ({:.2f}s wall)", wall_s) : "");
}

std::string ComparisonReport(const Comparison& comparison,
                             const Selection& selection, double wall_s) {
  std::string out = ComparisonHeading(comparison, wall_s);
  out += Runs(comparison) + "\n";
  out += ClusterTable(comparison);
  out += "\n" + WrapText(ClassTableLegend(), kReportWidth, 0);
  for (size_t k = 0; k < comparison.tenant_classes.size(); ++k) {
    out += "\n" + ClassTable(comparison, k);
    for (const std::string& w : ClassEvictionWarnings(comparison, k)) {
      out += WrapText("warning: " + w, kReportWidth, 2);
    }
  }
  out += "\n" + SelectionText(selection);
  out += PoolPlanText(comparison, selection);
  return out;
}

}  // namespace gpushare
