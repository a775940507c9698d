#include "gpushare/metrics/openmetrics_text.h"

#include <cmath>

#include <fmt/format.h>

#include "gpushare/io/check.h"

namespace gpushare {
namespace {

bool ValidName(std::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       c == '_' || c == ':';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::string EscapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string EscapeHelp(std::string_view help) {
  std::string out;
  for (char c : help) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string FormatLabels(const LabelList& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (size_t i = 0; i < labels.size(); ++i) {
    GS_CHECK(ValidName(labels[i].first) && labels[i].first.find(':') ==
                                               std::string_view::npos,
             "invalid OpenMetrics label name");
    if (i > 0) out += ',';
    out += labels[i].first;
    out += "=\"";
    out += EscapeLabelValue(labels[i].second);
    out += '"';
  }
  return out + "}";
}

std::string FormatSampleValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", value);
}

std::string FormatTimestamp(int64_t unix_ms) {
  const int64_t seconds = unix_ms / 1000;
  int64_t ms = unix_ms % 1000;
  if (ms == 0) return fmt::format("{}", seconds);
  std::string frac = fmt::format("{:03}", ms);
  while (frac.back() == '0') frac.pop_back();
  return fmt::format("{}.{}", seconds, frac);
}

OpenMetricsText::OpenMetricsText(int64_t start_unix_s)
    : start_ms_(start_unix_s * 1000) {}

void OpenMetricsText::BeginFamily(std::string_view name, MetricType type,
                                  std::string_view unit,
                                  std::string_view help) {
  GS_CHECK(!finished_, "OpenMetrics family after # EOF");
  GS_CHECK(ValidName(name), "invalid OpenMetrics metric name");
  GS_CHECK(used_.insert(std::string(name)).second,
           "OpenMetrics family written twice");
  GS_CHECK(unit.empty() || EndsWith(name, fmt::format("_{}", unit)),
           "OpenMetrics unit is not the name's suffix");
  const char* type_name = type == MetricType::kCounter ? "counter" : "gauge";
  text_ += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, EscapeHelp(help),
                       name, type_name);
  if (!unit.empty()) text_ += fmt::format("# UNIT {} {}\n", name, unit);
  family_ = std::string(name);
  if (type == MetricType::kCounter) family_ += "_total";
}

void OpenMetricsText::Sample(const std::string& labels, double value,
                             double time_s) {
  GS_CHECK(!family_.empty() && !finished_, "OpenMetrics sample outside a family");
  GS_CHECK(time_s >= 0, "OpenMetrics sample before the start");
  const int64_t ms = start_ms_ + std::llround(time_s * 1000);
  text_ += family_;
  text_ += labels;
  text_ += ' ';
  text_ += FormatSampleValue(value);
  text_ += ' ';
  text_ += FormatTimestamp(ms);
  text_ += '\n';
}

std::string OpenMetricsText::Finish() {
  GS_CHECK(!finished_, "OpenMetrics exposition finished twice");
  finished_ = true;
  text_ += "# EOF\n";
  return std::move(text_);
}

}  // namespace gpushare
