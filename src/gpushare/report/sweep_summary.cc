#include "gpushare/report/sweep_summary.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>

#include "gpushare/io/csv_field.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

using nlohmann::json;

// The cluster-wide metrics (ClassMetrics of the whole cluster) and the
// variant's own figures, in column order.
constexpr const char* kClusterColumns[] = {
    "pods",        "served",     "failed",        "cannot_run",
    "pending",     "oom_kills",  "fault_kills",   "preempted",
    "mean_wait_s", "p99_wait_s", "mean_slowdown", "slo_attainment",
    "performance", "gpu_hours",  "cost",          "cost_per_served_pod"};
constexpr const char* kVariantColumns[] = {
    "cluster_cost",  "goodput", "mean_allocation", "mean_sm_active",
    "mean_gpu_util", "end_s",   "faults"};
constexpr const char* kClassColumns[] = {"pods",
                                         "served",
                                         "failed",
                                         "cannot_run",
                                         "pending",
                                         "oom_kills",
                                         "fault_kills",
                                         "preempted",
                                         "mean_wait_s",
                                         "p99_wait_s",
                                         "mean_slowdown",
                                         "mean_p99_ms",
                                         "slo_attainment",
                                         "performance",
                                         "gpu_hours",
                                         "cost",
                                         "cost_per_served_pod"};

std::string Cell(const json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return CsvField(value.get<std::string>());
  return value.dump();
}

std::string Header(const SweepPointFile& first) {
  std::string out = "point";
  for (const std::string& k : first.keys) out += "," + CsvField(k);
  return out + ",variant,scheme";
}

std::string Lead(const SweepPointFile& f, const json& point) {
  std::string out = std::to_string(f.point);
  for (const json& v : point.at("values")) out += "," + Cell(v);
  return out;
}

// The file's JSON: kept, or read again (and checked to be the same point).
json PointJson(const SweepPointFile& f) {
  if (!f.json.is_null()) return f.json;
  SweepPointFile again = ReadSweepPointFile(f.path);
  if (again.digest != f.digest || again.point != f.point) {
    throw InputError(f.path + ": changed while the sweep's tables were made");
  }
  return std::move(again.json);
}

// Calls visit(file, point, variant, variant name, winners) for every
// variant of every point, in order.
void ForEachVariant(
    const std::vector<SweepPointFile>& points,
    const std::function<void(const SweepPointFile&, const json&, const json&,
                             const std::string&, const json&)>& visit) {
  for (const SweepPointFile& f : points) {
    const json point = PointJson(f);
    const json& winners =
        point.contains("winners") ? point.at("winners") : json::object();
    for (const json& v : point.at("variants")) {
      visit(f, point, v, v.at("name").get<std::string>(), winners);
    }
  }
}

// Whether `winners` names `variant` for tenant class `c`.
bool Wins(const json& winners, const std::string& c,
          const std::string& variant) {
  return winners.contains(c) && winners.at(c).is_string() &&
         winners.at(c).get<std::string>() == variant;
}

}  // namespace

std::vector<SweepPointFile> CompleteSweep(std::vector<SweepPointFile> files) {
  if (files.empty()) throw InputError("no sweep point files to join");
  std::stable_sort(files.begin(), files.end(),
                   [](const SweepPointFile& a, const SweepPointFile& b) {
                     return a.point < b.point;
                   });
  const SweepPointFile& first = files.front();
  for (const SweepPointFile& f : files) {
    if (f.digest != first.digest || f.points != first.points ||
        f.keys != first.keys || f.command != first.command) {
      throw InputError(fmt::format(
          "{} and {} come from different sweeps (digests {} and {}): join "
          "only the shards of one grid over one scenario",
          first.path, f.path, first.digest, f.digest));
    }
  }
  for (size_t i = 1; i < files.size(); ++i) {
    if (files[i].point == files[i - 1].point) {
      throw InputError(fmt::format("point {} is there twice: {} and {}",
                                   files[i].point, files[i - 1].path,
                                   files[i].path));
    }
  }
  if (static_cast<int64_t>(files.size()) != first.points) {
    std::vector<int64_t> missing;
    size_t next = 0;
    for (int64_t p = 0; p < first.points && missing.size() < 10; ++p) {
      if (next < files.size() && files[next].point == p) {
        ++next;
      } else {
        missing.push_back(p);
      }
    }
    throw InputError(fmt::format(
        "the sweep has {} points, {} are here; missing points {}{} (run "
        "their shards, or sweep again with the same --out to resume)",
        first.points, files.size(), fmt::join(missing, ", "),
        first.points - static_cast<int64_t>(files.size()) >
                static_cast<int64_t>(missing.size())
            ? ", ..."
            : ""));
  }
  return files;
}

std::string SweepSummaryCsv(const std::vector<SweepPointFile>& points) {
  std::string out = Header(points.front());
  for (const char* c : kClusterColumns) out += std::string(",") + c;
  for (const char* c : kVariantColumns) out += std::string(",") + c;
  out += ",wins\n";
  ForEachVariant(points, [&](const SweepPointFile& f, const json& point,
                             const json& v, const std::string& name,
                             const json& winners) {
    out += Lead(f, point) + "," + CsvField(name) + "," + Cell(v.at("scheme"));
    for (const char* c : kClusterColumns) {
      out += "," + Cell(v.at("cluster").at(c));
    }
    for (const char* c : kVariantColumns) out += "," + Cell(v.at(c));
    std::string wins;
    for (const json& c : point.at("tenant_classes")) {
      if (Wins(winners, c.get<std::string>(), name)) {
        wins += (wins.empty() ? "" : ";") + c.get<std::string>();
      }
    }
    out += "," + CsvField(wins) + "\n";
  });
  return out;
}

std::string SweepClassesCsv(const std::vector<SweepPointFile>& points) {
  std::string out = Header(points.front()) + ",tenant_class,class_scheme";
  for (const char* c : kClassColumns) out += std::string(",") + c;
  out += ",winner\n";
  ForEachVariant(
      points, [&](const SweepPointFile& f, const json& point, const json& v,
                  const std::string& name, const json& winners) {
        for (const json& c : point.at("tenant_classes")) {
          const std::string cls = c.get<std::string>();
          const json& m = v.at("classes").at(cls);
          out += Lead(f, point) + "," + CsvField(name) + "," +
                 Cell(v.at("scheme")) + "," + CsvField(cls) + "," +
                 Cell(m.contains("scheme") ? m.at("scheme") : v.at("scheme"));
          for (const char* k : kClassColumns) out += "," + Cell(m.at(k));
          // Empty for `run` sweeps, which select nothing.
          const char* won = !point.contains("winners") ? ""
                            : Wins(winners, cls, name) ? "1"
                                                       : "0";
          out += std::string(",") + won + "\n";
        }
      });
  return out;
}

std::string SweepPoolsCsv(const std::vector<SweepPointFile>& points) {
  std::string out = "point";
  for (const std::string& k : points.front().keys) out += "," + CsvField(k);
  out += ",pool,written,scheme,conflict,pods,pods_ok,score\n";
  for (const SweepPointFile& f : points) {
    const json point = PointJson(f);
    if (!point.contains("pool_plan")) {
      throw InputError(f.path + ": no pool_plan (not a compare sweep point)");
    }
    for (const json& p : point.at("pool_plan").at("pools")) {
      // A pool no pod is routed to keeps its written scheme.
      const json& scheme =
          p.at("variant").is_null() ? p.at("written") : p.at("variant");
      out += Lead(f, point) + "," + Cell(p.at("pool")) + "," +
             Cell(p.at("written")) + "," + Cell(scheme) + "," +
             (p.at("conflict").get<bool>() ? "1" : "0") + "," +
             Cell(p.at("pods")) + "," + Cell(p.at("pods_ok")) + "," +
             Cell(p.at("score")) + "\n";
    }
  }
  return out;
}

}  // namespace gpushare
